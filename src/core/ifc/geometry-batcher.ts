import { RANGE_STRIDE, UNSTYLED, type GeometryChunk, type PieceRepeat } from './protocol.js';
import type { PieceShape } from './piece-shape.js';
import { ifcPoint } from './web-ifc-frame.js';

/** Positions per chunk: 16-bit indices reach them all. */
const CHUNK_VERTICES = 1 << 16;
/** Indices per chunk (web-ifc's solids run about 3.5 indices per distinct position). */
const CHUNK_INDICES = CHUNK_VERTICES * 4;

/**
 * Collects placed web-ifc geometries into large chunks of triangles (one draw call
 * each), tagging every vertex with its object's number in the chunk so per-object state
 * works on the GPU. Positions are transformed in double precision and shifted by the
 * origin before they become float32, so georeferenced models keep their precision.
 *
 * A vertex is a distinct position of a piece (PieceShape): web-ifc repeats a corner for
 * every face that meets there, only to give each face its normal, and the batch material
 * finds a face's normal from its positions instead. What the GPU draws is then compact
 * enough for the page to keep for picking and snapping as it is.
 */
export class GeometryBatcher {
  private vertices = 0;
  private indexCount = 0;
  private positions = new Float32Array(0);
  private colors = new Uint8Array(0);
  private objects = new Float32Array(0);
  private indices = new Uint32Array(0);
  private ranges: number[] = [];
  /** The pieces that repeat a shape, with the number of their range (scene writing only). */
  private repeats: { repeat: PieceRepeat; piece: number }[] = [];
  /** The chunk's objects: express id to number, and per number its type and box. */
  private readonly numbers = new Map<number, number>();
  private expressIds: number[] = [];
  private types: number[] = [];
  private boxes: number[] = [];
  private readonly point = new Float64Array(3);

  constructor(
    private readonly transparent: boolean,
    /** Every piece is a closed solid wound outward (PieceShape): its back faces need not be drawn. */
    private readonly closed: boolean,
    private readonly origin: [number, number, number],
    private readonly flush: (chunk: GeometryChunk) => void,
  ) {}

