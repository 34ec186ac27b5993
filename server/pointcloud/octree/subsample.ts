import { RECORD_INTS } from './records.js';

/** A node's subsample grid: 128^3 cells of its cube, at most one point kept in each. */
export const SAMPLE_BITS = 7;

/**
 * Splits a node's points (`order[from..to)`, indices of records in `ints`) into the points it
 * keeps (the first in each cell of its sample grid) and the points its eight children get,
 * reordering the range in place: kept first, then child 0's, ..., child 7's (each in its
 * former order). Returns the nine counts. So each point a child gets shares its cell in the
 * parent's grid with a point the parent keeps: the invariant the tests check.
 */
export class Splitter {
  /** One bit per cell of the grid (256 kB: stays in cache, unlike a stamp per cell). */
  private readonly taken = new Int32Array(1 << (3 * SAMPLE_BITS - 5));
  private classes = new Uint8Array(0);
  private scratch = new Uint32Array(0);
  readonly counts = new Uint32Array(9);

  split(ints: Int32Array, order: Uint32Array, from: number, to: number, origin: readonly number[], bits: number): Uint32Array {
    const n = to - from;
    if (this.classes.length < n) {
      this.classes = new Uint8Array(n);
      this.scratch = new Uint32Array(n);
    }
    const { taken, classes, scratch, counts } = this;
    const gb = Math.min(SAMPLE_BITS, bits);
    const s = bits - gb;
    const h = bits - 1;
    const [ox, oy, oz] = origin;
    counts.fill(0);
    taken.fill(0, 0, Math.max(1, (1 << (3 * gb)) >> 5));
    for (let i = 0; i < n; i++) {
      const p = order[from + i] * RECORD_INTS;
      const x = ints[p] - ox;
      const y = ints[p + 1] - oy;
      const z = ints[p + 2] - oz;
      const key = ((x >> s) << (2 * gb)) | ((y >> s) << gb) | (z >> s);
      const word = key >> 5;
      const bit = 1 << (key & 31);
      let c = 0;
      if ((taken[word] & bit) === 0) taken[word] |= bit;
      else c = 1 + (((x >> h) << 2) | ((y >> h) << 1) | (z >> h));
      classes[i] = c;
      counts[c]++;
    }
    const starts = [0];
    for (let c = 1; c < 9; c++) starts[c] = starts[c - 1] + counts[c - 1];
    for (let i = 0; i < n; i++) scratch[starts[classes[i]]++] = order[from + i];
    order.set(scratch.subarray(0, n), from);
    return counts;
  }
}
