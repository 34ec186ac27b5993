/**
 * Project settings → custom fields (docs/V2.md, "Custom fields"): the project's fields
 * (all, not archived, archived), a new field (name, description, type), and the chosen
 * field: rename and describe, archive and unarchive, and for an enumeration its items:
 * add (with an optional code), rename, change the code, disable and restore, move up or
 * down (`enumerationItemsToMove` with `itemBeforeId`).
 */
import type { Project } from '../api.js';
import { byId, el, option, smallButton } from '../dom.js';
import { createField, listFields, listItems, patchField, type CustomField, type EnumerationItem, type FieldPatch, type FieldType } from '../v2-api.js';
import { act, type Tab } from './settings-dialog.js';

const TYPES: FieldType[] = ['text', 'integer', 'double', 'enumeration', 'date'];

function button(text: string, onClick: () => Promise<unknown>, attrs: Record<string, string> = {}): HTMLButtonElement {
  return smallButton(text, () => void act(onClick), attrs);
}

export class CustomFieldsTab implements Tab {
  private project?: Project;
  private chosen?: string;
  private readonly root = byId('tab-fields');
  private readonly filter = el('select', { attrs: { id: 'fields-archived', 'aria-label': 'Which fields' } }, option('all', 'all fields'), option('not-archived', 'not archived'), option('archived', 'archived'));
  private readonly list = el('ul', { className: 'list', attrs: { id: 'fields' } });
  private readonly detail = el('div', { className: 'field-detail', attrs: { id: 'field-detail' } });

