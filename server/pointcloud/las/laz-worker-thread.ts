import { parentPort, workerData } from 'node:worker_threads';
import { PointCloudError } from '../point-reader.js';
import { LazDecoder } from './laz-chunks.js';
import type { FromThread, ThreadData, ToThread } from './laz-worker.js';

/**
 * The decoding thread of laz-worker.ts: chunks in, blocks of records out (copied out of
 * wasm memory and handed over, not cloned).
 */
const { format, recordLength, blockSize } = workerData as ThreadData;
const port = parentPort!;
const decoder = await LazDecoder.create(format, recordLength, blockSize);

const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const send = (view: Uint8Array) => {
  const records = view.slice();
  post({ kind: 'block', records }, [records.buffer]);
};

port.on('message', (message: ToThread) => {
  try {
    if (message.kind === 'chunk') {
      for (const block of decoder.decode(message.bytes, message.pointCount, message.where)) send(block);
      post({ kind: 'chunk-done' });
    } else {
      const rest = decoder.flush();
      if (rest) send(rest);
      post({ kind: 'done' });
    }
  } catch (error) {
    const reason = error instanceof PointCloudError ? error.reason : 'malformed';
    post({ kind: 'error', reason, message: error instanceof Error ? error.message : String(error) });
  }
});
