import { PointIndex } from './point-index.js';
import type { PlanLines } from './protocol.js';

/**
 * Segments -> polylines. Section cuts and projected edges come out of the mesh as
 * loose 2D segments whose shared ends have (nearly) equal coordinates; joining them
 * into polylines makes the SVG small and lets closed section loops be filled.
 *
 * Ends are matched on a grid of `grid` metres. Segments of different owners are never
 * joined (each object's loops stay its own); duplicates and zero-length pieces go.
 * Points in the middle of a straight run are dropped.
 */

/** Collects segments (x1, y1, x2, y2) with an owner each. */
export class SegmentBuffer {
  private data = new Float64Array(4096);
  private ownerData = new Uint32Array(1024);
  count = 0;

  add(x1: number, y1: number, x2: number, y2: number, owner: number) {
    if (this.count * 4 + 4 > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
      const owners = new Uint32Array(this.ownerData.length * 2);
      owners.set(this.ownerData);
      this.ownerData = owners;
    }
    const i = this.count * 4;
    this.data[i] = x1;
    this.data[i + 1] = y1;
    this.data[i + 2] = x2;
    this.data[i + 3] = y2;
    this.ownerData[this.count] = owner;
    this.count++;
  }

  get segments(): Float64Array {
    return this.data.subarray(0, this.count * 4);
  }

  get owners(): Uint32Array {
    return this.ownerData.subarray(0, this.count);
  }
}

/** Appends polylines and packs them as PlanLines. */
export class LinesBuilder {
  private coords: number[] = [];
  private starts: number[] = [0];
  private owners: number[] = [];

  /** Adds one polyline of flat x, y pairs. */
  add(points: ArrayLike<number>, owner: number) {
    if (points.length < 4) return;
    for (let i = 0; i < points.length; i++) this.coords.push(points[i]);
    this.starts.push(this.coords.length / 2);
    this.owners.push(owner);
  }

  addAll(lines: PlanLines) {
    const n = lines.owners.length;
    for (let i = 0; i < n; i++) this.add(lines.coords.subarray(lines.starts[i] * 2, lines.starts[i + 1] * 2), lines.owners[i]);
  }

  get size(): number {
    return this.owners.length;
  }

  build(): PlanLines {
    return { coords: new Float64Array(this.coords), starts: new Uint32Array(this.starts), owners: new Uint32Array(this.owners) };
  }
}

export function emptyLines(): PlanLines {
  return { coords: new Float64Array(0), starts: new Uint32Array([0]), owners: new Uint32Array(0) };
}

/** Number of polylines in `lines`. */
export function lineCount(lines: PlanLines): number {
  return lines.owners.length;
}

/** The points of polyline `i` (flat x, y pairs; a view, not a copy). */
export function polyline(lines: PlanLines, i: number): Float64Array {
  return lines.coords.subarray(lines.starts[i] * 2, lines.starts[i + 1] * 2);
}

/**
 * Joins segments into polylines. `grid` is the matching tolerance in metres;
 * `straight` the sine of the angle under which a middle point counts as on a line.
 */
export function chainSegments(segments: Float64Array, owners: Uint32Array, grid = 1e-5, straight = 1e-4, out = new LinesBuilder()): LinesBuilder {
  const count = owners.length;
  if (count === 0) return out;
  // Group by owner (stable), so loops never run from one object into another.
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => owners[a] - owners[b] || a - b);

  let begin = 0;
  while (begin < count) {
    const owner = owners[order[begin]];
    let end = begin;
    while (end < count && owners[order[end]] === owner) end++;
    chainGroup(segments, order.subarray(begin, end), owner, grid, straight, out);
    begin = end;
  }
  return out;
}

/** One owner's edges as a graph: unique undirected edges and, per vertex, its edges (CSR). */
interface EdgeGraph {
  edgeA: number[];
  edgeB: number[];
  first: Uint32Array;
  adjacent: Uint32Array;
  used: Uint8Array;
}

