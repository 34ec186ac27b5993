/**
 * The issues panel's board fields (docs/V2.md, "Topic boards"): the current board's custom
 * field instances in their order (required, default value of the field's type, disable
 * and restore, delete, move up or down) and a project field added as a new instance. The
 * issues panel hands over the board with its fields (`include=customFields`) and the
 * enumeration items; every change is told back so the new-topic form follows.
 */
import { byId, el, messageOf, smallButton } from '../dom.js';
import { patchBoard, type BoardPatch, type CustomField, type EnumerationItem, type TopicBoard } from '../v2-api.js';
import { valueInput } from './field-values.js';

export interface BoardFieldsContext {
  projectId: string;
  board: TopicBoard;
  /** The project's fields (not archived), for "add". */
  fields: CustomField[];
  items: Map<string, EnumerationItem[]>;
}

export class BoardFields {
  private readonly list = byId<HTMLUListElement>('board-fields-list');
  private readonly addRow = byId('board-field-add');
  private readonly error = byId('board-fields-error');
  private context?: BoardFieldsContext;

  constructor(private readonly changed: () => Promise<void>) {}

  show(context: BoardFieldsContext): void {
    this.context = context;
    const { board, items } = context;
    const fields = board.customFields ?? [];
    const instances = board.customFieldInstances;
    this.list.replaceChildren(...instances.map((instance, i) => {
      const field = fields.find((f) => f.id === instance.id);
      if (!field) return el('li', { text: instance.id });
      const required = el('input', { attrs: { type: 'checkbox', 'aria-label': 'Required' } });
      required.checked = instance.required;
      const value = valueInput(field, items.get(field.id) ?? [], instance.defaultValue, `Default of ${field.name}`);
      const move = (itemBeforeId: string | null) => this.apply({ customFieldsToMove: [{ id: field.id, itemBeforeId }] });
      const row = el('li', { className: `board-field${instance.disabled ? ' disabled' : ''}`, attrs: { 'data-field': field.id, 'data-name': field.name } },
        el('span', { className: 'name', text: field.name, title: `${field.name} (${field.type})` }),
        el('label', { className: 'check' }, required, ' required'),
        value.element,
        this.button('save', () => this.apply({ customFieldsToModify: [{ id: field.id, required: required.checked, defaultValue: value.read() }] })),
        this.button('↑', () => move(instances[i - 2]?.id ?? null), i === 0),
        this.button('↓', () => move(instances[i + 1]?.id ?? null), i === instances.length - 1),
        instance.disabled
          ? this.button('restore', () => this.apply({ customFieldsToRestore: [{ id: field.id }] }))
          : this.button('disable', () => this.apply({ customFieldsToDisable: [{ id: field.id }] })),
        this.button('delete', () => this.apply({ customFieldsToDelete: [{ id: field.id }] })),
      );
      return row;
    }));
    if (instances.length === 0) this.list.append(el('li', { className: 'empty', text: 'No custom fields on this board.' }));
    this.showAdd();
  }

  /** "Add": a field of the project not on the board yet, required or not, a default. */
  private showAdd(): void {
    const { board, fields, items } = this.context!;
    const free = fields.filter((f) => !f.archived && !board.customFieldInstances.some((i) => i.id === f.id));
    if (free.length === 0) {
      this.addRow.replaceChildren(el('span', { className: 'muted', text: 'Every field of the project is on this board (fields: project settings).' }));
      return;
    }
    const select = el('select', { attrs: { 'aria-label': 'Field to add', id: 'board-field-choice' } });
    for (const f of free) {
      const o = el('option', { text: `${f.name} (${f.type})` });
      o.value = f.id;
      select.append(o);
    }
    const required = el('input', { attrs: { type: 'checkbox', 'aria-label': 'Required', id: 'board-field-required' } });
    const slot = el('span', { className: 'default-slot' });
    let value = valueInput(free[0]!, items.get(free[0]!.id) ?? [], null, 'Default value');
    const pick = () => {
      const field = free.find((f) => f.id === select.value)!;
      value = valueInput(field, items.get(field.id) ?? [], null, 'Default value');
      value.element.id = 'board-field-default';
      slot.replaceChildren(value.element);
    };
    select.addEventListener('change', pick);
    pick();
    const add = this.button('add', () => this.apply({ customFieldsToAdd: [{ id: select.value, required: required.checked, defaultValue: value.read() }] }));
    add.id = 'board-field-add-button';
    this.addRow.replaceChildren(select, el('label', { className: 'check' }, required, ' required'), slot, add);
  }

  private button(text: string, work: () => Promise<void>, disabled = false): HTMLButtonElement {
    const b = smallButton(text, () => void this.act(work), { 'data-action': text });
    b.disabled = disabled;
    return b;
  }

  private async apply(body: BoardPatch): Promise<void> {
    const { projectId, board } = this.context!;
    await patchBoard(projectId, board.id, body);
    await this.changed();
  }

  private async act(work: () => Promise<void>): Promise<void> {
    this.error.textContent = '';
    try {
      await work();
    } catch (failure) {
      this.error.textContent = messageOf(failure);
    }
  }
}