  constructor() {
    const form = el('form', { className: 'create', attrs: { id: 'new-field' } },
      el('input', { attrs: { name: 'name', required: '', maxlength: '255', placeholder: 'New field name', 'aria-label': 'New field name' } }),
      el('input', { attrs: { name: 'description', placeholder: 'Description', 'aria-label': 'Description' } }),
      el('select', { attrs: { name: 'type', 'aria-label': 'Type' } }, ...TYPES.map((t) => option(t))),
      el('button', { text: 'Create', attrs: { type: 'submit' } }),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const data = new FormData(form);
      void act(async () => {
        const created = await createField(this.project!.id, { name: String(data.get('name')).trim(), description: String(data.get('description') ?? ''), type: String(data.get('type')) as FieldType });
        form.reset();
        this.chosen = created.id;
        await this.load();
      });
    });
    this.filter.addEventListener('change', () => void act(() => this.load()));
    this.root.append(
      el('div', { className: 'settings-columns' },
        el('div', {}, el('h3', { text: 'Custom fields' }), this.filter, this.list, form),
        this.detail,
      ),
    );
  }

  async open(project: Project): Promise<void> {
    if (this.project?.id !== project.id) this.chosen = undefined;
    this.project = project;
    await this.load();
  }

  private async load(): Promise<void> {
    const project = this.project!;
    const fields = await listFields(project.id, this.filter.value as 'all');
    this.list.replaceChildren(...fields.map((field) => {
      const b = el('button', { className: 'item', title: field.description, attrs: { type: 'button' } },
        el('span', { text: field.name }), el('span', { className: 'muted', text: ` ${field.type}${field.archived ? ', archived' : ''}` }));
      if (field.id === this.chosen) b.setAttribute('aria-current', 'true');
      b.addEventListener('click', () => void act(async () => {
        this.chosen = field.id;
        await this.load();
      }));
      return el('li', { attrs: { 'data-id': field.id, 'data-name': field.name } }, b);
    }));
    if (fields.length === 0) this.list.append(el('li', { className: 'empty', text: 'No custom fields.' }));
    const chosen = fields.find((f) => f.id === this.chosen);
    if (chosen) await this.showField(chosen);
    else this.detail.replaceChildren(el('p', { className: 'muted', text: 'Choose a field to change it.' }));
  }

  /** Saves a change and draws the field again; meanwhile the detail is busy (its inputs are about to be replaced). */
  private async patch(field: CustomField, body: FieldPatch): Promise<void> {
    this.detail.setAttribute('aria-busy', 'true');
    try {
      await patchField(this.project!.id, field.id, body);
      await this.load();
    } finally {
      this.detail.removeAttribute('aria-busy');
    }
  }

  private async showField(field: CustomField): Promise<void> {
    const name = el('input', { attrs: { name: 'field-name', maxlength: '255', 'aria-label': 'Field name' } });
    name.value = field.name;
    const description = el('input', { attrs: { name: 'field-description', 'aria-label': 'Field description' } });
    description.value = field.description;
    const parts: HTMLElement[] = [
      el('h3', { text: `${field.name} (${field.type})` }),
      el('div', { className: 'form-row' }, name, description,
        button('Save', () => this.patch(field, { name: name.value.trim(), description: description.value }), { id: 'field-save' }),
        button(field.archived ? 'Unarchive' : 'Archive', () => this.patch(field, { archived: !field.archived }), { id: 'field-archive' })),
    ];
    if (field.type === 'enumeration') parts.push(...this.itemsPart(field, await listItems(this.project!.id, field.id)));
    this.detail.replaceChildren(...parts);
  }

  private itemsPart(field: CustomField, items: EnumerationItem[]): HTMLElement[] {
    const rows = items.map((item, i) => {
      const name = el('input', { attrs: { 'aria-label': 'Item name', maxlength: '255' } });
      name.value = item.name;
      const code = el('input', { className: 'code', attrs: { 'aria-label': 'Item code', placeholder: 'code' } });
      code.value = item.code ?? '';
      const save = () => {
        const body: FieldPatch = {};
        if (name.value.trim() !== item.name) body.enumerationItemsToRename = [{ id: item.id, name: name.value.trim() }];
        if ((code.value.trim() || null) !== item.code) body.enumerationItemsToUpdateCode = [{ id: item.id, code: code.value.trim() || null }];
        return this.patch(field, body);
      };
      const row = el('li', { className: `enum-item${item.disabled ? ' disabled' : ''}`, attrs: { 'data-item': item.id, 'data-name': item.name } },
        name, code,
        button('save', save, { 'data-action': 'save' }),
        button('↑', () => this.patch(field, { enumerationItemsToMove: [{ id: item.id, itemBeforeId: items[i - 2]?.id ?? null }] }), { 'data-action': 'up', title: 'Move up' }),
        button('↓', () => this.patch(field, { enumerationItemsToMove: [{ id: item.id, itemBeforeId: items[i + 1]!.id }] }), { 'data-action': 'down', title: 'Move down' }),
        item.disabled
          ? button('restore', () => this.patch(field, { enumerationItemsToRestore: [{ id: item.id }] }), { 'data-action': 'restore' })
          : button('disable', () => this.patch(field, { enumerationItemsToDisable: [{ id: item.id }] }), { 'data-action': 'disable' }),
      );
      (row.querySelector('[data-action=up]') as HTMLButtonElement).disabled = i === 0;
      (row.querySelector('[data-action=down]') as HTMLButtonElement).disabled = i === items.length - 1;
      return row;
    });
    const add = el('form', { className: 'create', attrs: { id: 'new-item' } },
      el('input', { attrs: { name: 'name', required: '', maxlength: '255', placeholder: 'New item', 'aria-label': 'New item name' } }),
      el('input', { className: 'code', attrs: { name: 'code', placeholder: 'code', 'aria-label': 'New item code' } }),
      el('button', { text: 'Add', attrs: { type: 'submit' } }),
    );
    add.addEventListener('submit', (event) => {
      event.preventDefault();
      const data = new FormData(add);
      const code = String(data.get('code') ?? '').trim();
      void act(() => this.patch(field, { enumerationItemsToAdd: [{ name: String(data.get('name')).trim(), ...(code ? { code } : {}) }] }));
    });
    return [
      el('h3', { text: 'Items' }),
      el('ul', { className: 'enum-items', attrs: { id: 'enum-items' } }, ...rows),
      add,
    ];
  }
}
