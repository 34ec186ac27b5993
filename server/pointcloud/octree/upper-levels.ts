import type { ChunkRoot } from './index-chunk.js';
import { gather } from './index-chunk.js';
import { RECORD, RECORD_INTS } from './records.js';
import type { Splitter } from './subsample.js';

/** A node's points held in memory (scratch layout). */
export interface HeldNode {
  records: Uint8Array;
  count: number;
}

/**
 * The nodes above the chunks, bottom up: each takes its subsample of its children's points
 * (the chunk roots' or those of nodes already built below it); the points it does not take
 * stay with the child. Returns the points of every chunk root and every node above, by name.
 */
export function buildUpperLevels(roots: ChunkRoot[], cubeBits: number, splitter: Splitter): Map<string, HeldNode> {
  const held = new Map<string, HeldNode>();
  const upper = new Set<string>();
  for (const root of roots) {
    held.set(root.region.name, { records: root.records, count: root.count });
    for (let l = 1; l < root.region.name.length; l++) upper.add(root.region.name.slice(0, l));
  }
  const names = [...upper].sort((a, b) => b.length - a.length);
  for (const name of names) {
    const children: string[] = [];
    let total = 0;
    for (let c = 0; c < 8; c++) {
      const child = held.get(name + c);
      if (child) {
        children.push(name + c);
        total += child.count;
      }
    }
    // The candidates: the children's points, child 0's first.
    const records = new Uint8Array(total * RECORD);
    let at = 0;
    for (const child of children) {
      const node = held.get(child)!;
      records.set(node.records.subarray(0, node.count * RECORD), at * RECORD);
      at += node.count;
    }
    const order = new Uint32Array(total);
    for (let i = 0; i < total; i++) order[i] = i;
    const { origin, bits } = regionOf(name, cubeBits);
    const ints = new Int32Array(records.buffer, 0, total * RECORD_INTS);
    const counts = splitter.split(ints, order, 0, total, origin, bits).slice();
    held.set(name, { records: gather(records, order, 0, counts[0]), count: counts[0] });
    at = counts[0];
    for (let c = 0; c < 8; c++) {
      const n = counts[c + 1];
      if (held.has(name + c)) held.set(name + c, { records: gather(records, order, at, at + n), count: n });
      at += n;
    }
  }
  return held;
}

/** A node's lowest corner and size in cube units, from its name. */
export function regionOf(name: string, cubeBits: number): { origin: [number, number, number]; bits: number } {
  const origin: [number, number, number] = [0, 0, 0];
  let bits = cubeBits;
  for (let i = 1; i < name.length; i++) {
    const c = Number(name[i]);
    bits--;
    const half = 2 ** bits;
    origin[0] += ((c >> 2) & 1) * half;
    origin[1] += ((c >> 1) & 1) * half;
    origin[2] += (c & 1) * half;
  }
  return { origin, bits };
}
