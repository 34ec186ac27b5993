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
 * `present`, in that order, packed); `order[from..to)` picks the records. `rgbScale` is 257
 * when the cloud's colours are 8-bit values (they become full 16-bit), else 1.
 */
export function packRecords(
  source: Uint8Array,
  order: Uint32Array | null,
  from: number,
  to: number,
  present: Present,
  rgbScale: number,
  out: Uint8Array,
  at: number,
): number {
  for (let i = from; i < to; i++) {
    const s = (order ? order[i] : i) * RECORD;
    for (let b = 0; b < 12; b++) out[at++] = source[s + b];
    if (present.intensity) {
      out[at++] = source[s + AT_INTENSITY];
      out[at++] = source[s + AT_INTENSITY + 1];
    }
    if (present.classification) out[at++] = source[s + AT_CLASS];
    if (present.rgb) {
      for (let c = 0; c < 3; c++) {
        const v = (source[s + AT_RGB + c * 2] | (source[s + AT_RGB + c * 2 + 1] << 8)) * rgbScale;
        out[at++] = v & 0xff;
        out[at++] = v >> 8;
      }
    }
  }
  return at;
}

/** Bytes per point of the file's records. */
export function outputRecordSize(present: Present): number {
  return 12 + (present.intensity ? 2 : 0) + (present.classification ? 1 : 0) + (present.rgb ? 6 : 0);
}
