import type { Product, ProductOptions, SpatialNode } from '../types.js';
import type { GridData } from './grids.js';
import type { SchemaUrls } from './web-ifc-engine.js';

/**
 * Messages between the main thread (IfcClient) and an IFC worker. A model is opened, then
 * its geometry is streamed in units of work (slices of its stream plan, stream-plan.ts),
 * which the main thread may share out between several workers that have the same file
 * open. Geometry travels as transferable typed arrays, a chunk at a time.
 */

/**
 * The colour of a vertex whose IFC gives it none: all channels 0, which no colour of a
 * file becomes (a file's alpha is at least 1/255), so the viewer can draw it in its
 * `defaultColor`, and change that at any time.
 */
export const UNSTYLED = [0, 0, 0, 0] as const;

/**
 * A batch of triangles from many objects, in viewer coordinates (model minus origin, z up).
 * Objects are numbered within the chunk (0..n-1); `expressIds`, `types` and `boxes` say
 * which object each number is, so chunks from any worker, in any order, can be placed.
 */
export interface GeometryChunk {
  /**
   * Each piece's distinct positions, one run per piece. Drawn as they are (a face's
   * normal comes from its positions) and kept by the page for picking.
   */
  positions: Float32Array;
  /** RGBA per vertex; UNSTYLED where the IFC gives no colour. */
  colors: Uint8Array;
  /** Per vertex: the object's number within the chunk. */
  objects: Float32Array;
  /** Triangles, three indices into `positions` each: 16-bit unless one piece alone has more positions. */
  indices: Uint16Array | Uint32Array;
  /** True when the chunk holds surfaces with their own transparency (glass). */
  transparent: boolean;
  /** True when every piece is a closed solid wound outward: back faces need not be drawn. */
  closed: boolean;
  /** Per piece (RANGE_STRIDE numbers): object number, first index, index count; largest object first. */
  ranges: Uint32Array;
  /** Per piece: its object's size (the diagonal of its box in this chunk), descending. */
  sizes: Float32Array;
  /** Per object number: its express id. */
  expressIds: Uint32Array;
  /** Per object number: its IFC type code (see OpenResult.typeNames). */
  types: Uint32Array;
  /** Per object number: min xyz, max xyz of its triangles in this chunk. */
  boxes: Float32Array;
  /** Only where a scene is written (formats/scene.ts): the pieces that repeat a shape seen before, which the file holds once. */
  repeats?: PieceRepeat[];
}

/** A piece of a chunk that places a shape (a web-ifc geometry used more than once) again. */
export interface PieceRepeat {
  /** The shape's number in the scene (GeometryStream's `onShape`). */
  shape: number;
  /** Its placement: column-major 4x4, web-ifc's y-up frame (as web-ifc-frame.ts reads it). */
  m: Float64Array;
  /** Its triangles turned (PieceShape.inward). */
  inward: boolean;
  /** Where the piece is in the chunk: its first vertex and first index, and how many of each. */
  vertexBase: number;
  vertices: number;
  indexFirst: number;
  indices: number;
}

/** Numbers per piece in GeometryChunk.ranges. */
export const RANGE_STRIDE = 3;

export interface OpenResult {
  /** Units of work in the model's stream plan: stream them all to get every object. */
  units: number;
  /** The units before the spaces' (spaces are hidden at load: the viewer shows the model, then streams them). */
  elementUnits: number;
  /** IFC type name per type code in the plan (IfcWall...). Only when opened with `details`, as are the grids. */
  typeNames: Record<number, string>;
  grids: GridData[];
}

export type Request =
  | { kind: 'init'; wasmUrl: string; schemaUrls: SchemaUrls | null }
  /** `details`: also read the type names and grids (the worker that keeps the model needs them; a helper does not). */
  | { kind: 'open'; modelKey: number; bytes: ArrayBuffer; objectIdBase: string; only: number[] | null; details: boolean }
  /**
   * Streams units of the plan; chunks fill up across requests until `stream-end`. Every
   * position has `origin` (IFC coordinates, metres) subtracted; when null, the stream's
   * first vertex rounded to whole metres, or the origin an earlier request of the stream
   * set. Answers the origin used (null while nothing had geometry).
   */
  | { kind: 'stream'; modelKey: number; units: number[]; origin: [number, number, number] | null }
  | { kind: 'stream-end'; modelKey: number }
  | { kind: 'spatial'; modelKey: number }
  | { kind: 'products'; modelKey: number; expressIds: number[] | null; options: ProductOptions }
  | { kind: 'express-id'; modelKey: number; globalIds: string[] }
  | { kind: 'close'; modelKey: number }
  /** Diagnostics (tests of long sessions): the worker's open models and web-ifc's wasm memory, as WorkerMemory. */
  | { kind: 'memory' };

/** What a worker holds: the models it has open, and the bytes of web-ifc's wasm memory (which grows, never shrinks). */
export interface WorkerMemory {
  models: number;
  wasmBytes: number;
}

export type RequestMessage = Request & { requestId: number };

export type ResponseMessage =
  | { requestId: number; kind: 'chunk'; chunk: GeometryChunk }
  | { requestId: number; kind: 'done'; value: unknown }
  | { requestId: number; kind: 'error'; message: string };

export type { Product, SpatialNode };
