import type { GeometryChunk } from '../ifc/protocol.js';
import type { GridData } from '../ifc/grids.js';
import type { SpatialNode } from '../types.js';

import { crc32 } from './checksum.js';
import { packIndices, packPositions, positionStep, unpackIndices, unpackPositions } from './packing.js';
import { literalPart, repeatTables, REPEAT_INTS, REPEAT_LINEAR, REPEAT_TRANSLATION, withRepeats, type SceneShape } from './repeats.js';

export type { SceneShape } from './repeats.js';

/**
 * The scene format (`application/vnd.platform.scene`), version 4: a model's geometry in
 * the shape the 3D viewer draws it (the IFC worker's chunks), with what the viewer needs
 * besides, so a page draws a processed model without web-ifc. docs/SCENE-FORMAT.md is
 * the specification; in short:
 *
 *   "BIMSCENE" (8 bytes), version (u32), 0 (u32), then records until the end record:
 *   kind (u32), byte length (u32), CRC-32 of kind, length and payload (u32), payload,
 *   zeros to a multiple of 4 bytes.
 *
 * Records come in the order a viewer wants them while the bytes still arrive: the header
 * (JSON), the element chunks, the spaces' chunks, the products (JSON), the end (JSON with
 * counts: a file without it was cut short). Shape records (repeats.ts) come anywhere
 * before the first chunk that repeats them. Numbers are little-endian. Object ids in the
 * file are express ids; the viewer adds the revision's objectIdBase.
 */
export const SCENE_MEDIA_TYPE = 'application/vnd.platform.scene';
export const SCENE_MAGIC = 'BIMSCENE';
/** 4: a checksum per record; 3: shapes placed many times held once (repeats.ts); 2: positions and indices packed (packing.ts); 1 had them as the viewer draws them. */
export const SCENE_VERSION = 4;
const PREAMBLE = 16;
/** kind, length, checksum. */
const RECORD_HEAD = 12;

export const enum RecordKind {
  Header = 1,
  Chunk = 2,
  Products = 3,
  End = 4,
  Shape = 5,
}

export interface SceneHeader {
  /** The IFC schema (IFC2X3, IFC4, ...). */
  schema: string;
  /** IFC coordinates (metres, z up) subtracted from every position; null when nothing has geometry. */
  origin: [number, number, number] | null;
  /** IFC type name per type code in the chunks. */
  typeNames: Record<number, string>;
  /** The grids, object ids as express ids. */
  grids: GridData[];
}

/** Every product's basic fields, column by column (the viewer's records without `attributes`/`definedBy`). */
export interface SceneProducts {
  spatial: SpatialNode | null;
  expressIds: number[];
  parents: number[];
  globalIds: string[];
  types: string[];
  names: string[];
  descriptions: (string | null)[];
}

/** The product table without the spatial structure: what ProductTable collects record by record. */
export type ProductColumns = Omit<SceneProducts, 'spatial'>;

export interface SceneEnd {
  chunks: number;
  products: number;
}

export type SceneRecord =
  | { kind: RecordKind.Header; header: SceneHeader }
  | { kind: RecordKind.Chunk; chunk: GeometryChunk; spaces: boolean }
  | { kind: RecordKind.Products; products: SceneProducts }
  | { kind: RecordKind.End; end: SceneEnd };

/** What is wrong with a scene file: the viewer reports it (type 'format'). */
export class SceneFormatError extends Error {}

const FLAG_TRANSPARENT = 1;
const FLAG_CLOSED = 2;
const FLAG_SPACES = 4;
const FLAG_INDICES32 = 8;
/** u32 numbers before a chunk's arrays: flags, vertices, indices, pieces, objects, repeats, literal vertices, literal indices; then the positions' grid step (f32). */
const CHUNK_HEAD = 8;

const pad4 = (n: number) => (n + 3) & ~3;

export function preamble(): Uint8Array {
  const bytes = new Uint8Array(PREAMBLE);
  bytes.set(new TextEncoder().encode(SCENE_MAGIC));
  new DataView(bytes.buffer).setUint32(8, SCENE_VERSION, true);
  return bytes;
}

/** The CRC-32 of a record's kind, length and payload (`record` starts at its kind). */
export const checksum = (record: Uint8Array, length: number) => crc32(record.subarray(0, 8), record.subarray(RECORD_HEAD, RECORD_HEAD + length));

function record(kind: RecordKind, parts: ArrayBufferView[]): Uint8Array {
  const length = parts.reduce((n, p) => pad4(n) + p.byteLength, 0);
  const bytes = new Uint8Array(RECORD_HEAD + pad4(length));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, kind, true);
  view.setUint32(4, length, true);
  let at = RECORD_HEAD;
  for (const part of parts) {
    at = pad4(at);
    bytes.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), at);
    at += part.byteLength;
  }
  view.setUint32(8, checksum(bytes, length), true);
  return bytes;
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

export function encodeHeader(header: SceneHeader): Uint8Array {
  return record(RecordKind.Header, [json(header)]);
}

export function encodeProducts(products: SceneProducts): Uint8Array {
  return record(RecordKind.Products, [json(products)]);
}

