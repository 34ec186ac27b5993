import type { GeometryChunk } from './protocol.js';
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
 * (web-ifc repeats a corner for every face that meets there, for flat normals) and
 * indices local to the piece (16-bit whenever they fit).
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
  private positionBits = new Uint32Array(0);
  private pickVertices = 0;
  private pickPositions = new Float32Array(0);
  private pickBits = new Uint32Array(0);
  private pickIndices = new Uint32Array(0);
  private pickMax = 0;
  /** Open-addressing table of a piece's distinct positions (entry: local index + 1), and the piece's vertex -> local index. */
  private slots = new Int32Array(0);
  private local = new Int32Array(0);
  private ranges: number[] = [];
  /** The chunk's objects: express id to number, and per number its type and box. */
  private readonly numbers = new Map<number, number>();
  private expressIds: number[] = [];
  private types: number[] = [];
  private boxes: number[] = [];
  private readonly point = new Float64Array(3);

  constructor(
    private readonly transparent: boolean,
    private readonly origin: [number, number, number],
    private readonly flush: (chunk: GeometryChunk) => void,
  ) {}

  /**
   * Adds one placed geometry of object `expressId` (IFC type `type`). `vertices` is
   * web-ifc's interleaved position+normal array (y up); `m` its column-major placement.
   */
  add(expressId: number, type: number, vertices: Float32Array, triangles: Uint32Array, m: ArrayLike<number>, rgba: ArrayLike<number>) {
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
    const first = this.indexCount;
    for (let i = 0; i < triangles.length; i++) this.indices[first + i] = triangles[i] + base;
    const pickBase = this.pickVertices;
    const local = this.distinct(base, count);
    for (let i = 0; i < triangles.length; i++) this.pickIndices[first + i] = local[triangles[i]];
    this.vertices += count;
    this.indexCount += triangles.length;
    this.ranges.push(object, first, triangles.length, pickBase);
  }

  /**
   * Appends the distinct positions among vertices base..base+count-1 to the pick positions
   * (equal float32 bits are one position); answers each vertex's index among them.
   */
  private distinct(base: number, count: number): Int32Array {
    let size = 16;
    while (size < count * 2) size *= 2;
    if (this.slots.length < size) this.slots = new Int32Array(size);
    else this.slots.fill(0, 0, size);
    if (this.local.length < count) this.local = new Int32Array(Math.max(count, this.local.length * 2));
    const { slots, local, positionBits: bits, pickBits, pickPositions, positions } = this;
    const mask = size - 1;
    const first = this.pickVertices;
    let n = 0;
    for (let i = 0; i < count; i++) {
      const v = (base + i) * 3;
      const x = bits[v], y = bits[v + 1], z = bits[v + 2];
      let s = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)) & mask;
      for (;;) {
        const entry = slots[s];
        if (entry === 0) {
          const q = (first + n) * 3;
          pickPositions[q] = positions[v];
          pickPositions[q + 1] = positions[v + 1];
          pickPositions[q + 2] = positions[v + 2];
          slots[s] = ++n;
          local[i] = n - 1;
          break;
        }
        const q = (first + entry - 1) * 3;
        if (pickBits[q] === x && pickBits[q + 1] === y && pickBits[q + 2] === z) {
          local[i] = entry - 1;
          break;
        }
        s = (s + 1) & mask;
      }
    }
    this.pickVertices += n;
    if (n > this.pickMax) this.pickMax = n;
    return local;
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
    this.positionBits = new Uint32Array(this.positions.buffer);
    this.pickPositions = new Float32Array(vertices * 3);
    this.pickBits = new Uint32Array(this.pickPositions.buffer);
    this.pickIndices = new Uint32Array(indices);
  }
}

function narrow(indices: Uint32Array): Uint16Array {
  const out = new Uint16Array(indices.length);
  out.set(indices);
  return out;
}
