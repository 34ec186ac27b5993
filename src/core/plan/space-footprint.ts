import { LinesBuilder } from './chain.js';
import { PointIndex } from './point-index.js';
import type { MeshPiece } from './meshes.js';
import type { PlanLines } from './protocol.js';

/**
 * The footprint of a space from its mesh, whatever the IFC geometry was (extruded
 * profile, Brep, tessellation): the triangles facing down are the floor of the volume;
 * projected onto the plan and all turned counter-clockwise, their union's boundary is
 * the footprint. Edges shared by two of them cancel; what is left is chained into
 * rings, which come out counter-clockwise around the outline and clockwise around
 * holes. A triangulation with T-junctions (an edge of one triangle running along two of
 * another) is mended by splitting the long edge at the vertices on it first.
 *
 * Only the lowest layer counts: a downward triangle above another one (the downward copy
 * of a two-sided ceiling, the inner floor of stacked solids) is not the footprint; the
 * same triangle twice counts once. A mesh with no downward triangles (an open surface)
 * uses its upward ones.
 */

const GRID = 1e-4; // metres: points closer than this are one point
/** Point ids below this pack two to an exact number key (an edge), three below TRIPLE (a triangle). */
const PAIR = 2 ** 26;
const TRIPLE = 2 ** 17;
/** One index for every space in turn (cleared each time): one per space cost more than its footprint. */
const points = new PointIndex(GRID);

export function spaceFootprint(pieces: readonly MeshPiece[]): PlanLines {
  let rings = footprint(pieces, -1);
  if (rings.owners.length === 0) rings = footprint(pieces, 1);
  return rings;
}

function footprint(pieces: readonly MeshPiece[], facing: -1 | 1): PlanLines {
  points.clear();
  const found: Triangle[] = [];
  const seen = new Set<number | string>();
  for (const piece of pieces) {
    const p = piece.positions;
    const idx = piece.indices;
    for (let t = piece.start; t < piece.end; t += 3) {
      const a = idx[t] * 3, b = idx[t + 1] * 3, c = idx[t + 2] * 3;
      const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
      const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
      const nz = ux * vy - uy * vx;
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz;
      const len = Math.sqrt(nx * nx + ny * ny + nz * nz); // not Math.hypot: it allocated for its arguments
      if (len === 0 || (nz * facing) / len < 0.2) continue; // not facing the wanted way (or too steep)
      let i = points.id(p[a], p[a + 1]), j = points.id(p[b], p[b + 1]), k = points.id(p[c], p[c + 1]);
      if (i === j || j === k || k === i) continue;
      // Projected winding: counter-clockwise when nz > 0; turn the others over.
      if (nz < 0) [j, k] = [k, j];
      const key = triangleKey(i, j, k);
      if (seen.has(key)) continue; // the same triangle twice (duplicated items)
      seen.add(key);
      found.push({ i, j, k, z: (p[a + 2] + p[b + 2] + p[c + 2]) / 3 });
    }
  }
  if (points.size >= PAIR) return new LinesBuilder().build(); // no floor has that many corners
  const kept = facing < 0 ? lowestLayer(found, points) : found;
  const edges = new DirectedEdges();
  for (const { i, j, k } of kept) {
    edges.add(i, j);
    edges.add(j, k);
    edges.add(k, i);
  }
  let boundary = edges.remaining();
  if (boundary.length === 0) return new LinesBuilder().build();
  boundary = splitAtTJunctions(boundary, points);
  return chainRings(boundary, points);
}

/** The same number (or, past TRIPLE points, text) for a triangle's three ids in any order. */
function triangleKey(i: number, j: number, k: number): number | string {
  const lo = Math.min(i, j, k), hi = Math.max(i, j, k), mid = i + j + k - lo - hi;
  return hi < TRIPLE ? (lo * TRIPLE + mid) * TRIPLE + hi : `${lo},${mid},${hi}`;
}

interface Triangle {
  i: number;
  j: number;
  k: number;
  /** Height of its centre. */
  z: number;
}

/**
 * Drops downward triangles that lie above another downward triangle: the floor of a
 * volume is what faces down lowest. (Surface models are drawn two-sided, so their
 * ceilings have a downward copy too; stacked solids have inner floors.)
 */
function lowestLayer(triangles: Triangle[], points: PointIndex): Triangle[] {
  if (triangles.length > 4000) return triangles;
  const { xs, ys } = points;
  const zs = triangles.map((t) => t.z);
  const minZ = Math.min(...zs), maxZ = Math.max(...zs);
  if (maxZ - minZ < 1e-3) return triangles;
  const boxes = triangles.map(({ i, j, k }) => [Math.min(xs[i], xs[j], xs[k]), Math.min(ys[i], ys[j], ys[k]), Math.max(xs[i], xs[j], xs[k]), Math.max(ys[i], ys[j], ys[k])]);
  return triangles.filter((t) => {
    const cx = (xs[t.i] + xs[t.j] + xs[t.k]) / 3, cy = (ys[t.i] + ys[t.j] + ys[t.k]) / 3;
    for (let u = 0; u < triangles.length; u++) {
      const other = triangles[u];
      if (other.z >= t.z - 1e-3) continue;
      const b = boxes[u];
      if (cx < b[0] || cx > b[2] || cy < b[1] || cy > b[3]) continue;
      if (insideTriangle(cx, cy, xs[other.i], ys[other.i], xs[other.j], ys[other.j], xs[other.k], ys[other.k])) return false;
    }
    return true;
  });
}

