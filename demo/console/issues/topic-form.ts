/**
 * "New issue from this view": a form (title required; type, status, assignee, labels from
 * the board's extensions; description; the board's custom fields: custom-values.ts). On submit the 3D view is taken first, as it is
 * at that moment (`getBcfViewpoint({snapshot: true})`: camera, clipping planes,
 * components, a PNG snapshot), then the topic is created and the viewpoint posted to it.
 * The API's error message is shown in the form.
 */
import type { BimViewer3d } from '../../../src/index.js';
import { byId, el, fillSelect, messageOf } from '../dom.js';
import { createTopic, createViewpoint, type Extensions, type Topic } from './bcf-api.js';
import { CustomValues, type BoardCustomFields } from './custom-values.js';

export class TopicForm {
  private readonly form = byId<HTMLFormElement>('topic-form');
  private readonly error = byId('topic-form-error');
  private readonly labels = byId('topic-form-labels');
  private readonly custom = new CustomValues(byId('topic-form-fields'));
  private customFields?: BoardCustomFields;

  /**
   * @param target the board and the 3D viewer to take the view from (undefined: none open)
   * @param created told of the new topic once its viewpoint is stored
   */
  constructor(
    private readonly target: () => { boardId: string; viewer3d: BimViewer3d } | undefined,
    private readonly created: (topic: Topic) => Promise<void>,
  ) {
    byId('new-topic').addEventListener('click', () => this.toggle(this.form.hidden));
    byId('topic-form-cancel').addEventListener('click', () => this.toggle(false));
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
  }

  /** The board's values in the form's choices. */
  setExtensions(values: Extensions): void {
    const field = (name: string) => this.form.elements.namedItem(name) as HTMLSelectElement;
    fillSelect(field('topic_type'), values.topic_type);
    fillSelect(field('topic_status'), values.topic_status);
    fillSelect(field('assigned_to'), values.user_id_type, 'unassigned');
    this.labels.replaceChildren(...values.topic_label.map((label) => {
      const box = el('input', { attrs: { type: 'checkbox', name: 'labels' } });
      box.value = label;
      return el('label', { className: 'check' }, box, ` ${label}`);
    }));
  }

  /** The board's custom fields: inputs pre-filled with the defaults, required ones marked. */
  setCustomFields(fields: BoardCustomFields | undefined): void {
    this.customFields = fields;
    this.custom.show(fields);
  }

  toggle(open: boolean): void {
    this.form.hidden = !open;
    this.error.textContent = '';
    if (open) (this.form.elements.namedItem('title') as HTMLInputElement).focus();
  }

  private async submit(): Promise<void> {
    const target = this.target();
    if (!target) return;
    const data = new FormData(this.form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const submit = this.form.querySelector<HTMLButtonElement>('button[type=submit]')!;
    submit.disabled = true;
    this.error.textContent = '';
    try {
      const viewpoint = await target.viewer3d.getBcfViewpoint({ snapshot: true });
      const fields: Partial<Topic> = {
        title: text('title'),
        topic_type: text('topic_type') || undefined,
        topic_status: text('topic_status') || undefined,
        labels: data.getAll('labels').map(String),
      };
      if (text('assigned_to')) fields.assigned_to = text('assigned_to');
      if (text('description')) fields.description = text('description');
      if (!this.custom.empty) fields.platform_custom_fields = this.custom.read(true);
      const topic = await createTopic(target.boardId, fields);
      try {
        await createViewpoint(target.boardId, topic.guid, viewpoint);
      } catch (error) {
        throw new Error(`Issue #${topic.platform_issue_number} was created, but its viewpoint was not stored: ${messageOf(error)}`);
      } finally {
        await this.created(topic);
      }
      this.form.reset();
      this.custom.show(this.customFields);
      this.toggle(false);
    } catch (error) {
      this.error.textContent = messageOf(error);
    } finally {
      submit.disabled = false;
    }
  }
}
