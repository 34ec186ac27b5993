/**
 * The point cloud format (`application/vnd.platform.pointcloud`), version 1: a Potree 2.0
 * octree (metadata.json, hierarchy.bin, octree.bin) in one file, read with HTTP range
 * requests. docs/POINTCLOUD-FORMAT.md is the specification; in short:
 *
 *   "BIMCLOUD" (8 bytes), version (u32), metadata length M (u32), the metadata (UTF-8
 *   JSON, M bytes: Potree 2.0's metadata.json plus a `container` object that says where
 *   the sections are), then the hierarchy section (Potree's hierarchy.bin) and the
 *   octree section (Potree's octree.bin, encoding DEFAULT).
 *
 * Offsets in the hierarchy are relative to their section, as in Potree's own files, so
 * cutting the two sections out gives files any Potree 2.0 reader opens. Numbers are
 * little-endian. Each node holds a subsample of its cube; its children refine it (a point
 * is in one node only). Positions are int32 multiples of `scale` from `offset` (doubles).
 */
export const POINTCLOUD_MEDIA_TYPE = 'application/vnd.platform.pointcloud';
export const POINTCLOUD_MAGIC = 'BIMCLOUD';
export const POINTCLOUD_VERSION = 1;
/** magic, version, metadata length. */
export const POINTCLOUD_HEAD = 16;
/** Bytes per node in the hierarchy (Potree 2.0). */
export const HIERARCHY_NODE_BYTES = 22;

export type Vec3 = [number, number, number];
export interface Bounds {
  min: Vec3;
  max: Vec3;
}

/** A node's kind in the hierarchy: inner, leaf, or a proxy for a hierarchy chunk not read yet. */
export const NodeType = { Normal: 0, Leaf: 1, Proxy: 2 } as const;

/** One attribute of the point records (Potree 2.0's attribute description). */
export interface PointAttribute {
  /** `position` (int32 x3), `intensity` (uint16), `classification` (uint8), `rgb` (uint16 x3, full 16-bit range: 8-bit sources are scaled by 257). */
  name: string;
  description: string;
  /** Bytes per point. */
  size: number;
  numElements: number;
  elementSize: number;
  type: 'int32' | 'uint16' | 'uint8';
  min: number[];
  max: number[];
}

/** The metadata: Potree 2.0's metadata.json, and where this file keeps its sections. */
export interface PointCloudMetadata {
  version: '2.0';
  name: string;
  description: string;
  /** Points in all nodes; exact up to 2^53 (counting never wraps at 2^32). */
  points: number;
  /** The source's coordinate system (WKT or `EPSG:n`), or ''. */
  projection: string;
  hierarchy: { firstChunkSize: number; stepSize: number; depth: number };
  offset: Vec3;
  scale: Vec3;
  /** The root's minimum distance between points; each level halves it. */
  spacing: number;
  /** The octree's cube (the root node's box). */
  boundingBox: Bounds;
  encoding: 'DEFAULT';
  attributes: PointAttribute[];
  container: {
    /** Where the hierarchy section is in the file (bytes), and its CRC-32. */
    hierarchy: { offset: number; size: number; crc32: number };
    octree: { offset: number; size: number };
    /** The points' own bounds (inside the cube). */
    tightBoundingBox: Bounds;
    /** The file the cloud was converted from (its name and format: las, laz, e57). */
    source: { name: string; format: string };
  };
}

/** A node as the hierarchy describes it. */
export interface HierarchyEntry {
  /** Potree's name: `r`, then one digit 0-7 per level (the child index). */
  name: string;
  type: number;
  childMask: number;
  numPoints: number;
  /** In the octree section; for a proxy, in the hierarchy section. */
  byteOffset: number;
  byteSize: number;
}

/** What is wrong with a point cloud file: the viewer reports it. */
export class PointCloudFormatError extends Error {}

/**
 * The head of a file: the metadata, once `bytes` (the file's start) holds all of it;
 * otherwise how many bytes it needs.
 */
