import { ViewerError } from '../types.js';
import { PointCloudFormatError, readPointCloudHead, type PointCloudMetadata } from '../formats/pointcloud.js';
import { checksums, crc32 } from '../formats/checksum.js';

/** The first request asks for this much: the head and metadata of any real file fit. */
const HEAD_GUESS = 64 * 1024;

/**
 * A point cloud file (`application/vnd.platform.pointcloud`) read with HTTP range requests:
 * the head and the hierarchy when opened, then nodes as the viewer asks for them. A server
 * that answers a range with the whole file (200) is read once, and every later read is
 * cut from that download. Every failure is a ViewerError of type 'pointcloud' that names
 * the file.
 */
export class PointCloudSource {
  readonly metadata: PointCloudMetadata;
  /** The whole hierarchy section (checked against its CRC-32). */
  readonly hierarchy: Uint8Array;
  private readonly controller = new AbortController();

  private constructor(readonly url: string, metadata: PointCloudMetadata, hierarchy: Uint8Array, private whole: Uint8Array | null) {
    this.metadata = metadata;
    this.hierarchy = hierarchy;
  }

  /** Reads the head and the hierarchy of the file at `url`. */
  static async open(url: string): Promise<PointCloudSource> {
    const reader = new RangeReader(url, new AbortController().signal);
    try {
      let bytes = await reader.read(0, HEAD_GUESS, false);
      let head = readPointCloudHead(bytes);
      if ('needed' in head) {
        bytes = await reader.read(0, head.needed, true);
        head = readPointCloudHead(bytes);
        if ('needed' in head) throw new PointCloudFormatError(`the file ends inside its metadata (${bytes.length} of ${head.needed} bytes)`);
      }
      const { metadata } = head;
      // The file ends with its octree section: a shorter file was cut short, and would fail node by node later.
      const end = metadata.container.octree.offset + metadata.container.octree.size;
      if (reader.total !== null && reader.total < end) throw new PointCloudFormatError(`the file is cut short: it has ${reader.total} bytes, its metadata says ${end}`);
      const { offset, size, crc32: expected } = metadata.container.hierarchy;
      const [hierarchy] = await Promise.all([reader.read(offset, size, true), checksums()]);
      const actual = crc32(hierarchy);
      if (actual !== expected >>> 0) throw new PointCloudFormatError(`its hierarchy is damaged (CRC-32 ${hex(actual)}, the metadata says ${hex(expected)})`);
      return new PointCloudSource(url, metadata, hierarchy, reader.whole);
    } catch (e) {
      throw pointCloudError(url, e);
    }
  }

  /** A node's records: `size` bytes at `offset` in the octree section. */
  async node(offset: number, size: number): Promise<Uint8Array> {
    const reader = new RangeReader(this.url, this.controller.signal, this.whole);
    try {
      const bytes = await reader.read(this.metadata.container.octree.offset + offset, size, true);
      this.whole ??= reader.whole;
      return bytes;
    } catch (e) {
      throw pointCloudError(this.url, e);
    }
  }

  /** Stops the reads under way (the cloud is unloaded). */
  close() {
    this.controller.abort();
  }
}

/** One file's reads: ranges while the server answers 206, cuts of the whole file once it answered 200. */
class RangeReader {
  /** The file's length, once an answer said it (Content-Range's total, or the whole file). */
  total: number | null = null;

  constructor(private readonly url: string, private readonly signal: AbortSignal, public whole: Uint8Array | null = null) {}

  /** `size` bytes at `offset`; fewer only when `exact` is false (the head of a small file). */
  async read(offset: number, size: number, exact: boolean): Promise<Uint8Array> {
    if (!this.whole) {
      let response: Response;
      try {
        response = await fetch(this.url, { headers: { Range: `bytes=${offset}-${offset + size - 1}` }, signal: this.signal });
      } catch (e) {
        if (this.signal.aborted) throw new PointCloudFormatError('the cloud was unloaded');
        throw new PointCloudFormatError(`the request failed (${(e as Error).message})`);
      }
      if (response.status === 206) {
        const bytes = new Uint8Array(await response.arrayBuffer());
        const range = response.headers.get('Content-Range') ?? '';
        const start = Number(/bytes (\d+)-/.exec(range)?.[1] ?? offset);
        const total = /\/(\d+)$/.exec(range)?.[1];
        if (total) this.total = Number(total);
        if (start !== offset) throw new PointCloudFormatError(`the server answered bytes from ${start} when asked for ${offset}`);
        return this.checked(bytes.subarray(0, size), offset, size, exact);
      }
      if (response.status === 416) return this.checked(new Uint8Array(0), offset, size, exact);
      if (!response.ok) throw new PointCloudFormatError(`the server answered ${response.status} ${response.statusText}`.trim() + (await reason(response)));
      // The server sends the whole file: keep it, and read everything else from it.
      this.whole = new Uint8Array(await response.arrayBuffer());
      this.total = this.whole.length;
    }
    return this.checked(this.whole.subarray(offset, offset + size), offset, size, exact);
  }

  private checked(bytes: Uint8Array, offset: number, size: number, exact: boolean): Uint8Array {
    if (exact && bytes.length < size) throw new PointCloudFormatError(`the file is cut short: ${size} bytes at ${offset} were asked for, ${bytes.length} came`);
    return bytes;
  }
}

function pointCloudError(url: string, e: unknown): ViewerError {
  if (e instanceof ViewerError) return e;
  return new ViewerError('pointcloud', `Could not load the point cloud ${url}: ${(e as Error).message ?? String(e)}`);
}

/** What an error answer says (the platform's JSON error, or a short text), to pass on. */
async function reason(response: Response): Promise<string> {
  try {
    const text = (await response.text()).trim();
    const message = text.startsWith('{') ? JSON.parse(text)?.error?.message : text;
    return typeof message === 'string' && message && message.length < 500 ? `: ${message}` : '';
  } catch {
    return '';
  }
}

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