export function encodeEnd(end: SceneEnd): Uint8Array {
  return record(RecordKind.End, [json(end)]);
}

export function encodeChunk(chunk: GeometryChunk, spaces: boolean): Uint8Array {
  const flags = (chunk.transparent ? FLAG_TRANSPARENT : 0) | (chunk.closed ? FLAG_CLOSED : 0) | (spaces ? FLAG_SPACES : 0) | (chunk.indices instanceof Uint32Array ? FLAG_INDICES32 : 0);
  const repeats = repeatTables(chunk);
  const literal = literalPart(chunk);
  const head = new Uint32Array([flags, chunk.objects.length, chunk.indices.length, chunk.sizes.length, chunk.expressIds.length, repeats.ints.length / REPEAT_INTS, literal.objects.length, literal.indices.length]);
  const step = positionStep(chunk.positions);
  return record(RecordKind.Chunk, [
    head, new Float32Array([step]), packPositions(literal.positions, step), literal.colors, literal.objects, packIndices(literal.indices),
    chunk.ranges, chunk.sizes, chunk.expressIds, chunk.types, chunk.boxes, repeats.ints, repeats.linear, repeats.translation,
  ]);
}

/** A shape: its number and counts (u32), its grid step (f32), then its positions and triangles packed as a chunk's are (packing.ts). */
export function encodeShape(shape: SceneShape): Uint8Array {
  const step = positionStep(shape.positions);
  return record(RecordKind.Shape, [new Uint32Array([shape.id, shape.positions.length / 3, shape.triangles.length]), new Float32Array([step]), packPositions(shape.positions, step), packIndices(shape.triangles)]);
}

/** Reads a record's arrays one after another, each a copy of its own. */
class Arrays {
  private at: number;
  constructor(
    private readonly payload: Uint8Array,
    from: number,
    private readonly what: string,
  ) {
    this.at = from;
  }

  span(bytes: number): Uint8Array {
    this.at = pad4(this.at);
    if (this.at + bytes > this.payload.byteLength) throw new SceneFormatError(`${this.what} is shorter than its arrays`);
    this.at += bytes;
    return this.payload.subarray(this.at - bytes, this.at);
  }

  // A copy (not slice(): a Node Buffer's shares memory): aligned, transferable, and what
  // the viewer keeps of a chunk does not hold the rest of it.
  take<T>(make: new (b: ArrayBuffer) => T, bytesPer: number, count: number): T {
    return new make(new Uint8Array(this.span(bytesPer * count)).buffer);
  }
}

/** Throws `message` when an index is not below `limit`. */
function checkBelow(indices: Uint16Array | Uint32Array, limit: number, message: string) {
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= limit) throw new SceneFormatError(message);
  }
}

function decodeShape(payload: Uint8Array): SceneShape {
  if (payload.byteLength < 16) throw new SceneFormatError('A shape record is shorter than its header');
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const [id, vertices, indices] = [0, 1, 2].map((i) => view.getUint32(i * 4, true));
  const step = view.getFloat32(12, true);
  if (!(step > 0)) throw new SceneFormatError('A shape has no grid step for its positions');
  const arrays = new Arrays(payload, 16, 'A shape record');
  const shape = { id, positions: unpackPositions(arrays.span(vertices * 3 * 4), vertices * 3, step), triangles: unpackIndices(arrays.span(indices * 4), indices, true) as Uint32Array };
  checkBelow(shape.triangles, vertices, 'A shape has a triangle past its positions');
  return shape;
}

function decodeChunk(payload: Uint8Array, shapes: ReadonlyMap<number, SceneShape>, origin: readonly [number, number, number] | null): { chunk: GeometryChunk; spaces: boolean } {
  if (payload.byteLength < (CHUNK_HEAD + 1) * 4) throw new SceneFormatError('A geometry chunk is shorter than its header');
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const [flags, vertices, indices, pieces, objects, repeats, literalVertices, literalIndices] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => view.getUint32(i * 4, true));
  const step = view.getFloat32(CHUNK_HEAD * 4, true);
  if (!(step > 0)) throw new SceneFormatError('A geometry chunk has no grid step for its positions');
  const arrays = new Arrays(payload, (CHUNK_HEAD + 1) * 4, 'A geometry chunk');
  if (literalVertices > vertices || literalIndices > indices || (!repeats && (literalVertices !== vertices || literalIndices !== indices))) throw new SceneFormatError('A geometry chunk\'s counts do not add up');
  // The literal part: every vertex and index but the repeats'.
  const literal = {
    positions: unpackPositions(arrays.span(literalVertices * 3 * 4), literalVertices * 3, step),
    colors: arrays.take(Uint8Array, 1, literalVertices * 4),
    objects: arrays.take(Float32Array, 4, literalVertices),
    indices: unpackIndices(arrays.span(literalIndices * 4), literalIndices, (flags & FLAG_INDICES32) !== 0),
  };
  const ranges = arrays.take(Uint32Array, 4, pieces * 3);
  const sizes = arrays.take(Float32Array, 4, pieces);
  const expressIds = arrays.take(Uint32Array, 4, objects);
  const types = arrays.take(Uint32Array, 4, objects);
  const boxes = arrays.take(Float32Array, 4, objects * 6);
  const tables = { ints: arrays.take(Uint32Array, 4, repeats * REPEAT_INTS), linear: arrays.take(Float32Array, 4, repeats * REPEAT_LINEAR), translation: arrays.take(Float64Array, 8, repeats * REPEAT_TRANSLATION) };
  // A repeat's indices are inside its shape's vertices (withRepeats checks where those go): only the literal ones need a look.
  checkBelow(literal.indices, vertices, 'A geometry chunk has an index past its vertices');
  const full = repeats ? withRepeats(literal, { vertices, indices }, tables, shapes, origin ?? [0, 0, 0], SceneFormatError) : literal;
  const chunk: GeometryChunk = { ...full, transparent: (flags & FLAG_TRANSPARENT) !== 0, closed: (flags & FLAG_CLOSED) !== 0, ranges, sizes, expressIds, types, boxes };
  return { chunk, spaces: (flags & FLAG_SPACES) !== 0 };
}

