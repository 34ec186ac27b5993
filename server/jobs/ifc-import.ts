import { setImmediate as nextTurn } from 'node:timers/promises';
import { one, type Database, type Sql } from '../storage/database.js';
import type { BlobStore } from '../storage/blobs.js';
import { finish, holds, LostJob, MAX_ATTEMPTS, type Job } from './queue.js';
import type { ReadBatch, ReadIfc, ReadSummary } from './read-ifc.js';
import { SCENE_VERSION } from '../../src/core/formats/scene.js';
import { processedKeys, removeScratch, scratchFiles, storeProcessed } from '../services/scenes.js';

type ImportRow = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ImportSettings {
  /** Files larger than this are failed at once: `too large to process`. */
  maxProcessBytes: number;
  /** Reads the IFC, handing products to `sink` batch by batch, and writes its scene and plans to `files`. */
  read: ReadIfc;
}

/**
 * The import job: reads the uploaded IFC and writes its products batch by batch, each in
 * a short transaction (a big model never holds the database, nor sits whole in memory),
 * under a revision number no reader sees yet, and stores its scene; the revision row, the
 * import's `success` and the job's end come last, in one transaction, so nothing
 * half-processed is ever visible. A failure records `error` with the reason and removes what was written. A job
 * taken again after its worker died takes over its number and rows, and is given up with
 * an `error` after MAX_ATTEMPTS.
 */
