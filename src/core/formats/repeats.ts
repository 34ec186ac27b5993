import type { GeometryChunk } from '../ifc/protocol.js';

/**
 * How the scene format holds a shape placed many times (a web-ifc geometry of mapped
 * items: the same window, bolt or chair again and again) once: a shape record with its
 * local positions and triangles, then per repeat only where it goes. A chunk is written
 * as its literal part (the vertices and indices of every other piece) and its repeats;
 * the reader places each repeat again as the batcher placed it, so the chunk it rebuilds
 * is the one written (positions within one grid step). example_project_location's
 * gzipped scene goes from 511 to 226 kB this way (docs/SCENE-FORMAT.md).
 */

/** A shape: distinct positions in web-ifc's frame and triangles over them (not yet turned, see PieceRepeat.inward). */
export interface SceneShape {
  id: number;
  positions: Float32Array;
  triangles: Uint32Array;
}

/** u32 numbers per repeat in a chunk: shape, first vertex, first index, flags (1: inward), object number, RGBA. */
export const REPEAT_INTS = 6;
/** Per repeat, its placement (column-major 4x4, affine): the 3x3 part as f32, the translation as f64 (georeferenced models place things kilometres away). */
export const REPEAT_LINEAR = 9;
export const REPEAT_TRANSLATION = 3;
const LINEAR = [0, 1, 2, 4, 5, 6, 8, 9, 10];
const TRANSLATION = [12, 13, 14];

/** A chunk's repeats as the two arrays the format stores, sorted by first vertex. */
export function repeatTables(chunk: GeometryChunk): RepeatTables {
  const repeats = [...(chunk.repeats ?? [])].sort((a, b) => a.vertexBase - b.vertexBase);
  const ints = new Uint32Array(repeats.length * REPEAT_INTS);
  const linear = new Float32Array(repeats.length * REPEAT_LINEAR);
  const translation = new Float64Array(repeats.length * REPEAT_TRANSLATION);
  const colors = new DataView(chunk.colors.buffer, chunk.colors.byteOffset);
  repeats.forEach((r, i) => {
    ints.set([r.shape, r.vertexBase, r.indexFirst, r.inward ? 1 : 0, chunk.objects[r.vertexBase], colors.getUint32(r.vertexBase * 4, true)], i * REPEAT_INTS);
    LINEAR.forEach((k, j) => (linear[i * REPEAT_LINEAR + j] = r.m[k]));
    TRANSLATION.forEach((k, j) => (translation[i * REPEAT_TRANSLATION + j] = r.m[k]));
  });
  return { ints, linear, translation };
}

export interface RepeatTables {
  ints: Uint32Array;
  linear: Float32Array;
  translation: Float64Array;
}

/** The chunk's arrays without its repeats' vertices and indices: what the format stores of them. */
export function literalPart(chunk: GeometryChunk) {
  const repeats = chunk.repeats ?? [];
  const vertexRuns = runs(repeats.map((r) => [r.vertexBase, r.vertices]));
  const indexRuns = runs(repeats.map((r) => [r.indexFirst, r.indices]));
  return {
    positions: without(chunk.positions, vertexRuns, 3),
    colors: without(chunk.colors, vertexRuns, 4),
    objects: without(chunk.objects, vertexRuns, 1),
    indices: without(chunk.indices, indexRuns, 1),
  };
}

/**
 * Rebuilds a chunk's full arrays from its literal part and its repeats: each repeat's
 * positions placed as the batcher placed them (double precision, minus `origin`), its
 * colour and object number on every vertex, its triangles (turned when inward) on its
 * vertices. The shape's positions are on a grid and the 3x3 part of the placement is
 * float32, so a repeat's positions are within one grid step of the batcher's, as the
 * literal ones are.
 */
