import { Worker } from 'node:worker_threads';
import type { ReadBatch, ReadSummary } from './read-ifc.js';
import type { ProcessedFiles } from '../services/scenes.js';

/** A heap of this size is past what any model that web-ifc's 4 GB of wasm memory holds needs. */
const MAX_HEAP_MB = 8192;
/** After a file this large the thread is ended: web-ifc's wasm memory keeps the size of the largest model it held. */
const RECYCLE_BYTES = 64 * 1024 * 1024;

type Message = { kind: 'batch'; batch: ReadBatch } | { kind: 'done'; summary: ReadSummary } | { kind: 'error'; message: string };

/**
 * Reads IFC files in a worker thread (read-ifc-thread.ts), one at a time, so the API
 * process stays responsive; products come to `sink` in batches, the next one once the
 * last is written. The thread is kept between files (starting it and web-ifc costs more
 * than reading a small model) and ended after a big one, or when `sink` threw. A thread that dies (out of
 * memory, a wasm abort) rejects with `too large to process: ...` when memory was the
 * cause; the next file gets a new thread.
 */
export class IfcReaderThread {
  private worker?: Worker;
  private queue: Promise<unknown> = Promise.resolve();

  /** Reads `bytes`, products to `sink` (none: the files only); with `files`, writes the model's scene and plans to them. */
  read(bytes: Uint8Array, objectIdBase: number, sink: ((batch: ReadBatch) => Promise<void>) | null, files?: ProcessedFiles): Promise<ReadSummary> {
    const run = this.queue.then(() => this.readNow(bytes, objectIdBase, sink, files));
    this.queue = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private readNow(bytes: Uint8Array, objectIdBase: number, sink: ((batch: ReadBatch) => Promise<void>) | null, files?: ProcessedFiles): Promise<ReadSummary> {
    const worker = (this.worker ??= new Worker(new URL('./thread-entry.mjs', import.meta.url), {
      workerData: { module: new URL('./read-ifc-thread.ts', import.meta.url).href },
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB },
    }));
    const size = bytes.byteLength; // the buffer moves to the thread below
    return new Promise((resolve, reject) => {
      // Batches are written one after another, in order; the file is done once all are.
      let writing = Promise.resolve();
      let failed = false;
      const onMessage = (message: Message) => {
        if (message.kind === 'batch') {
          writing = writing.then(() => (failed ? undefined : sink!(message.batch))).then(
            () => worker.postMessage({ kind: 'next' }),
            (error) => {
              if (!failed) done(false, () => reject(error));
              failed = true;
            },
          );
        } else if (message.kind === 'done') void writing.then(() => failed || done(size < RECYCLE_BYTES, () => resolve(message.summary)));
        else void writing.then(() => failed || done(false, () => reject(new Error(memoryMessage(message.message)))));
      };
      const onError = (error: Error) => done(false, () => reject(new Error(memoryMessage(error.message, (error as { code?: string }).code))));
      const onExit = (code: number) => done(false, () => reject(new Error(`The IFC reader stopped (exit code ${code})`)));
      // Only our own listeners go: the Worker keeps internal ones (removeAllListeners would stop its messages).
      const done = (keep: boolean, fn: () => void) => {
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (!keep) {
          void worker.terminate();
          this.worker = undefined;
        }
        fn();
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      // A buffer of its own moves to the thread instead of being copied (a big file would be held twice).
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      worker.postMessage({ kind: 'read', bytes, objectIdBase, products: sink !== null, files }, own ? [bytes.buffer as ArrayBuffer] : []);
    });
  }
}

function memoryMessage(message: string, code?: string): string {
  const memory = code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|OOM|Cannot enlarge memory|Array buffer allocation failed/i.test(message);
  return memory ? `too large to process: ${message}` : message;
}
