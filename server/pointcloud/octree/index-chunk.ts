import type { Region } from './distribute.js';
import { RECORD, RECORD_INTS } from './records.js';
import type { Splitter } from './subsample.js';

/** A chunk's root after indexing: its points, to be subsampled again by the levels above. */
export interface ChunkRoot {
  region: Region;
  /** Scratch-layout records. */
  records: Uint8Array;
  count: number;
}

/** Receives a node's points: `order[from..to)` of `records`. */
export type EmitNode = (name: string, records: Uint8Array, order: Uint32Array, from: number, to: number) => void;

/**
 * The octree of one chunk, top down: a node with more than `maxNodePoints` keeps its
 * subsample and hands the rest to its children; a smaller one (or one a unit wide) is a
 * leaf with all its points. Every node but the chunk's root is emitted; the root's points
 * are returned, because the levels above take some of them.
 */
export function indexChunk(
  records: Uint8Array,
  count: number,
  region: Region,
  maxNodePoints: number,
  splitter: Splitter,
  emit: EmitNode,
  /** Told the root's count before any node is emitted (so the rest's size is known). */
  onRoot?: (rootCount: number) => void,
): ChunkRoot {
  const ints = new Int32Array(records.buffer, records.byteOffset, count * RECORD_INTS);
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let root: ChunkRoot | null = null;

  const visit = (name: string, origin: [number, number, number], bits: number, from: number, to: number) => {
    let end = to;
    let counts: Uint32Array | null = null;
    if (to - from > maxNodePoints && bits > 0) {
      counts = splitter.split(ints, order, from, to, origin, bits).slice();
      end = from + counts[0];
    }
    if (name === region.name) {
      root = { region, records: gather(records, order, from, end), count: end - from };
      onRoot?.(end - from);
    } else emit(name, records, order, from, end);
    if (!counts) return;
    const half = 2 ** (bits - 1);
    let at = end;
    for (let c = 0; c < 8; c++) {
      const n = counts[c + 1];
      if (!n) continue;
      const child: [number, number, number] = [origin[0] + ((c >> 2) & 1) * half, origin[1] + ((c >> 1) & 1) * half, origin[2] + (c & 1) * half];
      visit(name + c, child, bits - 1, at, at + n);
      at += n;
    }
  };
  visit(region.name, region.origin, region.bits, 0, count);
  return root!;
}

/** The records `order[from..to)`, copied into a buffer of their own. */
export function gather(records: Uint8Array, order: Uint32Array, from: number, to: number): Uint8Array {
  const out = new Uint8Array((to - from) * RECORD);
  for (let i = from; i < to; i++) out.set(records.subarray(order[i] * RECORD, (order[i] + 1) * RECORD), (i - from) * RECORD);
  return out;
}