  /**
   * Adds one placed geometry of object `expressId` (IFC type `type`). `vertices` is
   * web-ifc's interleaved position+normal array (y up); `m` its column-major placement;
   * `shape` what PieceShape read of it; `rgba` its colour, null when the IFC gives it none
   * (then all four channels are 0, which no colour of a file is: see UNSTYLED).
   * `repeatOf`: the number of the scene's shape this geometry is (the chunk then says
   * where the piece went, for the scene writer to hold the shape once).
   */
  add(expressId: number, type: number, vertices: Float32Array, triangles: Uint32Array, m: ArrayLike<number>, rgba: ArrayLike<number> | null, shape: PieceShape, repeatOf?: number) {
    const { local, firsts, distinct: count } = shape;
    if (this.vertices > 0 && (this.vertices + count > CHUNK_VERTICES || this.indexCount + triangles.length > CHUNK_INDICES)) this.emit();
    // Only an empty chunk grows (a piece bigger than a chunk gets one of its own, with 32-bit indices).
    if (count > this.objects.length || triangles.length > this.indices.length) this.allocate(Math.max(CHUNK_VERTICES, count), Math.max(CHUNK_INDICES, triangles.length));
    let object = this.numbers.get(expressId);
    if (object === undefined) {
      object = this.expressIds.length;
      this.numbers.set(expressId, object);
      this.expressIds.push(expressId);
      this.types.push(type);
      this.boxes.push(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
    }
    const box = this.boxes;
    const o = object * 6;
    let minX = box[o], minY = box[o + 1], minZ = box[o + 2], maxX = box[o + 3], maxY = box[o + 4], maxZ = box[o + 5];
    const base = this.vertices;
    const [ox, oy, oz] = this.origin;
    const { positions, colors, objects } = this;
    const [r, g, b, a] = rgba ? [Math.round(rgba[0] * 255), Math.round(rgba[1] * 255), Math.round(rgba[2] * 255), Math.max(1, Math.round(rgba[3] * 255))] : UNSTYLED;
    const p = this.point;
    for (let j = 0; j < count; j++) {
      ifcPoint(vertices, firsts[j] * 6, m, p);
      const px = p[0] - ox, py = p[1] - oy, pz = p[2] - oz;
      const v = base + j;
      positions[v * 3] = px;
      positions[v * 3 + 1] = py;
      positions[v * 3 + 2] = pz;
      if (px < minX) minX = px;
      if (py < minY) minY = py;
      if (pz < minZ) minZ = pz;
      if (px > maxX) maxX = px;
      if (py > maxY) maxY = py;
      if (pz > maxZ) maxZ = pz;
      colors[v * 4] = r;
      colors[v * 4 + 1] = g;
      colors[v * 4 + 2] = b;
      colors[v * 4 + 3] = a;
      objects[v] = object;
    }
    box[o] = minX;
    box[o + 1] = minY;
    box[o + 2] = minZ;
    box[o + 3] = maxX;
    box[o + 4] = maxY;
    box[o + 5] = maxZ;
    const first = this.indexCount;
    const indices = this.indices;
    // An inward-wound solid is turned: the second and third corner of each triangle swap.
    const [second, third] = shape.inward ? [2, 1] : [1, 2];
    for (let t = 0; t < triangles.length; t += 3) {
      indices[first + t] = base + local[triangles[t]];
      indices[first + t + 1] = base + local[triangles[t + second]];
      indices[first + t + 2] = base + local[triangles[t + third]];
    }
    if (repeatOf !== undefined) {
      const repeat = { shape: repeatOf, m: Float64Array.from(m), inward: shape.inward, vertexBase: base, vertices: count, indexFirst: first, indices: triangles.length };
      this.repeats.push({ repeat, piece: this.ranges.length / RANGE_STRIDE });
    }
    this.vertices += count;
    this.indexCount += triangles.length;
    this.ranges.push(object, first, triangles.length);
  }

  /** Sends what is collected as one chunk (copies sized to fit, transferable). */
  emit() {
    if (this.vertices === 0) return;
    const n = this.vertices;
    const { indices, ranges, sizes, movedTo } = this.largestFirst();
    // A repeat's triangles moved with its piece's range.
    const repeats = this.repeats.map(({ repeat, piece }) => ({ ...repeat, indexFirst: ranges[movedTo[piece] * RANGE_STRIDE + 1] }));
    this.flush({
      positions: this.positions.slice(0, n * 3),
      colors: this.colors.slice(0, n * 4),
      objects: this.objects.slice(0, n),
      indices: n <= 0x10000 ? new Uint16Array(indices) : indices,
      transparent: this.transparent,
      closed: this.closed,
      ranges,
      sizes,
      expressIds: new Uint32Array(this.expressIds),
      types: new Uint32Array(this.types),
      boxes: new Float32Array(this.boxes),
      ...(repeats.length ? { repeats } : {}),
    });
    this.vertices = 0;
    this.indexCount = 0;
    this.ranges = [];
    this.repeats = [];
    this.numbers.clear();
    this.expressIds = [];
    this.types = [];
    this.boxes = [];
  }

  /**
   * The pieces' triangles reordered largest object first (by its box's diagonal, stable),
   * so the objects above any size are a prefix of the indices: the viewer leaves small
   * ones out while the camera moves by drawing a shorter range (scene/moving-detail.ts).
   */
  private largestFirst() {
    const boxes = this.boxes;
    const objectSize = new Float32Array(this.expressIds.length);
    for (let o = 0; o < objectSize.length; o++) {
      const b = o * 6;
      objectSize[o] = Math.hypot(boxes[b + 3] - boxes[b], boxes[b + 4] - boxes[b + 1], boxes[b + 5] - boxes[b + 2]);
    }
    const pieces = this.ranges.length / RANGE_STRIDE;
    const order = Array.from({ length: pieces }, (_, i) => i).sort((a, b) => objectSize[this.ranges[b * RANGE_STRIDE]] - objectSize[this.ranges[a * RANGE_STRIDE]] || a - b);
    const indices = new Uint32Array(this.indexCount);
    const ranges = new Uint32Array(this.ranges.length);
    const sizes = new Float32Array(pieces);
    let at = 0;
    const movedTo = new Uint32Array(pieces);
    order.forEach((piece, k) => {
      movedTo[piece] = k;
      const [object, first, count] = this.ranges.slice(piece * RANGE_STRIDE, (piece + 1) * RANGE_STRIDE);
      indices.set(this.indices.subarray(first, first + count), at);
      ranges.set([object, at, count], k * RANGE_STRIDE);
      sizes[k] = objectSize[object];
      at += count;
    });
    return { indices, ranges, sizes, movedTo };
  }

  private allocate(vertices: number, indices: number) {
    this.positions = new Float32Array(vertices * 3);
    this.colors = new Uint8Array(vertices * 4);
    this.objects = new Float32Array(vertices);
    this.indices = new Uint32Array(indices);
  }
}
