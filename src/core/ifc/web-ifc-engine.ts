import * as WebIfc from 'web-ifc';
import { IfcAPI, LogLevel, SchemaNames } from 'web-ifc';
import type { GeometryCache } from './geometry-cache.js';

/**
 * web-ifc as the workers start it: single-threaded (the multi-threaded build stalls,
 * TOOLCHAIN.md), its wasm fetched from the URL the page gives, logging off.
 */
export async function createIfcApi(wasmUrl: string): Promise<IfcAPI> {
  const api = new IfcAPI();
  // web-ifc asks for the wasm by file name; answer with the URL the page gave us.
  await api.Init((path: string) => (path.endsWith('.wasm') ? wasmUrl : path), true);
  api.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
  return api;
}

/** Rejects what is not a whole STEP file before web-ifc sees it, with a message a person can act on. */
/** The checks every IFC file passes before web-ifc reads it: STEP's first and last words. */
export function checkStep(bytes: Uint8Array) {
  if (bytes.length === 0) throw new Error('The IFC file is empty');
  const head = new TextDecoder().decode(bytes.subarray(0, 64)).replace(/^\uFEFF/, '').trimStart();
  if (!head.startsWith('ISO-10303-21')) throw new Error('Not an IFC file: it does not start with "ISO-10303-21;"');
  const tail = new TextDecoder().decode(bytes.subarray(Math.max(0, bytes.length - 256))).trimEnd();
  if (!tail.endsWith('END-ISO-10303-21;')) throw new Error('The IFC file is truncated: it does not end with "END-ISO-10303-21;"');
}

/**
 * Opens a model (STEP checked first). web-ifc reads the whole file while it opens, but the
 * binding keeps the read callback, and with it the file's bytes, for as long as the
 * module lives: OpenModel(bytes) would hold every file ever opened. The callback here lets
 * go of the bytes once the model is open.
 */
export function openModel(api: IfcAPI, bytes: Uint8Array): number {
  checkStep(bytes);
  let source: Uint8Array | null = bytes;
  const read = (offset: number, size: number) => source?.subarray(offset, offset + size) ?? new Uint8Array(0);
  let modelID = -1;
  try {
    modelID = api.OpenModelFromCallback(read, { COORDINATE_TO_ORIGIN: false });
  } catch (e) {
    throw new Error(headerProblem(bytes) ?? `web-ifc could not open the IFC file (${(e as Error).message})`);
  } finally {
    source = null;
  }
  if (modelID < 0) throw new Error(headerProblem(bytes) ?? 'web-ifc could not open the IFC file');
  return modelID;
}

/** The schema the file's header names (FILE_SCHEMA's first), as written; null without a header or a schema. */
export function fileSchema(bytes: Uint8Array): string | null {
  const head = new TextDecoder().decode(bytes.subarray(0, 65536));
  const header = /HEADER;([\s\S]*?)ENDSEC;/.exec(head);
  return header ? (/FILE_SCHEMA\s*\(\s*\(\s*'([^']*)'/.exec(header[1])?.[1] ?? null) : null;
}

/**
 * What is wrong with a STEP header web-ifc could not open, in words (web-ifc itself says
 * nothing, or fails reading a FILE_SCHEMA that is not there); null when the header looks right.
 */
export function headerProblem(bytes: Uint8Array): string | null {
  const head = new TextDecoder().decode(bytes.subarray(0, 65536));
  if (!/HEADER;([\s\S]*?)ENDSEC;/.test(head)) return 'The IFC file has no header (HEADER; ... ENDSEC;)';
  const schema = fileSchema(bytes);
  if (schema === null) return 'The IFC file\'s header names no schema (FILE_SCHEMA)';
  if (schemaId(schema) < 0) return `The IFC file's schema ${schema} is not one the viewer reads (IFC2X3, IFC4, IFC4X3)`;
  return unclosedString(bytes);
}

/**
 * A string that is never closed, or null. Quotes must pair up (a quote inside a string is
 * written '', a pair too); which one lacks its pair cannot be told, so no line is named.
 */
function unclosedString(bytes: Uint8Array): string | null {
  let quotes = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x27) quotes++;
  return quotes % 2 ? "The IFC file has a string that is never closed (its quotes ' do not pair up)" : null;
}

/** The number web-ifc gives an open model's schema (its index in SchemaNames: IFC2X3 1, IFC4 2, IFC4X3 3), or -1. */
/**
 * What the readers of lines (products, units, door symbols, space names) ask of a model:
 * web-ifc's IfcAPI with the model open, or a StepModel (step-model.ts), which answers
 * from the file's bytes without web-ifc opening it.
 */
export type ModelLines = Pick<IfcAPI, 'GetLineIDsWithType' | 'GetLineType' | 'GetLine' | 'GetRawLineData' | 'GetModelSchema' | 'GetMaxExpressID' | 'GetNameFromTypeCode' | 'GetTypeCodeFromName' | 'DecodeText'>;

