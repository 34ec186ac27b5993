// @ts-check
/**
 * A worker thread of writeScanLaz (scan-files.js): makes the scans it is given and
 * compresses the LAZ chunks that lie wholly inside each (chunks are counted over all scans
 * from the file's first point: `starts` says where each scan begins). The points of a
 * chunk the scan shares with the scan before or after it go back as records: the main
 * thread compresses them with their neighbours' and writes every part in the file's order.
 *
 * Messages, in the scan's order: `{ index, records }`, `{ index, chunk, count, lo, hi,
 * byReturn }` (ChunkEncoder's bytes and what the header counts), then `{ index, done: true }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ArithmeticEncoder } from './arithmetic-encoder.js';
import { ChunkEncoder, RECORD_LENGTH } from './laz-chunk.js';
import { encodeRecords } from './laz-writer.js';
import { createScan } from './scan.js';

const { truth, options, offset, scale, chunkSize, starts } = workerData;
const scan = createScan(truth, options);
const coder = new ArithmeticEncoder(1 << 20);
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

port.on('message', (/** @type {{ index: number }} */ job) => {
  const { index } = job;
  try {
    const count = scan.plan.scans[index].count;
    // Points before `head` finish the chunk the scans before began; from `tail` on they begin the next one.
    const head = Math.min(count, (chunkSize - (starts[index] % chunkSize)) % chunkSize);
    const tail = head + Math.floor((count - head) / chunkSize) * chunkSize;
    /** @type {Uint8Array[]} */
    let shared = [];
    const sendShared = () => {
      const records = concat(shared);
      shared = [];
      port.postMessage({ index, records }, [records.buffer]);
    };
    /** @type {ChunkEncoder | null} */
    let chunk = null;
    let done = 0;
    for (const batch of scan.scanBatches(index)) {
      const records = encodeRecords(batch, offset, scale);
      for (let i = 0; i < batch.count; ) {
        if (done < head || done >= tail) {
          const n = Math.min((done < head ? head : count) - done, batch.count - i);
          shared.push(records.subarray(i * RECORD_LENGTH, (i + n) * RECORD_LENGTH));
          i += n;
          done += n;
          if (done === head) sendShared();
        } else {
          chunk ??= new ChunkEncoder(coder);
          const n = Math.min(chunkSize - chunk.count, batch.count - i);
          chunk.add(records, i, n);
          i += n;
          done += n;
          if (chunk.count === chunkSize) {
            const bytes = chunk.finish();
            port.postMessage({ index, chunk: bytes, count: chunk.count, lo: chunk.lo, hi: chunk.hi, byReturn: chunk.byReturn }, [bytes.buffer]);
            chunk = null;
          }
        }
      }
    }
    if (shared.length) sendShared();
    port.postMessage({ index, done: true });
  } catch (error) {
    port.postMessage({ index, error: String(/** @type {Error} */ (error).message ?? error) });
  }
});

/** @param {Uint8Array[]} parts */
function concat(parts) {
  const all = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