// Plain functions, not closures made anew for each owner's group (a wall's cut is a
// handful of segments), here and in below-cut.ts: office-20k's storeys took 0.67 s, now 0.46.
function chainGroup(segments: Float64Array, members: Uint32Array, owner: number, grid: number, straight: number, out: LinesBuilder) {
  const points = new PointIndex(grid, members.length * 2);
  const { xs, ys } = points;
  const ends: number[] = [];
  for (const s of members) {
    const a = points.id(segments[s * 4], segments[s * 4 + 1]);
    const b = points.id(segments[s * 4 + 2], segments[s * 4 + 3]);
    if (a !== b) ends.push(a, b);
  }
  // Unique undirected edges.
  const n = xs.length;
  const seen = new Set<number>();
  const edgeA: number[] = [];
  const edgeB: number[] = [];
  for (let i = 0; i < ends.length; i += 2) {
    const a = ends[i], b = ends[i + 1];
    const key = a < b ? a * n + b : b * n + a;
    if (seen.has(key)) continue;
    seen.add(key);
    edgeA.push(a);
    edgeB.push(b);
  }
  // Adjacency (CSR).
  const degree = new Uint32Array(n + 1);
  for (let e = 0; e < edgeA.length; e++) {
    degree[edgeA[e]]++;
    degree[edgeB[e]]++;
  }
  const first = new Uint32Array(n + 1);
  for (let v = 0; v < n; v++) first[v + 1] = first[v] + degree[v];
  const fill = first.slice(0, n);
  const adjacent = new Uint32Array(edgeA.length * 2);
  for (let e = 0; e < edgeA.length; e++) {
    adjacent[fill[edgeA[e]]++] = e;
    adjacent[fill[edgeB[e]]++] = e;
  }
  const graph: EdgeGraph = { edgeA, edgeB, first, adjacent, used: new Uint8Array(edgeA.length) };
  // Open chains first (from ends and branch points), then what is left are loops.
  for (let v = 0; v < n; v++) {
    if (degree[v] === 2) continue;
    while (nextEdge(graph, v) >= 0) emitPath(walk(graph, v), xs, ys, straight, owner, out);
  }
  for (let e = 0; e < edgeA.length; e++) {
    if (!graph.used[e]) emitPath(walk(graph, edgeA[e]), xs, ys, straight, owner, out);
  }
}

function nextEdge(graph: EdgeGraph, v: number): number {
  for (let k = graph.first[v]; k < graph.first[v + 1]; k++) if (!graph.used[graph.adjacent[k]]) return graph.adjacent[k];
  return -1;
}

/** The path from `start` along unused edges until it ends or comes back to `start`. */
function walk(graph: EdgeGraph, start: number): number[] {
  const path = [start];
  let v = start;
  for (;;) {
    const e = nextEdge(graph, v);
    if (e < 0) break;
    graph.used[e] = 1;
    v = graph.edgeA[e] === v ? graph.edgeB[e] : graph.edgeA[e];
    path.push(v);
    if (v === start) break;
  }
  return path;
}

function emitPath(path: number[], xs: number[], ys: number[], straight: number, owner: number, out: LinesBuilder) {
  if (path.length < 2) return;
  const closed = path[0] === path[path.length - 1];
  out.add(simplify(path, xs, ys, closed, straight), owner);
}

/** Flat coordinates of a path with points in the middle of straight runs left out. */
function simplify(path: number[], xs: number[], ys: number[], closed: boolean, straight: number): number[] {
  const keep: number[] = [];
  const m = closed ? path.length - 1 : path.length;
  for (let i = 0; i < m; i++) {
    const isEnd = !closed && (i === 0 || i === m - 1);
    if (!isEnd) {
      const p = path[(i - 1 + m) % m], v = path[i], q = path[(i + 1) % m];
      const ax = xs[v] - xs[p], ay = ys[v] - ys[p];
      const bx = xs[q] - xs[v], by = ys[q] - ys[v];
      const la = Math.hypot(ax, ay), lb = Math.hypot(bx, by);
      const cross = ax * by - ay * bx;
      const dot = ax * bx + ay * by;
      if (la > 0 && lb > 0 && Math.abs(cross) <= straight * la * lb && dot > 0) continue;
    }
    keep.push(path[i]);
  }
  if (closed && keep.length > 0) keep.push(keep[0]);
  const out: number[] = [];
  for (const v of keep) out.push(xs[v], ys[v]);
  return out;
}
