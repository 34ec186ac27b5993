import { Box3, Vector3, type Points } from 'three';
import { NodeType, PointCloudFormatError, decodeHierarchyChunk, nodeBounds, type HierarchyEntry, type PointCloudMetadata } from '../formats/pointcloud.js';

/** A node of a cloud's octree: where its points are in the file, its box, and its points once loaded. */
export class OctreeNode {
  readonly level: number;
  readonly children: (OctreeNode | undefined)[] = [];
  /** Its cube less the viewer origin (the cloud's own frame, before transformModel). */
  readonly box: Box3;
  /** Its cube's minimum in the file's coordinates (doubles): positions are decoded relative to it. */
  readonly min: [number, number, number];
  points: Points | null = null;
  loading = false;
  /** Set when its points failed to load: not asked for again. */
  failed = false;
  /** Shown this frame. */
  drawn = false;
  /** Per octant, the level of detail drawn there this frame (the finest level around its points). */
  readonly octantLevels = new Float32Array(8);
  /** The last frame it was shown (the cache drops the longest unseen first). */
  lastShown = 0;

  constructor(readonly name: string, readonly entry: HierarchyEntry, readonly parent: OctreeNode | null, metadata: PointCloudMetadata, origin: Vector3) {
    this.level = name.length - 1;
    const { min, max } = nodeBounds(metadata.boundingBox, name);
    this.min = min;
    this.box = new Box3(new Vector3(...min).sub(origin), new Vector3(...max).sub(origin));
  }

  get numPoints(): number {
    return this.entry.numPoints;
  }

  get loaded(): boolean {
    return this.points !== null;
  }
}

/**
 * The whole tree of a hierarchy section: the first chunk, and every proxy's chunk in its
 * place (the section is small, 22 bytes a node, and is read whole to check its CRC-32).
 */
export function buildOctree(hierarchy: Uint8Array, metadata: PointCloudMetadata, origin: Vector3): OctreeNode {
  const { firstChunkSize } = metadata.hierarchy;
  const nodes = new Map<string, OctreeNode>();
  let root: OctreeNode | null = null;
  const pending: { offset: number; size: number; name: string }[] = [{ offset: 0, size: firstChunkSize, name: 'r' }];
  while (pending.length) {
    const { offset, size, name } = pending.pop()!;
    if (offset < 0 || size <= 0 || offset + size > hierarchy.length) throw new PointCloudFormatError(`the hierarchy chunk of node ${name} (${size} bytes at ${offset}) lies outside the hierarchy`);
    for (const entry of decodeHierarchyChunk(hierarchy.subarray(offset, offset + size), name)) {
      if (entry.type === NodeType.Proxy && entry.name !== name) {
        pending.push({ offset: entry.byteOffset, size: entry.byteSize, name: entry.name });
        continue;
      }
      const parent = entry.name.length > 1 ? nodes.get(entry.name.slice(0, -1)) ?? null : null;
      if (entry.name.length > 1 && !parent) throw new PointCloudFormatError(`node ${entry.name} has no parent in the hierarchy`);
      const node = new OctreeNode(entry.name, entry, parent, metadata, origin);
      nodes.set(entry.name, node);
      if (parent) parent.children[Number(entry.name[entry.name.length - 1])] = node;
      else root = node;
    }
  }
  if (!root) throw new PointCloudFormatError('the hierarchy has no root node');
  return root;
}

/**
 * The level of detail drawn in each octant of the drawn nodes (after the selection): a
 * drawn child's own mean level, else the node's level. Deepest first, so parents read
 * their children's.
 */
export function updateOctantLevels(drawn: OctreeNode[]) {
  const order = [...drawn].sort((a, b) => b.level - a.level);
  for (const node of order) {
    for (let i = 0; i < 8; i++) {
      const child = node.children[i];
      node.octantLevels[i] = child?.drawn ? meanLevel(child) : node.level;
    }
  }
}

/** A drawn node's level of detail over the octants that hold points (those with a child, else all). */
function meanLevel(node: OctreeNode): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < 8; i++) {
    if (!node.children[i]) continue;
    sum += node.octantLevels[i];
    n++;
  }
  return n ? sum / n : node.level;
}

/** Every node of the tree, parents before children. */
export function* eachNode(root: OctreeNode): Generator<OctreeNode> {
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    yield node;
    for (const child of node.children) if (child) stack.push(child);
  }
}