export function readPointCloudHead(bytes: Uint8Array): { metadata: PointCloudMetadata; length: number } | { needed: number } {
  if (bytes.length < POINTCLOUD_HEAD) return { needed: POINTCLOUD_HEAD };
  const magic = new TextDecoder().decode(bytes.subarray(0, 8));
  if (magic !== POINTCLOUD_MAGIC) throw new PointCloudFormatError(`Not a point cloud file: it starts with "${printable(magic)}", not "${POINTCLOUD_MAGIC}"`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== POINTCLOUD_VERSION) throw new PointCloudFormatError(`Point cloud format version ${version} is not supported (this viewer reads version ${POINTCLOUD_VERSION})`);
  const length = POINTCLOUD_HEAD + view.getUint32(12, true);
  if (bytes.length < length) return { needed: length };
  let metadata: PointCloudMetadata;
  try {
    metadata = JSON.parse(new TextDecoder().decode(bytes.subarray(POINTCLOUD_HEAD, length)));
  } catch (e) {
    throw new PointCloudFormatError(`The point cloud's metadata is not valid JSON: ${(e as Error).message}`);
  }
  if (!metadata?.container?.hierarchy || !metadata.container.octree || !Array.isArray(metadata.attributes)) {
    throw new PointCloudFormatError('The point cloud\'s metadata has no "container" or "attributes"');
  }
  return { metadata, length };
}

/**
 * The head for `metadata`; the container's section offsets are set here (the hierarchy
 * follows the head, the octree the hierarchy), so pass their sizes and checksum only.
 */
export function encodePointCloudHead(metadata: PointCloudMetadata): Uint8Array {
  const { container } = metadata;
  // The offsets are in the JSON they follow: grow until the length stops changing.
  let text: Uint8Array = new Uint8Array(0);
  for (let length = -1; length !== text.length; ) {
    length = text.length;
    container.hierarchy.offset = POINTCLOUD_HEAD + length;
    container.octree.offset = container.hierarchy.offset + container.hierarchy.size;
    text = new TextEncoder().encode(JSON.stringify(metadata));
  }
  const head = new Uint8Array(POINTCLOUD_HEAD + text.length);
  head.set(new TextEncoder().encode(POINTCLOUD_MAGIC));
  const view = new DataView(head.buffer);
  view.setUint32(8, POINTCLOUD_VERSION, true);
  view.setUint32(12, text.length, true);
  head.set(text, POINTCLOUD_HEAD);
  return head;
}

/**
 * The hierarchy bytes of nodes in Potree's order: a chunk lists a subtree breadth first,
 * each node's children in index order.
 */
export function encodeHierarchy(entries: HierarchyEntry[]): Uint8Array {
  const bytes = new Uint8Array(entries.length * HIERARCHY_NODE_BYTES);
  const view = new DataView(bytes.buffer);
  entries.forEach((entry, i) => {
    const at = i * HIERARCHY_NODE_BYTES;
    view.setUint8(at, entry.type);
    view.setUint8(at + 1, entry.childMask);
    view.setUint32(at + 2, entry.numPoints, true);
    view.setBigUint64(at + 6, BigInt(entry.byteOffset), true);
    view.setBigUint64(at + 14, BigInt(entry.byteSize), true);
  });
  return bytes;
}

