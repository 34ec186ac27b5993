import { grown } from './grown.js';
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
      this.data = grown(this.data);
      this.ownerData = grown(this.ownerData);
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

const NO_COORDS = new Float64Array(0);
const NO_INDICES = new Uint32Array(0);

/** Appends polylines and packs them as PlanLines. */
export class LinesBuilder {
  // Typed arrays that grow: a storey's plan has hundreds of thousands of values, pushed
  // one by one. They start empty (shared, never written): a space's outline makes one builder.
  private coords = NO_COORDS;
  private starts = NO_INDICES;
  private owners = NO_INDICES;
  private values = 0;
  private count = 0;

  /** Adds one polyline of flat x, y pairs. */
  add(points: ArrayLike<number>, owner: number) {
    const n = points.length;
    if (n < 4) return;
    if (this.values + n > this.coords.length) this.coords = grown(this.coords, this.values + n);
    if (this.count + 2 > this.starts.length) {
      this.starts = grown(this.starts, this.count + 2);
      this.owners = grown(this.owners, this.count + 2);
    }
    for (let i = 0; i < n; i++) this.coords[this.values + i] = points[i];
    this.values += n;
    this.owners[this.count] = owner;
    this.starts[++this.count] = this.values / 2;
  }

  addAll(lines: PlanLines) {
    const n = lines.owners.length;
    for (let i = 0; i < n; i++) this.add(lines.coords.subarray(lines.starts[i] * 2, lines.starts[i + 1] * 2), lines.owners[i]);
  }

  get size(): number {
    return this.count;
  }

  build(): PlanLines {
    return { coords: this.coords.slice(0, this.values), starts: this.count ? this.starts.slice(0, this.count + 1) : new Uint32Array(1), owners: this.owners.slice(0, this.count) };
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
  const order = byOwner(owners);
  const graph = new EdgeGraph(grid);
  let begin = 0;
  while (begin < count) {
    const owner = owners[order[begin]];
    let end = begin;
    while (end < count && owners[order[end]] === owner) end++;
    graph.read(segments, order, begin, end);
    graph.chain(straight, owner, out);
    begin = end;
  }
  return out;
}

/** Segment indices ordered by owner, then index. */
function byOwner(owners: Uint32Array): Uint32Array {
  const count = owners.length;
  const order = new Uint32Array(count);
  let sorted = true;
  for (let i = 1; i < count && sorted; i++) sorted = owners[i - 1] <= owners[i];
  if (sorted) {
    // Often so: a storey's pieces come in the stream's order.
    for (let i = 0; i < count; i++) order[i] = i;
    return order;
  }
  // A piece's segments come together: the runs of one owner are sorted (by owner, then
  // where they start) instead of the segments, a thirteenth as many on office-20k.
  const starts: number[] = [0];
  for (let i = 1; i < count; i++) if (owners[i] !== owners[i - 1]) starts.push(i);
  const runs = starts.length;
  starts.push(count);
  let span = 1;
  while (span < runs) span *= 2;
  const runOrder = new Uint32Array(runs);
  if (span * 2 ** 32 <= Number.MAX_SAFE_INTEGER) {
    // One number per run, sorted natively: a comparator costs a call per comparison.
    const keys = new Float64Array(runs);
    for (let r = 0; r < runs; r++) keys[r] = owners[starts[r]] * span + r;
    keys.sort();
    // The run back from its key: span is a power of two, so this is exact.
    for (let r = 0; r < runs; r++) runOrder[r] = keys[r] - Math.floor(keys[r] / span) * span;
  } else {
    for (let r = 0; r < runs; r++) runOrder[r] = r;
    runOrder.sort((a, b) => owners[starts[a]] - owners[starts[b]] || a - b);
  }
  let at = 0;
  for (const r of runOrder) for (let i = starts[r]; i < starts[r + 1]; i++) order[at++] = i;
  return order;
}

/**
 * One owner's edges as a graph: unique undirected edges and, per vertex, its edges (CSR).
 * One graph reads group after group, its arrays reused: a wall's cut is a handful of
 * segments, and new arrays for each cost more than the chaining (office-200k's storeys).
 */
class EdgeGraph {
  private readonly points: PointIndex;
  private edgeA = new Int32Array(64);
  private edgeB = new Int32Array(64);
  private edges = 0;
  private degree = new Uint32Array(64);
  private first = new Uint32Array(65);
  private fill = new Uint32Array(64);
  private adjacent = new Uint32Array(128);
  private used = new Uint8Array(64);
  private readonly seen = new Set<number>();

