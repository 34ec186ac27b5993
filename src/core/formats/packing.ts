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

// The two readers are written out, without calls: a page reads a scene while its code is
// not optimised yet, where every operation counts (Duplex's positions 20 % faster so).
export function unpackPositions(planes: Uint8Array, count: number, step: number): Float32Array {
  const positions = new Float32Array(count);
  const [p1, p2, p3] = [planes.subarray(count), planes.subarray(2 * count), planes.subarray(3 * count)];
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < count; i += 3) {
    let v = planes[i] | (p1[i] << 8) | (p2[i] << 16) | (p3[i] << 24);
    x += (v >>> 1) ^ -(v & 1);
    v = planes[i + 1] | (p1[i + 1] << 8) | (p2[i + 1] << 16) | (p3[i + 1] << 24);
    y += (v >>> 1) ^ -(v & 1);
    v = planes[i + 2] | (p1[i + 2] << 8) | (p2[i + 2] << 16) | (p3[i + 2] << 24);
    z += (v >>> 1) ^ -(v & 1);
    positions[i] = x * step;
    positions[i + 1] = y * step;
    positions[i + 2] = z * step;
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
  const [p1, p2, p3] = [planes.subarray(count), planes.subarray(2 * count), planes.subarray(3 * count)];
  let last = 0;
  for (let i = 0; i < count; i++) {
    const v = planes[i] | (p1[i] << 8) | (p2[i] << 16) | (p3[i] << 24);
    last += (v >>> 1) ^ -(v & 1);
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
