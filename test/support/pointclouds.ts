// Point clouds the tests generate: points -> a file in the platform's format (a small
// octree writer of its own: first point per grid cell stays in a node, the rest go down),
// served by the test server's /test-files/pointclouds/ route with range requests.
import {
  ATTRIBUTES,
  HIERARCHY_NODE_BYTES,
  NodeType,
  childBounds,
  encodeHierarchy,
  encodePointCloudHead,
  type Bounds,
  type HierarchyEntry,
  type PointAttribute,
  type PointCloudMetadata,
  type Vec3,
} from '../../src/core/formats/pointcloud';
import type { BimViewer3d } from '../../src/elements/bim-viewer-3d';
import type { Viewer3d } from '../../src/core/viewer3d';
import { sleep } from './page';

/** The element's engine (the tests look at its point clouds' state). */
export const core = (el: BimViewer3d) => (el as unknown as { core: Viewer3d }).core;

/** Draws frames until no node is being read, decoded or wanted. */
export async function settle(el: BimViewer3d) {
  for (let i = 0; i < 600; i++) {
    await el.renderInfo();
    if (!core(el).pointClouds.busy) return;
    await sleep(20);
  }
  throw new Error('the point cloud never settled');
}

export interface TestPoints {
  /** x, y, z per point (doubles: UTM coordinates keep their millimetres). */
  positions: Float64Array;
  /** r, g, b per point, 0-255. */
  colors?: Uint8Array;
  intensity?: Uint16Array;
  classification?: Uint8Array;
}

export interface CloudOptions {
  /** Grid cells per axis of a node (its subsample). */
  cells?: number;
  maxDepth?: number;
  /** Levels per hierarchy chunk: deeper nodes sit in chunks of their own behind proxies. */
  stepSize?: number;
  scale?: number;
}

interface Built {
  name: string;
  bounds: Bounds;
  points: number[];
  children: (Built | undefined)[];
}

/** The file of `points`, and its metadata. */
export function buildCloud(points: TestPoints, options: CloudOptions = {}): { bytes: Uint8Array; metadata: PointCloudMetadata } {
  const { cells = 32, maxDepth = 8, stepSize = 100, scale = 0.001 } = options;
  const count = points.positions.length / 3;
  const tmin: Vec3 = [Infinity, Infinity, Infinity];
  const tmax: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    for (let a = 0; a < 3; a++) {
      tmin[a] = Math.min(tmin[a], points.positions[i * 3 + a]);
      tmax[a] = Math.max(tmax[a], points.positions[i * 3 + a]);
    }
  }
  const side = Math.max(tmax[0] - tmin[0], tmax[1] - tmin[1], tmax[2] - tmin[2]) * 1.001 + scale;
  const cube: Bounds = { min: [...tmin] as Vec3, max: [tmin[0] + side, tmin[1] + side, tmin[2] + side] };
  const root: Built = { name: 'r', bounds: cube, points: [], children: [] };
  const occupied = new Map<Built, Set<number>>();
  // A fixed shuffle, so each level is a spread-out subsample.
  const order = Array.from({ length: count }, (_, i) => i);
  let seed = 12345;
  for (let i = count - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const i of order) {
    let node = root;
    for (let level = 0; ; level++) {
      const size = node.bounds.max[0] - node.bounds.min[0];
      const c = [0, 1, 2].map((a) => Math.min(cells - 1, Math.floor(((points.positions[i * 3 + a] - node.bounds.min[a]) / size) * cells)));
      const key = (c[0] * cells + c[1]) * cells + c[2];
      let cellsOf = occupied.get(node);
      if (!cellsOf) occupied.set(node, (cellsOf = new Set()));
      if (!cellsOf.has(key) || level === maxDepth) {
        cellsOf.add(key);
        node.points.push(i);
        break;
      }
      const index = (c[0] >= cells / 2 ? 4 : 0) | (c[1] >= cells / 2 ? 2 : 0) | (c[2] >= cells / 2 ? 1 : 0);
      node = node.children[index] ??= { name: node.name + index, bounds: childBounds(node.bounds, index), points: [], children: [] };
    }
  }
  const attributes: PointAttribute[] = [{ ...ATTRIBUTES.position, min: tmin, max: tmax }];
  if (points.intensity) {
    const [min, max] = extent(points.intensity);
    attributes.push({ ...ATTRIBUTES.intensity, min: [min], max: [max] });
  }
  if (points.classification) {
    const [min, max] = extent(points.classification);
    attributes.push({ ...ATTRIBUTES.classification, min: [min], max: [max] });
  }
  if (points.colors) attributes.push({ ...ATTRIBUTES.rgb, min: [0, 0, 0], max: [65535, 65535, 65535] });
  const bytesPerPoint = attributes.reduce((n, a) => n + a.size, 0);

  // Octree section, nodes breadth first.
  const all: Built[] = [];
  for (let queue = [root]; queue.length; ) {
    const node = queue.shift()!;
    all.push(node);
    for (const child of node.children) if (child) queue.push(child);
  }
  const octree = new Uint8Array(count * bytesPerPoint);
  const view = new DataView(octree.buffer);
  const place = new Map<Built, { offset: number; size: number }>();
  let at = 0;
  for (const node of all) {
    place.set(node, { offset: at, size: node.points.length * bytesPerPoint });
    for (const i of node.points) {
      let o = at;
      for (let a = 0; a < 3; a++) view.setInt32(o + a * 4, Math.round((points.positions[i * 3 + a] - cube.min[a]) / scale), true);
      o += 12;
      if (points.intensity) (view.setUint16(o, points.intensity[i], true), (o += 2));
      if (points.classification) (view.setUint8(o, points.classification[i]), (o += 1));
      if (points.colors) for (let c = 0; c < 3; c++) (view.setUint16(o, points.colors[i * 3 + c] * 257, true), (o += 2));
      at += bytesPerPoint;
    }
  }

  // Hierarchy: chunks of `stepSize` levels, breadth first; deeper chunks behind proxies.
  const chunks: Uint8Array[] = [];
  let hierarchySize = 0;
  const writeChunk = (top: Built): { offset: number; size: number } => {
    const entries: HierarchyEntry[] = [];
    const proxies: { index: number; node: Built }[] = [];
    for (let queue = [top]; queue.length; ) {
      const node = queue.shift()!;
      const depth = node.name.length - top.name.length;
      const mask = node.children.reduce((m, c, i) => (c ? m | (1 << i) : m), 0);
      if (depth === stepSize) {
        proxies.push({ index: entries.length, node });
        entries.push({ name: node.name, type: NodeType.Proxy, childMask: mask, numPoints: node.points.length, byteOffset: 0, byteSize: 0 });
        continue;
      }
      const { offset, size } = place.get(node)!;
      entries.push({ name: node.name, type: mask ? NodeType.Normal : NodeType.Leaf, childMask: mask, numPoints: node.points.length, byteOffset: offset, byteSize: size });
      for (const child of node.children) if (child) queue.push(child);
    }
    const slot = chunks.length;
    chunks.push(new Uint8Array(0));
    const offset = hierarchySize;
    hierarchySize += entries.length * HIERARCHY_NODE_BYTES;
    for (const proxy of proxies) {
      const placed = writeChunk(proxy.node);
      entries[proxy.index].byteOffset = placed.offset;
      entries[proxy.index].byteSize = placed.size;
    }
    chunks[slot] = encodeHierarchy(entries);
    return { offset, size: entries.length * HIERARCHY_NODE_BYTES };
  };
  const first = writeChunk(root);
  const hierarchy = new Uint8Array(hierarchySize);
  let h = 0;
  for (const chunk of chunks) (hierarchy.set(chunk, h), (h += chunk.length));
  const depth = Math.max(...all.map((n) => n.name.length - 1));
  const metadata: PointCloudMetadata = {
    version: '2.0',
    name: 'test cloud',
    description: '',
    points: count,
    projection: '',
    hierarchy: { firstChunkSize: first.size, stepSize, depth },
    offset: cube.min,
    scale: [scale, scale, scale],
    spacing: side / cells,
    boundingBox: cube,
    encoding: 'DEFAULT',
    attributes,
    container: {
      hierarchy: { offset: 0, size: hierarchy.length, crc32: crc32(hierarchy) },
      octree: { offset: 0, size: octree.length },
      tightBoundingBox: { min: tmin, max: tmax },
      source: { name: 'generated', format: 'test' },
    },
  };
  const head = encodePointCloudHead(metadata);
  const bytes = new Uint8Array(head.length + hierarchy.length + octree.length);
  bytes.set(head);
  bytes.set(hierarchy, head.length);
  bytes.set(octree, head.length + hierarchy.length);
  return { bytes, metadata };
}

