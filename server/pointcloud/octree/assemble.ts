import { closeSync, ftruncateSync, openSync, renameSync } from 'node:fs';
import {
  encodeHierarchy,
  encodePointCloudHead,
  NodeType,
  type HierarchyEntry,
  type PointCloudMetadata,
} from '../../../src/core/formats/pointcloud.js';
import { crc32 } from '../../../src/core/formats/checksum.js';
import { readAll, writeAll } from './distribute.js';
import type { WrittenNode } from './node-writer.js';

/**
 * The hierarchy of the written nodes in Potree's order (breadth first, children in index
 * order: by name length, then name), one chunk. Empty leaves are left out (a node whose
 * points all moved up has nothing to draw); an empty inner node stays, 0 points.
 */
export function hierarchyOf(nodes: Map<string, WrittenNode>): HierarchyEntry[] {
  const names = [...nodes.keys()].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const masks = new Map<string, number>();
  const kept = new Set<string>();
  for (let i = names.length - 1; i >= 0; i--) {
    const name = names[i];
    const mask = masks.get(name) ?? 0;
    if (nodes.get(name)!.numPoints === 0 && mask === 0 && name !== 'r') continue;
    kept.add(name);
    if (name.length > 1) {
      const parent = name.slice(0, -1);
      masks.set(parent, (masks.get(parent) ?? 0) | (1 << Number(name[name.length - 1])));
    }
  }
  return names
    .filter((name) => kept.has(name))
    .map((name) => {
      const node = nodes.get(name)!;
      const childMask = masks.get(name) ?? 0;
      return { name, type: childMask ? NodeType.Normal : NodeType.Leaf, childMask, ...node };
    });
}

/**
 * Ends the file: the nodes are already in it, at their positions, past `reserve` bytes
 * left for the head. The octree section starts where head + hierarchy end (their lengths
 * depend on the offsets they hold, so this settles in a few rounds); the bytes between
 * that and the first node are part of the section, unused (never read, sparse on disk).
 * When head + hierarchy outgrow the reserve, the nodes are copied after them instead.
 */
export function finishContainer(outPath: string, metadata: PointCloudMetadata, nodes: Map<string, WrittenNode>, reserve: number, spare: string): void {
  const absolute = hierarchyOf(nodes);
  const end = Math.max(reserve, ...absolute.map((e) => e.byteOffset + e.byteSize));
  // Head and hierarchy when the node at file position p is at p - shift in the section,
  // which holds the file's bytes from shift to the end of the last node.
  const encode = (shift: number) => {
    const hierarchy = encodeHierarchy(absolute.map((e) => ({ ...e, byteOffset: e.byteOffset - shift })));
    metadata.container.hierarchy = { offset: 0, size: hierarchy.length, crc32: crc32(hierarchy) };
    metadata.container.octree = { offset: 0, size: end - shift };
    metadata.hierarchy.firstChunkSize = hierarchy.length;
    const head = encodePointCloudHead(metadata);
    return { head, hierarchy, start: head.length + hierarchy.length };
  };
  // Rounds until the section starts where the shift assumed it does.
  const settle = (shiftOf: (start: number) => number) => {
    let start = reserve;
    for (let round = 0; round < 16; round++) {
      const written = encode(shiftOf(start));
      if (written.start === start) return written;
      start = written.start;
    }
    return null;
  };
  // In place: the section starts where the hierarchy ends, before the reserve's end.
  const inPlace = settle((start) => start);
  if (inPlace && inPlace.start <= reserve) {
    const fd = openSync(outPath, 'r+');
    try {
      writeAll(fd, inPlace.head, 0);
      writeAll(fd, inPlace.hierarchy, inPlace.head.length);
      ftruncateSync(fd, end);
    } finally {
      closeSync(fd);
    }
    return;
  }
  // Moved: the nodes (from the reserve on) copied after a new head and hierarchy.
  renameSync(outPath, spare);
  const moved = settle(() => reserve);
  if (!moved) throw new Error('The point cloud head did not settle');
  const out = openSync(outPath, 'w');
  const from = openSync(spare, 'r');
  try {
    writeAll(out, moved.head, 0);
    writeAll(out, moved.hierarchy, moved.head.length);
    const piece = new Uint8Array(8 << 20);
    for (let done = reserve; done < end; ) {
      const n = Math.min(piece.length, end - done);
      readAll(from, piece.subarray(0, n), done);
      writeAll(out, piece.subarray(0, n), moved.start + done - reserve);
      done += n;
    }
  } finally {
    closeSync(from);
    closeSync(out);
  }
}