export function ifcImportJob(db: Database, blobs: BlobStore, settings: ImportSettings) {
  return async (job: Job, worker: string): Promise<void> => {
    const imp = await one(db, 'SELECT * FROM imports WHERE token = $1', [job.payload.token]);
    if (!imp || imp.result !== 'running') {
      await db.transaction((tx) => finish(tx, job, worker, 'done'));
      return;
    }
    const keys = processedKeys(imp.model_id, imp.token);
    const fail = async (message: string) => {
      await db.transaction(async (tx) => {
        if (!(await finish(tx, job, worker, 'failed', message))) throw new LostJob(job);
        // Removed while this worker holds the job (another that took it over writes the same
        // keys) and before the status says `error`: a reader who sees it finds nothing left.
        await Promise.all([blobs.delete(keys.scene), blobs.delete(keys.plans)]);
        await discard(tx, imp);
        await tx.query(`UPDATE imports SET result = 'error', error = $2, revision_id = NULL, finished_at = now() WHERE token = $1`, [imp.token, message]);
      });
      await callBack(imp.callback_uri, imp.token, 'error');
    };
    if (job.attempts > MAX_ATTEMPTS) return fail(`processing stopped ${MAX_ATTEMPTS} times without finishing (${job.lastError ?? 'the worker process ended'})`);
    if (imp.size > settings.maxProcessBytes) return fail(`too large to process: ${imp.size} bytes; the limit is ${settings.maxProcessBytes}`);

    let revision: number | undefined;
    let writeError: unknown;
    const write = async (batch: ReadBatch) => {
      try {
        // A turn of the event loop per batch: PGlite answers without waiting on I/O, and the
        // thread's messages are handled in one go, so without it requests would wait for the whole file.
        await nextTurn();
        revision = await db.transaction(async (tx) => {
          if (!(await holds(tx, job, worker))) throw new LostJob(job);
          const number = revision ?? (await takeRevisionNumber(tx, imp));
          await insertBatch(tx, imp.model_id, number, batch);
          return number;
        });
      } catch (error) {
        writeError = error;
        throw error;
      }
    };
    const files = scratchFiles(`${imp.token}-${job.attempts}`);
    let summary: ReadSummary;
    let sizes: Awaited<ReturnType<typeof storeProcessed>>;
    try {
      try {
        summary = await settings.read(await blobs.read(imp.blob_key), imp.object_id_base, write, files);
      } catch (error) {
        if (writeError) throw writeError; // the database's trouble, not the file's: tried again (runner.ts)
        return await fail((error as Error).message);
      }
      sizes = await storeProcessed(blobs, keys, files);
    } finally {
      await removeScratch(files);
    }
    await db.transaction(async (tx) => {
      if (!(await finish(tx, job, worker, 'done'))) throw new LostJob(job);
      await tx.query(
        `INSERT INTO revisions (model_id, id, comment, object_id_base, file_name, blob_key, size, schema, product_count, scene_key, scene_size, scene_bytes, scene_version, plans_key, plans_size)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [imp.model_id, revision, imp.comment, imp.object_id_base, imp.file_name, imp.blob_key, imp.size, summary.schema, summary.products, keys.scene, sizes.scene.stored, sizes.scene.bytes, SCENE_VERSION, keys.plans, sizes.plans.stored],
      );
      await tx.query(`UPDATE imports SET result = 'success', finished_at = now() WHERE token = $1`, [imp.token]);
    });
    await callBack(imp.callback_uri, imp.token, 'success', revision);
  };
}

/**
 * The revision number for an import's first batch (a file that does not open takes none).
 * A former attempt's number is taken over, its rows removed.
 */
async function takeRevisionNumber(tx: Sql, imp: ImportRow): Promise<number> {
  if (imp.revision_id !== null) {
    await deleteRows(tx, imp.model_id, imp.revision_id);
    return imp.revision_id;
  }
  const [{ last_revision: revision }] = await tx.query('UPDATE models SET last_revision = last_revision + 1 WHERE id = $1 RETURNING last_revision', [imp.model_id]);
  await tx.query('UPDATE imports SET revision_id = $2 WHERE token = $1', [imp.token, revision]);
  return revision;
}

/** Removes a failed import's rows, and gives its number back unless a later import took one. */
async function discard(tx: Sql, imp: ImportRow): Promise<void> {
  const row = await one(tx, 'SELECT revision_id FROM imports WHERE token = $1', [imp.token]);
  if (row?.revision_id == null) return;
  await deleteRows(tx, imp.model_id, row.revision_id);
  await tx.query('UPDATE models SET last_revision = last_revision - 1 WHERE id = $1 AND last_revision = $2', [imp.model_id, row.revision_id]);
}

async function deleteRows(tx: Sql, modelId: string, revision: number): Promise<void> {
  await tx.query('DELETE FROM products WHERE model_id = $1 AND revision_id = $2', [modelId, revision]);
  await tx.query('DELETE FROM definitions WHERE model_id = $1 AND revision_id = $2', [modelId, revision]);
}

/** A batch of products and definitions (read-ifc.ts ReadBatch: JSON, each product with its seq, its place in the file's order). */
async function insertBatch(tx: Sql, modelId: string, revision: number, batch: ReadBatch): Promise<void> {
  if (batch.count) {
    await tx.query(
      `INSERT INTO products (model_id, revision_id, object_id, seq, parent, global_id, type, name, description, attributes, defined_by)
       SELECT $1, $2, p."objectId", p.seq, p.parent, p."globalId", p.type, p.name, p.description, p.attributes,
              ARRAY(SELECT jsonb_array_elements_text(p."definedBy")::bigint)
       FROM jsonb_to_recordset($3::jsonb)
         AS p("objectId" bigint, seq int, parent bigint, "globalId" text, type text, name text, description text, attributes jsonb, "definedBy" jsonb)`,
      [modelId, revision, batch.products],
    );
  }
  if (batch.definitions) {
    await tx.query(
      `INSERT INTO definitions (model_id, revision_id, object_id, value)
       SELECT $1, $2, d."objectId", d.value FROM jsonb_to_recordset($3::jsonb) AS d("objectId" bigint, value jsonb)`,
      [modelId, revision, batch.definitions],
    );
  }
}

/**
 * Seed 000: "the service issues one GET request to [callback_uri] when processing has
 * finished". Its query gets `token`, `result` and (on success) `revision_id` added. One
 * try, 10 s at most: the application polls the status if it missed it.
 */
export async function callBack(uri: string | null, token: string, result: string, revision?: number): Promise<void> {
  if (!uri) return;
  const url = new URL(uri);
  url.searchParams.set('token', token);
  url.searchParams.set('result', result);
  if (revision !== undefined) url.searchParams.set('revision_id', String(revision));
  try {
    await fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  } catch {
    // The application was unreachable; its import status says the same.
  }
}