export function withRepeats(
  literal: { positions: Float32Array; colors: Uint8Array; objects: Float32Array; indices: Uint16Array | Uint32Array },
  counts: { vertices: number; indices: number },
  tables: RepeatTables,
  shapes: ReadonlyMap<number, SceneShape>,
  origin: readonly [number, number, number],
  Damaged: new (message: string) => Error,
) {
  const positions = new Float32Array(counts.vertices * 3);
  const colors = new Uint8Array(counts.vertices * 4);
  const objects = new Float32Array(counts.vertices);
  const indices = literal.indices instanceof Uint32Array ? new Uint32Array(counts.indices) : new Uint16Array(counts.indices);
  const colorWords = new Uint32Array(colors.buffer);
  /** [first index, count] of each repeat's triangles. */
  const repeatIndices: [number, number][] = [];
  let litVertex = 0;
  let nextVertex = 0;
  const copyVertices = (until: number) => {
    const n = until - nextVertex;
    if (n < 0 || litVertex + n > literal.objects.length) throw new Damaged('A geometry chunk\'s repeats overlap or overrun its vertices');
    positions.set(literal.positions.subarray(litVertex * 3, (litVertex + n) * 3), nextVertex * 3);
    colors.set(literal.colors.subarray(litVertex * 4, (litVertex + n) * 4), nextVertex * 4);
    objects.set(literal.objects.subarray(litVertex, litVertex + n), nextVertex);
    litVertex += n;
    nextVertex = until;
  };
  for (let i = 0; i < tables.ints.length / REPEAT_INTS; i++) {
    const [id, vertexBase, indexFirst, flags, object, rgba] = tables.ints.subarray(i * REPEAT_INTS, (i + 1) * REPEAT_INTS);
    const shape = shapes.get(id);
    if (!shape) throw new Damaged(`A geometry chunk repeats shape ${id}, which no record before it defines`);
    const count = shape.positions.length / 3;
    if (vertexBase + count > counts.vertices || indexFirst + shape.triangles.length > counts.indices) throw new Damaged('A geometry chunk\'s repeat lies past its arrays');
    copyVertices(vertexBase);
    // As ifcPoint (web-ifc-frame.ts) places a vertex, inlined: this runs for every vertex of every repeat while the page waits.
    const [m0, m1, m2, m4, m5, m6, m8, m9, m10] = tables.linear.subarray(i * REPEAT_LINEAR, (i + 1) * REPEAT_LINEAR);
    const [m12, m13, m14] = tables.translation.subarray(i * REPEAT_TRANSLATION, (i + 1) * REPEAT_TRANSLATION);
    const [ox, oy, oz] = origin;
    const p = shape.positions;
    // The loops read their lengths once: on a page that has just opened (code not optimised
    // yet) that took example_project_location's scene from 65-77 to 50-57 ms to ready.
    for (let j = 0, at = vertexBase * 3, n = p.length; j < n; j += 3, at += 3) {
      const x = p[j], y = p[j + 1], z = p[j + 2];
      positions[at] = m0 * x + m4 * y + m8 * z + m12 - ox;
      positions[at + 1] = -(m2 * x + m6 * y + m10 * z + m14) - oy;
      positions[at + 2] = m1 * x + m5 * y + m9 * z + m13 - oz;
    }
    colorWords.fill(rgba, vertexBase, vertexBase + count);
    objects.fill(object, vertexBase, vertexBase + count);
    const t = flags & 1 ? turned(shape) : shape.triangles;
    for (let k = 0, at = indexFirst, n = t.length; k < n; k++, at++) indices[at] = vertexBase + t[k];
    repeatIndices.push([indexFirst, t.length]);
    nextVertex = vertexBase + count;
  }
  copyVertices(counts.vertices);
  if (litVertex !== literal.objects.length) throw new Damaged('A geometry chunk has more vertices than its count');
  // The literal indices fill what the repeats leave, in order.
  let litIndex = 0;
  let next = 0;
  for (const [first, n] of runs(repeatIndices)) {
    if (first < next || litIndex + first - next > literal.indices.length) throw new Damaged('A geometry chunk\'s repeats overlap or overrun its indices');
    indices.set(literal.indices.subarray(litIndex, litIndex + first - next), next);
    litIndex += first - next;
    next = first + n;
  }
  if (litIndex + counts.indices - next !== literal.indices.length) throw new Damaged('A geometry chunk\'s literal indices do not fill it');
  indices.set(literal.indices.subarray(litIndex), next);
  return { positions, colors, objects, indices };
}

const turnedTriangles = new WeakMap<SceneShape, Uint32Array>();
/** A shape's triangles with the second and third corner swapped (for an inward placement), made once per shape. */
function turned(shape: SceneShape): Uint32Array {
  let t = turnedTriangles.get(shape);
  if (!t) {
    t = shape.triangles.slice();
    for (let k = 0; k < t.length; k += 3) {
      const second = t[k + 1];
      t[k + 1] = t[k + 2];
      t[k + 2] = second;
    }
    turnedTriangles.set(shape, t);
  }
  return t;
}

/** [first, count] runs sorted by first. */
function runs(list: number[][]): [number, number][] {
  return (list as [number, number][]).sort((a, b) => a[0] - b[0]);
}

/** `array` without the elements of `runs` (in units of `stride` elements). */
function without<T extends Float32Array | Uint8Array | Uint16Array | Uint32Array>(array: T, gaps: [number, number][], stride: number): T {
  const removed = gaps.reduce((n, [, count]) => n + count, 0);
  const out = new (array.constructor as new (n: number) => T)(array.length - removed * stride);
  let from = 0;
  let at = 0;
  for (const [first, count] of gaps) {
    out.set(array.subarray(from * stride, first * stride), at);
    at += (first - from) * stride;
    from = first + count;
  }
  out.set(array.subarray(from * stride), at);
  return out;
}
