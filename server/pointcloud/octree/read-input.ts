import type { Bounds } from '../../../src/core/formats/pointcloud.js';
import type { PointReader } from '../point-reader.js';
import type { OctreeCube } from './cube.js';
import type { Distributor } from './distribute.js';
import { AT_CLASS, AT_INTENSITY, AT_RGB, RECORD, RECORD_INTS } from './records.js';

/** What the points turned out to hold, seen while reading them. */
export interface InputStats {
  points: number;
  /** Points with a coordinate that is not a finite number: left out, and said so. */
  invalid: number;
  bounds: Bounds;
  intensity: [number, number];
  classification: [number, number];
  rgbMin: [number, number, number];
  rgbMax: [number, number, number];
}

/** A point outside the cube the file's stated bounds gave: the caller reads the bounds and starts again. */
export class OutsideCube extends Error {}

export interface ReadOptions {
  signal?: AbortSignal;
  /** Points read so far. */
  onPoints?: (points: number) => void;
}

/** The bounds of the points, by reading them all (when the file does not state them). */
export async function scanBounds(reader: PointReader, options: ReadOptions): Promise<Bounds | null> {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  let points = 0;
  for await (const batch of reader.batches()) {
    options.signal?.throwIfAborted();
    const p = batch.positions;
    for (let i = 0; i < batch.count * 3; i += 3) {
      const x = p[i], y = p[i + 1], z = p[i + 2];
      if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) continue;
      if (x < min[0]) min[0] = x;
      if (x > max[0]) max[0] = x;
      if (y < min[1]) min[1] = y;
      if (y > max[1]) max[1] = y;
      if (z < min[2]) min[2] = z;
      if (z > max[2]) max[2] = z;
    }
    points += batch.count;
    options.onPoints?.(points);
  }
  return min[0] <= max[0] ? { min: min as Bounds['min'], max: max as Bounds['max'] } : null;
}

/**
 * Reads every point into the distributor: quantized to the cube, with the attributes the
 * reader's info says it has, as scratch records. Throws OutsideCube for a point past the cube.
 */
export async function distributeInput(reader: PointReader, cube: OctreeCube, d: Distributor, options: ReadOptions): Promise<InputStats> {
  const { hasColor, hasIntensity, hasClassification } = reader.info;
  const [ox, oy, oz] = cube.offset;
  const inverse = 1 / cube.scale;
  const edge = 2 ** cube.bits;
  const { gridBits, shift } = d;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const intensity: [number, number] = [65535, 0];
  const classification: [number, number] = [255, 0];
  const rgbMin: [number, number, number] = [65535, 65535, 65535];
  const rgbMax: [number, number, number] = [0, 0, 0];
  let points = 0;
  let invalid = 0;
  const buffer = d.buffer;
  const ints = d.ints;
  const cells = d.cells;
  for await (const batch of reader.batches()) {
    options.signal?.throwIfAborted();
    const { positions, colors, count } = batch;
    const inten = hasIntensity ? batch.intensity : undefined;
    const cls = hasClassification ? batch.classification : undefined;
    const rgb = hasColor ? colors : undefined;
    let n = d.count;
    const capacity = d.capacity;
    for (let i = 0; i < count; i++) {
      const x = positions[i * 3], y = positions[i * 3 + 1], z = positions[i * 3 + 2];
      if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
        invalid++;
        continue;
      }
      const xi = Math.round((x - ox) * inverse);
      const yi = Math.round((y - oy) * inverse);
      const zi = Math.round((z - oz) * inverse);
      if (xi < 0 || yi < 0 || zi < 0 || xi >= edge || yi >= edge || zi >= edge) {
        d.count = n;
        throw new OutsideCube(`A point (${x}, ${y}, ${z}) lies outside the bounds the file states`);
      }
      if (x < min[0]) min[0] = x;
      if (x > max[0]) max[0] = x;
      if (y < min[1]) min[1] = y;
      if (y > max[1]) max[1] = y;
      if (z < min[2]) min[2] = z;
      if (z > max[2]) max[2] = z;
      if (n === capacity) {
        d.count = n;
        d.flush();
        n = 0;
      }
      const r = n * RECORD;
      const q = n * RECORD_INTS;
      ints[q] = xi;
      ints[q + 1] = yi;
      ints[q + 2] = zi;
      ints[q + 3] = 0;
      ints[q + 4] = 0;
      ints[q + 5] = 0;
      if (inten) {
        const v = inten[i];
        buffer[r + AT_INTENSITY] = v & 0xff;
        buffer[r + AT_INTENSITY + 1] = v >> 8;
        if (v < intensity[0]) intensity[0] = v;
        if (v > intensity[1]) intensity[1] = v;
      }
      if (cls) {
        const v = cls[i];
        buffer[r + AT_CLASS] = v;
        if (v < classification[0]) classification[0] = v;
        if (v > classification[1]) classification[1] = v;
      }
      if (rgb) {
        for (let c = 0; c < 3; c++) {
          const v = rgb[i * 3 + c];
          buffer[r + AT_RGB + 2 * c] = v & 0xff;
          buffer[r + AT_RGB + 2 * c + 1] = v >> 8;
          if (v < rgbMin[c]) rgbMin[c] = v;
          if (v > rgbMax[c]) rgbMax[c] = v;
        }
      }
      cells[n++] = ((xi >> shift) << (2 * gridBits)) | ((yi >> shift) << gridBits) | (zi >> shift);
    }
    d.count = n;
    points += count;
    options.onPoints?.(points);
  }
  d.finish();
  return { points: points - invalid, invalid, bounds: { min: min as Bounds['min'], max: max as Bounds['max'] }, intensity, classification, rgbMin, rgbMax };
}