function decodeJson<T>(payload: Uint8Array, what: string): T {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload)) as T;
  } catch {
    throw new SceneFormatError(`The scene's ${what} is not valid JSON`);
  }
}

/**
 * Reads a scene as its bytes arrive: `push` each piece, get the records it completed.
 * Throws SceneFormatError on a file that is not a scene, of a version this code does not
 * read, or damaged; `finish` throws when the file ended before its end record.
 */
export class SceneReader {
  /** Bytes not read yet, and how many the next record (or the preamble) needs: joined only once it is all there. */
  private pending: Uint8Array[] = [];
  private size = 0;
  /** Where in the file the pending bytes start: what an error names. */
  private offset = 0;
  private need = PREAMBLE;
  private started = false;
  private ended = false;
  private chunks = 0;
  /** The shapes read so far, and the header's origin: what the chunks' repeats are placed with. */
  private readonly shapes = new Map<number, SceneShape>();
  private origin: [number, number, number] | null = null;

  push(bytes: Uint8Array): SceneRecord[] {
    this.pending.push(bytes);
    this.size += bytes.length;
    if (this.size < this.need) return [];
    const buffer = this.pending.length === 1 ? this.pending[0] : concat(this.pending, this.size);
    const records: SceneRecord[] = [];
    let at = 0;
    if (!this.started) {
      if (new TextDecoder().decode(buffer.subarray(0, 8)) !== SCENE_MAGIC) throw new SceneFormatError('Not a scene file: it does not start with "BIMSCENE"');
      const version = new DataView(buffer.buffer, buffer.byteOffset).getUint32(8, true);
      if (version !== SCENE_VERSION) throw new SceneFormatError(`Scene format version ${version} is not supported (this viewer reads version ${SCENE_VERSION})`);
      this.started = true;
      at = PREAMBLE;
    }
    this.need = RECORD_HEAD;
    while (!this.ended && buffer.length - at >= RECORD_HEAD) {
      const view = new DataView(buffer.buffer, buffer.byteOffset + at);
      const kind = view.getUint32(0, true);
      const length = view.getUint32(4, true);
      this.need = RECORD_HEAD + pad4(length);
      if (buffer.length - at < this.need) break;
      if (checksum(buffer.subarray(at), length) !== view.getUint32(8, true)) throw new SceneFormatError(`The scene is damaged: the checksum of its record at byte ${this.offset + at} does not match`);
      const record = this.decode(kind, buffer.subarray(at + RECORD_HEAD, at + RECORD_HEAD + length));
      if (record) records.push(record);
      at += this.need;
      this.need = RECORD_HEAD;
    }
    if (this.ended && at < buffer.length) throw new SceneFormatError('The scene has bytes after its end record');
    const rest = buffer.subarray(at);
    this.offset += at;
    this.pending = rest.length ? [rest] : [];
    this.size = rest.length;
    return records;
  }

  finish(): void {
    if (!this.ended) throw new SceneFormatError('The scene file is truncated: it ends before its end record');
  }

  /** A record, or null for a shape (kept here for the chunks that repeat it). */
  private decode(kind: number, payload: Uint8Array): SceneRecord | null {
    switch (kind) {
      case RecordKind.Header: {
        const header = decodeJson<SceneHeader>(payload, 'header');
        this.origin = header.origin;
        return { kind, header };
      }
      case RecordKind.Shape: {
        const shape = decodeShape(payload);
        this.shapes.set(shape.id, shape);
        return null;
      }
      case RecordKind.Chunk:
        this.chunks++;
        return { kind, ...decodeChunk(payload, this.shapes, this.origin) };
      case RecordKind.Products:
        return { kind, products: decodeJson<SceneProducts>(payload, 'product table') };
      case RecordKind.End: {
        const end = decodeJson<SceneEnd>(payload, 'end record');
        if (end.chunks !== this.chunks) throw new SceneFormatError(`The scene is damaged: its end record counts ${end.chunks} chunks, the file has ${this.chunks}`);
        this.ended = true;
        return { kind, end };
      }
      default:
        throw new SceneFormatError(`The scene has a record of unknown kind ${kind}`);
    }
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
