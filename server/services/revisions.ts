import { SCENE_VERSION } from '../../src/core/formats/scene.js';
import { POINTCLOUD_VERSION } from '../../src/core/formats/pointcloud.js';
import { one, type Sql } from '../storage/database.js';
import { notFound } from './errors.js';
import { modelFor } from './models.js';

/**
 * Seed 000's Revision: `{id, comment, timestamp}` (milliseconds since the epoch: 13 digits);
 * a point cloud's (an addition) says so, `model_type: 'point-cloud'`, with its `point_count`.
 */
export interface Revision {
  id: number;
  comment: string;
  timestamp: number;
  model_type?: 'point-cloud';
  point_count?: number;
}

/** A revision with what the services need besides its public fields. */
export interface StoredRevision extends Revision {
  modelId: string;
  projectId: string;
  objectIdBase: number;
  fileName: string;
  blobKey: string;
  size: number;
  productCount: number;
  /** The scene processing wrote (formats/scene.ts); null for revisions processed before scenes existed or with an older version of the formats. */
  sceneKey: string | null;
  sceneSize: number | null;
  /** Its size unpacked. */
  sceneBytes: number | null;
  /** The storey plans processing wrote (formats/plans.ts), and their stored size. */
  plansKey: string | null;
  plansSize: number | null;
  /** `bim` (an IFC: products, scene, plans) or `point-cloud` (a scan: its processed point cloud, no products). */
  modelType: 'bim' | 'point-cloud';
  /** A point cloud's points, its processed file (formats/pointcloud.ts) and that file's size; null for BIM models. */
  pointCount: number | null;
  pointCloudKey: string | null;
  pointCloudSize: number | null;
}

/** The processed files of an older format version count as none: their scene job writes both again. */
export const currentFormat = (column: string) => `CASE WHEN r.scene_version = ${SCENE_VERSION} THEN r.${column} END`;

/** A point cloud written in another version of its format counts as none (the viewer reads one version). */
const currentPointCloud = (column: string) => `CASE WHEN r.pointcloud_version = ${POINTCLOUD_VERSION} THEN r.${column} END`;

/** A StoredRevision's columns, of `revisions r JOIN models m`. */
export const REVISION_COLUMNS = `r.id, r.comment, (extract(epoch FROM r.created_at) * 1000)::bigint AS timestamp, r.model_id AS "modelId",
  m.project_id AS "projectId", r.object_id_base AS "objectIdBase", r.file_name AS "fileName", r.blob_key AS "blobKey", r.size, r.product_count AS "productCount",
  ${currentFormat('scene_key')} AS "sceneKey", r.scene_size AS "sceneSize", r.scene_bytes AS "sceneBytes",
  ${currentFormat('plans_key')} AS "plansKey", r.plans_size AS "plansSize", r.model_type AS "modelType", r.point_count AS "pointCount",
  ${currentPointCloud('pointcloud_key')} AS "pointCloudKey", r.pointcloud_size AS "pointCloudSize"`;

export const publicRevision = ({ id, comment, timestamp, modelType, pointCount }: Revision & Partial<StoredRevision>): Revision =>
  modelType === 'point-cloud' ? { id, comment, timestamp, model_type: 'point-cloud', point_count: pointCount ?? 0 } : { id, comment, timestamp };

export async function listRevisions(sql: Sql, userId: string, modelId: string): Promise<Revision[]> {
  await modelFor(sql, userId, modelId);
  const rows = await sql.query<StoredRevision>(`SELECT ${REVISION_COLUMNS} FROM revisions r JOIN models m ON m.id = r.model_id WHERE r.model_id = $1 ORDER BY r.id`, [modelId]);
  return rows.map(publicRevision);
}

/**
 * SQL selecting `columns` of the revision a user can see: $1 the model, $2 the user, $3
 * the revision (null: the latest). Shared with the product page of one revision.
 */
export const visibleRevision = (columns: string) => `SELECT ${columns} FROM revisions r JOIN models m ON m.id = r.model_id
     JOIN project_members pm ON pm.project_id = m.project_id AND pm.user_id = $2
     WHERE r.model_id = $1 AND ($3::int IS NULL OR r.id = $3) ORDER BY r.id DESC LIMIT 1`;

/**
 * A revision of a model the user can see; the latest when `revisionId` is undefined. One
 * query on the way that succeeds.
 */
export async function revisionFor(sql: Sql, userId: string, modelId: string, revisionId?: number): Promise<StoredRevision> {
  const row = await one<StoredRevision>(sql, visibleRevision(REVISION_COLUMNS), [modelId, userId, revisionId ?? null]);
  if (row) return row;
  await modelFor(sql, userId, modelId); // 404 Model when that is what is missing
  throw notFound('Revision', revisionId ?? `latest of model ${modelId}`);
}

/** A model's revision, no access check (viewer tokens carry their own grant). */
export async function revisionOf(sql: Sql, modelId: string, revisionId?: number): Promise<StoredRevision> {
  const row = await one<StoredRevision>(
    sql,
    `SELECT ${REVISION_COLUMNS} FROM revisions r JOIN models m ON m.id = r.model_id WHERE r.model_id = $1 AND ($2::int IS NULL OR r.id = $2) ORDER BY r.id DESC LIMIT 1`,
    [modelId, revisionId ?? null],
  );
  if (!row) throw notFound('Revision', revisionId === undefined ? `latest of model ${modelId}` : revisionId);
  return row;
}

/** The current set of revisions of a project: the latest of each model that has one, in object id order. */
export async function currentRevisions(sql: Sql, projectId: string): Promise<StoredRevision[]> {
  const rows = await sql.query<StoredRevision>(
    `SELECT DISTINCT ON (r.model_id) ${REVISION_COLUMNS} FROM revisions r JOIN models m ON m.id = r.model_id
     WHERE m.project_id = $1 ORDER BY r.model_id, r.id DESC`,
    [projectId],
  );
  return rows.sort((a, b) => a.objectIdBase - b.objectIdBase);
}
