import { one, type Sql } from '../storage/database.js';
import { badRequest, forbidden, notFound } from './errors.js';
import { newId } from './secrets.js';
import { projectFileKeys } from './bcf/board-files.js';
import { projectLibraryFileKeys } from './v2/library-files.js';

/**
 * Projects and their members. A user sees only the projects they are a member of; for
 * anyone else a project does not exist (404, the same answer as an unknown id, so ids
 * of other people's projects tell nothing). Renaming and deleting take the admin role,
 * which the creator has (403 for other members).
 */
export interface Project {
  id: string;
  name: string;
}

export interface ProjectAccess extends Project {
  role: 'admin' | 'member';
}

export function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('`name` must be a non-empty string');
  if (name.length > 255) throw badRequest('`name` is longer than 255 characters');
  return name;
}

export async function listProjects(sql: Sql, userId: string): Promise<Project[]> {
  return sql.query<Project>(
    `SELECT p.id, p.name FROM projects p JOIN project_members m ON m.project_id = p.id
     WHERE m.user_id = $1 ORDER BY p.created_at, p.id`,
    [userId],
  );
}

export async function createProject(sql: Sql, userId: string, name: string): Promise<Project> {
  const project = { id: newId(), name: checkName(name) };
  await sql.query('INSERT INTO projects (id, name, created_by) VALUES ($1, $2, $3)', [project.id, project.name, userId]);
  await sql.query(`INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, 'admin')`, [project.id, userId]);
  return project;
}

/** The project as this user may see it; 404 when it does not exist or they are no member. */
export async function projectFor(sql: Sql, userId: string, projectId: string): Promise<ProjectAccess> {
  const row = await one<ProjectAccess>(
    sql,
    `SELECT p.id, p.name, m.role FROM projects p JOIN project_members m ON m.project_id = p.id
     WHERE p.id = $1 AND m.user_id = $2`,
    [projectId, userId],
  );
  if (!row) throw notFound('Project', projectId);
  return row;
}

export function requireAdmin(access: { role: string }): void {
  if (access.role !== 'admin') throw forbidden();
}

export async function renameProject(sql: Sql, userId: string, projectId: string, name: string): Promise<Project> {
  const access = await projectFor(sql, userId, projectId);
  requireAdmin(access);
  await sql.query('UPDATE projects SET name = $2 WHERE id = $1', [projectId, checkName(name)]);
  return { id: projectId, name };
}

/** Deletes the project with its models, revisions, products, issue boards and document libraries; resolves with the blob keys to remove. */
export async function deleteProject(sql: Sql, userId: string, projectId: string): Promise<string[]> {
  requireAdmin(await projectFor(sql, userId, projectId));
  const blobs = await sql.query(
    `SELECT i.blob_key FROM imports i JOIN models m ON m.id = i.model_id WHERE m.project_id = $1
     UNION ALL SELECT k FROM revisions r JOIN models m ON m.id = r.model_id, unnest(ARRAY[r.scene_key, r.plans_key, r.image_key, r.pointcloud_key]) AS k WHERE m.project_id = $1 AND k <> ''`,
    [projectId],
  );
  const boardFiles = await projectFileKeys(sql, projectId);
  const libraryFiles = await projectLibraryFileKeys(sql, projectId);
  await sql.query('DELETE FROM projects WHERE id = $1', [projectId]);
  return [...blobs.map((b) => b.blob_key), ...boardFiles, ...libraryFiles];
}

export async function addMember(sql: Sql, projectId: string, userId: string, role: 'admin' | 'member'): Promise<void> {
  await sql.query(
    `INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (project_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
    [projectId, userId, role],
  );
}
