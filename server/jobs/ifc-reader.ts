import { MessageChannel, Worker, type TransferListItem } from 'node:worker_threads';
import type { ReadBatch, ReadSummary } from './read-ifc.js';
import type { SceneEnd } from '../../src/core/formats/scene.js';
import type { ProcessedFiles } from '../services/scenes.js';

/** A heap of this size is past what any model that web-ifc's 4 GB of wasm memory holds needs. */
const MAX_HEAP_MB = 8192;
/** After a file this large the threads are ended: web-ifc's wasm memory keeps the size of the largest model it held. */
const RECYCLE_BYTES = 64 * 1024 * 1024;

type Message = { kind: 'batch'; batch: ReadBatch } | { kind: 'done'; result: unknown } | { kind: 'error'; message: string };

/**
 * Reads IFC files in two worker threads (read-ifc-thread.ts), one file at a time, so the
 * API process stays responsive: one reads the products (to `sink`,
 * in batches, the next one once the last is written), the other writes the scene and
 * plans, at once (on two cores, the import takes the longer of the two instead of
 * both); only the second opens the file in web-ifc, the first reads its lines from the
 * bytes (core/ifc/step-model.ts). The first also reads the doors' plan symbols, and sends them and the scene's
 * product table to the second on a channel of their own: it needs the symbols for the
 * plans and the table last. A file over `parallelMaxBytes`, or a read of the files
 * alone, goes to one thread. The threads are kept between files (starting them and
 * web-ifc costs more than reading a small model) and replaced after a big one; a thread
 * that failed is replaced, and so is the other when it was still at the same file (it may
 * wait for the first), never one that had finished. A thread that dies (out of memory, a
 * wasm abort) rejects with `too large to process: ...` when memory was the cause. With
 * `warmUp` (the default), each thread reads the generated house a few times as it starts
 * (warm-up.ts), so that a first file does not run code that is not optimised yet; a
 * replacement starts as soon as the file is done, to be warm when the next one comes.
 */
export class IfcReaderThreads {
  private readonly products: ReaderThread;
  private readonly files: ReaderThread;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly recycleBytes: number;
  private readonly parallelMaxBytes: number;

  /**
   * `recycleBytes`: files from this size on end the threads after them (tests make it
   * small); `parallelMaxBytes`: larger files are read by one thread, products and then
   * files. Two threads take about half the time and more memory: each holds the file (the
   * scene thread also its parsed model in web-ifc's memory, the products thread its own
   * index of the lines); office-500k (452 MB): 40-44 s and a peak of 5.0 GB against 68-73 s
   * and 3.8 GB in one thread.
   */
  constructor({ warmUp = true, recycleBytes = RECYCLE_BYTES, parallelMaxBytes = Infinity }: { warmUp?: boolean; recycleBytes?: number; parallelMaxBytes?: number } = {}) {
    this.recycleBytes = recycleBytes;
    this.parallelMaxBytes = parallelMaxBytes;
    this.products = new ReaderThread(warmUp);
    this.files = new ReaderThread(warmUp);
  }

  /** Reads `bytes`, products to `sink` (none: the files only); with `files`, writes the model's scene and plans to them. */
  read(bytes: Uint8Array, objectIdBase: number, sink: ((batch: ReadBatch) => Promise<void>) | null, files?: ProcessedFiles): Promise<ReadSummary> {
    return this.inTurn(() => this.readNow(bytes, objectIdBase, sink, files));
  }

  /** Starts both threads, their web-ifc and their warm-up now, not on the first file's arrival; resolves with each one's warm-up readings when they are ready. */
  start(): Promise<number[]> {
    return this.inTurn(() => Promise.all([this.products.run<number>({ kind: 'start' }, [], true), this.files.run<number>({ kind: 'start' }, [], true)]));
  }

