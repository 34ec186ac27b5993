import type { ByteSource } from '../byte-source.js';
import { PointCloudError } from '../point-reader.js';
import { ArithmeticDecoder, IntegerDecompressor } from './arithmetic-decoder.js';
import type { LasHeader } from './las-header.js';
import { VARIABLE_CHUNK_SIZE, type Laszip } from './laszip-vlr.js';

/**
 * A LAZ file's chunk table: where each chunk of compressed points starts, how long it is
 * and how many points it holds. The points start with the table's offset (int64); the
 * table is a version (0), a chunk count, then per chunk its point count (variable chunk
 * sizes only) and byte size, each predicted from the previous chunk's and entropy coded.
 */
export interface LazChunk {
  offset: number;
  byteLength: number;
  pointCount: number;
}

/** A chunk larger than this is refused rather than read into memory whole. */
const MAX_CHUNK_BYTES = 1 << 29;
/** Bytes the decoder may read past the table's end when the table ends the file (its flush). */
const READ_AHEAD = 8;

export async function readChunkTable(source: ByteSource, header: LasHeader, laszip: Laszip): Promise<LazChunk[]> {
  const firstChunk = header.pointOffset + 8;
  const cut = (what: string) =>
    new PointCloudError('truncated', `The file ends after ${source.size} bytes, ${what}: it was cut short, and how many of its ${header.pointCount} points are whole cannot be told without the table`);
  if (firstChunk > source.size) throw cut('before its compressed points begin');
  let tableOffset = await readInt64(source, header.pointOffset);
  // -1: the writer could not go back to fill it in, and put the offset in the file's last 8 bytes.
  if (tableOffset === -1 && source.size >= firstChunk + 8) tableOffset = await readInt64(source, source.size - 8);
  if (tableOffset > source.size - 8) throw cut(`before its chunk table (at byte ${tableOffset})`);
  if (tableOffset < firstChunk) throw new PointCloudError('malformed', `The LAZ chunk table is said to be at byte ${tableOffset}, before the compressed points`);

  const head = await source.read(tableOffset, 8);
  const headView = new DataView(head.buffer, head.byteOffset, 8);
  const version = headView.getUint32(0, true);
  const count = headView.getUint32(4, true);
  if (version !== 0) throw new PointCloudError('unsupported', `The LAZ chunk table has version ${version}; version 0 can be read`);
  const variable = laszip.chunkSize === VARIABLE_CHUNK_SIZE;
  const expected = variable ? 0 : Math.ceil(header.pointCount / laszip.chunkSize);
  if (count === 0 || count > header.pointCount || count > tableOffset - firstChunk || (!variable && count !== expected)) {
    throw new PointCloudError('malformed', `The LAZ chunk table lists ${count} chunks, which cannot hold the ${header.pointCount} points the header states`);
  }

  // An entry codes two 32-bit numbers: a few bytes each at worst.
  const bytes = await source.read(tableOffset + 8, Math.min(source.size - tableOffset - 8, 64 + count * 24));
  const decoder = new ArithmeticDecoder(bytes);
  const integers = new IntegerDecompressor(decoder, 2);
  const chunks: LazChunk[] = [];
  let offset = firstChunk;
  let previousCount = 0;
  let previousSize = 0;
  let points = 0;
  for (let i = 0; i < count; i++) {
    let pointCount: number;
    if (variable) pointCount = previousCount = integers.decompress(previousCount, 0) >>> 0;
    else pointCount = Math.min(laszip.chunkSize, header.pointCount - points);
    const byteLength = (previousSize = integers.decompress(previousSize, 1) >>> 0);
    if (decoder.overrun > READ_AHEAD) throw new PointCloudError('malformed', `The LAZ chunk table ends before its ${count} chunks are listed`);
    if (offset + byteLength > tableOffset) {
      throw new PointCloudError('malformed', `LAZ chunk ${i + 1} of ${count} runs past the chunk table (byte ${tableOffset})`);
    }
    if (byteLength > MAX_CHUNK_BYTES) throw new PointCloudError('unsupported', `LAZ chunk ${i + 1} is ${byteLength} bytes long; chunks up to ${MAX_CHUNK_BYTES} bytes can be read`);
    if (pointCount === 0 && byteLength > 0) throw new PointCloudError('malformed', `LAZ chunk ${i + 1} has ${byteLength} bytes but no points`);
    chunks.push({ offset, byteLength, pointCount });
    offset += byteLength;
    points += pointCount;
  }
  if (points !== header.pointCount) {
    throw new PointCloudError('malformed', `The LAZ chunks hold ${points} points; the header states ${header.pointCount}`);
  }
  return chunks;
}

async function readInt64(source: ByteSource, at: number): Promise<number> {
  const bytes = await source.read(at, 8);
  if (bytes.length < 8) return Number.MAX_SAFE_INTEGER;
  return Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0, true));
}
