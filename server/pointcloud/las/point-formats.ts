import type { PointBatch } from '../point-reader.js';

/**
 * The point data record formats 0-10 as far as the converter needs them (position,
 * intensity, classification, RGB), and the tight loop that turns records into a batch.
 * A record may be longer than its format (extra bytes): the record length is the stride.
 */

/** Bytes of each format's own fields. */
export const BASE_RECORD_LENGTHS = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67];

/** Where RGB starts in each format's record, or -1. */
const RGB_OFFSETS = [-1, -1, 20, 28, -1, 28, -1, 30, 30, -1, 30];

export interface RecordLayout {
  recordLength: number;
  /** Byte of RGB in the record, -1 when the format has none. */
  rgbOffset: number;
  /** Formats 0-5 keep the class in the low 5 bits of byte 15; 6-10 in all of byte 16. */
  classOffset: number;
  classMask: number;
}

export function recordLayout(format: number, recordLength: number): RecordLayout {
  const extended = format >= 6;
  return { recordLength, rgbOffset: RGB_OFFSETS[format], classOffset: extended ? 16 : 15, classMask: extended ? 0xff : 0x1f };
}

/** A batch's arrays, allocated once per pass and handed out again for each batch. */
export class BatchBuffers {
  readonly positions: Float64Array;
  readonly intensity: Uint16Array;
  readonly classification: Uint8Array;
  readonly colors: Uint16Array | null;

  constructor(readonly capacity: number, hasColor: boolean) {
    this.positions = new Float64Array(capacity * 3);
    this.intensity = new Uint16Array(capacity);
    this.classification = new Uint8Array(capacity);
    this.colors = hasColor ? new Uint16Array(capacity * 3) : null;
  }

  /** The first `count` points as a batch (views, not copies). */
  batch(count: number): PointBatch {
    const batch: PointBatch = {
      count,
      positions: this.positions.subarray(0, count * 3),
      intensity: this.intensity.subarray(0, count),
      classification: this.classification.subarray(0, count),
    };
    if (this.colors) batch.colors = this.colors.subarray(0, count * 3);
    return batch;
  }
}

/**
 * Decodes `count` records from `bytes` (starting at its first byte) into `out` from point
 * `first` on. Positions are x * scale + offset, in doubles.
 */
export function decodeRecords(
  bytes: Uint8Array,
  count: number,
  layout: RecordLayout,
  scale: readonly number[],
  offset: readonly number[],
  out: BatchBuffers,
  first: number,
) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * layout.recordLength);
  const stride = layout.recordLength;
  const [sx, sy, sz] = scale;
  const [ox, oy, oz] = offset;
  const { positions, intensity, classification } = out;
  const classOffset = layout.classOffset;
  const classMask = layout.classMask;
  for (let i = 0, p = 0, j = first * 3; i < count; i++, p += stride, j += 3) {
    positions[j] = view.getInt32(p, true) * sx + ox;
    positions[j + 1] = view.getInt32(p + 4, true) * sy + oy;
    positions[j + 2] = view.getInt32(p + 8, true) * sz + oz;
    intensity[first + i] = view.getUint16(p + 12, true);
    classification[first + i] = view.getUint8(p + classOffset) & classMask;
  }
  const colors = out.colors;
  const rgb = layout.rgbOffset;
  if (colors && rgb >= 0) {
    for (let i = 0, p = rgb, j = first * 3; i < count; i++, p += stride, j += 3) {
      colors[j] = view.getUint16(p, true);
      colors[j + 1] = view.getUint16(p + 2, true);
      colors[j + 2] = view.getUint16(p + 4, true);
    }
  }
}
