import { createLazPerf, type LazPerf } from 'laz-perf';
import type { ByteSource } from '../byte-source.js';
import { PointCloudError } from '../point-reader.js';
import type { LazChunk } from './chunk-table.js';
import { readAhead } from './read-ahead.js';

/**
 * LAZ points decoded chunk by chunk with laz-perf's ChunkDecoder: one chunk's compressed
 * bytes in memory at a time (the next one read while this one decodes), records decoded
 * straight into a block of wasm memory that the caller reads before asking for more.
 */

/** One laz-perf instance per thread, made when first needed. */
let lazPerf: Promise<LazPerf> | null = null;

function module(): Promise<LazPerf> {
  return (lazPerf ??= createLazPerf());
}

/** After a decoding failure the instance's memory may be in any state: the next reader gets a new one. */
function discardModule() {
  lazPerf = null;
}

/** Zeros after a chunk's bytes: the decoder reads a few bytes ahead, and never into another chunk's leftovers. */
const PADDING = 64;

/**
 * The records of `chunks`, `blockSize` at a time (the last block of the file fewer): each
 * block is a view of wasm memory, valid until the next one is asked for.
 */
export async function* lazRecords(
  source: ByteSource,
  chunks: LazChunk[],
  format: number,
  recordLength: number,
  blockSize: number,
): AsyncGenerator<{ records: Uint8Array; count: number }> {
  const laz = await module();
  const block = laz._malloc(blockSize * recordLength);
  let chunkBuffer = 0;
  let chunkCapacity = 0;
  let decoder: InstanceType<LazPerf['ChunkDecoder']> | null = null;
  let failed = false;
  try {
    let next = chunks.length ? prefetch(source, chunks[0]) : null;
    let filled = 0;
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c];
      const bytes = await next!;
      next = c + 1 < chunks.length ? prefetch(source, chunks[c + 1]) : null;
      if (bytes.length < chunk.byteLength) {
        throw new PointCloudError('truncated', `The file ends inside LAZ chunk ${c + 1} of ${chunks.length}`);
      }
      if (chunk.byteLength + PADDING > chunkCapacity) {
        if (chunkBuffer) laz._free(chunkBuffer);
        chunkCapacity = Math.max(chunk.byteLength + PADDING, chunkCapacity * 2);
        chunkBuffer = laz._malloc(chunkCapacity);
      }
      laz.HEAPU8.set(bytes, chunkBuffer);
      laz.HEAPU8.fill(0, chunkBuffer + chunk.byteLength, chunkBuffer + chunk.byteLength + PADDING);
      decoder?.delete();
      decoder = new laz.ChunkDecoder();
      let left = chunk.pointCount;
      try {
        decoder.open(format, recordLength, chunkBuffer);
        while (left > 0) {
          const n = Math.min(left, blockSize - filled);
          for (let i = 0, at = block + filled * recordLength; i < n; i++, at += recordLength) decoder.getPoint(at);
          filled += n;
          left -= n;
          if (filled === blockSize) {
            // The heap's buffer may have been replaced as it grew: take the current one.
            yield { records: new Uint8Array(laz.HEAPU8.buffer, block, filled * recordLength), count: filled };
            filled = 0;
          }
        }
      } catch (error) {
        if (error instanceof PointCloudError) throw error;
        failed = true;
        throw new PointCloudError('malformed', `LAZ chunk ${c + 1} of ${chunks.length} (at byte ${chunk.offset}) could not be decoded: ${describe(error)}`);
      }
    }
    if (filled > 0) yield { records: new Uint8Array(laz.HEAPU8.buffer, block, filled * recordLength), count: filled };
  } finally {
    if (failed) discardModule();
    else {
      decoder?.delete();
      if (chunkBuffer) laz._free(chunkBuffer);
      laz._free(block);
    }
  }
}

function prefetch(source: ByteSource, chunk: LazChunk): Promise<Uint8Array> {
  return readAhead(source, chunk.offset, chunk.byteLength);
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  // C++ exceptions arrive as "<pointer> - Exception catching is disabled...": say only that.
  return 'the decoder stopped on bad data';
}
