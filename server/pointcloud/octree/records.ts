import { ATTRIBUTES, type PointAttribute } from '../../../src/core/formats/pointcloud.js';

/**
 * A point between reading and writing (scratch files, chunks in memory): 24 bytes, so a
 * record's position is three aligned int32s of an Int32Array over the buffer.
 *   0 x, 4 y, 8 z (int32, cube units), 12 intensity (u16), 14 r, 16 g, 18 b (u16, as read),
 *   20 classification (u8), 21-23 unused.
 */
export const RECORD = 24;
/** Int32s per record. */
export const RECORD_INTS = RECORD / 4;
export const AT_INTENSITY = 12;
export const AT_RGB = 14;
export const AT_CLASS = 20;

/** Which attributes a cloud has (the reader's info says). */
export interface Present {
  intensity: boolean;
  classification: boolean;
  rgb: boolean;
}

/** The attributes written, in record order (min/max filled in when all points are seen). */
export function outputAttributes(present: Present): Omit<PointAttribute, 'min' | 'max'>[] {
  const list: Omit<PointAttribute, 'min' | 'max'>[] = [ATTRIBUTES.position];
  if (present.intensity) list.push(ATTRIBUTES.intensity);
  if (present.classification) list.push(ATTRIBUTES.classification);
  if (present.rgb) list.push(ATTRIBUTES.rgb);
  return list.map((a) => ({ ...a }));
}

/**
 * Writes records of `source` (scratch layout) as the file's point records (the attributes of
 * `present`, in that order, packed) into `out` from byte `at`; `order[from..to)` picks the
 * records (null: from..to as they are). Returns the byte after the last.
 */
export function packRecords(source: Uint8Array, order: Uint32Array | null, from: number, to: number, present: Present, out: Uint8Array, at: number): number {
  const ints = new Int32Array(source.buffer, source.byteOffset, source.byteLength >> 2);
  const shorts = new Uint16Array(source.buffer, source.byteOffset, source.byteLength >> 1);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const { intensity, classification, rgb } = present;
  for (let i = from; i < to; i++) {
    const r = order ? order[i] : i;
    const q = r * RECORD_INTS;
    view.setInt32(at, ints[q], true);
    view.setInt32(at + 4, ints[q + 1], true);
    view.setInt32(at + 8, ints[q + 2], true);
    at += 12;
    const h = r * (RECORD / 2);
    if (intensity) {
      view.setUint16(at, shorts[h + AT_INTENSITY / 2], true);
      at += 2;
    }
    if (classification) out[at++] = source[r * RECORD + AT_CLASS];
    if (rgb) {
      view.setUint16(at, shorts[h + AT_RGB / 2], true);
      view.setUint16(at + 2, shorts[h + AT_RGB / 2 + 1], true);
      view.setUint16(at + 4, shorts[h + AT_RGB / 2 + 2], true);
      at += 6;
    }
  }
  return at;
}

/** Colours of 8-bit range made full 16-bit (times 257), in place. */
export function scaleColors(records: Uint8Array, count: number): void {
  const shorts = new Uint16Array(records.buffer, records.byteOffset, (count * RECORD) >> 1);
  for (let h = AT_RGB / 2; h < shorts.length; h += RECORD / 2) {
    shorts[h] *= 257;
    shorts[h + 1] *= 257;
    shorts[h + 2] *= 257;
  }
}

/** Bytes per point of the file's records. */
export function outputRecordSize(present: Present): number {
  return 12 + (present.intensity ? 2 : 0) + (present.classification ? 1 : 0) + (present.rgb ? 6 : 0);
}