function insideTriangle(px: number, py: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  const d1 = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
  const d2 = (cx - bx) * (py - by) - (cy - by) * (px - bx);
  const d3 = (ax - cx) * (py - cy) - (ay - cy) * (px - cx);
  const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
  return !(neg && pos);
}

/** A multiset of directed edges where an edge and its reverse cancel. */
class DirectedEdges {
  /** By `a * PAIR + b`: point ids are below PAIR. */
  private readonly counts = new Map<number, number>();

  add(a: number, b: number) {
    const reverse = b * PAIR + a;
    const r = this.counts.get(reverse);
    if (r) {
      if (r === 1) this.counts.delete(reverse);
      else this.counts.set(reverse, r - 1);
      return;
    }
    const key = a * PAIR + b;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  remaining(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (const [key, n] of this.counts) {
      const a = Math.floor(key / PAIR), b = key - a * PAIR;
      for (let i = 0; i < n; i++) out.push([a, b]);
    }
    return out;
  }
}

/** Splits boundary edges at boundary vertices lying on them, then cancels opposite pairs again. */
function splitAtTJunctions(edges: Array<[number, number]>, points: PointIndex): Array<[number, number]> {
  const { xs, ys } = points;
  const vertices = [...new Set(edges.flat())];
  let changed = false;
  const split: Array<[number, number]> = [];
  for (const [a, b] of edges) {
    const ax = xs[a], ay = ys[a], bx = xs[b], by = ys[b];
    const dx = bx - ax, dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const on: Array<[number, number]> = [];
    for (const v of vertices) {
      if (v === a || v === b) continue;
      const t = ((xs[v] - ax) * dx + (ys[v] - ay) * dy) / len2;
      if (t <= 1e-9 || t >= 1 - 1e-9) continue;
      const cross = (xs[v] - ax) * dy - (ys[v] - ay) * dx;
      if (Math.abs(cross) / Math.sqrt(len2) > GRID) continue;
      on.push([t, v]);
    }
    if (on.length === 0) {
      split.push([a, b]);
      continue;
    }
    changed = true;
    on.sort((p, q) => p[0] - q[0]);
    let from = a;
    for (const [, v] of on) {
      split.push([from, v]);
      from = v;
    }
    split.push([from, b]);
  }
  if (!changed) return edges;
  const again = new DirectedEdges();
  for (const [a, b] of split) again.add(a, b);
  return again.remaining();
}

/** Directed boundary edges -> closed rings (the first point repeated at the end). */
function chainRings(edges: Array<[number, number]>, points: PointIndex): PlanLines {
  const outgoing = new Map<number, number[]>();
  edges.forEach(([a], i) => {
    const list = outgoing.get(a);
    if (list) list.push(i);
    else outgoing.set(a, [i]);
  });
  const used = new Uint8Array(edges.length);
  const out = new LinesBuilder();
  for (let e0 = 0; e0 < edges.length; e0++) {
    if (used[e0]) continue;
    const ring: number[] = [edges[e0][0]];
    let e = e0;
    for (let guard = 0; guard <= edges.length; guard++) {
      used[e] = 1;
      const to = edges[e][1];
      ring.push(to);
      if (to === ring[0]) break;
      const next = (outgoing.get(to) ?? []).find((i) => !used[i]);
      if (next === undefined) break;
      e = next;
    }
    if (ring.length < 4 || ring[0] !== ring[ring.length - 1]) continue; // open chains are noise
    const flat = dropStraightPoints(ring, points);
    if (flat.length >= 8 && Math.abs(area(flat)) > 1e-6) out.add(flat, 0);
  }
  return out.build();
}

function dropStraightPoints(ring: number[], points: PointIndex): number[] {
  const { xs, ys } = points;
  const m = ring.length - 1;
  const keep: number[] = [];
  for (let i = 0; i < m; i++) {
    const p = ring[(i - 1 + m) % m], v = ring[i], q = ring[(i + 1) % m];
    const cross = (xs[v] - xs[p]) * (ys[q] - ys[v]) - (ys[v] - ys[p]) * (xs[q] - xs[v]);
    const dot = (xs[v] - xs[p]) * (xs[q] - xs[v]) + (ys[v] - ys[p]) * (ys[q] - ys[v]);
    const ax = xs[v] - xs[p], ay = ys[v] - ys[p], bx = xs[q] - xs[v], by = ys[q] - ys[v];
    const la = Math.sqrt(ax * ax + ay * ay), lb = Math.sqrt(bx * bx + by * by);
    if (Math.abs(cross) <= 1e-9 * la * lb && dot > 0) continue;
    keep.push(v);
  }
  if (keep.length < 3) return [];
  keep.push(keep[0]);
  const flat: number[] = [];
  for (const v of keep) flat.push(xs[v], ys[v]);
  return flat;
}

function area(flat: number[]): number {
  let sum = 0;
  for (let i = 0; i + 3 < flat.length; i += 2) sum += flat[i] * flat[i + 3] - flat[i + 2] * flat[i + 1];
  return sum / 2;
}
