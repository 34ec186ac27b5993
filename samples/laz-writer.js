// @ts-check
/**
 * A LAZ writer (LASzip-compressed LAS), written from the LAS 1.4 and LAZ specifications for
 * the sample scans. Point format 3 (x, y, z, intensity, returns, classification, scan
 * angle, user data, point source, GPS time, RGB: 34 bytes a point) is the simplest format
 * laz-perf decodes that carries all a scan has: its version-2 items (POINT10, GPSTIME11,
 * RGB12, samples/laz-chunk.js) are one pointwise coder, where formats 6-8 would need
 * LASzip's layered coder (nine layers a chunk, each with its own contexts). The header is
 * LAS 1.4's, as LasWriter's (64-bit counts, and a WKT coordinate system is allowed there).
 *
 * Chunked ("compressor 2"): every `chunkSize` points (default 50,000) start a chunk that
 * decodes on its own; the points begin with the chunk table's offset, and the table (a
 * version, the count, each chunk's byte size coded by the integer compressor) ends the
 * file. Points stream a batch at a time; the header's counts and bounds are counted while
 * writing and patched in at the end, as LasWriter does.
 *
 *   const laz = new LazWriter('scan.laz', { offset: [x0, y0, z0] });
 *   for (const batch of batches) laz.write(batch);
 *   const { points, min, max } = laz.close();
 *
 * Same points and options, same bytes, whether chunks were compressed here or elsewhere
 * (`writeChunk`: worker threads, samples/scan-laz-worker.js).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { ArithmeticEncoder, IntegerCompressor } from './arithmetic-encoder.js';
import { ChunkEncoder, RECORD_LENGTH } from './laz-chunk.js';
import { lasHeader, projectionRecord } from './las-writer.js';

/** @typedef {import('./frame.js').Vec3} Vec3 */
/** @typedef {import('./las-writer.js').LasPoints} LasPoints */
/**
 * @typedef {import('./las-writer.js').LasOptions & { chunkSize?: number }} LazOptions
 * chunkSize: points per chunk (default 50,000, LASzip's)
 */

export const HEADER_SIZE = 375;
export const DEFAULT_CHUNK_SIZE = 50_000;
/** Point format 3 with LASzip's compression bit. */
const COMPRESSED_FORMAT = 3 | 0x80;
const VLR_HEADER = 54;
/** The laszip record: 34 bytes and three items of 6. */
const LASZIP_RECORD_LENGTH = 34 + 3 * 6;
/** LASzip's item types: POINT10, GPSTIME11, RGB12, each in version 2. */
const ITEMS = [
  [6, 20],
  [7, 8],
  [8, 6],
];

export class LazWriter {
  /**
   * @param {string} path
   * @param {LazOptions} options
   */
  constructor(path, options) {
    this.scale = options.scale ?? 0.001;
    this.offset = options.offset;
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    if (!this.offset.every(Number.isFinite) || !(this.scale > 0)) throw new RangeError('LAZ writer: the offset and scale must be finite numbers');
    if (!(Number.isInteger(this.chunkSize) && this.chunkSize >= 1 && this.chunkSize < 0xffffffff)) throw new RangeError(`LAZ writer: a chunk size must be a whole number of points: ${this.chunkSize}`);
    this.software = options.software ?? 'bim-viewers samples/laz-writer.js';
    this.fd = openSync(path, 'w');
    this.points = 0;
    /** @type {Vec3} integers */
    this.lo = [Infinity, Infinity, Infinity];
    /** @type {Vec3} */
    this.hi = [-Infinity, -Infinity, -Infinity];
    this.byReturn = new Array(8).fill(0);
    /** Bytes of each chunk written, for the table. @type {number[]} */
    this.chunkBytes = [];
    this.coder = new ArithmeticEncoder(1 << 20);
    /** The chunk being filled, or null. @type {ChunkEncoder | null} */
    this.chunk = null;
    const records = [laszipRecord(this.chunkSize)];
    if (options.wkt) records.push(projectionRecord(options.wkt));
    this.vlrCount = records.length;
    this.pointOffset = HEADER_SIZE + records.reduce((sum, r) => sum + r.length, 0);
    writeSync(this.fd, new Uint8Array(HEADER_SIZE)); // the header, written at the end
    for (const record of records) writeSync(this.fd, record);
    writeSync(this.fd, new Uint8Array(8)); // the chunk table's offset, known at the end
    this.position = this.pointOffset + 8;
  }

