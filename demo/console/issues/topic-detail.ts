/**
 * One issue: its fields, its viewpoints as thumbnails (the snapshots fetched with the
 * token and shown from blob URLs: a token never goes into an <img src>), a click on one
 * shows it in the 3D viewer (`showBcfViewpoint`), its custom field values (shown, and
 * changed through custom-values.ts's inputs), its comments (list; add one, linked to
 * the viewpoint last shown when asked), a status change (PUT with the topic's other
 * fields sent back: PUT replaces) and "add the current view" as another viewpoint.
 */
import type { BcfViewpoint, BimViewer3d } from '../../../src/index.js';
import { byId, el, fillSelect, messageOf } from '../dom.js';
import {
  createComment, createViewpoint, listComments, listViewpoints, readTopic, snapshot, updateTopic,
  type Comment, type Extensions, type StoredViewpoint, type Topic,
} from './bcf-api.js';
import { CustomValues, type BoardCustomFields, type TopicValue } from './custom-values.js';
import { formatValue } from '../settings/field-values.js';

export interface DetailHost {
  boardId(): string | undefined;
  viewer3d(): BimViewer3d | undefined;
  extensions(): Extensions | undefined;
  /** The board's custom fields (for the values' inputs and enumeration names). */
  customFields(): BoardCustomFields | undefined;
  /** The issue changed (status, a viewpoint): the list and the plan follow. */
  changed(topic: Topic): Promise<void>;
  /** Where the marker is, for the fields and to show its storey on the plan. */
  storeyOf(topic: Topic): { id: string; name: string } | undefined;
  showStorey(id: string): void;
}

/** The viewer's part of a stored viewpoint: the server's guid, index, snapshot flag and authorization left out. */
function viewerPart(stored: StoredViewpoint): BcfViewpoint {
  const { guid: _guid, snapshot: _snapshot, index: _index, authorization: _authorization, ...viewpoint } = stored as StoredViewpoint & { index?: number; authorization?: unknown };
  return viewpoint as BcfViewpoint;
}

export class TopicDetail {
  private readonly root = byId('topic-detail');
  private readonly fields = byId('topic-fields');
  private readonly thumbnails = byId('topic-viewpoints');
  private readonly comments = byId('topic-comments');
  private readonly status = byId<HTMLSelectElement>('topic-status');
  private readonly message = byId('topic-detail-message');
  private readonly commentForm = byId<HTMLFormElement>('comment-form');
  private readonly custom = new CustomValues(byId('topic-custom-values'));
  private topic?: Topic;
  /** The viewpoint last shown in 3D from this issue, for a comment's link. */
  private shownViewpoint?: string;
  private blobUrls: string[] = [];
  private generation = 0;

