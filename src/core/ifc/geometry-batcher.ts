import type { GeometryChunk } from './protocol.js';
import type { PieceShape } from './piece-shape.js';
import { ifcPoint } from './web-ifc-frame.js';

/** Vertices per chunk: big enough to keep draw calls few, small enough to stream. */
const CHUNK_VERTICES = 1 << 18;

/**
 * Collects placed web-ifc geometries into large chunks of triangles (one draw call
 * each), tagging every vertex with its object's number in the chunk so per-object state
 * works on the GPU. Positions are transformed in double precision and shifted by the
 * origin before they become float32, so georeferenced models keep their precision.
 *
 * Beside what the GPU draws, each chunk carries its triangles for picking and snapping in
 * a compact form the page keeps once the GPU has its copy: each piece's distinct positions
 * (PieceShape) and indices local to the piece (16-bit whenever they fit).
 */
export class GeometryBatcher {
  private capacity = 0;
  private vertices = 0;
  private indexCount = 0;
  private positions = new Float32Array(0);
  private normals = new Int8Array(0);
  private colors = new Uint8Array(0);
  private objects = new Float32Array(0);
  private indices = new Uint32Array(0);
  private pickVertices = 0;
  private pickPositions = new Float32Array(0);
  private pickIndices = new Uint32Array(0);
  private pickMax = 0;
  private ranges: number[] = [];
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
   * `shape` what PieceShape read of it.
   */
  add(expressId: number, type: number, vertices: Float32Array, triangles: Uint32Array, m: ArrayLike<number>, rgba: ArrayLike<number>, shape: PieceShape) {
    const count = vertices.length / 6;
    if (this.vertices + count > this.capacity || this.indexCount + triangles.length > this.indices.length) {
      this.emit();
      this.allocate(Math.max(CHUNK_VERTICES, count), Math.max(CHUNK_VERTICES * 2, triangles.length));
    }
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
    const { positions, normals, colors, objects } = this;
    const r = Math.round(rgba[0] * 255), g = Math.round(rgba[1] * 255), b = Math.round(rgba[2] * 255), a = Math.round(rgba[3] * 255);
    const p = this.point;
    for (let i = 0; i < count; i++) {
      ifcPoint(vertices, i * 6, m, p);
      const px = p[0] - ox, py = p[1] - oy, pz = p[2] - oz;
      const nx = vertices[i * 6 + 3], ny = vertices[i * 6 + 4], nz = vertices[i * 6 + 5];
      const v = base + i;
      positions[v * 3] = px;
      positions[v * 3 + 1] = py;
      positions[v * 3 + 2] = pz;
      if (px < minX) minX = px;
      if (py < minY) minY = py;
      if (pz < minZ) minZ = pz;
      if (px > maxX) maxX = px;
      if (py > maxY) maxY = py;
      if (pz > maxZ) maxZ = pz;
      // Normals turn with the placement, and from web-ifc's y up to z up as positions do.
      const tx = m[0] * nx + m[4] * ny + m[8] * nz;
      const ty = m[1] * nx + m[5] * ny + m[9] * nz;
      const tz = m[2] * nx + m[6] * ny + m[10] * nz;
      const s = 127 / (Math.hypot(tx, ty, tz) || 1);
      normals[v * 3] = Math.round(tx * s);
      normals[v * 3 + 1] = Math.round(-tz * s);
      normals[v * 3 + 2] = Math.round(ty * s);
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
    const pickBase = this.pickVertices;
    const { local, firsts, distinct } = shape;
    for (let j = 0; j < distinct; j++) {
      const from = (base + firsts[j]) * 3, to = (pickBase + j) * 3;
      this.pickPositions[to] = positions[from];
      this.pickPositions[to + 1] = positions[from + 1];
      this.pickPositions[to + 2] = positions[from + 2];
    }
    this.pickVertices += distinct;
    if (distinct > this.pickMax) this.pickMax = distinct;
    const first = this.indexCount;
    const { indices, pickIndices } = this;
    // An inward-wound solid is turned: the second and third corner of each triangle swap.
    const [second, third] = shape.inward ? [2, 1] : [1, 2];
    for (let t = 0; t < triangles.length; t += 3) {
      const a = triangles[t], b = triangles[t + second], c = triangles[t + third];
      indices[first + t] = a + base;
      indices[first + t + 1] = b + base;
      indices[first + t + 2] = c + base;
      pickIndices[first + t] = local[a];
      pickIndices[first + t + 1] = local[b];
      pickIndices[first + t + 2] = local[c];
    }
    this.vertices += count;
    this.indexCount += triangles.length;
    this.ranges.push(object, first, triangles.length, pickBase);
  }

  /** Sends what is collected as one chunk (copies sized to fit, transferable). */
  emit() {
    if (this.vertices === 0) return;
    const n = this.vertices;
    this.flush({
      positions: this.positions.slice(0, n * 3),
      normals: this.normals.slice(0, n * 3),
      colors: this.colors.slice(0, n * 4),
      objects: this.objects.slice(0, n),
      indices: this.indices.slice(0, this.indexCount),
      pickPositions: this.pickPositions.slice(0, this.pickVertices * 3),
      pickIndices: this.pickMax <= 0x10000 ? narrow(this.pickIndices.subarray(0, this.indexCount)) : this.pickIndices.slice(0, this.indexCount),
      transparent: this.transparent,
      closed: this.closed,
      ranges: new Uint32Array(this.ranges),
      expressIds: new Uint32Array(this.expressIds),
      types: new Uint32Array(this.types),
      boxes: new Float32Array(this.boxes),
    });
    this.vertices = 0;
    this.indexCount = 0;
    this.pickVertices = 0;
    this.pickMax = 0;
    this.ranges = [];
    this.numbers.clear();
    this.expressIds = [];
    this.types = [];
    this.boxes = [];
  }

  private allocate(vertices: number, indices: number) {
    if (vertices <= this.capacity && indices <= this.indices.length) return;
    this.capacity = vertices;
    this.positions = new Float32Array(vertices * 3);
    this.normals = new Int8Array(vertices * 3);
    this.colors = new Uint8Array(vertices * 4);
    this.objects = new Float32Array(vertices);
    this.indices = new Uint32Array(indices);
    this.pickPositions = new Float32Array(vertices * 3);
    this.pickIndices = new Uint32Array(indices);
  }
}

function narrow(indices: Uint32Array): Uint16Array {
  const out = new Uint16Array(indices.length);
  out.set(indices);
  return out;
}
