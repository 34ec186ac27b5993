import { one, type Database, type Sql } from '../storage/database.js';
import type { BlobStore } from '../storage/blobs.js';
import { SCENE_VERSION } from '../../src/core/formats/scene.js';
import { finish, LostJob, MAX_ATTEMPTS, queueForRevisions, type Job } from './queue.js';
import { processedKeys, removeScratch, scratchFiles, storeProcessed } from '../services/scenes.js';
import type { ReadIfc } from './read-ifc.js';

/**
 * Scenes and plans of stored revisions written again: those imported before scenes or
 * plans existed, or whose scene is of an older version of the format (formats/scene.ts).
 * Queued when the platform starts its jobs and by `npm run platform -- scenes`; until its
 * job is done a revision serves its IFC (a manifest lists only the formats there are).
 */
export const SCENE_JOB = 'scene';

/** Queues a scene job for every revision whose scene is missing or old, unless one is waiting already; how many. */
export function queueStaleScenes(sql: Sql): Promise<number> {
  return queueForRevisions(sql, SCENE_JOB, `r.model_type = 'bim' AND (r.scene_version IS DISTINCT FROM $2 OR r.plans_key IS NULL)`, [SCENE_VERSION]);
}

/** The job: the revision's IFC read again for its scene and plans alone; they replace the old in one transaction with the job's end. */
export function sceneJob(db: Database, blobs: BlobStore, read: ReadIfc) {
  return async (job: Job, worker: string): Promise<void> => {
    const { modelId, revisionId } = job.payload as { modelId: string; revisionId: number };
    const revision = await one(db, 'SELECT blob_key, object_id_base, scene_key, scene_version, plans_key FROM revisions WHERE model_id = $1 AND id = $2', [modelId, revisionId]);
    if (!revision || (revision.scene_version === SCENE_VERSION && revision.plans_key) || job.attempts > MAX_ATTEMPTS) {
      const failed = revision && job.attempts > MAX_ATTEMPTS;
      await db.transaction((tx) => finish(tx, job, worker, failed ? 'failed' : 'done', failed ? `given up after ${MAX_ATTEMPTS} attempts (${job.lastError})` : undefined));
      return;
    }
    const keys = processedKeys(modelId, `${revisionId}-v${SCENE_VERSION}`);
    const files = scratchFiles(`${modelId}-${revisionId}-${job.attempts}`);
    let sizes: Awaited<ReturnType<typeof storeProcessed>>;
    try {
      await read(await blobs.read(revision.blob_key), revision.object_id_base, null, files);
      sizes = await storeProcessed(blobs, keys, files);
    } finally {
      await removeScratch(files);
    }
    await db.transaction(async (tx) => {
      if (!(await finish(tx, job, worker, 'done'))) throw new LostJob(job);
      await tx.query(
        'UPDATE revisions SET scene_key = $3, scene_size = $4, scene_bytes = $5, scene_version = $6, plans_key = $7, plans_size = $8 WHERE model_id = $1 AND id = $2',
        [modelId, revisionId, keys.scene, sizes.scene.stored, sizes.scene.bytes, SCENE_VERSION, keys.plans, sizes.plans.stored],
      );
    });
    for (const old of [revision.scene_key, revision.plans_key]) if (old && old !== keys.scene && old !== keys.plans) await blobs.delete(old);
  };
}
