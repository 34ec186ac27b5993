import { GeometryCache } from './geometry-cache.js';

/**
 * What the batcher needs to know of one placed geometry before placing it: which of its
 * vertices share a position (web-ifc repeats a corner for every face that meets there, for
 * flat normals), and whether its triangles close a solid, every edge shared by two
 * triangles running it in opposite directions. A closed solid's back faces are never seen
 * from outside, so they need not be drawn, once its triangles are known to wind outward.
 * One instance reads piece after piece; its arrays are reused. What it read of a geometry
 * placed a second time (by web-ifc's geometry id) it keeps in a GeometryCache, up to
 * KNOWN_BYTES, for the placements after.
 */
export class PieceShape {
  /** Per vertex: the index of its position among the distinct ones. */
  local: Int32Array = new Int32Array(0);
  /** Per distinct position: the first vertex that has it. */
  firsts: Int32Array = new Int32Array(0);
  distinct = 0;
  closed = false;
  /** Closed, and wound inward once placed (web-ifc's order, or a mirroring placement): the batcher turns each triangle. */
  inward = false;
  private slots = new Int32Array(0);
  private edgeFrom = new Int32Array(0);
  private edgeTo = new Int32Array(0);
  /** The arrays this instance fills (`local` and `firsts` are a known geometry's own after one of those). */
  private ownLocal = new Int32Array(0);
  private ownFirsts = new Int32Array(0);
  private readonly known = new GeometryCache<{ local: Int32Array; firsts: Int32Array; distinct: number; closed: boolean; volume: number }>(KNOWN_BYTES);

  /**
   * Reads web-ifc's interleaved position+normal `vertices` and `triangles`, placed by the
   * column-major `m`; `geometry` is their web-ifc geometry id, when known.
   */
  read(vertices: Float32Array, triangles: Uint32Array, m: ArrayLike<number>, geometry = -1): this {
    let volume: number;
    const known = this.known.get(geometry);
    if (known) {
      ({ local: this.local, firsts: this.firsts, distinct: this.distinct, closed: this.closed, volume } = known);
    } else {
      this.distinctPositions(vertices);
      this.closed = this.edgesPaired(triangles);
      volume = this.closed ? signedVolume(vertices, triangles) : 0;
      if (geometry >= 0) this.remember(geometry, vertices.length / 6, volume);
    }
    this.inward = this.closed && volume * determinant(m) < 0;
    return this;
  }

  /** Keeps what was just read of `geometry` the second time it is read. */
  private remember(geometry: number, count: number, volume: number) {
    if (!this.known.wants(geometry, (count + this.distinct) * 4)) return;
    this.known.keep(geometry, { local: this.local.slice(0, count), firsts: this.firsts.slice(0, this.distinct), distinct: this.distinct, closed: this.closed, volume });
  }

  /** Fills `local`, `firsts` and `distinct`: equal float32 bits are one position. */
  private distinctPositions(vertices: Float32Array) {
    const count = vertices.length / 6;
    const size = tableSize(count);
    if (this.slots.length < size) this.slots = new Int32Array(size);
    else this.slots.fill(0, 0, size);
    if (this.ownLocal.length < count) {
      this.ownLocal = new Int32Array(Math.max(count, this.ownLocal.length * 2));
      this.ownFirsts = new Int32Array(this.ownLocal.length);
    }
    this.local = this.ownLocal;
    this.firsts = this.ownFirsts;
    const { slots, local, firsts } = this;
    const bits = new Uint32Array(vertices.buffer, vertices.byteOffset, vertices.length);
    const mask = size - 1;
    let n = 0;
    for (let i = 0; i < count; i++) {
      const x = bits[i * 6], y = bits[i * 6 + 1], z = bits[i * 6 + 2];
      let s = mix(x ^ mix(y ^ mix(z))) & mask;
      for (;;) {
        const entry = slots[s];
        if (entry === 0) {
          firsts[n] = i;
          slots[s] = ++n;
          local[i] = n - 1;
          break;
        }
        const f = firsts[entry - 1] * 6;
        if (bits[f] === x && bits[f + 1] === y && bits[f + 2] === z) {
          local[i] = entry - 1;
          break;
        }
        s = (s + 1) & mask;
      }
    }
    this.distinct = n;
  }

  /** Whether every directed edge (between distinct positions) occurs once and its reverse once. */
  private edgesPaired(triangles: Uint32Array): boolean {
    const size = tableSize(triangles.length);
    if (this.edgeFrom.length < size) {
      this.edgeFrom = new Int32Array(size);
      this.edgeTo = new Int32Array(size);
    }
    const from = this.edgeFrom, to = this.edgeTo, local = this.local;
    from.fill(-1, 0, size);
    const mask = size - 1;
    let edges = 0;
    for (let t = 0; t < triangles.length; t += 3) {
      const a = local[triangles[t]], b = local[triangles[t + 1]], c = local[triangles[t + 2]];
      if (a === b || b === c || c === a) continue; // degenerate: draws nothing, bounds nothing
      for (let k = 0; k < 3; k++) {
        const p = k === 0 ? a : k === 1 ? b : c;
        const q = k === 0 ? b : k === 1 ? c : a;
        let s = edgeSlot(p, q, mask);
        while (from[s] !== -1) {
          if (from[s] === p && to[s] === q) return false; // the same edge the same way twice
          s = (s + 1) & mask;
        }
        from[s] = p;
        to[s] = q;
        edges++;
      }
    }
    if (edges === 0) return false;
    for (let s = 0; s < size; s++) {
      const p = from[s];
      if (p === -1) continue;
      const q = to[s];
      let r = edgeSlot(q, p, mask);
      while (from[r] !== -1 && !(from[r] === q && to[r] === p)) r = (r + 1) & mask;
      if (from[r] === -1) return false; // an edge with one triangle: an open surface
    }
    return true;
  }
}

/** What a PieceShape keeps of geometries placed again, at most (their vertices' and distinct positions' numbers). */
const KNOWN_BYTES = 16 * 1024 * 1024;

/**
 * Murmur3's finaliser: every input bit moves the low bits a table slot is taken from.
 * (A plain multiply leaves them alone for round coordinates, whose float32 low bits are
 * all zero: every corner of such a model landed in one slot.)
 */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A directed edge's first slot in a table of `mask + 1`. (A module function: a closure per call, which tsx also names, showed in profiles.) */
function edgeSlot(from: number, to: number, mask: number): number {
  return mix(Math.imul(from, 0x9e3779b1) ^ to) & mask;
}

function tableSize(entries: number): number {
  let size = 16;
  while (size < entries * 2) size *= 2;
  return size;
}

/** Six times the volume the triangles enclose, positive when they wind outward (counter-clockwise seen from outside). */
function signedVolume(v: Float32Array, triangles: Uint32Array): number {
  // Relative to the first vertex, so that far-off coordinates lose no precision.
  const ox = v[0], oy = v[1], oz = v[2];
  let sum = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t] * 6, b = triangles[t + 1] * 6, c = triangles[t + 2] * 6;
    const ax = v[a] - ox, ay = v[a + 1] - oy, az = v[a + 2] - oz;
    const bx = v[b] - ox, by = v[b + 1] - oy, bz = v[b + 2] - oz;
    const cx = v[c] - ox, cy = v[c + 1] - oy, cz = v[c + 2] - oz;
    sum += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
  }
  return sum;
}

/** Determinant of the 3x3 part of a column-major 4x4: negative for a placement that mirrors. */
function determinant(m: ArrayLike<number>): number {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
}
