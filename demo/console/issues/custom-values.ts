/**
 * A topic's custom field values (docs/BCF.md, "Custom fields (addition)") as inputs: one
 * per enabled instance of the board, in the board's order, of the field's type, required
 * ones marked; sent as `platform_custom_fields: [{id, value}]`. Used by the new-topic form
 * (pre-filled with the defaults) and the topic detail (the topic's values).
 */
import { el } from '../dom.js';
import { valueInput, type ValueInput } from '../settings/field-values.js';
import type { CustomField, EnumerationItem, TopicBoard } from '../v2-api.js';

/** The board with its fields and the enumeration items of those fields. */
export interface BoardCustomFields { board: TopicBoard; items: Map<string, EnumerationItem[]> }
/** A topic's value as the BCF API answers it. */
export interface TopicValue { id: string; name: string; type: string; value: unknown }

export class CustomValues {
  private inputs: { field: CustomField; input: ValueInput }[] = [];

  constructor(private readonly root: HTMLElement) {}

  /** Inputs for the board's enabled instances; `values` (a topic's) or else the defaults. */
  show(fields: BoardCustomFields | undefined, values?: TopicValue[]): void {
    this.inputs = [];
    const rows: HTMLElement[] = [];
    for (const instance of fields?.board.customFieldInstances ?? []) {
      const field = fields!.board.customFields?.find((f) => f.id === instance.id);
      if (!field || instance.disabled) continue;
      const value = values ? values.find((v) => v.id === field.id)?.value ?? null : instance.defaultValue;
      const input = valueInput(field, fields!.items.get(field.id) ?? [], value, field.name);
      if (instance.required) input.element.required = true;
      this.inputs.push({ field, input });
      rows.push(el('label', { className: `custom-value${instance.required ? ' required' : ''}`, attrs: { 'data-name': field.name } },
        el('span', { text: instance.required ? `${field.name} *` : field.name, title: instance.required ? 'required' : '' }), input.element));
    }
    this.root.replaceChildren(...rows);
    this.root.hidden = rows.length === 0;
  }

  get empty(): boolean {
    return this.inputs.length === 0;
  }

  /** The values typed; with `skipEmpty` (a new topic) the empty ones are left out. */
  read(skipEmpty: boolean): { id: string; value: unknown }[] {
    return this.inputs.map(({ field, input }) => ({ id: field.id, value: input.read() })).filter((v) => !skipEmpty || v.value !== null);
  }
}