/** The nodes of one hierarchy chunk whose first node is `rootName` (Potree's breadth-first order). */
export function decodeHierarchyChunk(bytes: Uint8Array, rootName: string): HierarchyEntry[] {
  if (bytes.length % HIERARCHY_NODE_BYTES) throw new PointCloudFormatError(`A hierarchy chunk of ${bytes.length} bytes is not a whole number of ${HIERARCHY_NODE_BYTES}-byte nodes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: HierarchyEntry[] = [];
  const names = [rootName];
  for (let i = 0; i * HIERARCHY_NODE_BYTES < bytes.length; i++) {
    const at = i * HIERARCHY_NODE_BYTES;
    const name = names[i];
    if (name === undefined) throw new PointCloudFormatError(`The hierarchy chunk of ${rootName} has more nodes than its child masks name`);
    const entry: HierarchyEntry = {
      name,
      type: view.getUint8(at),
      childMask: view.getUint8(at + 1),
      numPoints: view.getUint32(at + 2, true),
      byteOffset: Number(view.getBigUint64(at + 6, true)),
      byteSize: Number(view.getBigUint64(at + 14, true)),
    };
    entries.push(entry);
    // A proxy's children are in its own chunk.
    if (entry.type !== NodeType.Proxy) for (let c = 0; c < 8; c++) if (entry.childMask & (1 << c)) names.push(name + c);
  }
  return entries;
}

/** The box of child `index` of a node's box: bit 2 of the index is x, bit 1 y, bit 0 z (Potree 2.0). */
export function childBounds(box: Bounds, index: number): Bounds {
  const min = [...box.min] as Vec3;
  const max = [...box.max] as Vec3;
  for (let axis = 0; axis < 3; axis++) {
    const half = (min[axis] + max[axis]) / 2;
    if (index & (4 >> axis)) min[axis] = half;
    else max[axis] = half;
  }
  return { min, max };
}

/** A node's box, from the cube and its name. */
export function nodeBounds(cube: Bounds, name: string): Bounds {
  let box = cube;
  for (let i = 1; i < name.length; i++) box = childBounds(box, Number(name[i]));
  return box;
}

/** Where each attribute is in a point record. */
export interface RecordLayout {
  bytesPerPoint: number;
  /** Byte offset in the record by attribute name. */
  offsets: Record<string, number>;
}

export function recordLayout(attributes: PointAttribute[]): RecordLayout {
  const offsets: Record<string, number> = {};
  let bytesPerPoint = 0;
  for (const attribute of attributes) {
    offsets[attribute.name] = bytesPerPoint;
    bytesPerPoint += attribute.size;
  }
  return { bytesPerPoint, offsets };
}

/** The attributes this platform writes, present or not in a given cloud. */
export const ATTRIBUTES: Record<'position' | 'intensity' | 'classification' | 'rgb', Omit<PointAttribute, 'min' | 'max'>> = {
  position: { name: 'position', description: '', size: 12, numElements: 3, elementSize: 4, type: 'int32' },
  intensity: { name: 'intensity', description: '', size: 2, numElements: 1, elementSize: 2, type: 'uint16' },
  classification: { name: 'classification', description: '', size: 1, numElements: 1, elementSize: 1, type: 'uint8' },
  rgb: { name: 'rgb', description: '', size: 6, numElements: 3, elementSize: 2, type: 'uint16' },
};

/** A node's points as the viewer draws them. */
export interface NodePoints {
  count: number;
  /** x, y, z per point, less `at` (so a node near the origin keeps float precision). */
  positions: Float32Array;
  /** r, g, b per point (0-255), when the cloud has colour. */
  colors?: Uint8Array;
  intensity?: Uint16Array;
  classification?: Uint8Array;
}

/** Decodes a node's records (`bytes`: its byteSize bytes of the octree section). */
export function decodeNodePoints(bytes: Uint8Array, metadata: PointCloudMetadata, at: Vec3): NodePoints {
  const { bytesPerPoint, offsets } = recordLayout(metadata.attributes);
  if (bytes.length % bytesPerPoint) throw new PointCloudFormatError(`A node of ${bytes.length} bytes is not a whole number of ${bytesPerPoint}-byte points`);
  const count = bytes.length / bytesPerPoint;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { scale, offset } = metadata;
  const shift = [offset[0] - at[0], offset[1] - at[1], offset[2] - at[2]];
  const positions = new Float32Array(count * 3);
  const has = (name: string) => offsets[name] !== undefined;
  const colors = has('rgb') ? new Uint8Array(count * 3) : undefined;
  const intensity = has('intensity') ? new Uint16Array(count) : undefined;
  const classification = has('classification') ? new Uint8Array(count) : undefined;
  for (let i = 0, record = 0; i < count; i++, record += bytesPerPoint) {
    const p = record + offsets.position;
    for (let axis = 0; axis < 3; axis++) positions[i * 3 + axis] = view.getInt32(p + axis * 4, true) * scale[axis] + shift[axis];
    if (colors) for (let c = 0; c < 3; c++) colors[i * 3 + c] = view.getUint16(record + offsets.rgb + c * 2, true) >> 8;
    if (intensity) intensity[i] = view.getUint16(record + offsets.intensity, true);
    if (classification) classification[i] = bytes[record + offsets.classification];
  }
  return { count, positions, colors, intensity, classification };
}

const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, '?');
