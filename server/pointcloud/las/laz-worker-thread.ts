import { parentPort, workerData } from 'node:worker_threads';
import { PointCloudError } from '../point-reader.js';
import { LazDecoder } from './laz-chunks.js';
import type { FromThread, ThreadData, ToThread } from './laz-worker.js';

/**
 * A decoding thread of laz-worker.ts: a chunk in, its records out in blocks (copied out of
 * wasm memory and handed over, not cloned), the last block of each chunk short, so that
 * no block holds points of two chunks (the next chunk may be another thread's).
 */
const { format, recordLength, blockSize } = workerData as ThreadData;
const port = parentPort!;
const decoder = await LazDecoder.create(format, recordLength, blockSize);

const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const send = (chunk: number, view: Uint8Array) => {
  const records = view.slice();
  post({ kind: 'block', chunk, records }, [records.buffer]);
};

port.on('message', ({ chunk, bytes, pointCount, where }: ToThread) => {
  try {
    for (const block of decoder.decode(bytes, pointCount, where)) send(chunk, block);
    const rest = decoder.flush();
    if (rest) send(chunk, rest);
    post({ kind: 'chunk-done', chunk });
  } catch (error) {
    const reason = error instanceof PointCloudError ? error.reason : 'malformed';
    post({ kind: 'error', reason, message: error instanceof Error ? error.message : String(error) });
  }
});
