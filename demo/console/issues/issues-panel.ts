/**
 * The issues panel beside the viewers (BCF API 3.0, docs/BCF.md): the issue boards of the
 * project whose revision is open (a new board when it has none), the board's topics with
 * filters on status, type, assignee and label (values from the board's extensions, sent
 * as an OData `$filter`), and the parts: topic-form.ts (a new issue from the 3D view),
 * topic-detail.ts (one issue), plan-markers.ts (issues on the 2D plan), bcf-files.ts
 * (import and export), custom-values.ts (a topic's custom fields) and the board's fields
 * (../settings/board-fields.ts). Its failures show in the panel's own line, the API's message
 * included, so they never hide the page's alert line.
 */
import type { Project } from '../api.js';
import { byId, el, fillSelect, messageOf } from '../dom.js';
import type { Viewers } from '../viewers.js';
import { createBoard, extensions, listBoards, listTopics, type Board, type Extensions, type Topic, type TopicFilter } from './bcf-api.js';
import { installBcfFiles } from './bcf-files.js';
import { PlanMarkers } from './plan-markers.js';
import { TopicDetail } from './topic-detail.js';
import { TopicForm } from './topic-form.js';
import type { BoardCustomFields } from './custom-values.js';
import { BoardFields } from '../settings/board-fields.js';
import { listFields, listItems, readBoard, type EnumerationItem } from '../v2-api.js';

const FILTERS: [keyof TopicFilter, keyof Extensions, string][] = [
  ['status', 'topic_status', 'any status'],
  ['type', 'topic_type', 'any type'],
  ['assignee', 'user_id_type', 'anyone'],
  ['label', 'topic_label', 'any label'],
];

export class IssuesPanel {
  private project?: Project;
  private viewers?: Viewers;
  private markers?: PlanMarkers;
  private board?: Board;
  private values?: Extensions;
  private customFields?: BoardCustomFields;
  private readonly boardFields = new BoardFields(() => this.loadCustomFields());
  private readonly boards = byId<HTMLSelectElement>('boards');
  private readonly topics = byId<HTMLUListElement>('topics');
  private readonly status = byId('issues-status');
  private readonly form: TopicForm;
  private readonly detail: TopicDetail;
  /** Each board or list load bumps it: an older answer is dropped. */
  private generation = 0;

  constructor() {
    this.form = new TopicForm(
      () => (this.board && this.viewers ? { boardId: this.board.project_id, viewer3d: this.viewers.viewer3d } : undefined),
      async (topic) => {
        this.markers?.forget(topic.guid);
        await this.loadTopics();
        await this.detail.open(topic.guid);
      },
    );
    this.detail = new TopicDetail({
      boardId: () => this.board?.project_id,
      viewer3d: () => this.viewers?.viewer3d,
      extensions: () => this.values,
      customFields: () => this.customFields,
      changed: async (topic) => {
        this.markers?.forget(topic.guid);
        await this.loadTopics();
      },
      storeyOf: (topic) => {
        const place = this.markers?.placement(topic.guid);
        return place && { id: place.storeyId, name: place.storeyName };
      },
      showStorey: (id) => void this.viewers?.showStorey(id),
    });
    installBcfFiles(() => this.board && { id: this.board.project_id, name: this.board.name }, () => this.loadTopics());
    this.boards.addEventListener('change', () => void this.act(() => this.chooseBoard(this.boards.value)));
    byId<HTMLFormElement>('new-board').addEventListener('submit', (event) => {
      event.preventDefault();
      const input = (event.target as HTMLFormElement).elements.namedItem('name') as HTMLInputElement;
      void this.act(async () => {
        const board = await createBoard(this.project!.id, input.value.trim());
        input.value = '';
        await this.loadBoards(board.project_id);
      });
    });
    for (const [key] of FILTERS) byId(`filter-${key}`).addEventListener('change', () => void this.act(() => this.loadTopics()));
  }

  /** A revision of the project is opening in the viewers (`opened` settles once both have it). */
  open(project: Project, viewers: Viewers, opened: Promise<void>): void {
    const sameProject = this.project?.id === project.id;
    this.project = project;
    if (!this.viewers) {
      this.viewers = viewers;
      this.markers = new PlanMarkers(viewers, (guid) => void this.act(() => this.detail.open(guid)));
    }
    byId('issues-project').textContent = project.name;
    byId('issues-closed').hidden = true;
    byId('issues-open').hidden = false;
    void opened.finally(() => this.markers?.modelChanged());
    if (!sameProject) void this.act(() => this.loadBoards());
  }

