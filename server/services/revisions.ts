import { one, type Sql } from '../storage/database.js';
import { notFound } from './errors.js';
import { modelFor } from './models.js';

/** Seed 000's Revision: `{id, comment, timestamp}` (milliseconds since the epoch: 13 digits). */
export interface Revision {
  id: number;
  comment: string;
  timestamp: number;
}

/** A revision with what the services need besides its public fields. */
export interface StoredRevision extends Revision {
  modelId: string;
  projectId: string;
  objectIdBase: number;
  fileName: string;
  blobKey: string;
  size: number;
}

const COLUMNS = `r.id, r.comment, (extract(epoch FROM r.created_at) * 1000)::bigint AS timestamp, r.model_id AS "modelId",
  m.project_id AS "projectId", r.object_id_base AS "objectIdBase", r.file_name AS "fileName", r.blob_key AS "blobKey", r.size`;

export const publicRevision = ({ id, comment, timestamp }: Revision): Revision => ({ id, comment, timestamp });

export async function listRevisions(sql: Sql, userId: string, modelId: string): Promise<Revision[]> {
  await modelFor(sql, userId, modelId);
  const rows = await sql.query<StoredRevision>(`SELECT ${COLUMNS} FROM revisions r JOIN models m ON m.id = r.model_id WHERE r.model_id = $1 ORDER BY r.id`, [modelId]);
  return rows.map(publicRevision);
}

/** A revision of a model the user can see; the latest when `revisionId` is undefined. */
export async function revisionFor(sql: Sql, userId: string, modelId: string, revisionId?: number): Promise<StoredRevision> {
  await modelFor(sql, userId, modelId);
  return revisionOf(sql, modelId, revisionId);
}

/** A model's revision, no access check (viewer tokens carry their own grant). */
export async function revisionOf(sql: Sql, modelId: string, revisionId?: number): Promise<StoredRevision> {
  const row =
    revisionId === undefined
      ? await one<StoredRevision>(sql, `SELECT ${COLUMNS} FROM revisions r JOIN models m ON m.id = r.model_id WHERE r.model_id = $1 ORDER BY r.id DESC LIMIT 1`, [modelId])
      : await one<StoredRevision>(sql, `SELECT ${COLUMNS} FROM revisions r JOIN models m ON m.id = r.model_id WHERE r.model_id = $1 AND r.id = $2`, [modelId, revisionId]);
  if (!row) throw notFound('Revision', revisionId === undefined ? `latest of model ${modelId}` : revisionId);
  return row;
}

/** The current set of revisions of a project: the latest of each model that has one. */
export async function currentRevisions(sql: Sql, projectId: string): Promise<StoredRevision[]> {
  return sql.query<StoredRevision>(
    `SELECT DISTINCT ON (r.model_id) ${COLUMNS} FROM revisions r JOIN models m ON m.id = r.model_id
     WHERE m.project_id = $1 ORDER BY r.model_id, r.id DESC`,
    [projectId],
  );
}
