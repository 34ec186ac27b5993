import { REF } from 'web-ifc';
import type { ModelLines } from './web-ifc-engine.js';

/**
 * Lines as web-ifc's GetRawLineData gives them: the type code and the arguments by
 * position, derived attributes (written `*`) left out, as web-ifc's classes take them.
 * Reading them needs none of web-ifc's schema tables (GetLine does: about 1-2 MB of
 * script a worker loads for a model's schema), so what a model shows with its first
 * frame (grids, units, which products the file gives no colour) is read this way.
 */
export interface RawLine {
  type: number;
  args: unknown[];
}

/** The line of an express id, or null when the file has none. */
export function rawLine(api: ModelLines, modelID: number, expressId: unknown): RawLine | null {
  if (typeof expressId !== 'number' || !api.GetLineType(modelID, expressId)) return null;
  const line = api.GetRawLineData(modelID, expressId) as { type: number; arguments: unknown[] | null };
  return { type: line.type, args: line.arguments ?? [] };
}

/** A raw value's content: `{type, value}` (typed values too) to its value, anything else as it is. */
export const rawValue = (field: unknown): unknown => (field && typeof field === 'object' && 'value' in field ? (field as { value: unknown }).value : field);

/** The express id a reference (`{type: 5, value: id}`) points to, or 0 when the value is not one. */
export const refOf = (field: unknown): number => ((field as { type?: unknown } | null)?.type === REF ? Number((field as { value: unknown }).value) : 0);

/** The line a reference points to, or null (not a reference, or dangling). */
export const referenced = (api: ModelLines, modelID: number, field: unknown): RawLine | null => {
  const id = refOf(field);
  return id ? rawLine(api, modelID, id) : null;
};

/** A list argument's items, none when it is unset. */
export const rawList = (field: unknown): unknown[] => (Array.isArray(field) ? field : []);
