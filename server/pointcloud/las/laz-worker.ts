import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ByteSource } from '../byte-source.js';
import { PointCloudError } from '../point-reader.js';
import type { LazChunk } from './chunk-table.js';
import { chunkName, readChunk } from './laz-chunks.js';

/**
 * LAZ records decoded in threads of their own: decoding (laz-perf) is the slow part of
 * reading LAZ, about a microsecond a point, and chunks decode independently. Chunk c goes
 * to thread c % threads; this side reads the chunks' bytes, keeps each thread two chunks
 * ahead, and hands the records on in the file's order (so a conversion's output does not
 * depend on which thread finished first). Memory stays bounded by about two chunks per
 * thread, compressed and decoded.
 */
export interface ThreadData {
  module: string;
  format: number;
  recordLength: number;
  blockSize: number;
}

export type ToThread = { kind: 'chunk'; chunk: number; bytes: Uint8Array; pointCount: number; where: string };
export type FromThread =
  | { kind: 'block'; chunk: number; records: Uint8Array }
  | { kind: 'chunk-done'; chunk: number }
  | { kind: 'error'; reason: PointCloudError['reason']; message: string };

/** Chunks handed to a thread before it has finished the first of them. */
const AHEAD = 2;
/** Threads at most: past four, reading and the octree's distribution (this thread) keep up no more. */
const MAX_THREADS = 4;
/** Registers the TypeScript loader in the thread, then loads `module` (the server's jobs start their threads the same way). */
const THREAD_ENTRY = new URL('../../jobs/thread-entry.mjs', import.meta.url);

/** Threads for a file: one per core up to MAX_THREADS, and none idle (each gets two chunks or more). */
export function decodeThreads(chunks: number): number {
  return Math.max(1, Math.min(availableParallelism(), MAX_THREADS, Math.floor(chunks / 2)));
}

export async function* lazRecordsInThreads(
  source: ByteSource,
  chunks: LazChunk[],
  format: number,
  recordLength: number,
  blockSize: number,
  threads = decodeThreads(chunks.length),
): AsyncGenerator<Uint8Array> {
  const workerData: ThreadData = { module: new URL('./laz-worker-thread.ts', import.meta.url).href, format, recordLength, blockSize };
  const workers = Array.from({ length: threads }, () => new Worker(THREAD_ENTRY, { workerData }));
  /** Per chunk not yet handed on: its blocks so far, and whether its thread has finished it. */
  const arrived = new Map<number, { blocks: Uint8Array[]; done: boolean }>();
  const entry = (c: number) => arrived.get(c) ?? arrived.set(c, { blocks: [], done: false }).get(c)!;
  let failure: Error | null = null;
  let finished = false;
  let wake: (() => void) | null = null;
  for (const worker of workers) {
    worker.on('message', (message: FromThread) => {
      if (message.kind === 'block') entry(message.chunk).blocks.push(message.records);
      else if (message.kind === 'chunk-done') entry(message.chunk).done = true;
      else failure ??= new PointCloudError(message.reason, message.message);
      wake?.();
    });
    worker.on('error', (error) => {
      failure ??= new Error(`A LAZ decoding thread failed: ${error.message}`);
      wake?.();
    });
    worker.on('exit', (code) => {
      if (!finished) failure ??= new Error(`A LAZ decoding thread stopped (exit code ${code})`);
      wake?.();
    });
  }
  let sent = 0;
  const send = async () => {
    const c = sent++;
    let bytes = await readChunk(source, chunks, c);
    // Hand the bytes over rather than clone them; a view into a larger buffer (a MemorySource) is copied first.
    if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) bytes = bytes.slice();
    const message: ToThread = { kind: 'chunk', chunk: c, bytes, pointCount: chunks[c].pointCount, where: chunkName(chunks, c) };
    workers[c % threads].postMessage(message, [bytes.buffer as ArrayBuffer]);
  };
  try {
    while (sent < chunks.length && sent < AHEAD * threads) await send();
    for (let c = 0; c < chunks.length; ) {
      const chunk = arrived.get(c);
      if (chunk?.blocks.length) {
        yield chunk.blocks.shift()!;
      } else if (chunk?.done) {
        arrived.delete(c++);
        if (sent < chunks.length) await send(); // to chunk c's thread: c + AHEAD * threads
      } else {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    }
  } finally {
    finished = true;
    for (const worker of workers) void worker.terminate();
  }
}
