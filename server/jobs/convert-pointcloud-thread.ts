import { parentPort, workerData } from 'node:worker_threads';
import { openPointFile, PointCloudError } from '../pointcloud/point-reader.js';
import { convertPointCloud } from '../pointcloud/octree/convert.js';
import type { ConvertJob } from './pointcloud-converter.js';

/**
 * The worker thread that converts one scan (pointcloud-converter.ts starts one per file):
 * the reader streams the scan from disk, the converter writes the octree file. Posts
 * `{kind: 'progress', fraction}` now and then, then `{kind: 'done', points, format}` or
 * `{kind: 'error', reason, message}` (reason: the reader's, or null for anything else).
 */
const port = parentPort!;
const job = workerData.job as ConvertJob;

try {
  const reader = await openPointFile(job.input);
  try {
    let last = 0;
    const summary = await convertPointCloud(reader, job.output, {
      name: job.name,
      sourceName: job.name,
      scratchDir: job.scratchDir,
      onProgress: (fraction) => {
        // A message per percent at most: the host only logs and renews.
        if (fraction - last >= 0.01 || fraction === 1) port.postMessage({ kind: 'progress', fraction: (last = fraction) });
      },
    });
    port.postMessage({ kind: 'done', points: summary.points, format: reader.info.format });
  } finally {
    await reader.close();
  }
} catch (error) {
  port.postMessage({
    kind: 'error',
    reason: error instanceof PointCloudError ? error.reason : null,
    message: error instanceof Error ? error.message : String(error),
  });
}
