import { tmpdir } from 'node:os';
import { one, type Database } from '../storage/database.js';
import type { BlobStore } from '../storage/blobs.js';
import { finish, LostJob, MAX_ATTEMPTS, type Job } from './queue.js';
import { callBack } from './ifc-import.js';
import { ConvertError, type ConvertResult } from './pointcloud-converter.js';
import { attemptFolder, convertScan, type Convert } from './convert-scan.js';
import { POINTCLOUD_VERSION } from '../../src/core/formats/pointcloud.js';
import { pointCloudKey } from '../services/point-clouds.js';

export interface PointCloudImportSettings {
  /** Converts a scan on disk into an octree file (pointcloud-converter.ts convertInThread). */
  convert: Convert;
  /** Where scratch copies and the converter's files go (default: the system's temporary folder). */
  scratchDir?: string;
}

/** How the import status names each of the readers' reasons (point-reader.ts), before their message. */
const REASONS: Record<string, string> = {
  checksum: 'bad checksum',
  truncated: 'truncated',
  empty: 'no points',
  unsupported: 'unsupported',
  malformed: 'malformed',
};

/**
 * The scan import job (E57, LAS, LAZ): converts the upload, read from a file on disk (the
 * blob's own, or a scratch copy from S3), into the point cloud format in a worker thread,
 * stores the result, then writes the revision (`model_type = 'point-cloud'`, its point count
 * and format version; no products) and the import's `success` in one transaction. A file
 * the readers refuse ends in `error` with `<reason>: <the reader's message>`, and then
 * nothing of it is left: no revision, neither the upload nor a converted file in blob
 * storage. A job taken again after its worker died converts again from the start (nothing
 * was visible before its last transaction), and is given up after MAX_ATTEMPTS.
 */
export function pointCloudImportJob(db: Database, blobs: BlobStore, settings: PointCloudImportSettings) {
  const scratchDir = settings.scratchDir ?? tmpdir();
  return async (job: Job, worker: string): Promise<void> => {
    const imp = await one(db, 'SELECT * FROM imports WHERE token = $1', [job.payload.token]);
    if (!imp || imp.result !== 'running') {
      await db.transaction((tx) => finish(tx, job, worker, 'done'));
      return;
    }
    const key = pointCloudKey(imp.model_id, imp.token);
    const fail = async (message: string) => {
      await db.transaction(async (tx) => {
        if (!(await finish(tx, job, worker, 'failed', message))) throw new LostJob(job);
        // Removed while this worker holds the job (another that took it over writes the same
        // keys) and before the status says `error`: a reader who sees it finds nothing left.
        await Promise.all([blobs.delete(key), blobs.delete(imp.blob_key)]);
        await tx.query(`UPDATE imports SET result = 'error', error = $2, revision_id = NULL, finished_at = now() WHERE token = $1`, [imp.token, message]);
      });
      await callBack(imp.callback_uri, imp.token, 'error');
    };
    // A folder per attempt for every scratch file (S3's copy, the converter's, the output);
    // an attempt whose process was killed left its own, which goes now.
    const scratch = attemptFolder(scratchDir, imp.token, job.attempts);
    await scratch.removeEarlier();
    if (job.attempts > MAX_ATTEMPTS) return fail(`processing stopped ${MAX_ATTEMPTS} times without finishing (${job.lastError ?? 'the worker process ended'})`);

    let result: ConvertResult & { size: number };
    try {
      result = await convertScan(blobs, imp.blob_key, key, scratch.path, imp.file_name, settings.convert);
      if (result.points === 0) throw new ConvertError('empty', 'The scan holds no valid points');
    } catch (error) {
      if (!(error instanceof ConvertError)) throw error; // not the file's fault: tried again (runner.ts)
      const label = error.reason && REASONS[error.reason];
      return await fail(label ? `${label}: ${error.message}` : error.message);
    }
    let revision: number | undefined;
    await db.transaction(async (tx) => {
      if (!(await finish(tx, job, worker, 'done'))) throw new LostJob(job);
      [{ last_revision: revision }] = await tx.query('UPDATE models SET last_revision = last_revision + 1 WHERE id = $1 RETURNING last_revision', [imp.model_id]);
      await tx.query(
        `INSERT INTO revisions (model_id, id, comment, object_id_base, file_name, blob_key, size, schema, product_count, model_type, point_count, pointcloud_key, pointcloud_size, pointcloud_version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 'point-cloud', $9, $10, $11, $12)`,
        [imp.model_id, revision, imp.comment, imp.object_id_base, imp.file_name, imp.blob_key, imp.size, result.format.toUpperCase(), result.points, key, result.size, POINTCLOUD_VERSION],
      );
      await tx.query(`UPDATE imports SET result = 'success', revision_id = $2, finished_at = now() WHERE token = $1`, [imp.token, revision]);
    });
    await callBack(imp.callback_uri, imp.token, 'success', revision);
  };
}
