import { one, type Database, type Sql } from '../storage/database.js';
import type { BlobStore } from '../storage/blobs.js';
import { finish, LostJob, MAX_ATTEMPTS, type Job } from './queue.js';
import type { ReadResult } from './read-ifc.js';

/** Rows per INSERT when writing products: one jsonb parameter each, well under PostgreSQL's limits. */
const BATCH = 2000;

export interface ImportSettings {
  /** Files larger than this are failed at once: `too large to process`. */
  maxProcessBytes: number;
  /** Reads the IFC (a worker thread in the server; ifc-reader.ts). */
  read: (bytes: Uint8Array, objectIdBase: number) => Promise<ReadResult>;
}

/**
 * The import job: reads the uploaded IFC, then writes the revision, its products and the
 * import's `success` in one transaction with the job's end, so nothing half-processed is
 * ever visible; or records `error` with the reason. A job taken again after its worker
 * died is tried again, and given up with an `error` after MAX_ATTEMPTS.
 */
export function ifcImportJob(db: Database, blobs: BlobStore, settings: ImportSettings) {
  return async (job: Job, worker: string): Promise<void> => {
    const imp = await one(db, 'SELECT * FROM imports WHERE token = $1', [job.payload.token]);
    if (!imp || imp.result !== 'running') {
      await db.transaction((tx) => finish(tx, job, worker, 'done'));
      return;
    }
    const fail = async (message: string) => {
      await db.transaction(async (tx) => {
        if (!(await finish(tx, job, worker, 'failed', message))) throw new LostJob(job);
        await tx.query(`UPDATE imports SET result = 'error', error = $2, finished_at = now() WHERE token = $1`, [imp.token, message]);
      });
      await callBack(imp.callback_uri, imp.token, 'error');
    };
    if (job.attempts > MAX_ATTEMPTS) return fail(`processing stopped ${MAX_ATTEMPTS} times without finishing (${job.lastError ?? 'the worker process ended'})`);
    if (imp.size > settings.maxProcessBytes) return fail(`too large to process: ${imp.size} bytes; the limit is ${settings.maxProcessBytes}`);

    let result: ReadResult;
    try {
      result = await settings.read(await blobs.read(imp.blob_key), imp.object_id_base);
    } catch (error) {
      return fail((error as Error).message);
    }
    const revision = await db.transaction(async (tx) => {
      if (!(await finish(tx, job, worker, 'done'))) throw new LostJob(job);
      return writeRevision(tx, imp, result);
    });
    await callBack(imp.callback_uri, imp.token, 'success', revision);
  };
}

async function writeRevision(tx: Sql, imp: Record<string, any>, result: ReadResult): Promise<number> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const [{ last_revision: revision }] = await tx.query('UPDATE models SET last_revision = last_revision + 1 WHERE id = $1 RETURNING last_revision', [imp.model_id]);
  await tx.query(
    `INSERT INTO revisions (model_id, id, comment, object_id_base, file_name, blob_key, size, schema, product_count) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [imp.model_id, revision, imp.comment, imp.object_id_base, imp.file_name, imp.blob_key, imp.size, result.schema, result.products.length],
  );
  // Products come in object id order (read-ifc.ts): their position is their seq.
  for (let i = 0; i < result.products.length; i += BATCH) {
    await tx.query(
      `INSERT INTO products (model_id, revision_id, object_id, seq, parent, global_id, type, name, description, attributes, defined_by)
       SELECT $1, $2, p."objectId", p.seq, p.parent, p."globalId", p.type, p.name, p.description, p.attributes,
              ARRAY(SELECT jsonb_array_elements_text(p."definedBy")::bigint)
       FROM jsonb_to_recordset($3::jsonb)
         AS p("objectId" bigint, seq int, parent bigint, "globalId" text, type text, name text, description text, attributes jsonb, "definedBy" jsonb)`,
      [imp.model_id, revision, JSON.stringify(result.products.slice(i, i + BATCH).map((p, k) => ({ ...p, seq: i + k + 1 })))],
    );
  }
  for (let i = 0; i < result.definitions.length; i += BATCH) {
    await tx.query(
      `INSERT INTO definitions (model_id, revision_id, object_id, value)
       SELECT $1, $2, d."objectId", d.value FROM jsonb_to_recordset($3::jsonb) AS d("objectId" bigint, value jsonb)`,
      [imp.model_id, revision, JSON.stringify(result.definitions.slice(i, i + BATCH))],
    );
  }
  await tx.query(`UPDATE imports SET result = 'success', revision_id = $2, finished_at = now() WHERE token = $1`, [imp.token, revision]);
  return revision;
}

/**
 * Seed 000: "the service issues one GET request to [callback_uri] when processing has
 * finished". Its query gets `token`, `result` and (on success) `revision_id` added. One
 * try, 10 s at most: the application polls the status if it missed it.
 */
async function callBack(uri: string | null, token: string, result: string, revision?: number): Promise<void> {
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
