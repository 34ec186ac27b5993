// @ts-check
/**
 * A worker thread of writeScanLas (scan-files.js): makes the scans it is given and writes
 * their LAS records straight into the file, at the place the main thread reserved for
 * each (every scan's count is known before it is made), then reports the integer bounds.
 * The main thread ends it when all scans are in (its file descriptor closes with it).
 */
import { openSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { encodePoints } from './las-writer.js';
import { createScan } from './scan.js';

const { truth, options, path, offset, scale } = workerData;
const scan = createScan(truth, options);
const fd = openSync(path, 'r+');
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

port.on('message', (/** @type {{ index: number, position: number }} */ job) => {
  try {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    let at = job.position;
    for (const batch of scan.scanBatches(job.index)) {
      const bytes = encodePoints(batch, offset, scale, lo, hi);
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
      at += bytes.length;
    }
    port.postMessage({ index: job.index, lo, hi });
  } catch (error) {
    port.postMessage({ index: job.index, error: String(/** @type {Error} */ (error).message ?? error) });
  }
});