  /** Appends a batch of points. @param {LasPoints} batch */
  write(batch) {
    this.writeRecords(encodeRecords(batch, this.offset, this.scale));
  }

  /** Appends point format 3 records (34 bytes each), as they are. @param {Uint8Array} records */
  writeRecords(records) {
    const count = records.length / RECORD_LENGTH;
    if (!Number.isInteger(count)) throw new RangeError(`LAZ writer: ${records.length} bytes are not whole ${RECORD_LENGTH}-byte records`);
    for (let done = 0; done < count; ) {
      const chunk = (this.chunk ??= new ChunkEncoder(this.coder));
      const n = Math.min(count - done, this.chunkSize - chunk.count);
      chunk.add(records, done, n);
      done += n;
      if (chunk.count === this.chunkSize) this.endChunk();
    }
  }

  /**
   * Appends a chunk compressed elsewhere (ChunkEncoder.finish), between whole chunks:
   * `points` is the chunk size, except for the file's last chunk; its integer bounds and
   * returns come with it.
   * @param {Uint8Array} bytes
   * @param {{ count: number, lo: number[], hi: number[], byReturn: number[] }} chunk
   */
  writeChunk(bytes, chunk) {
    if (this.chunk) throw new Error('LAZ writer: a compressed chunk can only follow whole chunks');
    if (!(chunk.count >= 1 && chunk.count <= this.chunkSize)) throw new RangeError(`LAZ writer: a chunk of ${chunk.count} points (the chunk size is ${this.chunkSize})`);
    this.append(bytes, chunk);
  }

  /** Writes the last chunk, the chunk table and the header; closes the file; answers the count and the bounds as the header has them. */
  close() {
    if (this.chunk) this.endChunk();
    const tableOffset = this.position;
    this.put(chunkTable(this.chunkBytes));
    const offset = new Uint8Array(8);
    new DataView(offset.buffer).setBigInt64(0, BigInt(tableOffset), true);
    writeSync(this.fd, offset, 0, 8, this.pointOffset);
    const { header, min, max } = this.header();
    writeSync(this.fd, header, 0, HEADER_SIZE, 0);
    closeSync(this.fd);
    return { points: this.points, min, max, bytes: this.position, chunks: this.chunkBytes.length };
  }

  endChunk() {
    const chunk = /** @type {ChunkEncoder} */ (this.chunk);
    this.chunk = null;
    this.append(chunk.finish(), chunk);
  }

  /**
   * @param {Uint8Array} bytes
   * @param {{ count: number, lo: number[], hi: number[], byReturn: number[] }} chunk
   */
  append(bytes, chunk) {
    this.put(bytes);
    this.chunkBytes.push(bytes.length);
    this.points += chunk.count;
    for (let k = 0; k < 3; k++) {
      this.lo[k] = Math.min(this.lo[k], chunk.lo[k]);
      this.hi[k] = Math.max(this.hi[k], chunk.hi[k]);
    }
    for (let r = 0; r < 8; r++) this.byReturn[r] += chunk.byReturn[r];
  }

  /** @param {Uint8Array} bytes */
  put(bytes) {
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done, this.position + done);
    this.position += bytes.length;
  }

  header() {
    // Legacy counts too, for readers of LAS 1.0-1.3: point format 3 fills them while they fit 32 bits.
    return lasHeader(this, { format: COMPRESSED_FORMAT, recordLength: RECORD_LENGTH, byReturn: this.byReturn, legacy: true });
  }
}

/**
 * A batch as point format 3 records: integers of `scale` from `offset`, return 1 of 1,
 * the batch's scan as point source id (`scan + 1`) and GPS time (`scan`), as LasWriter's.
 * @param {LasPoints} batch
 * @param {number[]} offset
 * @param {number} scale
 */