  /** One request to the threads at a time: each thread answers one. */
  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    await Promise.all([this.products.end(), this.files.end()]);
  }

  /** Threads started so far (both kinds, replacements included). */
  get threadsStarted(): number {
    return this.products.started + this.files.started;
  }

  private async readNow(bytes: Uint8Array, objectIdBase: number, sink: ((batch: ReadBatch) => Promise<void>) | null, files?: ProcessedFiles): Promise<ReadSummary> {
    try {
      return await this.readOnThreads(bytes, objectIdBase, sink, files);
    } finally {
      // Replacements start once the file is done, not while the other thread still reads it (their warm-up would take its CPU).
      this.products.replace();
      this.files.replace();
    }
  }

  private async readOnThreads(bytes: Uint8Array, objectIdBase: number, sink: ((batch: ReadBatch) => Promise<void>) | null, files?: ProcessedFiles): Promise<ReadSummary> {
    const keep = bytes.byteLength < this.recycleBytes;
    // A buffer of its own moves to the last thread instead of being copied (a big file would be held once more).
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : [];
    if (!sink || !files || bytes.byteLength > this.parallelMaxBytes) {
      return this.files.run<ReadSummary>({ kind: 'read', bytes, objectIdBase, products: sink !== null, files }, own, keep, sink ?? undefined);
    }
    const { port1, port2 } = new MessageChannel();
    const products = this.products.run<{ schema: string; products: number }>({ kind: 'products', bytes, objectIdBase, peer: port1 }, [port1], keep, sink);
    const processed = this.files.run<{ scene: SceneEnd }>({ kind: 'files', bytes, files, peer: port2 }, [port2, ...own], keep);
    try {
      const [read, written] = await Promise.all([products, processed]);
      return { schema: read.schema, products: read.products, scene: written.scene };
    } catch (error) {
      // The failed thread has ended; the other, if still at it, may be waiting for it.
      await Promise.all([this.products.abandon(), this.files.abandon()]);
      throw error;
    }
  }
}

/** One reader thread, kept between files. */
class ReaderThread {
  private worker?: Worker;
  /** A request is under way (sent, not yet settled). */
  private busy = false;
  started = 0;

  constructor(private readonly warmUp: boolean) {}

  /**
   * Sends `request` and settles with the thread's result; `sink` writes each batch, one
   * after another, in order (the result waits until all are written). The thread is ended
   * after a failure, or after the request when not `keep`.
   */
  run<T>(request: object, transfer: TransferListItem[], keep: boolean, sink?: (batch: ReadBatch) => Promise<void>): Promise<T> {
    const worker = (this.worker ??= this.spawn());
    this.busy = true;
    return new Promise<T>((resolve, reject) => {
      // Batches are written one after another, in order; the request settles once they are.
      // After a failure no other batch is begun (a failed import's rows are removed, and
      // must stay so), and the thread is ended: it may be waiting for a `next`.
      let writing = Promise.resolve();
      let failure: Error | undefined;
      let settling = false;
      const settle = (result?: unknown) => {
        if (settling) return;
        settling = true;
        this.busy = false;
        // Only our own listeners go: the Worker keeps internal ones (removeAllListeners would stop its messages).
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        void writing.then(() => {
          if ((failure || !keep) && this.worker === worker) void this.end();
          if (failure) reject(failure);
          else resolve(result as T);
        });
      };
      const fail = (error: Error) => {
        failure ??= error;
        settle();
      };
      const onMessage = (message: Message) => {
        if (message.kind === 'batch') {
          writing = writing
            .then(() => (failure ? undefined : sink!(message.batch)))
            .then(() => void (failure || worker.postMessage({ kind: 'next' })), fail);
        } else if (message.kind === 'done') settle(message.result);
        else fail(new Error(memoryMessage(message.message)));
      };
      const onError = (error: Error) => fail(new Error(memoryMessage(error.message, (error as { code?: string }).code)));
      const onExit = (code: number) => fail(new Error(`The IFC reader stopped (exit code ${code})`));
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(request, transfer);
    });
  }

  private spawn(): Worker {
    this.started++;
    return new Worker(new URL('./thread-entry.mjs', import.meta.url), {
      workerData: { module: new URL('./read-ifc-thread.ts', import.meta.url).href, warmUp: this.warmUp },
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB },
    });
  }

  async end(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  /** Ends a request still under way (its peer failed); an idle thread stays. */
  async abandon(): Promise<void> {
    if (this.busy) await this.end();
  }

  /** Starts the next thread now, when this one was ended, so that it is warm when the next file comes. */
  replace(): void {
    if (this.warmUp && !this.worker) this.worker = this.spawn();
  }
}

function memoryMessage(message: string, code?: string): string {
  const memory = code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|OOM|Cannot enlarge memory|Array buffer allocation failed/i.test(message);
  return memory ? `too large to process: ${message}` : message;
}
