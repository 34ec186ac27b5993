import type { ByteSource } from '../byte-source.js';
import { PointCloudError, type PointBatch, type PointCloudInfo, type PointReader } from '../point-reader.js';
import { readChunkTable, type LazChunk } from './chunk-table.js';
import { findRecord, HEADER_READ, parseHeader, readVariableRecords, type LasHeader } from './las-header.js';
import { checkLaszip, LASZIP_RECORD, LASZIP_USER, parseLaszip, type Laszip } from './laszip-vlr.js';
import { lazRecords } from './laz-chunks.js';
import { decodeThreads, lazRecordsInThreads } from './laz-worker.js';
import { BatchBuffers, decodeRecords, recordLayout, type RecordLayout } from './point-formats.js';
import { readProjection } from './projection.js';
import { readAhead } from './read-ahead.js';

/**
 * LAS 1.0-1.4 and LAZ (COPC included: a LAZ 1.4 file whose chunks are its octree's nodes)
 * as a PointReader. Opening reads the header and records and checks them; a file cut short
 * still opens (its info is what the header says) and fails as its points are read.
 */
export const BATCH_POINTS = 65536;
/** LAZ files of this many points or more are decoded in threads of their own (starting one costs a fraction of a second). */
export const THREAD_MIN_POINTS = 500_000;

export interface LasOptions {
  /**
   * Threads to decode LAZ in (0: this one); by default one per core (at most four: see
   * laz-worker.ts) when the file has THREAD_MIN_POINTS or more.
   */
  decodeThreads?: number;
}

export async function openLas(source: ByteSource, options: LasOptions = {}): Promise<PointReader> {
  const header = parseHeader(await source.read(0, HEADER_READ), source.size);
  const records = await readVariableRecords(source, header);
  let laszip: Laszip | null = null;
  if (header.compressed) {
    const record = findRecord(records, LASZIP_USER, LASZIP_RECORD);
    if (!record) throw new PointCloudError('malformed', 'The point format is marked compressed (LAZ), but the file has no laszip record saying how');
    laszip = parseLaszip(await source.read(record.dataOffset, record.dataLength));
    checkLaszip(laszip, header.format, header.recordLength);
  }
  if (header.pointCount === 0) throw new PointCloudError('empty', 'The file holds no points (its header states 0)');
  let chunks: LazChunk[] | null = null;
  let problem: PointCloudError | null = null;
  if (laszip) {
    try {
      chunks = await readChunkTable(source, header, laszip);
    } catch (error) {
      if (!(error instanceof PointCloudError && error.reason === 'truncated')) throw error;
      problem = error;
    }
  } else {
    const whole = wholeRecords(header, source.size);
    if (whole < header.pointCount) {
      problem = new PointCloudError('truncated', `The file holds ${whole} of the ${header.pointCount} points its header states: it ends after ${source.size} bytes`);
    }
  }
  const layout = recordLayout(header.format, header.recordLength);
  const info: PointCloudInfo = {
    format: header.compressed ? 'laz' : 'las',
    pointCount: header.pointCount,
    bounds: header.bounds,
    hasColor: layout.rgbOffset >= 0,
    hasIntensity: true,
    hasClassification: true,
    scale: header.scale,
    projection: await readProjection(source, header, records),
  };
  const threads = options.decodeThreads ?? (header.pointCount >= THREAD_MIN_POINTS && chunks ? decodeThreads(chunks.length) : 0);
  return new LasReader(source, header, layout, info, chunks, problem, threads);
}

/** Whole records between the start of the points and their end (EVLRs, else the file's end). */
function wholeRecords(header: LasHeader, size: number): number {
  const end = header.evlrCount > 0 && header.evlrStart >= header.pointOffset && header.evlrStart <= size ? header.evlrStart : size;
  return Math.floor((end - header.pointOffset) / header.recordLength);
}

class LasReader implements PointReader {
  constructor(
    private readonly source: ByteSource,
    private readonly header: LasHeader,
    private readonly layout: RecordLayout,
    readonly info: PointCloudInfo,
    private readonly chunks: LazChunk[] | null,
    private readonly problem: PointCloudError | null,
    private readonly threads: number,
  ) {}

  batches(): AsyncIterable<PointBatch> {
    return this.chunks ? this.lazBatches(this.chunks) : this.lasBatches();
  }

  close(): Promise<void> {
    return this.source.close();
  }

  private async *lasBatches(): AsyncGenerator<PointBatch> {
    if (this.problem) throw this.problem;
    const { pointOffset, recordLength, pointCount, scale, offset } = this.header;
    const buffers = new BatchBuffers(BATCH_POINTS, this.info.hasColor);
    const block = (from: number) => readAhead(this.source, pointOffset + from * recordLength, Math.min(BATCH_POINTS, pointCount - from) * recordLength);
    let done = 0;
    let next = block(0);
    while (done < pointCount) {
      const count = Math.min(BATCH_POINTS, pointCount - done);
      const bytes = await next;
      // Checked at open; a file that shrank since is cut short all the same.
      if (bytes.length < count * recordLength) throw new PointCloudError('truncated', `The file ends after ${done + Math.floor(bytes.length / recordLength)} of its ${pointCount} points`);
      done += count;
      if (done < pointCount) next = block(done);
      decodeRecords(bytes, count, this.layout, scale, offset, buffers, 0);
      yield buffers.batch(count);
    }
  }

  /** Decoded records come in blocks of any size (a thread's last of a chunk is short): batches are filled to BATCH_POINTS all the same. */
  private async *lazBatches(chunks: LazChunk[]): AsyncGenerator<PointBatch> {
    if (this.problem) throw this.problem;
    const { format, recordLength, scale, offset } = this.header;
    const buffers = new BatchBuffers(BATCH_POINTS, this.info.hasColor);
    const records = this.threads > 0
      ? lazRecordsInThreads(this.source, chunks, format, recordLength, BATCH_POINTS, this.threads)
      : lazRecords(this.source, chunks, format, recordLength, BATCH_POINTS);
    let filled = 0;
    for await (const block of records) {
      for (let at = 0, count = block.length / recordLength; at < count; ) {
        const n = Math.min(count - at, BATCH_POINTS - filled);
        decodeRecords(block.subarray(at * recordLength), n, this.layout, scale, offset, buffers, filled);
        at += n;
        filled += n;
        if (filled === BATCH_POINTS) {
          filled = 0;
          yield buffers.batch(BATCH_POINTS);
        }
      }
    }
    if (filled) yield buffers.batch(filled);
  }
}
