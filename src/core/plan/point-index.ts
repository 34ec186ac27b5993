import { grown } from './grown.js';

/**
 * Points snapped to a grid, each grid cell one id: the joints of segments and polygon
 * edges found by their coordinates. An open-addressing hash on the (integer) cell
 * coordinates, since string keys would cost more than the geometry work itself.
 */
export class PointIndex {
  readonly xs: number[] = [];
  readonly ys: number[] = [];
  private cellX: Float64Array;
  private cellY: Float64Array;
  /** Per id, its slot in `table`: clear() empties only those. */
  private slots: Int32Array;
  private table: Int32Array;
  private readonly scale: number;

  /** `expected`: about how many points will come (the tables grow when more do). */
  constructor(grid: number, expected = 64) {
    this.scale = 1 / grid;
    let size = 16;
    while (size < expected * 2) size <<= 1;
    this.cellX = new Float64Array(size / 2);
    this.cellY = new Float64Array(size / 2);
    this.slots = new Int32Array(size / 2);
    this.table = new Int32Array(size).fill(-1);
  }

  /**
   * Forgets every point, keeping the tables: one index serves many small groups (a plan
   * chains each object's few segments apart, and three typed arrays per object cost more
   * than the chaining).
   */
  clear(): void {
    for (let id = 0; id < this.xs.length; id++) this.table[this.slots[id]] = -1;
    this.xs.length = 0;
    this.ys.length = 0;
  }

  get size(): number {
    return this.xs.length;
  }

  /** The id of the point's cell (the first point seen there keeps its coordinates). */
  id(x: number, y: number): number {
    const cx = Math.round(x * this.scale), cy = Math.round(y * this.scale);
    const mask = this.table.length - 1;
    let h = (Math.imul(cx | 0, 73856093) ^ Math.imul(cy | 0, 19349663) ^ Math.imul((cx / 4294967296) | 0, 83492791)) & mask;
    for (;;) {
      const found = this.table[h];
      if (found < 0) break;
      if (this.cellX[found] === cx && this.cellY[found] === cy) return found;
      h = (h + 1) & mask;
    }
    const id = this.xs.length;
    this.xs.push(x);
    this.ys.push(y);
    if (id >= this.cellX.length) {
      this.cellX = grown(this.cellX);
      this.cellY = grown(this.cellY);
      this.slots = grown(this.slots);
    }
    this.cellX[id] = cx;
    this.cellY[id] = cy;
    this.table[h] = id;
    this.slots[id] = h;
    if ((id + 1) * 2 > this.table.length) this.rehash();
    return id;
  }

  private rehash() {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    for (let id = 0; id < this.xs.length; id++) {
      const cx = this.cellX[id], cy = this.cellY[id];
      let h = (Math.imul(cx | 0, 73856093) ^ Math.imul(cy | 0, 19349663) ^ Math.imul((cx / 4294967296) | 0, 83492791)) & mask;
      while (table[h] >= 0) h = (h + 1) & mask;
      table[h] = id;
      this.slots[id] = h;
    }
    this.table = table;
  }
}
