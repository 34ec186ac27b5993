/**
 * How the scene format packs its two big arrays so that gzip (which the platform stores
 * and sends scenes with) finds their redundancy: positions on a fixed grid, and indices,
 * each as zigzag deltas from the value before (consecutive corners of a piece are near
 * each other, consecutive indices too), laid out byte plane by byte plane (every value's
 * lowest byte, then every second byte...: the high planes of small deltas are runs of
 * zeros). Measured on the real sample models, this takes the gzipped scene of Duplex from
 * 188 to about 50 kB (docs/SCENE-FORMAT.md).
 */

/** The grid positions snap to: a tenth of a millimetre, unless the chunk is too big for 31 bits at that step. */
const FINEST_STEP = 1e-4;

const zigzag = (v: number) => ((v << 1) ^ (v >> 31)) >>> 0;
const unzigzag = (z: number) => (z >>> 1) ^ -(z & 1);

/** The step of the grid a chunk's positions go on. */
export function positionStep(positions: Float32Array): number {
  let largest = 0;
  for (let i = 0; i < positions.length; i++) largest = Math.max(largest, Math.abs(positions[i]));
  return Math.max(FINEST_STEP, largest / 2 ** 29); // deltas of two grid values stay within 31 bits
}

/** xyz positions on a grid of `step` metres, each axis as zigzag deltas, in byte planes. */
export function packPositions(positions: Float32Array, step: number): Uint8Array {
  const deltas = new Uint32Array(positions.length);
  const last = [0, 0, 0];
  for (let i = 0; i < positions.length; i++) {
    const q = Math.round(positions[i] / step);
    deltas[i] = zigzag(q - last[i % 3]);
    last[i % 3] = q;
  }
  return toPlanes(deltas);
}

export function unpackPositions(planes: Uint8Array, count: number, step: number): Float32Array {
  const positions = new Float32Array(count);
  const last = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    const q = last[i % 3] + unzigzag(fromPlanes(planes, count, i));
    last[i % 3] = q;
    positions[i] = q * step;
  }
  return positions;
}

/** Indices as zigzag deltas, in byte planes. */
export function packIndices(indices: Uint16Array | Uint32Array): Uint8Array {
  const deltas = new Uint32Array(indices.length);
  let last = 0;
  for (let i = 0; i < indices.length; i++) {
    deltas[i] = zigzag(indices[i] - last);
    last = indices[i];
  }
  return toPlanes(deltas);
}

export function unpackIndices(planes: Uint8Array, count: number, wide: boolean): Uint16Array | Uint32Array {
  const indices = wide ? new Uint32Array(count) : new Uint16Array(count);
  let last = 0;
  for (let i = 0; i < count; i++) {
    last += unzigzag(fromPlanes(planes, count, i));
    indices[i] = last;
  }
  return indices;
}

/** The bytes of `values`, lowest byte of each first, then the next byte of each, ... */
function toPlanes(values: Uint32Array): Uint8Array {
  const n = values.length;
  const planes = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    planes[i] = v & 0xff;
    planes[n + i] = (v >>> 8) & 0xff;
    planes[2 * n + i] = (v >>> 16) & 0xff;
    planes[3 * n + i] = v >>> 24;
  }
  return planes;
}

/** Value `i` of the `n` that toPlanes laid out (read in place: no array of them is made while a page waits). */
function fromPlanes(planes: Uint8Array, n: number, i: number): number {
  return (planes[i] | (planes[n + i] << 8) | (planes[2 * n + i] << 16) | (planes[3 * n + i] << 24)) >>> 0;
}