  constructor(grid: number) {
    this.points = new PointIndex(grid);
  }

  /** The unique edges of segments `order[begin..end)`, and who meets where. */
  read(segments: Float64Array, order: Uint32Array, begin: number, end: number) {
    const { points, seen } = this;
    points.clear();
    seen.clear();
    this.edges = 0;
    if (this.edgeA.length < end - begin) {
      this.edgeA = new Int32Array((end - begin) * 2);
      this.edgeB = new Int32Array((end - begin) * 2);
      this.used = new Uint8Array((end - begin) * 2);
    }
    const ends: number[] = [];
    for (let i = begin; i < end; i++) {
      const s = order[i];
      const a = points.id(segments[s * 4], segments[s * 4 + 1]);
      const b = points.id(segments[s * 4 + 2], segments[s * 4 + 3]);
      if (a !== b) ends.push(a, b);
    }
    // Unique undirected edges (keys need every point's id first).
    const n = points.size;
    for (let i = 0; i < ends.length; i += 2) {
      const a = ends[i], b = ends[i + 1];
      const key = a < b ? a * n + b : b * n + a;
      if (seen.has(key)) continue;
      seen.add(key);
      this.edgeA[this.edges] = a;
      this.edgeB[this.edges] = b;
      this.used[this.edges] = 0;
      this.edges++;
    }
    // Adjacency (CSR).
    if (this.degree.length < n) {
      this.degree = new Uint32Array(n * 2);
      this.first = new Uint32Array(n * 2 + 1);
      this.fill = new Uint32Array(n * 2);
    }
    if (this.adjacent.length < this.edges * 2) this.adjacent = new Uint32Array(this.edges * 4);
    const { degree, first, fill, adjacent, edgeA, edgeB } = this;
    degree.fill(0, 0, n);
    for (let e = 0; e < this.edges; e++) {
      degree[edgeA[e]]++;
      degree[edgeB[e]]++;
    }
    first[0] = 0;
    for (let v = 0; v < n; v++) first[v + 1] = first[v] + degree[v];
    fill.set(first.subarray(0, n));
    for (let e = 0; e < this.edges; e++) {
      adjacent[fill[edgeA[e]]++] = e;
      adjacent[fill[edgeB[e]]++] = e;
    }
  }

  /** The group's polylines to `out`: open chains first (from ends and branch points), then what is left are loops. */
  chain(straight: number, owner: number, out: LinesBuilder) {
    const { xs, ys } = this.points;
    const n = this.points.size;
    for (let v = 0; v < n; v++) {
      if (this.degree[v] === 2) continue;
      while (this.nextEdge(v) >= 0) emitPath(this.walk(v), xs, ys, straight, owner, out);
    }
    for (let e = 0; e < this.edges; e++) {
      if (!this.used[e]) emitPath(this.walk(this.edgeA[e]), xs, ys, straight, owner, out);
    }
  }

  private nextEdge(v: number): number {
    for (let k = this.first[v]; k < this.first[v + 1]; k++) if (!this.used[this.adjacent[k]]) return this.adjacent[k];
    return -1;
  }

  /** The path from `start` along unused edges until it ends or comes back to `start`. */
  private walk(start: number): number[] {
    const path = [start];
    let v = start;
    for (;;) {
      const e = this.nextEdge(v);
      if (e < 0) break;
      this.used[e] = 1;
      v = this.edgeA[e] === v ? this.edgeB[e] : this.edgeA[e];
      path.push(v);
      if (v === start) break;
    }
    return path;
  }
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
      // sqrt rather than Math.hypot, which allocated for its arguments (office-20k: 25 MB of garbage here).
      const la = Math.sqrt(ax * ax + ay * ay), lb = Math.sqrt(bx * bx + by * by);
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
