import type { Product, ProductOptions, SpatialNode } from '../types.js';
import type { GridData } from './grids.js';

/**
 * Messages between the main thread (IfcClient) and the IFC worker. Geometry travels as
 * transferable typed arrays, a chunk at a time while the model streams.
 */

/** A batch of triangles from many objects, in viewer coordinates (model minus origin, z up). */
export interface GeometryChunk {
  positions: Float32Array;
  normals: Int8Array;
  /** RGBA per vertex. */
  colors: Uint8Array;
  /** Per vertex: the object's index within its model (see OpenResult.expressIds). */
  objects: Float32Array;
  indices: Uint32Array;
  /** True when the chunk holds surfaces with their own transparency (glass). */
  transparent: boolean;
  /** Per piece: object index, first index, index count (triples). */
  ranges: Uint32Array;
}

export interface OpenResult {
  /** Express id of each object index used in chunks. */
  expressIds: Uint32Array;
  /** IFC type name of each object index (IfcWall...). */
  types: string[];
  /** Per object index: min xyz, max xyz in viewer coordinates. */
  boxes: Float32Array;
  /** The origin subtracted from every position (IFC coordinates, metres). */
  origin: [number, number, number];
  spatial: SpatialNode | null;
  schema: string;
  grids: GridData[];
}

export type Request =
  | { kind: 'init'; wasmUrl: string }
  | { kind: 'open'; modelKey: number; bytes: ArrayBuffer; objectIdBase: string; origin: [number, number, number] | null; only: number[] | null }
  | { kind: 'stream'; modelKey: number; origin: [number, number, number] }
  | { kind: 'products'; modelKey: number; expressIds: number[] | null; options: ProductOptions }
  | { kind: 'express-id'; modelKey: number; globalIds: string[] }
  | { kind: 'close'; modelKey: number };

export type RequestMessage = Request & { requestId: number };

export type ResponseMessage =
  | { requestId: number; kind: 'progress'; progress: number }
  | { requestId: number; kind: 'chunk'; chunk: GeometryChunk }
  | { requestId: number; kind: 'done'; value: unknown }
  | { requestId: number; kind: 'error'; message: string };

export type { Product, SpatialNode };
