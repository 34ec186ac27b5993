/**
 * Viewer options as pages pass them: an object with camelCase keys
 * (`{defaultColor: '#ff0000', enableTouch: true}`) or data attributes, whose values are
 * always strings (`"true"`, `"0.2"`, `"80"`). The options are an element's public lit
 * properties (those with an attribute); their declared type (Boolean, Number, String)
 * says how a string is read, so a new option on an element needs no change here.
 * Shared by the 3D (options.ts) and 2D plugins: each makes one table of its element.
 */
export type OptionType = 'boolean' | 'number' | 'string';

export interface OptionProblem {
  option: string;
  message: string;
}

export interface CoercedOptions {
  /** Property name (as the element spells it) to value of the right type. */
  values: Record<string, unknown>;
  /** Values that could not be read; they are left out of `values`. */
  problems: OptionProblem[];
}

/** What lit tells of an element class's properties. */
export interface LitElementClass {
  elementProperties: Map<PropertyKey, { state?: boolean; attribute?: boolean | string; type?: unknown }>;
}

const TRUE = new Set(['', 'true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

export interface OptionTable {
  /** The element's property name for an option name in any case, or undefined. */
  name(option: string): string | undefined;
  /** The option names, as the element spells them. */
  names(): string[];
  /** Reads one option value: `{value}` or `{error}`; null/undefined give `{}` (nothing to set). */
  coerce(option: string, raw: unknown): { value?: unknown; error?: string };
  /** Coerces an options object; keys that are not options of the element are ignored. */
  coerceAll(options: Record<string, unknown>): CoercedOptions;
}

/** The option table of a lit element class (read lazily: the class may still be defining). */
export function optionTable(elementClass: () => LitElementClass): OptionTable {
  let table: Map<string, { name: string; type: OptionType }> | undefined;
  const entries = () => {
    if (table) return table;
    table = new Map();
    for (const [key, declaration] of elementClass().elementProperties) {
      if (typeof key !== 'string' || declaration.state || declaration.attribute === false) continue;
      const type: OptionType = declaration.type === Boolean ? 'boolean' : declaration.type === Number ? 'number' : 'string';
      table.set(key.toLowerCase(), { name: key, type });
    }
    return table;
  };

  function coerce(option: string, raw: unknown): { value?: unknown; error?: string } {
    const entry = entries().get(option.toLowerCase());
    if (!entry || raw === undefined || raw === null) return {};
    const { name: prop, type } = entry;
    if (type === 'boolean') {
      if (typeof raw === 'boolean') return { value: raw };
      if (typeof raw === 'number') return { value: raw !== 0 };
      const text = String(raw).trim().toLowerCase();
      if (TRUE.has(text)) return { value: true };
      if (FALSE.has(text)) return { value: false };
      return { error: `option ${prop}: ${JSON.stringify(raw)} is not a boolean (use true or false)` };
    }
    if (type === 'number') {
      const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (Number.isFinite(value)) return { value };
      return { error: `option ${prop}: ${JSON.stringify(raw)} is not a number` };
    }
    // Colours may be given as numbers (0xff0000, as the documented API allows).
    if (typeof raw === 'number' && /color$/i.test(prop)) {
      if (!Number.isInteger(raw) || raw < 0 || raw > 0xffffff) {
        return { error: `option ${prop}: ${raw} is not a colour number (0x000000 to 0xffffff)` };
      }
      return { value: `#${raw.toString(16).padStart(6, '0')}` };
    }
    if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return { value: String(raw) };
    return { error: `option ${prop}: expected a string, got ${typeof raw}` };
  }

  return {
    name: (option) => entries().get(option.toLowerCase())?.name,
    names: () => [...entries().values()].map((o) => o.name),
    coerce,
    coerceAll(options) {
      const values: Record<string, unknown> = {};
      const problems: OptionProblem[] = [];
      for (const key of Object.keys(options)) {
        const prop = entries().get(key.toLowerCase())?.name;
        if (!prop) continue;
        const { value, error } = coerce(key, options[key]);
        if (error) problems.push({ option: prop, message: error });
        else if (value !== undefined) values[prop] = value;
      }
      return { values, problems };
    },
  };
}

/** The data-* attributes of an element as an object with camelCase keys (strings). */
export function dataAttributes(element: HTMLElement): Record<string, string> {
  const out: Record<string, string> = {};
  const dataset = element.dataset;
  for (const key of Object.keys(dataset)) out[key] = dataset[key] ?? '';
  return out;
}
