import { one, type Sql } from '../storage/database.js';
import { notFound } from './errors.js';
import { checkName, projectFor, requireAdmin, type ProjectAccess } from './projects.js';
import { newId } from './secrets.js';

/** Models of a project (seed 000: `{name, id}`), seen through the project's membership. */
export interface Model {
  id: string;
  name: string;
}

export interface ModelAccess extends Model {
  projectId: string;
  role: ProjectAccess['role'];
}

export async function listModels(sql: Sql, userId: string, projectId: string): Promise<Model[]> {
  await projectFor(sql, userId, projectId);
  return sql.query<Model>('SELECT id, name FROM models WHERE project_id = $1 ORDER BY created_at, id', [projectId]);
}

export async function createModel(sql: Sql, userId: string, projectId: string, name: string): Promise<Model> {
  await projectFor(sql, userId, projectId);
  const model = { id: newId(), name: checkName(name) };
  await sql.query('INSERT INTO models (id, project_id, name) VALUES ($1, $2, $3)', [model.id, projectId, model.name]);
  return model;
}

/** The model as this user may see it; 404 when it does not exist or its project is not theirs. */
export async function modelFor(sql: Sql, userId: string, modelId: string): Promise<ModelAccess> {
  const row = await one<ModelAccess>(
    sql,
    `SELECT mo.id, mo.name, mo.project_id AS "projectId", m.role FROM models mo
     JOIN project_members m ON m.project_id = mo.project_id AND m.user_id = $2
     WHERE mo.id = $1`,
    [modelId, userId],
  );
  if (!row) throw notFound('Model', modelId);
  return row;
}

export async function renameModel(sql: Sql, userId: string, modelId: string, name: string): Promise<Model> {
  await modelFor(sql, userId, modelId);
  await sql.query('UPDATE models SET name = $2 WHERE id = $1', [modelId, checkName(name)]);
  return { id: modelId, name };
}

/** Deletes the model with its revisions and products (project admins); resolves with the blob keys to remove. */
export async function deleteModel(sql: Sql, userId: string, modelId: string): Promise<string[]> {
  requireAdmin(await modelFor(sql, userId, modelId));
  const blobs = await sql.query(`SELECT blob_key FROM imports WHERE model_id = $1 UNION ALL SELECT k FROM revisions, unnest(ARRAY[scene_key, plans_key, image_key, pointcloud_key]) AS k WHERE model_id = $1 AND k <> ''`, [modelId]);
  await sql.query('DELETE FROM models WHERE id = $1', [modelId]);
  return blobs.map((b) => b.blob_key);
}
