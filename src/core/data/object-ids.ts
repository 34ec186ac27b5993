/**
 * Object ids (DESIGN.md): a decimal int64 string, objectIdBase + IFC express id, so
 * ids stay unique across the models of one viewer and stable for one revision.
 */

/** Express ids are 31-bit; a base per model keeps models apart. */
export const MODEL_ID_SPAN = 4294967296n;

export function objectId(base: string, expressId: number): string {
  return base === '0' ? String(expressId) : (BigInt(base) + BigInt(expressId)).toString();
}

/** The express id of `id` within a model of `base`, or null when it is not in that model's span. */
export function expressIdOf(base: string, id: string): number | null {
  let n: bigint;
  try {
    n = BigInt(id) - BigInt(base);
  } catch {
    return null;
  }
  return n > 0n && n < MODEL_ID_SPAN ? Number(n) : null;
}

/** Normalises the id forms pages pass (string, number, arrays of either) to strings. */
export function toIdList(ids: string | number | ReadonlyArray<string | number>): string[] {
  const list = Array.isArray(ids) ? ids : [ids];
  return list.map((id) => (typeof id === 'number' ? String(Math.trunc(id)) : String(id).trim()));
}

export function isValidBase(base: string): boolean {
  return /^\d{1,19}$/.test(base);
}
