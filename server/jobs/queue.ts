import type { Database, Sql } from '../storage/database.js';

/**
 * The job queue, a table in the same database (storage/migrations): jobs are taken with
 * `SELECT ... FOR UPDATE SKIP LOCKED`, so any number of worker processes share one
 * PostgreSQL without taking the same job, and held by a lease the worker renews. A job
 * whose worker died (kill -9) is taken again when its lease runs out, up to
 * MAX_ATTEMPTS times in all; then it is given up (Job.attempts tells the handler). An
 * attempt that threw is put back at once (release).
 */
export interface Job {
  id: number;
  kind: string;
  payload: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  attempts: number;
  /** Why the last attempt failed, when it threw (release). */
  lastError: string | null;
}

export const MAX_ATTEMPTS = 3;

export async function enqueue(sql: Sql, kind: string, payload: object): Promise<number> {
  const [row] = await sql.query('INSERT INTO jobs (kind, payload) VALUES ($1, $2) RETURNING id', [kind, JSON.stringify(payload)]);
  return row.id;
}

/** Takes the oldest waiting job (or one whose lease ran out) for `worker`, or undefined. */
/**
 * Queues a `kind` job (payload `{modelId, revisionId}`) for every revision matching
 * `where` (SQL on `r`, the revisions row; `params` are its $2, $3...), unless
 * one is queued or running for it already, newest revision of each model first; how many.
 * The platform's refresh jobs for processed files of another format version use it.
 */
export async function queueForRevisions(sql: Sql, kind: string, where: string, params: unknown[]): Promise<number> {
  const rows = await sql.query(
    `INSERT INTO jobs (kind, payload)
     SELECT $1, jsonb_build_object('modelId', r.model_id, 'revisionId', r.id) FROM revisions r
     WHERE (${where}) AND NOT EXISTS (
       SELECT 1 FROM jobs j WHERE j.kind = $1 AND j.state IN ('queued', 'running')
         AND j.payload->>'modelId' = r.model_id AND (j.payload->>'revisionId')::int = r.id)
     ORDER BY r.model_id, r.id DESC
     RETURNING 1`,
    [kind, ...params],
  );
  return rows.length;
}

export async function take(db: Database, worker: string, leaseMs: number): Promise<Job | undefined> {
  const [row] = await db.query(
    `UPDATE jobs SET state = 'running', attempts = attempts + 1, worker = $1, lease_until = now() + $2 * interval '1 millisecond'
     WHERE id = (
       SELECT id FROM jobs
       WHERE state = 'queued' OR (state = 'running' AND lease_until < now())
       ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
     RETURNING id, kind, payload, attempts, last_error AS "lastError"`,
    [worker, leaseMs],
  );
  return row as Job | undefined;
}

/** Renews the lease; false when the job is no longer this worker's (it was taken over). */
export async function renew(db: Database, job: Job, worker: string, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET lease_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND worker = $2 AND state = 'running' RETURNING 1`,
    [job.id, worker, leaseMs],
  );
  return rows.length > 0;
}

/**
 * Ends a job, in the transaction that writes its results (so a crash leaves both or
 * neither); false when the job was no longer this worker's, and the caller rolls back.
 */
export async function finish(tx: Sql, job: Job, worker: string, state: 'done' | 'failed', error?: string): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE jobs SET state = $3, last_error = $4, finished_at = now(), lease_until = NULL
     WHERE id = $1 AND worker = $2 AND state = 'running' RETURNING 1`,
    [job.id, worker, state, error ?? null],
  );
  return rows.length > 0;
}

/**
 * Locks the job's row for the rest of the transaction; false when the job is no longer
 * this worker's. A job that writes in several transactions checks with it in each.
 */
export async function holds(tx: Sql, job: Job, worker: string): Promise<boolean> {
  const rows = await tx.query(`SELECT 1 FROM jobs WHERE id = $1 AND worker = $2 AND state = 'running' FOR UPDATE`, [job.id, worker]);
  return rows.length > 0;
}

/** Puts a job whose attempt threw back in the queue at once (the next attempt, or giving up, comes without waiting for the lease). */
export async function release(db: Database, job: Job, worker: string, error: string): Promise<void> {
  await db.query(`UPDATE jobs SET state = 'queued', lease_until = NULL, last_error = $3 WHERE id = $1 AND worker = $2 AND state = 'running'`, [job.id, worker, error]);
}

/** Thrown inside a job's transaction when the job was taken over: rolls it back. */
export class LostJob extends Error {
  constructor(job: Job) {
    super(`Job ${job.id} was taken over by another worker`);
  }
}