export function encodeRecords(batch, offset, scale) {
  const n = batch.count;
  const bytes = new Uint8Array(n * RECORD_LENGTH);
  const view = new DataView(bytes.buffer);
  const { positions, colors, intensity, classification, kind } = batch;
  const source = (batch.scan ?? 0) + 1;
  const time = batch.scan ?? 0;
  const inv = 1 / scale;
  const [ox, oy, oz] = offset;
  for (let i = 0, at = 0; i < n; i++, at += RECORD_LENGTH) {
    const x = Math.round((positions[3 * i] - ox) * inv);
    const y = Math.round((positions[3 * i + 1] - oy) * inv);
    const z = Math.round((positions[3 * i + 2] - oz) * inv);
    if (!(x >= -0x80000000 && x <= 0x7fffffff && y >= -0x80000000 && y <= 0x7fffffff && z >= -0x80000000 && z <= 0x7fffffff)) {
      throw new RangeError(`LAZ writer: a point (${positions[3 * i]}, ${positions[3 * i + 1]}, ${positions[3 * i + 2]}) is too far from the offset for 32-bit integers`);
    }
    view.setInt32(at, x, true);
    view.setInt32(at + 4, y, true);
    view.setInt32(at + 8, z, true);
    view.setUint16(at + 12, intensity ? intensity[i] : 0, true);
    bytes[at + 14] = 0x09; // return 1 of 1 (bits 0-2 the return, 3-5 of how many)
    bytes[at + 15] = classification ? classification[i] : 1; // 1: unclassified
    // 16: scan angle 0
    bytes[at + 17] = kind ? kind[i] : 0; // user data
    view.setUint16(at + 18, source, true);
    view.setFloat64(at + 20, time, true);
    if (colors) for (let c = 0; c < 3; c++) view.setUint16(at + 28 + 2 * c, colors[3 * i + c], true);
  }
  return bytes;
}

/**
 * The chunk table: version 0, the chunk count, then each chunk's byte size predicted by
 * the previous one's (integer compressor, 32 bits, context 1; context 0 would code point
 * counts, which chunks of a fixed size do not store).
 * @param {number[]} sizes
 */
function chunkTable(sizes) {
  const encoder = new ArithmeticEncoder(64 + sizes.length * 8);
  const integers = new IntegerCompressor(encoder, 32, 2);
  sizes.forEach((size, i) => integers.compress(i ? sizes[i - 1] : 0, size, 1));
  const code = encoder.done();
  const table = new Uint8Array(8 + code.length);
  const view = new DataView(table.buffer);
  view.setUint32(0, 0, true);
  view.setUint32(4, sizes.length, true);
  table.set(code, 8);
  return table;
}

/**
 * The laszip record (user "laszip encoded", 22204): compressor 2 (pointwise, chunked),
 * the arithmetic coder, the chunk size, no special EVLRs, and the items.
 * @param {number} chunkSize
 */
function laszipRecord(chunkSize) {
  const record = new Uint8Array(VLR_HEADER + LASZIP_RECORD_LENGTH);
  const view = new DataView(record.buffer);
  record.set(new TextEncoder().encode('laszip encoded'), 2);
  view.setUint16(18, 22204, true);
  view.setUint16(20, LASZIP_RECORD_LENGTH, true);
  record.set(new TextEncoder().encode('LASzip, version 2 items'), 22);
  const d = VLR_HEADER;
  view.setUint16(d, 2, true); // compressor: pointwise, chunked
  view.setUint16(d + 2, 0, true); // coder: arithmetic
  record[d + 4] = 2; // the LASzip version these items came with: 2.2.0
  record[d + 5] = 2;
  view.setUint16(d + 6, 0, true);
  view.setUint32(d + 8, 0, true); // options
  view.setUint32(d + 12, chunkSize, true);
  view.setBigInt64(d + 16, -1n, true); // special EVLRs: none
  view.setBigInt64(d + 24, -1n, true);
  view.setUint16(d + 32, ITEMS.length, true);
  ITEMS.forEach(([type, size], i) => {
    view.setUint16(d + 34 + 6 * i, type, true);
    view.setUint16(d + 36 + 6 * i, size, true);
    view.setUint16(d + 38 + 6 * i, 2, true);
  });
  return record;
}
