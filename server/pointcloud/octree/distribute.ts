import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { RECORD, RECORD_INTS } from './records.js';

/** A node of the octree in cube units: its name, its lowest corner and its size (2^bits). */
export interface Region {
  name: string;
  origin: [number, number, number];
  bits: number;
}

/** Cells of the distribution grid per axis, as a power of two: 64^3 cells (a 2 MB count array). */
export const GRID_BITS = 6;

/**
 * How many bytes of sorted runs a conversion keeps in memory (shared by its distributors):
 * runs past it go to the scratch file. Small and medium clouds then never touch the disk
 * until the output; large ones use memory up to the budget, not beyond.
 */
export class RunBudget {
  constructor(public left: number) {}
}

/**
 * Sorts the points of a region into the cells of a grid over it: records fill a buffer; a
 * full buffer is ordered by cell (a counting sort) into one run, kept in memory (a
 * SharedArrayBuffer the index workers read without copying) while the budget lasts, else
 * written to a scratch file; each cell's part of a run is a block. A cell's points are then
 * its blocks. Memory: two buffers of `capacity` records, plus the runs the budget allows.
 */
export class Distributor {
  readonly gridBits: number;
  /** Cube units to cell: x >> shift. */
  readonly shift: number;
  readonly counts: Float64Array;
  buffer: Uint8Array;
  ints: Int32Array;
  cells: Uint32Array;
  count = 0;
  private sorted: Uint8Array;
  private sortedInts: Int32Array;
  private readonly starts: Uint32Array;
  /** Per cell: run, byte offset (in the run's memory, or in the file) and record count of each block, flattened. */
  private readonly blocks = new Map<number, number[]>();
  /** The runs in order: in memory, or null for a run in the scratch file. */
  readonly runs: (SharedArrayBuffer | null)[] = [];
  private readonly fd: number;
  private size = 0;

  constructor(
    readonly path: string,
    readonly region: Region,
    private readonly budget = new RunBudget(0),
    readonly capacity = 1 << 20,
  ) {
    this.gridBits = Math.min(GRID_BITS, region.bits);
    this.shift = region.bits - this.gridBits;
    this.counts = new Float64Array(1 << (3 * this.gridBits));
    this.buffer = new Uint8Array(capacity * RECORD);
    this.ints = new Int32Array(this.buffer.buffer);
    this.cells = new Uint32Array(capacity);
    this.sorted = new Uint8Array(capacity * RECORD);
    this.sortedInts = new Int32Array(this.sorted.buffer);
    this.starts = new Uint32Array(this.counts.length + 1);
    this.fd = openSync(path, 'w+');
  }

  /** Adds records (scratch layout) that lie in the region. */
  addRecords(records: Uint8Array, count: number): void {
    const from = new Int32Array(records.buffer, records.byteOffset, count * RECORD_INTS);
    const [ox, oy, oz] = this.region.origin;
    const { gridBits, shift } = this;
    for (let i = 0; i < count; i++) {
      if (this.count === this.capacity) this.flush();
      const f = i * RECORD_INTS;
      const t = this.count * RECORD_INTS;
      const to = this.ints;
      const x = from[f], y = from[f + 1], z = from[f + 2];
      to[t] = x;
      to[t + 1] = y;
      to[t + 2] = z;
      to[t + 3] = from[f + 3];
      to[t + 4] = from[f + 4];
      to[t + 5] = from[f + 5];
      this.cells[this.count++] = (((x - ox) >> shift) << (2 * gridBits)) | (((y - oy) >> shift) << gridBits) | ((z - oz) >> shift);
    }
  }

  /** Writes the buffered records, ordered by cell. */
  flush(): void {
    const n = this.count;
    if (n === 0) return;
    const { cells, starts, counts } = this;
    const bytes = n * RECORD;
    const run = this.runs.length;
    let memory: SharedArrayBuffer | null = null;
    if (this.budget.left >= bytes) {
      this.budget.left -= bytes;
      memory = new SharedArrayBuffer(bytes);
    }
    this.runs.push(memory);
    const base = memory ? 0 : this.size;
    starts.fill(0);
    for (let i = 0; i < n; i++) starts[cells[i] + 1]++;
    for (let c = 0; c < counts.length; c++) {
      const k = starts[c + 1];
      if (k) {
        let list = this.blocks.get(c);
        if (!list) this.blocks.set(c, (list = []));
        list.push(run, base + starts[c] * RECORD, k);
        counts[c] += k;
      }
      starts[c + 1] += starts[c];
    }
    const from = this.ints;
    const to = memory ? new Int32Array(memory) : this.sortedInts;
    for (let i = 0; i < n; i++) {
      const t = starts[cells[i]]++ * RECORD_INTS;
      const f = i * RECORD_INTS;
      to[t] = from[f];
      to[t + 1] = from[f + 1];
      to[t + 2] = from[f + 2];
      to[t + 3] = from[f + 3];
      to[t + 4] = from[f + 4];
      to[t + 5] = from[f + 5];
    }
    if (!memory) {
      writeAll(this.fd, this.sorted.subarray(0, bytes), this.size);
      this.size += bytes;
    }
    this.count = 0;
  }

  /** Flushes and lets the buffers go; the scratch file stays open for reading cells. */
  finish(): void {
    this.flush();
    this.buffer = this.sorted = new Uint8Array(0);
    this.ints = this.sortedInts = new Int32Array(0);
    this.cells = new Uint32Array(0);
  }

  /** Where the cells' records are: run, byte offset and count of each block, flattened (see `readBlocks`). */
  blocksOf(cells: number[]): number[] {
    return cells.flatMap((c) => this.blocks.get(c) ?? []);
  }

  /** A cell's records, block by block (a cell too large to hold at once). */
  *cellBlocks(cell: number): Generator<{ records: Uint8Array; count: number }> {
    const list = this.blocks.get(cell) ?? [];
    for (let b = 0; b < list.length; b += 3) {
      const [run, offset, count] = [list[b], list[b + 1], list[b + 2]];
      const memory = this.runs[run];
      if (memory) yield { records: new Uint8Array(memory, offset, count * RECORD), count };
      else {
        const records = new Uint8Array(count * RECORD);
        readAll(this.fd, records, offset);
        yield { records, count };
      }
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * The records of `blocks` (run, byte offset, count triples) in one buffer: from the runs
 * in memory, or from the scratch file at `path` (opened only when a block is there).
 */
export function readBlocks(path: string, runs: (SharedArrayBuffer | null)[], blocks: number[]): { records: Uint8Array; count: number } {
  let count = 0;
  for (let b = 2; b < blocks.length; b += 3) count += blocks[b];
  const records = new Uint8Array(count * RECORD);
  let fd: number | null = null;
  try {
    let at = 0;
    for (let b = 0; b < blocks.length; b += 3) {
      const memory = runs[blocks[b]];
      const bytes = blocks[b + 2] * RECORD;
      if (memory) records.set(new Uint8Array(memory, blocks[b + 1], bytes), at);
      else readAll((fd ??= openSync(path, 'r')), records.subarray(at, at + bytes), blocks[b + 1]);
      at += bytes;
    }
  } finally {
    if (fd !== null) closeSync(fd);
  }
  return { records, count };
}

export function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

export function readAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length; ) {
    const read = readSync(fd, bytes, done, bytes.length - done, position + done);
    if (read === 0) throw new Error(`A scratch file ended early (${position + done})`);
    done += read;
  }
}