  constructor(private readonly host: DetailHost) {
    byId('topic-detail-close').addEventListener('click', () => this.close());
    byId('topic-status-save').addEventListener('click', () => void this.act('Changing the status failed', () => this.saveStatus()));
    byId('topic-custom-save').addEventListener('click', () => void this.act('Saving the fields failed', () => this.saveCustomFields()));
    byId('topic-add-view').addEventListener('click', () => void this.act('Adding the view failed', () => this.addView()));
    this.commentForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.act('Adding the comment failed', () => this.addComment());
    });
  }

  get guid(): string | undefined {
    return this.topic?.guid;
  }

  async open(guid: string): Promise<void> {
    const boardId = this.host.boardId();
    if (!boardId) return;
    const generation = ++this.generation;
    this.root.hidden = false;
    this.message.textContent = '';
    const topic = await readTopic(boardId, guid);
    if (generation !== this.generation) return;
    this.topic = topic;
    this.shownViewpoint = undefined;
    this.showFields(topic);
    const storey = this.host.storeyOf(topic);
    if (storey) this.host.showStorey(storey.id);
    await Promise.all([this.loadViewpoints(boardId, topic, generation), this.loadComments(boardId, topic, generation)]);
  }

  close(): void {
    this.generation++;
    this.topic = undefined;
    this.root.hidden = true;
    this.releaseThumbnails();
  }

  private showFields(topic: Topic): void {
    byId('topic-title').textContent = `#${topic.platform_issue_number} ${topic.title}`;
    const storey = this.host.storeyOf(topic);
    const rows: [string, string][] = [
      ['Type', topic.topic_type ?? ''],
      ['Status', topic.topic_status ?? ''],
      ['Assigned to', topic.assigned_to ?? 'unassigned'],
      ['Labels', (topic.labels ?? []).join(', ')],
      ['Author', topic.creation_author ?? ''],
      ['Created', topic.creation_date ? new Date(topic.creation_date.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')).toLocaleString() : ''],
      ['On the plan', storey ? storey.name : '—'],
      ['Description', topic.description ?? ''],
    ];
    this.fields.replaceChildren(...rows.flatMap(([name, value]) => [el('dt', { text: name }), el('dd', { text: value, title: value, attrs: { 'data-field': name } })]));
    const values = (topic.platform_custom_fields ?? []) as TopicValue[];
    const custom = this.host.customFields();
    for (const value of values) {
      const text = formatValue({ type: value.type as 'text' }, custom?.items.get(value.id) ?? [], value.value);
      this.fields.append(el('dt', { text: value.name }), el('dd', { text, title: text, attrs: { 'data-custom-field': value.id } }));
    }
    this.custom.show(custom, values);
    byId('topic-custom').hidden = this.custom.empty;
    fillSelect(this.status, this.host.extensions()?.topic_status ?? [topic.topic_status ?? '']);
    this.status.value = topic.topic_status ?? '';
  }

  private async loadViewpoints(boardId: string, topic: Topic, generation: number): Promise<void> {
    const viewpoints = await listViewpoints(boardId, topic.guid);
    if (generation !== this.generation) return;
    this.releaseThumbnails();
    this.thumbnails.replaceChildren(...viewpoints.map((viewpoint, i) => {
      const button = el('button', { className: 'thumbnail', title: 'Show this view in 3D', attrs: { type: 'button', 'data-viewpoint': viewpoint.guid } });
      button.textContent = `View ${i + 1}`;
      button.addEventListener('click', () => void this.act('Showing the view failed', () => this.showViewpoint(viewpoint)));
      if (viewpoint.snapshot?.snapshot_type) void this.thumbnail(boardId, topic.guid, viewpoint.guid, button, generation);
      return button;
    }));
    if (viewpoints.length === 0) this.thumbnails.append(el('p', { className: 'muted', text: 'No viewpoints.' }));
  }

  /** The snapshot as a blob URL in the thumbnail (kept until the issue is left). */
  private async thumbnail(boardId: string, topicGuid: string, viewpointGuid: string, button: HTMLButtonElement, generation: number): Promise<void> {
    try {
      const blob = await snapshot(boardId, topicGuid, viewpointGuid);
      if (generation !== this.generation) return;
      const url = URL.createObjectURL(blob);
      this.blobUrls.push(url);
      const image = el('img', { attrs: { alt: button.textContent ?? 'view' } });
      image.src = url;
      button.replaceChildren(image);
    } catch (error) {
      button.title = `The snapshot could not be read: ${messageOf(error)}`;
    }
  }

  private releaseThumbnails(): void {
    for (const url of this.blobUrls) URL.revokeObjectURL(url);
    this.blobUrls = [];
  }

  private async showViewpoint(viewpoint: StoredViewpoint): Promise<void> {
    const viewer = this.host.viewer3d();
    if (!viewer) throw new Error('Open a revision first');
    await viewer.showBcfViewpoint(viewerPart(viewpoint));
    this.shownViewpoint = viewpoint.guid;
    for (const button of this.thumbnails.querySelectorAll<HTMLElement>('[data-viewpoint]')) {
      button.setAttribute('aria-current', String(button.dataset.viewpoint === viewpoint.guid));
    }
  }

  private async loadComments(boardId: string, topic: Topic, generation: number): Promise<void> {
    const comments = await listComments(boardId, topic.guid);
    if (generation !== this.generation) return;
    this.comments.replaceChildren(...comments.map(commentItem));
    if (comments.length === 0) this.comments.append(el('li', { className: 'empty', text: 'No comments yet.' }));
  }

  private async addComment(): Promise<void> {
    const { boardId, topic } = this.current();
    const data = new FormData(this.commentForm);
    const text = String(data.get('comment') ?? '').trim();
    const linked = data.get('link') === 'on' ? this.shownViewpoint : undefined;
    await createComment(boardId, topic.guid, text, linked);
    this.commentForm.reset();
    await this.loadComments(boardId, topic, this.generation);
  }

  private async saveStatus(): Promise<void> {
    const { boardId, topic } = this.current();
    const updated = await updateTopic(boardId, topic, { topic_status: this.status.value });
    this.topic = updated;
    this.showFields(updated);
    this.message.textContent = `Status: ${updated.topic_status ?? ''}`;
    await this.host.changed(updated);
  }

  private async saveCustomFields(): Promise<void> {
    const { boardId, topic } = this.current();
    const updated = await updateTopic(boardId, topic, { platform_custom_fields: this.custom.read(false) });
    this.topic = updated;
    this.showFields(updated);
    this.message.textContent = 'Fields saved';
    await this.host.changed(updated);
  }

  private async addView(): Promise<void> {
    const { boardId, topic } = this.current();
    const viewer = this.host.viewer3d();
    if (!viewer) throw new Error('Open a revision first');
    await createViewpoint(boardId, topic.guid, await viewer.getBcfViewpoint({ snapshot: true }));
    await this.loadViewpoints(boardId, topic, this.generation);
    await this.host.changed(topic);
  }

  private current(): { boardId: string; topic: Topic } {
    const boardId = this.host.boardId();
    if (!boardId || !this.topic) throw new Error('No issue is open');
    return { boardId, topic: this.topic };
  }

  /** An action of the user; its failure (the API's message) shows in the detail. */
  private async act(label: string, work: () => Promise<void>): Promise<void> {
    this.message.textContent = '';
    this.message.dataset.kind = 'notice';
    try {
      await work();
    } catch (error) {
      this.message.dataset.kind = 'error';
      this.message.textContent = `${label}: ${messageOf(error)}`;
    }
  }
}

function commentItem(comment: Comment): HTMLLIElement {
  const when = new Date(comment.date.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return el('li', { className: 'comment', attrs: { 'data-comment': comment.guid } },
    el('span', { className: 'comment-meta', text: `${comment.author}, ${when.toLocaleString()}${comment.viewpoint_guid ? ' · on a view' : ''}` }),
    el('p', { text: comment.comment }),
  );
}