function extent(values: ArrayLike<number>): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    min = Math.min(min, values[i]);
    max = Math.max(max, values[i]);
  }
  return [min, max];
}

/** Puts a file on the test server; its URL (range requests), or the one answering 200 with the whole file. */
export async function serveCloud(name: string, bytes: Uint8Array, whole = false): Promise<string> {
  const res = await fetch(`/test-files/pointclouds/${name}`, { method: 'PUT', body: new Blob([bytes as BlobPart]) });
  if (!res.ok) throw new Error(`PUT ${name}: ${res.status}`);
  return `/test-files/${whole ? 'pointclouds-whole' : 'pointclouds'}/${name}`;
}

/**
 * A test scene: a floor (class 2, red-brown) `size` metres square at z = 0 and a wall
 * (class 6, green) along y = size at x in [0, size], z in [0, 3]; intensity rising with x.
 * `at` moves it (UTM tests). Points on a grid of `step` metres.
 */
export function floorAndWall(size = 20, step = 0.05, at: Vec3 = [0, 0, 0]): TestPoints {
  const floor = Math.round(size / step) ** 2;
  const wall = Math.round(size / step) * Math.round(3 / step);
  const count = floor + wall;
  const positions = new Float64Array(count * 3);
  const colors = new Uint8Array(count * 3);
  const intensity = new Uint16Array(count);
  const classification = new Uint8Array(count);
  let i = 0;
  const put = (x: number, y: number, z: number, rgb: Vec3, klass: number) => {
    positions.set([x + at[0], y + at[1], z + at[2]], i * 3);
    colors.set(rgb, i * 3);
    intensity[i] = Math.round((x / size) * 60000);
    classification[i] = klass;
    i++;
  };
  const n = Math.round(size / step);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) put(a * step, b * step, 0, [200, 60, 40], 2);
  for (let a = 0; a < n; a++) for (let b = 0; b < Math.round(3 / step); b++) put(a * step, size, b * step, [40, 190, 70], 6);
  return { positions, colors, intensity, classification };
}

/** CRC-32 (zip's), written here apart from the viewer's (core/formats/checksum.ts) so the two check each other. */
function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
