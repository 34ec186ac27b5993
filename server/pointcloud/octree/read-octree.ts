import {
  decodeHierarchyChunk,
  decodeNodePoints,
  nodeBounds,
  NodeType,
  PointCloudFormatError,
  readPointCloudHead,
  recordLayout,
  type Bounds,
  type HierarchyEntry,
  type NodePoints,
  type PointCloudMetadata,
  type Vec3,
} from '../../../src/core/formats/pointcloud.js';
import { checksums, crc32 } from '../../../src/core/formats/checksum.js';
import { FileSource, type ByteSource } from '../byte-source.js';

/** A node's records as stored: positions in cube units, attributes as written. */
export interface NodeRecords {
  count: number;
  /** x, y, z per point (int32 multiples of the scale from the offset). */
  positions: Int32Array;
  intensity?: Uint16Array;
  classification?: Uint8Array;
  /** r, g, b per point, 16-bit. */
  rgb?: Uint16Array;
}

/**
 * A point cloud file read in Node (tests, checks, the CLI): the metadata, every hierarchy
 * entry (proxies followed), and a node's points.
 */
export class OctreeFile {
  private constructor(
    private readonly source: ByteSource,
    readonly metadata: PointCloudMetadata,
    readonly entries: HierarchyEntry[],
  ) {}

  static async open(path: string): Promise<OctreeFile> {
    const source = await FileSource.open(path);
    try {
      return await OctreeFile.from(source);
    } catch (error) {
      await source.close();
      throw error;
    }
  }

  static async from(source: ByteSource): Promise<OctreeFile> {
    let head = readPointCloudHead(await source.read(0, 4096));
    if ('needed' in head) head = readPointCloudHead(await source.read(0, head.needed));
    if ('needed' in head) throw new PointCloudFormatError('The point cloud file ends inside its metadata');
    const { metadata } = head;
    const { hierarchy, octree } = metadata.container;
    if (hierarchy.offset + hierarchy.size > source.size || octree.offset + octree.size > source.size) throw new PointCloudFormatError('The point cloud file is shorter than its sections');
    const [bytes] = await Promise.all([source.read(hierarchy.offset, hierarchy.size), checksums()]);
    if (crc32(bytes) !== hierarchy.crc32) throw new PointCloudFormatError('The point cloud hierarchy fails its CRC-32 check');
    const entries: HierarchyEntry[] = [];
    const chunks: { name: string; at: number; size: number }[] = [{ name: 'r', at: 0, size: metadata.hierarchy.firstChunkSize }];
    while (chunks.length) {
      const chunk = chunks.shift()!;
      for (const entry of decodeHierarchyChunk(bytes.subarray(chunk.at, chunk.at + chunk.size), chunk.name)) {
        if (entry.type === NodeType.Proxy) chunks.push({ name: entry.name, at: entry.byteOffset, size: entry.byteSize });
        else entries.push(entry); // a chunk's first node is the proxy's node itself
      }
    }
    return new OctreeFile(source, metadata, entries);
  }

  /** The node's box in metres. */
  box(name: string): Bounds {
    return nodeBounds(this.metadata.boundingBox, name);
  }

  /** The node's bytes in the octree section. */
  async nodeBytes(entry: HierarchyEntry): Promise<Uint8Array> {
    const bytes = await this.source.read(this.metadata.container.octree.offset + entry.byteOffset, entry.byteSize);
    if (bytes.length !== entry.byteSize) throw new PointCloudFormatError(`Node ${entry.name} runs past the end of the file`);
    return bytes;
  }

  /** The node's points as the viewer decodes them (positions less `at`, default the node's box minimum). */
  async nodePoints(entry: HierarchyEntry, at?: Vec3): Promise<NodePoints> {
    return decodeNodePoints(await this.nodeBytes(entry), this.metadata, at ?? this.box(entry.name).min);
  }

  /** The node's records as stored. */
  async nodeRecords(entry: HierarchyEntry): Promise<NodeRecords> {
    const bytes = await this.nodeBytes(entry);
    const { bytesPerPoint, offsets } = recordLayout(this.metadata.attributes);
    const count = bytes.length / bytesPerPoint;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const positions = new Int32Array(count * 3);
    const has = (name: string) => offsets[name] !== undefined;
    const intensity = has('intensity') ? new Uint16Array(count) : undefined;
    const classification = has('classification') ? new Uint8Array(count) : undefined;
    const rgb = has('rgb') ? new Uint16Array(count * 3) : undefined;
    for (let i = 0; i < count; i++) {
      const r = i * bytesPerPoint;
      for (let a = 0; a < 3; a++) positions[i * 3 + a] = view.getInt32(r + offsets.position + a * 4, true);
      if (intensity) intensity[i] = view.getUint16(r + offsets.intensity, true);
      if (classification) classification[i] = bytes[r + offsets.classification];
      if (rgb) for (let c = 0; c < 3; c++) rgb[i * 3 + c] = view.getUint16(r + offsets.rgb + c * 2, true);
    }
    return { count, positions, intensity, classification, rgb };
  }

  close(): Promise<void> {
    return this.source.close();
  }
}
