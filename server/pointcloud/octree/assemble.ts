import { closeSync, openSync } from 'node:fs';
import {
  crc32,
  encodeHierarchy,
  encodePointCloudHead,
  NodeType,
  type HierarchyEntry,
  type PointCloudMetadata,
} from '../../../src/core/formats/pointcloud.js';
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
 * Writes the file: head (with the metadata), hierarchy, then the octree section copied from
 * its parts' scratch files in pieces (the output is never whole in memory).
 */
export function writeContainer(outPath: string, metadata: PointCloudMetadata, entries: HierarchyEntry[], parts: { path: string; size: number }[]): number {
  const octreeSize = parts.reduce((sum, part) => sum + part.size, 0);
  const hierarchy = encodeHierarchy(entries);
  metadata.container.hierarchy = { offset: 0, size: hierarchy.length, crc32: crc32(hierarchy) };
  metadata.container.octree = { offset: 0, size: octreeSize };
  metadata.hierarchy.firstChunkSize = hierarchy.length;
  const head = encodePointCloudHead(metadata);
  const out = openSync(outPath, 'w');
  try {
    writeAll(out, head, 0);
    writeAll(out, hierarchy, head.length);
    let at = head.length + hierarchy.length;
    const piece = new Uint8Array(Math.min(8 << 20, Math.max(octreeSize, 1)));
    for (const part of parts) {
      const from = openSync(part.path, 'r');
      try {
        for (let done = 0; done < part.size; ) {
          const n = Math.min(piece.length, part.size - done);
          readAll(from, piece.subarray(0, n), done);
          writeAll(out, piece.subarray(0, n), at);
          done += n;
          at += n;
        }
      } finally {
        closeSync(from);
      }
    }
    return at;
  } finally {
    closeSync(out);
  }
}
