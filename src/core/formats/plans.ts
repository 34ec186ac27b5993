import { objectId } from '../data/object-ids.js';
import type { PlanLines, PlanModel } from '../plan/protocol.js';
import { crc32 } from './checksum.js';

/**
 * The plans format (`application/vnd.platform.plans`), version 2: a model's storey plans
 * as the plan worker extracts them (plan/protocol.ts's PlanModel, default options), so
 * `<bim-viewer-2d>` draws a processed model without web-ifc. docs/SCENE-FORMAT.md
 * ("Plans") is the specification; in short:
 *
 *   "BIMPLANS" (8 bytes), version (u32), JSON length (u32), CRC-32 of the bytes after
 *   these 24 (u32), the file's length (u32), the JSON (UTF-8, zeros to a multiple of 8
 *   bytes), then the arrays, each at a multiple of 8 bytes.
 *
 * The JSON is the PlanModel with each typed array replaced by `{"$": "f64" | "u32",
 * "at": byte offset after the JSON, "n": length}`; object ids in it are express ids (the
 * viewer adds the revision's objectIdBase). Numbers are little-endian.
 */
export const PLANS_MEDIA_TYPE = 'application/vnd.platform.plans';
export const PLANS_MAGIC = 'BIMPLANS';
/** 2: a checksum; 1 had none. */
export const PLANS_VERSION = 2;
/** magic, version, JSON length, checksum, file length. */
const HEAD = 24;

/** What is wrong with a plans file: the viewer reports it. */
export class PlansFormatError extends Error {}

type ArrayRef = { $: 'f64' | 'u32'; at: number; n: number };
const pad8 = (n: number) => (n + 7) & ~7;

/** The file of a model's plans, extracted with objectIdBase "0"; without the extraction's timings, so the same model makes the same file. */
export function encodePlans(plan: PlanModel): Uint8Array {
  const arrays: (Float64Array | Uint32Array)[] = [];
  let size = 0;
  const json = JSON.stringify({ ...plan, timings: {} }, (_key, value) => {
    if (!(value instanceof Float64Array || value instanceof Uint32Array)) return value;
    const ref: ArrayRef = { $: value instanceof Float64Array ? 'f64' : 'u32', at: size, n: value.length };
    arrays.push(value);
    size = pad8(size + value.byteLength);
    return ref;
  });
  const text = new TextEncoder().encode(json);
  const head = HEAD + pad8(text.length);
  const bytes = new Uint8Array(head + size);
  bytes.set(new TextEncoder().encode(PLANS_MAGIC));
  const view = new DataView(bytes.buffer);
  view.setUint32(8, PLANS_VERSION, true);
  view.setUint32(12, text.length, true);
  bytes.set(text, HEAD);
  // Through two views of the whole file (every array starts at a multiple of 8), not a
  // view per array: office-200k's plans have 162k arrays (170-240 -> 80-160 ms).
  const f64 = new Float64Array(bytes.buffer, 0, bytes.length >> 3);
  const u32 = new Uint32Array(bytes.buffer, 0, bytes.length >> 2);
  let at = head;
  for (const array of arrays) {
    if (array instanceof Float64Array) f64.set(array, at >> 3);
    else u32.set(array, at >> 2);
    at = pad8(at + array.byteLength);
  }
  view.setUint32(16, checksum(bytes), true);
  view.setUint32(20, bytes.length, true);
  return bytes;
}

/** The plans of a file, their object ids with `base` added; throws PlansFormatError on a file that is not one, of another version, or damaged. */
export function decodePlans(bytes: Uint8Array, base: string): PlanModel {
  if (bytes.length < HEAD || new TextDecoder().decode(bytes.subarray(0, 8)) !== PLANS_MAGIC) throw new PlansFormatError('Not a plans file: it does not start with "BIMPLANS"');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== PLANS_VERSION) throw new PlansFormatError(`Plans format version ${version} is not supported (this viewer reads version ${PLANS_VERSION})`);
  const [length, total] = [view.getUint32(12, true), view.getUint32(20, true)];
  if (bytes.length < total) throw new PlansFormatError(`The plans file is truncated: it has ${bytes.length} of its ${total} bytes`);
  if (bytes.length > total) throw new PlansFormatError('The plans file is damaged: it has bytes after its end');
  const head = HEAD + pad8(length);
  if (head > bytes.length) throw new PlansFormatError('The plans file is damaged: its JSON ends past the file');
  if (checksum(bytes) !== view.getUint32(16, true)) throw new PlansFormatError('The plans file is damaged: its checksum does not match');
  let plan: PlanModel;
  try {
    plan = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEAD, HEAD + length)), (_key, value) => {
      if (!value || typeof value !== 'object' || (value.$ !== 'f64' && value.$ !== 'u32')) return value;
      const { $, at, n } = value as ArrayRef;
      const per = $ === 'f64' ? 8 : 4;
      if (!(Number.isInteger(at) && Number.isInteger(n) && at >= 0 && n >= 0 && head + at + n * per <= bytes.length)) throw new PlansFormatError('The plans file is damaged: an array ends past it');
      // Aligned, and its own (a copy: a Node Buffer's slice would share the whole file's buffer).
      const copy = new Uint8Array(bytes.subarray(head + at, head + at + n * per)).buffer;
      return $ === 'f64' ? new Float64Array(copy) : new Uint32Array(copy);
    });
  } catch (e) {
    throw e instanceof PlansFormatError ? e : new PlansFormatError(`The plans file's JSON is damaged: ${(e as Error).message}`);
  }
  const rebase = (id: string) => objectId(base, Number(id));
  for (const storey of plan.storeys) {
    storey.objectId = rebase(storey.objectId);
    if (storey.buildingId !== null) storey.buildingId = rebase(storey.buildingId);
    checkLines(storey.below, storey.symbols, ...Object.values(storey.cut));
  }
  for (const space of plan.spaces) {
    space.objectId = rebase(space.objectId);
    checkLines(space.rings);
  }
  return plan;
}

/** The CRC-32 of a plans file's bytes after its head. */
const checksum = (bytes: Uint8Array) => crc32(bytes.subarray(HEAD));

/** Every polyline's points lie inside its coordinates. */
function checkLines(...lines: PlanLines[]) {
  for (const { coords, starts } of lines) {
    if (starts.length && starts[starts.length - 1] * 2 > coords.length) throw new PlansFormatError('The plans file is damaged: a polyline ends past its points');
  }
}
