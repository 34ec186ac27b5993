import { Worker } from 'node:worker_threads';
import type { ReadResult } from './read-ifc.js';

/** A heap of this size is past what any model that web-ifc's 4 GB of wasm memory holds needs. */
const MAX_HEAP_MB = 8192;

/**
 * Reads IFC files in a worker thread (read-ifc-thread.ts), started for each file and
 * ended after it: web-ifc's wasm memory grows with the largest model it has held and
 * never shrinks. A thread that dies (out of memory, a wasm abort) rejects with
 * `too large to process: ...` when memory was the cause.
 */
export function readIfcInThread(bytes: Uint8Array, objectIdBase: number): Promise<ReadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./thread-entry.mjs', import.meta.url), {
      workerData: { module: new URL('./read-ifc-thread.ts', import.meta.url).href },
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB },
    });
    const done = (fn: () => void) => {
      worker.removeAllListeners();
      worker.terminate();
      fn();
    };
    worker.on('message', (answer: { ok: true; result: ReadResult } | { ok: false; message: string }) => {
      done(() => (answer.ok ? resolve(answer.result) : reject(new Error(memoryMessage(answer.message)))));
    });
    worker.on('error', (error) => done(() => reject(new Error(memoryMessage(error.message, (error as { code?: string }).code)))));
    worker.on('exit', (code) => done(() => reject(new Error(`The IFC reader stopped (exit code ${code})`))));
    worker.postMessage({ bytes, objectIdBase });
  });
}

function memoryMessage(message: string, code?: string): string {
  const memory = code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|OOM|Cannot enlarge memory|Array buffer allocation failed/i.test(message);
  return memory ? `too large to process: ${message}` : message;
}
