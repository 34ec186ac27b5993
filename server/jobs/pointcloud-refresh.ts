import { tmpdir } from 'node:os';
import { one, type Database, type Sql } from '../storage/database.js';
import type { BlobStore } from '../storage/blobs.js';
import { POINTCLOUD_VERSION } from '../../src/core/formats/pointcloud.js';
import { finish, LostJob, MAX_ATTEMPTS, queueForRevisions, type Job } from './queue.js';
import { attemptFolder, convertScan, type Convert } from './convert-scan.js';
import { pointCloudKey } from '../services/point-clouds.js';

/**
 * Point clouds of stored scan revisions converted again when the format's version
 * (formats/pointcloud.ts POINTCLOUD_VERSION) is not the one they were written in: the
 * viewer reads one version, so until its job is done such a revision is left out of the
 * manifests. Queued when the platform starts its jobs, as scene-job.ts does for scenes.
 */
export const POINTCLOUD_REFRESH_JOB = 'pointcloud-refresh';

/** Queues a job for every point cloud revision of another format version, unless one is waiting already; how many. */
export function queueStalePointClouds(sql: Sql): Promise<number> {
  return queueForRevisions(sql, POINTCLOUD_REFRESH_JOB, `r.model_type = 'point-cloud' AND r.pointcloud_version IS DISTINCT FROM $2`, [POINTCLOUD_VERSION]);
}

/** The job: the revision's scan converted again; the new file replaces the old in one transaction with the job's end. */
export function pointCloudRefreshJob(db: Database, blobs: BlobStore, settings: { convert: Convert; scratchDir?: string }) {
  const scratchDir = settings.scratchDir ?? tmpdir();
  return async (job: Job, worker: string): Promise<void> => {
    const { modelId, revisionId } = job.payload as { modelId: string; revisionId: number };
    const revision = await one(db, 'SELECT blob_key, file_name, pointcloud_key, pointcloud_version FROM revisions WHERE model_id = $1 AND id = $2', [modelId, revisionId]);
    const scratch = attemptFolder(scratchDir, `${modelId}-${revisionId}`, job.attempts);
    await scratch.removeEarlier();
    if (!revision || revision.pointcloud_version === POINTCLOUD_VERSION || job.attempts > MAX_ATTEMPTS) {
      const failed = revision && job.attempts > MAX_ATTEMPTS;
      await db.transaction((tx) => finish(tx, job, worker, failed ? 'failed' : 'done', failed ? `given up after ${MAX_ATTEMPTS} attempts (${job.lastError})` : undefined));
      return;
    }
    const key = pointCloudKey(modelId, `${revisionId}-v${POINTCLOUD_VERSION}`);
    // A scan its import took that a newer reader refuses throws here: the job fails, the revision stays out of the manifests.
    const result = await convertScan(blobs, revision.blob_key, key, scratch.path, revision.file_name, settings.convert);
    await db.transaction(async (tx) => {
      if (!(await finish(tx, job, worker, 'done'))) throw new LostJob(job);
      await tx.query('UPDATE revisions SET pointcloud_key = $3, pointcloud_size = $4, pointcloud_version = $5, point_count = $6 WHERE model_id = $1 AND id = $2', [
        modelId,
        revisionId,
        key,
        result.size,
        POINTCLOUD_VERSION,
        result.points,
      ]);
    });
    if (revision.pointcloud_key && revision.pointcloud_key !== key) await blobs.delete(revision.pointcloud_key);
  };
}
