import { Worker } from 'node:worker_threads';
import type { ByteSource } from '../byte-source.js';
import { PointCloudError } from '../point-reader.js';
import type { LazChunk } from './chunk-table.js';
import { chunkName, readChunk } from './laz-chunks.js';

/**
 * LAZ records decoded in a thread of their own, so that on two cores decoding (laz-perf,
 * the slow part of reading LAZ) runs beside whatever consumes the points. This side reads
 * the chunks' bytes and keeps two chunks ahead of the thread; the thread sends blocks of
 * records back. Memory stays bounded by about two chunks, compressed and decoded.
 */
export interface ThreadData {
  module: string;
  format: number;
  recordLength: number;
  blockSize: number;
}

export type ToThread = { kind: 'chunk'; bytes: Uint8Array; pointCount: number; where: string } | { kind: 'end' };
export type FromThread =
  | { kind: 'block'; records: Uint8Array }
  | { kind: 'chunk-done' }
  | { kind: 'done' }
  | { kind: 'error'; reason: PointCloudError['reason']; message: string };

/** Chunks handed to the thread before it has finished the first of them. */
const AHEAD = 2;
/** Registers the TypeScript loader in the thread, then loads `module` (the server's jobs start their threads the same way). */
const THREAD_ENTRY = new URL('../../jobs/thread-entry.mjs', import.meta.url);

export async function* lazRecordsInThread(
  source: ByteSource,
  chunks: LazChunk[],
  format: number,
  recordLength: number,
  blockSize: number,
): AsyncGenerator<Uint8Array> {
  const workerData: ThreadData = { module: new URL('./laz-worker-thread.ts', import.meta.url).href, format, recordLength, blockSize };
  const worker = new Worker(THREAD_ENTRY, { workerData });
  const inbox: FromThread[] = [];
  let failure: Error | null = null;
  let finished = false;
  let wake: (() => void) | null = null;
  worker.on('message', (message: FromThread) => {
    inbox.push(message);
    wake?.();
  });
  worker.on('error', (error) => {
    failure ??= new Error(`The LAZ decoding thread failed: ${error.message}`);
    wake?.();
  });
  worker.on('exit', (code) => {
    if (!finished) failure ??= new Error(`The LAZ decoding thread stopped (exit code ${code})`);
    wake?.();
  });
  const receive = async (): Promise<FromThread> => {
    while (inbox.length === 0) {
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
    return inbox.shift()!;
  };
  let sent = 0;
  const send = async () => {
    const c = sent++;
    let bytes = await readChunk(source, chunks, c);
    // Hand the bytes over rather than clone them; a view into a larger buffer (a MemorySource) is copied first.
    if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) bytes = bytes.slice();
    const message: ToThread = { kind: 'chunk', bytes, pointCount: chunks[c].pointCount, where: chunkName(chunks, c) };
    worker.postMessage(message, [bytes.buffer as ArrayBuffer]);
  };
  try {
    while (sent < chunks.length && sent < AHEAD) await send();
    let done = 0;
    if (chunks.length === 0) worker.postMessage({ kind: 'end' } satisfies ToThread);
    for (;;) {
      const message = await receive();
      if (message.kind === 'block') yield message.records;
      else if (message.kind === 'chunk-done') {
        done++;
        if (sent < chunks.length) await send();
        else if (done === chunks.length) worker.postMessage({ kind: 'end' } satisfies ToThread);
      } else if (message.kind === 'done') break;
      else throw new PointCloudError(message.reason, message.message);
    }
  } finally {
    finished = true;
    void worker.terminate();
  }
}
