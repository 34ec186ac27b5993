import { createLazPerf, type LazPerf } from 'laz-perf';
import type { ByteSource } from '../byte-source.js';
import { PointCloudError } from '../point-reader.js';
import type { LazChunk } from './chunk-table.js';
import { BASE_RECORD_LENGTHS } from './point-formats.js';

/**
 * LAZ points decoded chunk by chunk with laz-perf's ChunkDecoder: one chunk's compressed
 * bytes in wasm memory at a time, its records decoded straight into a block of wasm memory
 * that the caller reads before asking for more. Used in this thread (lazRecords) or in a
 * decoding thread of its own (laz-worker.ts).
 */

/** One laz-perf instance per thread, made when first needed. */
let lazPerf: Promise<LazPerf> | null = null;

function module(): Promise<LazPerf> {
  return (lazPerf ??= createLazPerf());
}

/** Zeros after a chunk's bytes: the decoder reads a few bytes ahead, and never into another chunk's leftovers. */
const PADDING = 64;

export class LazDecoder {
  private chunkBuffer = 0;
  private chunkCapacity = 0;
  private decoder: InstanceType<LazPerf['ChunkDecoder']> | null = null;
  private filled = 0;
  private failed = false;

  private constructor(
    private readonly laz: LazPerf,
    private readonly format: number,
    private readonly recordLength: number,
    private readonly blockSize: number,
    private readonly block: number,
  ) {}

  static async create(format: number, recordLength: number, blockSize: number): Promise<LazDecoder> {
    const laz = await module();
    return new LazDecoder(laz, format, recordLength, blockSize, laz._malloc(blockSize * recordLength));
  }

  /**
   * Decodes one chunk; yields each block of `blockSize` records as it fills (a view of wasm
   * memory, valid until the next step). Records that do not fill a block wait for the next
   * chunk, or for flush().
   */
  *decode(bytes: Uint8Array, pointCount: number, where: string): Generator<Uint8Array> {
    const { laz, recordLength, blockSize } = this;
    if (this.format >= 6) checkLayers(bytes, this.format, recordLength, where);
    if (bytes.length + PADDING > this.chunkCapacity) {
      if (this.chunkBuffer) laz._free(this.chunkBuffer);
      this.chunkCapacity = Math.max(bytes.length + PADDING, this.chunkCapacity * 2);
      this.chunkBuffer = laz._malloc(this.chunkCapacity);
    }
    laz.HEAPU8.set(bytes, this.chunkBuffer);
    laz.HEAPU8.fill(0, this.chunkBuffer + bytes.length, this.chunkBuffer + bytes.length + PADDING);
    this.decoder?.delete();
    let left = pointCount;
    try {
      this.decoder = new laz.ChunkDecoder();
      this.decoder.open(this.format, recordLength, this.chunkBuffer);
      while (left > 0) {
        const n = Math.min(left, blockSize - this.filled);
        for (let i = 0, at = this.block + this.filled * recordLength; i < n; i++, at += recordLength) this.decoder.getPoint(at);
        this.filled += n;
        left -= n;
        if (this.filled === blockSize) {
          this.filled = 0;
          yield this.view(blockSize);
        }
      }
    } catch (error) {
      // After a failure inside laz-perf its memory may be in any state: later readers get a new instance.
      lazPerf = null;
      this.failed = true;
      throw new PointCloudError('malformed', `The compressed points of ${where} could not be decoded: ${describe(error)}`);
    }
  }

  /** The records of a block not yet full, or null. */
  flush(): Uint8Array | null {
    const count = this.filled;
    this.filled = 0;
    return count ? this.view(count) : null;
  }

  dispose() {
    // An instance dropped after a failure is left to the garbage collector as it is.
    if (this.failed) return;
    this.decoder?.delete();
    this.decoder = null;
    if (this.chunkBuffer) this.laz._free(this.chunkBuffer);
    this.laz._free(this.block);
    this.chunkBuffer = 0;
  }

  /** The heap's buffer may have been replaced as it grew: view the current one. */
  private view(count: number): Uint8Array {
    return new Uint8Array(this.laz.HEAPU8.buffer, this.block, count * this.recordLength);
  }
}

/**
 * A layered chunk (formats 6-8) starts with its first point raw, its point count and the
 * byte size of each field's layer. laz-perf trusts those sizes: one damaged size makes it
 * grow its memory towards 4 GB before failing. Their sum must fit in the chunk.
 */
function checkLayers(bytes: Uint8Array, format: number, recordLength: number, where: string) {
  // Point 1.4 has 9 layers, then RGB one, RGB+NIR two, and each extra byte one.
  const layers = 9 + (format === 7 ? 1 : format === 8 ? 2 : 0) + (recordLength - BASE_RECORD_LENGTHS[format]);
  const head = recordLength + 4 + layers * 4;
  let sum = 0;
  if (bytes.length >= head) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < layers; i++) sum += view.getUint32(recordLength + 4 + i * 4, true);
  }
  if (bytes.length < head || sum > bytes.length - head) {
    throw new PointCloudError('malformed', `The compressed points of ${where} could not be decoded: the sizes of its layers exceed its ${bytes.length} bytes`);
  }
}

/** The records of `chunks` decoded in this thread, in blocks of `blockSize` (the last fewer). */
export async function* lazRecords(
  source: ByteSource,
  chunks: LazChunk[],
  format: number,
  recordLength: number,
  blockSize: number,
): AsyncGenerator<Uint8Array> {
  const decoder = await LazDecoder.create(format, recordLength, blockSize);
  try {
    let next = chunks.length ? readChunk(source, chunks, 0) : null;
    for (let c = 0; c < chunks.length; c++) {
      const bytes = await next!;
      next = c + 1 < chunks.length ? readChunk(source, chunks, c + 1) : null;
      yield* decoder.decode(bytes, chunks[c].pointCount, chunkName(chunks, c));
    }
    const rest = decoder.flush();
    if (rest) yield rest;
  } finally {
    decoder.dispose();
  }
}

/** A chunk's compressed bytes, read ahead of their decoding (see readAhead). */
export function readChunk(source: ByteSource, chunks: LazChunk[], c: number): Promise<Uint8Array> {
  const { offset, byteLength } = chunks[c];
  const read = source.read(offset, byteLength).then((bytes) => {
    if (bytes.length < byteLength) throw new PointCloudError('truncated', `The file ends inside LAZ chunk ${c + 1} of ${chunks.length}`);
    return bytes;
  });
  read.catch(() => {});
  return read;
}

export function chunkName(chunks: LazChunk[], c: number): string {
  return `LAZ chunk ${c + 1} of ${chunks.length} (at byte ${chunks[c].offset})`;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  // C++ exceptions arrive as "<pointer> - Exception catching is disabled...": say only that.
  return 'the decoder stopped on bad data';
}