/** The schema's number in web-ifc's SchemaNames (-1 for one web-ifc does not read). */
export function schemaId(name: string): number {
  const upper = name.toUpperCase();
  return SchemaNames.findIndex((names) => names?.includes(upper));
}

export function schemaNumber(api: Pick<IfcAPI, 'GetModelSchema'>, modelID: number): number {
  return schemaId(api.GetModelSchema(modelID));
}

/** Where the workers find each schema's tables, when they are classic scripts (the script-tag builds); by schema number. */
export type SchemaUrls = Record<number, string>;

// Our builds' web-ifc holds each schema's tables apart and loads them on demand
// (scripts/web-ifc-lazy-schemas.mjs); web-ifc as published, as Node runs it, has them all.
const loadSchemaTables = (WebIfc as unknown as { loadSchemaTables?: (schema: number, url?: string) => Promise<void> }).loadSchemaTables;

/**
 * Loads the tables of an open model's schema, which web-ifc's GetLine and its other readers
 * of whole lines need (geometry, stream plans and raw lines do not); once per schema and worker.
 */
export async function loadSchema(api: IfcAPI, modelID: number, urls: SchemaUrls | null): Promise<void> {
  if (!loadSchemaTables) return;
  const schema = schemaNumber(api, modelID);
  try {
    await loadSchemaTables(schema, urls?.[schema]);
  } catch (e) {
    throw new Error(`Could not load web-ifc's tables for ${api.GetModelSchema(modelID)}: ${(e as Error).message}`);
  }
}

/** One placed geometry of a streamed mesh, as web-ifc's binding hands it over. */
export interface PlacedGeometry {
  color: { x: number; y: number; z: number; w: number };
  geometryExpressID: number;
  /** Column-major 4x4 placement, web-ifc's y-up frame. */
  flatTransformation: ArrayLike<number>;
}

/** A product's mesh as StreamMeshes / StreamAllMeshes hand it over: its pieces are a std::vector in wasm memory (`$$.ptr`: embind's handle). */
export interface FlatMesh {
  expressID: number;
  geometries: { size(): number; get(i: number): PlacedGeometry; delete(): void; $$?: { ptr: number } };
}

interface Heaps {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  HEAPU32: Uint32Array;
}

/** web-ifc's wasm memory views (replaced when the memory grows: fetch them after each call that may grow it). */
const heapsOf = (api: IfcAPI) => (api as unknown as { wasmModule: Heaps }).wasmModule;

/** The size of web-ifc's wasm memory (a model left open keeps its share of it). */
export function wasmBytes(api: IfcAPI): number {
  return heapsOf(api).HEAPF32.buffer.byteLength;
}

/**
 * web-ifc's IfcPlacedGeometry in wasm memory (0.0.78): color (4 doubles) at 0, its
 * transformation (a glm::dmat4) at 32, flatTransformation (16 doubles) at 160,
 * geometryExpressID (u32) at 288, 296 bytes in all. Read there, a piece costs no call
 * across the binding: `get(i)` made an object, a colour object and an array of 16 with 21
 * calls into wasm (office-20k: 35k pieces, 190 MB of its scene thread's 650 MB of
 * garbage). Checked against `get` once per web-ifc (placedLayoutHolds): another
 * layout falls back to `get`.
 */
const PLACED_BYTES = 296, PLACED_MATRIX = 160, PLACED_GEOMETRY = 288;
const layoutHolds = new WeakMap<IfcAPI, boolean>();

/** The piece handed to forEachGeometry's `fn`: one object, filled again for each piece. */
const placed: PlacedGeometry & { color: PlacedGeometry['color']; flatTransformation: Float64Array } = {
  color: { x: 0, y: 0, z: 0, w: 0 },
  geometryExpressID: 0,
  flatTransformation: new Float64Array(16),
};
let doubles: Float64Array = new Float64Array(0);

/** The placed geometry at `address` into `placed`, from web-ifc's memory as it is now. */
function readPlaced(api: IfcAPI, address: number): PlacedGeometry {
  const { HEAPU8, HEAPU32 } = heapsOf(api);
  if (doubles.buffer !== HEAPU8.buffer) doubles = new Float64Array(HEAPU8.buffer);
  const d = address >> 3;
  placed.color.x = doubles[d];
  placed.color.y = doubles[d + 1];
  placed.color.z = doubles[d + 2];
  placed.color.w = doubles[d + 3];
  const m = placed.flatTransformation;
  const at = d + PLACED_MATRIX / 8;
  for (let k = 0; k < 16; k++) m[k] = doubles[at + k];
  placed.geometryExpressID = HEAPU32[(address + PLACED_GEOMETRY) >> 2];
  return placed;
}