  /** The project's boards; the one given (or the first) is shown. */
  private async loadBoards(choose?: string): Promise<void> {
    const project = this.project!;
    const boards = await listBoards(project.id);
    if (project !== this.project) return;
    const options = boards.map((board) => {
      const option = el('option', { text: board.name });
      option.value = board.project_id;
      return option;
    });
    this.boards.replaceChildren(...options);
    this.boards.disabled = boards.length === 0;
    byId('issues-board').hidden = boards.length === 0;
    byId('no-boards').hidden = boards.length > 0;
    const chosen = boards.find((b) => b.project_id === choose) ?? boards[0];
    byId('issues-list-panel').hidden = !chosen;
    if (chosen) await this.chooseBoard(chosen.project_id, boards);
    else {
      this.board = undefined;
      byId('board-fields').hidden = true;
      this.detail.close();
      await this.markers?.show('', []);
    }
  }

  private async chooseBoard(id: string, boards?: Board[]): Promise<void> {
    const board = (boards ?? (await listBoards(this.project!.id))).find((b) => b.project_id === id);
    if (!board) throw new Error('That board is gone');
    this.board = board;
    this.boards.value = id;
    this.detail.close();
    this.values = await extensions(id);
    this.form.setExtensions(this.values);
    for (const [key, field, any] of FILTERS) fillSelect(byId<HTMLSelectElement>(`filter-${key}`), this.values[field] ?? [], any);
    await this.loadCustomFields();
    await this.loadTopics();
  }

  /** The project's fields may have changed (the settings dialog closed). */
  fieldsChanged(): void {
    if (this.board) void this.act(() => this.loadCustomFields());
  }

  /**
   * The board's custom fields (v2: `include=customFields`) and the project's, with the
   * enumeration items: for the new-topic form, the detail and the board fields.
   */
  private async loadCustomFields(): Promise<void> {
    const board = this.board;
    const project = this.project!;
    if (!board) return;
    const [topicBoard, fields] = await Promise.all([readBoard(project.id, board.project_id), listFields(project.id, 'not-archived')]);
    const enumerations = [...fields, ...(topicBoard.customFields ?? [])].filter((f) => f.type === 'enumeration');
    const items = new Map<string, EnumerationItem[]>();
    await Promise.all([...new Set(enumerations.map((f) => f.id))].map(async (id) => items.set(id, await listItems(project.id, id))));
    if (board !== this.board) return;
    this.customFields = { board: topicBoard, items };
    this.form.setCustomFields(this.customFields);
    this.boardFields.show({ projectId: project.id, board: topicBoard, fields, items });
    byId('board-fields').hidden = false;
  }

  private filter(): TopicFilter {
    return Object.fromEntries(FILTERS.map(([key]) => [key, byId<HTMLSelectElement>(`filter-${key}`).value || undefined]));
  }

  async loadTopics(): Promise<void> {
    const board = this.board;
    if (!board) return;
    const generation = ++this.generation;
    const topics = await listTopics(board.project_id, this.filter());
    if (generation !== this.generation) return;
    this.topics.replaceChildren(...topics.map((topic) => this.row(topic)));
    if (topics.length === 0) this.topics.append(el('li', { className: 'empty', text: 'No issues match.' }));
    await this.markers?.show(board.project_id, topics);
  }

  private row(topic: Topic): HTMLLIElement {
    const button = el('button', { className: 'item topic-row', title: topic.title, attrs: { type: 'button' } },
      el('span', { className: 'number', text: `#${topic.platform_issue_number}` }),
      el('span', { className: 'title', text: topic.title }),
      el('span', { className: 'status', text: topic.topic_status ?? '' }),
      el('span', { className: 'assignee', text: topic.assigned_to ?? '' }),
    );
    if (topic.guid === this.detail.guid) button.setAttribute('aria-current', 'true');
    button.addEventListener('click', () => {
      for (const other of this.topics.querySelectorAll('button[aria-current]')) other.removeAttribute('aria-current');
      button.setAttribute('aria-current', 'true');
      void this.act(() => this.detail.open(topic.guid));
    });
    return el('li', { attrs: { 'data-guid': topic.guid, 'data-number': String(topic.platform_issue_number) } }, button);
  }

  /** Runs a step of the user's; a failure shows in the panel's line with the API's message. */
  private async act(work: () => Promise<void>): Promise<void> {
    this.status.hidden = true;
    try {
      await work();
    } catch (error) {
      this.status.textContent = messageOf(error);
      this.status.hidden = false;
    }
  }
}
