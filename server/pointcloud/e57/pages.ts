import type { ByteSource } from '../byte-source.js';
import { PointCloudError } from '../point-reader.js';

/**
 * E57's physical layer (ASTM E2807 §7): the file is 1024-byte pages, each ending with
 * the CRC-32C of its other 1020 bytes. Offsets in the headers and the XML are physical;
 * the data they point to runs on across pages as a "logical" byte sequence.
 */
export const PAGE_SIZE = 1024;
export const PAGE_PAYLOAD = 1020;

/** The 48-byte file header at offset 0. */
export interface E57Header {
  major: number;
  minor: number;
  physicalLength: number;
  xmlPhysicalOffset: number;
  xmlLogicalLength: number;
  pageSize: number;
}

/** CRC-32C (Castagnoli, reflected 0x82F63B78), 4 tables so four bytes go per step. */
const TABLES = (() => {
  const t = new Uint32Array(256 * 4);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c >>> 0;
  }
  for (let i = 0; i < 256; i++) {
    for (let k = 1; k < 4; k++) t[k * 256 + i] = (t[(k - 1) * 256 + i] >>> 8) ^ t[t[(k - 1) * 256 + i] & 255];
  }
  return t;
})();

export function crc32c(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    c ^= bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    c = TABLES[768 + (c & 255)] ^ TABLES[512 + ((c >>> 8) & 255)] ^ TABLES[256 + ((c >>> 16) & 255)] ^ TABLES[c >>> 24];
  }
  for (; i < end; i++) c = TABLES[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A physical offset as a logical one; offsets into a page's checksum are malformed. */
export function toLogical(physical: number, what: string): number {
  const within = physical % PAGE_SIZE;
  if (!Number.isSafeInteger(physical) || physical < 0 || within >= PAGE_PAYLOAD) {
    throw new PointCloudError('malformed', `The E57 file's ${what} points at byte ${physical}, which is not data`);
  }
  return Math.floor(physical / PAGE_SIZE) * PAGE_PAYLOAD + within;
}

/** A uint64 as a number; past 2^53 only garbage reaches here. */
export function uint64(view: DataView, at: number, what: string): number {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new PointCloudError('malformed', `The E57 file's ${what} (${value}) is impossible`);
  return Number(value);
}

/** Pages read in blocks, checked once, kept in a small cache (memory stays bounded). */
const BLOCK_PAGES = 64;
const CACHED_BLOCKS = 16;

export class PagedFile {
  private readonly blocks = new Map<number, Promise<Uint8Array>>();
  readonly pageCount: number;

  private constructor(
    private readonly source: ByteSource,
    readonly header: E57Header,
  ) {
    this.pageCount = header.physicalLength / PAGE_SIZE;
  }

  /** Checks page 0 and the header in it. */
  static async open(source: ByteSource): Promise<PagedFile> {
    if (source.size < PAGE_SIZE) throw new PointCloudError('truncated', `The E57 file is ${source.size} bytes, shorter than its first page (1024 bytes)`);
    const first = await source.read(0, PAGE_SIZE);
    if (new TextDecoder().decode(first.subarray(0, 8)) !== 'ASTM-E57') throw new PointCloudError('unsupported', 'Not an E57 file: it does not start with "ASTM-E57"');
    checkPage(first, 0);
    const view = new DataView(first.buffer, first.byteOffset, first.byteLength);
    const header: E57Header = {
      major: view.getUint32(8, true),
      minor: view.getUint32(12, true),
      physicalLength: uint64(view, 16, 'length'),
      xmlPhysicalOffset: uint64(view, 24, 'XML offset'),
      xmlLogicalLength: uint64(view, 32, 'XML length'),
      pageSize: uint64(view, 40, 'page size'),
    };
    if (header.major !== 1) throw new PointCloudError('unsupported', `E57 version ${header.major}.${header.minor} is not supported (only 1.x)`);
    if (header.pageSize !== PAGE_SIZE) throw new PointCloudError('unsupported', `E57 pages of ${header.pageSize} bytes are not supported (the standard's are 1024)`);
    if (header.physicalLength % PAGE_SIZE !== 0 || header.physicalLength === 0) {
      throw new PointCloudError('malformed', `The E57 header's file length (${header.physicalLength}) is not a whole number of pages`);
    }
    if (header.physicalLength > source.size) {
      throw new PointCloudError('truncated', `The E57 file is cut short: ${source.size} of its ${header.physicalLength} bytes`);
    }
    return new PagedFile(source, header);
  }

  /** `length` logical bytes from logical offset `at`, pages checked on the way. */
  async read(at: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const logical = at + done;
      const page = Math.floor(logical / PAGE_PAYLOAD);
      const within = logical % PAGE_PAYLOAD;
      if (page >= this.pageCount) throw new PointCloudError('malformed', `The E57 file's data runs past its end (page ${page} of ${this.pageCount})`);
      const block = await this.block(Math.floor(page / BLOCK_PAGES));
      const start = (page % BLOCK_PAGES) * PAGE_SIZE + within;
      const n = Math.min(PAGE_PAYLOAD - within, length - done);
      out.set(block.subarray(start, start + n), done);
      done += n;
    }
    return out;
  }

  private block(index: number): Promise<Uint8Array> {
    const cached = this.blocks.get(index);
    if (cached) {
      // Most recently used last: Map keeps insertion order.
      this.blocks.delete(index);
      this.blocks.set(index, cached);
      return cached;
    }
    const loading = this.load(index);
    this.remember(index, loading);
    // Sections are read front to back: the next block is read while this one is decoded.
    const next = index + 1;
    if (next * BLOCK_PAGES < this.pageCount && !this.blocks.has(next)) {
      const ahead = loading.then(() => this.load(next));
      ahead.catch(() => {}); // its error, if any, is thrown when the block is asked for
      this.remember(next, ahead);
    }
    return loading;
  }

  private remember(index: number, block: Promise<Uint8Array>) {
    if (this.blocks.size >= CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number);
    this.blocks.set(index, block);
  }

  private async load(index: number): Promise<Uint8Array> {
    const firstPage = index * BLOCK_PAGES;
    const pages = Math.min(BLOCK_PAGES, this.pageCount - firstPage);
    const bytes = await this.source.read(firstPage * PAGE_SIZE, pages * PAGE_SIZE);
    if (bytes.length < pages * PAGE_SIZE) throw new PointCloudError('truncated', `The E57 file ends inside page ${firstPage + Math.floor(bytes.length / PAGE_SIZE)}`);
    for (let p = 0; p < pages; p++) checkPage(bytes.subarray(p * PAGE_SIZE, (p + 1) * PAGE_SIZE), firstPage + p);
    return bytes;
  }
}

function checkPage(page: Uint8Array, index: number) {
  const stored = ((page[1020] << 24) | (page[1021] << 16) | (page[1022] << 8) | page[1023]) >>> 0;
  if (crc32c(page, 0, PAGE_PAYLOAD) !== stored) {
    throw new PointCloudError('checksum', `Page ${index} of the E57 file (bytes ${index * PAGE_SIZE} to ${index * PAGE_SIZE + PAGE_SIZE - 1}) fails its CRC-32C checksum: the file is damaged`);
  }
}