/** Whether this web-ifc's pieces are read from its memory (true), through `get` (false), or not known yet (undefined): for tests. */
export const placedLayoutHolds = (api: IfcAPI): boolean | undefined => layoutHolds.get(api);

/** Where the mesh's pieces begin in wasm memory, and how many there are; null where the layout is not known to hold. */
function piecesInMemory(api: IfcAPI, list: FlatMesh['geometries']): { begin: number; count: number } | null {
  const vector = list.$$?.ptr;
  if (typeof vector !== 'number' || layoutHolds.get(api) === false) return null;
  const { HEAPU32 } = heapsOf(api);
  const begin = HEAPU32[vector >> 2], end = HEAPU32[(vector >> 2) + 1];
  if (layoutHolds.get(api) === undefined) {
    const size = list.size();
    if (size === 0) return null; // nothing to check the layout against yet
    const first = list.get(0);
    const read = readPlaced(api, begin);
    const [c, r] = [first.color, read.color];
    const holds = begin % 8 === 0 && end - begin === size * PLACED_BYTES && read.geometryExpressID === first.geometryExpressID &&
      Object.is(c.x, r.x) && Object.is(c.y, r.y) && Object.is(c.z, r.z) && Object.is(c.w, r.w) &&
      first.flatTransformation.length === 16 && Array.from(first.flatTransformation).every((v, k) => Object.is(v, read.flatTransformation[k]));
    layoutHolds.set(api, holds);
    if (!holds) return null;
  }
  return { begin, count: (end - begin) / PLACED_BYTES };
}

/** Piece `i` of a mesh in web-ifc's memory, read after GetGeometry (a growing wasm memory replaces the views); top-level, not a closure per mesh (tsx names each). */
function pieceAt(api: IfcAPI, memory: { begin: number }, i: number): PlacedGeometry {
  return readPlaced(api, memory.begin + i * PLACED_BYTES);
}

/**
 * Calls `fn` with each placed geometry of a streamed mesh that has triangles (web-ifc yields
 * some empty ones, TOOLCHAIN.md): its vertices (interleaved position and normal, y up) and
 * triangles are views of web-ifc's memory, not copies as GetVertexArray makes, and the
 * piece (`placed`) is one object filled again for each, so `fn` reads them before web-ifc
 * runs again and copies what it keeps, and never writes them. With `cache`, a geometry
 * placed before may come from the cache's copy instead. The mesh's list of pieces is let
 * go of after (it is a copy in wasm memory, otherwise freed when JavaScript collects it).
 */
export function forEachGeometry(api: IfcAPI, modelID: number, mesh: FlatMesh, fn: (vertices: Float32Array, triangles: Uint32Array, placed: PlacedGeometry) => void, cache?: GeometryCache) {
  const list = mesh.geometries;
  const memory = piecesInMemory(api, list);
  const count = memory ? memory.count : list.size();
  try {
    for (let i = 0; i < count; i++) {
      // Through the binding, a piece is a copy: got once, before GetGeometry as after.
      const got = memory ? null : list.get(i);
      const id = got ? got.geometryExpressID : heapsOf(api).HEAPU32[(memory!.begin + i * PLACED_BYTES + PLACED_GEOMETRY) >> 2];
      const kept = cache?.get(id);
      if (kept) {
        fn(kept.vertices, kept.triangles, got ?? pieceAt(api, memory!, i));
        continue;
      }
      const geometry = api.GetGeometry(modelID, id);
      const vertexCount = geometry.GetVertexDataSize();
      const indexCount = geometry.GetIndexDataSize();
      if (vertexCount > 0 && indexCount > 0) {
        const heaps = heapsOf(api);
        const v = geometry.GetVertexData() / 4;
        const t = geometry.GetIndexData() / 4;
        const vertices = heaps.HEAPF32.subarray(v, v + vertexCount);
        const triangles = heaps.HEAPU32.subarray(t, t + indexCount);
        if (cache?.wants(id, vertices.byteLength + triangles.byteLength)) {
          cache.keep(id, { vertices: vertices.slice(), triangles: triangles.slice() });
        }
        fn(vertices, triangles, got ?? pieceAt(api, memory!, i));
      }
      geometry.delete();
    }
  } finally {
    list.delete();
  }
}

/**
 * web-ifc's StreamMeshes (the given objects only). Called on the wasm module itself:
 * in 0.0.78 the IfcAPI wrapper passes a fourth argument the binding refuses ("called with
 * 4 arguments, expected 3"). The geometry is the same as StreamAllMeshes gives.
 */
export function streamMeshes(api: IfcAPI, modelID: number, ids: number[], onMesh: (mesh: any, index: number) => void): void { // eslint-disable-line @typescript-eslint/no-explicit-any
  (api as unknown as { wasmModule: { StreamMeshes(modelID: number, ids: number[], cb: typeof onMesh): void } }).wasmModule.StreamMeshes(modelID, ids, onMesh);
}
