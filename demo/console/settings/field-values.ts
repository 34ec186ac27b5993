/**
 * A custom field's value as the console edits and shows it (docs/V2.md, "Defaults";
 * docs/BCF.md, "Custom fields (addition)"): text a string, integer an integer, double a
 * number, date an ISO 8601 date (a date-time is shown by its date), enumeration the id of
 * an enabled item (a disabled item the value names already stays offered, marked).
 * Used for a board instance's default (board-fields.ts) and a topic's values (issues/).
 */
import { el } from '../dom.js';
import type { CustomField, EnumerationItem } from '../v2-api.js';

export interface ValueInput {
  element: HTMLInputElement | HTMLSelectElement;
  /** The value typed (null: none); a number that is not one throws with the field's name. */
  read(): string | number | null;
}

export function valueInput(field: CustomField, items: EnumerationItem[], value: unknown, label: string): ValueInput {
  const attrs = { 'aria-label': label, 'data-custom-field': field.id };
  if (field.type === 'enumeration') {
    const select = el('select', { attrs });
    const none = el('option', { text: '—' });
    none.value = '';
    select.append(none);
    for (const item of items) {
      if (item.disabled && item.id !== value) continue;
      const option = el('option', { text: item.disabled ? `${item.name} (disabled)` : item.name });
      option.value = item.id;
      select.append(option);
    }
    select.value = typeof value === 'string' ? value : '';
    return { element: select, read: () => select.value || null };
  }
  const type = field.type === 'date' ? 'date' : field.type === 'text' ? 'text' : 'number';
  const input = el('input', { attrs: { ...attrs, type } });
  if (field.type === 'integer') input.step = '1';
  if (field.type === 'double') input.step = 'any';
  if (value !== null && value !== undefined) input.value = field.type === 'date' ? String(value).slice(0, 10) : String(value);
  return {
    element: input,
    read: () => {
      const text = input.value.trim();
      if (text === '') return null;
      if (field.type === 'text' || field.type === 'date') return field.type === 'text' ? input.value : text;
      const number = Number(text);
      if (!Number.isFinite(number) || (field.type === 'integer' && !Number.isInteger(number))) throw new Error(`${field.name}: ${text} is not ${field.type === 'integer' ? 'an integer' : 'a number'}`);
      return number;
    },
  };
}

/** A value as text: an enumeration item by its name. */
export function formatValue(field: Pick<CustomField, 'type'>, items: EnumerationItem[], value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (field.type === 'enumeration') return items.find((item) => item.id === value)?.name ?? String(value);
  return String(value);
}
