import { one, type Sql } from '../storage/database.js';
import { notFound } from './errors.js';
import { imageSource, imageVersion } from './project-image.js';

/**
 * Projects as the v2 API shows them to clients (docs/V2.md, "What clients call"): with
 * their creator (`owner`) and whether they have a picture (services/project-image.ts),
 * in one query. Membership as everywhere: another user's project is a 404.
 */
export interface ProjectSummary {
  id: string;
  name: string;
  createdAt: string;
  owner: { id: string; name: string } | null;
  /** The picture's version (`?v=`), when the project has one. */
  imageVersion?: string;
}

const SUMMARY = `SELECT p.id, p.name, p.created_at, u.id AS owner_id, u.name AS owner_name, i.model_id, i.revision_id, i.has_image
  FROM projects p JOIN project_members pm ON pm.project_id = p.id AND pm.user_id = $1
  LEFT JOIN users u ON u.id = p.created_by
  LEFT JOIN LATERAL (${imageSource('p.id')}) i ON true`;

function summary(row: Record<string, any>): ProjectSummary { // eslint-disable-line @typescript-eslint/no-explicit-any
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    owner: row.owner_id ? { id: row.owner_id, name: row.owner_name } : null,
    ...(row.has_image ? { imageVersion: imageVersion(row.model_id, row.revision_id) } : {}),
  };
}

/** A page of the user's projects (oldest first) and how many there are. */
export async function listProjectSummaries(sql: Sql, userId: string, page: number, pageSize: number): Promise<{ items: ProjectSummary[]; total: number }> {
  const rows = await sql.query(`${SUMMARY} ORDER BY p.created_at, p.id LIMIT $2 OFFSET $3`, [userId, pageSize, (page - 1) * pageSize]);
  const { n } = (await one(sql, 'SELECT count(*)::int AS n FROM project_members WHERE user_id = $1', [userId]))!;
  return { items: rows.map(summary), total: n };
}

export async function projectSummary(sql: Sql, userId: string, projectId: string): Promise<ProjectSummary> {
  const row = await one(sql, `${SUMMARY} WHERE p.id = $2`, [userId, projectId]);
  if (!row) throw notFound('Project', projectId);
  return summary(row);
}
