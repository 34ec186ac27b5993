import { randomUUID } from 'node:crypto';
import { one, type Sql } from '../../storage/database.js';
import { badRequest, notFound } from '../errors.js';
import { checkName, createProject, projectFor } from '../projects.js';
import { seedExtensions } from './extensions.js';

/**
 * Issue boards (BCF projects, seed 001): each lives in a platform project, and the members
 * of that project are its users. For anyone else a board does not exist (404, as for an
 * unknown id). Creating and renaming take membership only: every member runs issues.
 */
export interface Board {
  id: string;
  name: string;
  archived: boolean;
  projectId: string;
  projectName: string;
  /** The caller's role in the platform project: admins may delete any topic or comment. */
  role: 'admin' | 'member';
}

const BOARD = `SELECT b.id, b.name, b.archived, b.project_id AS "projectId", p.name AS "projectName", m.role
  FROM bcf_boards b JOIN projects p ON p.id = b.project_id JOIN project_members m ON m.project_id = b.project_id AND m.user_id = $1`;

export type ArchivedFilter = 'archived' | 'not-archived' | 'all';

export async function listBoards(sql: Sql, userId: string, filter: { projectId?: string; archived?: ArchivedFilter } = {}): Promise<Board[]> {
  const archived = filter.archived ?? 'not-archived';
  return sql.query<Board>(
    `${BOARD} WHERE ($2::text IS NULL OR b.project_id = $2) AND ($3 = 'all' OR b.archived = ($3 = 'archived')) ORDER BY b.created_at, b.id`,
    [userId, filter.projectId ?? null, archived],
  );
}

/** A board the user can see: one query, and a 404 for an unknown or unseen id (a malformed one too). */
export async function boardFor(sql: Sql, userId: string, boardId: string): Promise<Board> {
  const board = isUuid(boardId) ? await one<Board>(sql, `${BOARD} WHERE b.id = $2`, [userId, boardId]) : undefined;
  if (!board) throw notFound('Project', boardId);
  return board;
}

/** A new board in the platform project `projectId` (the user must be a member), or in a new platform project of the same name. */
export async function createBoard(sql: Sql, userId: string, name: string, projectId?: string): Promise<Board> {
  checkName(name);
  const project = projectId ? await projectFor(sql, userId, projectId) : await createProject(sql, userId, name);
  const id = randomUUID();
  await sql.query('INSERT INTO bcf_boards (id, project_id, name) VALUES ($1, $2, $3)', [id, project.id, name]);
  await seedExtensions(sql, id);
  return boardFor(sql, userId, id);
}

export async function updateBoard(sql: Sql, userId: string, boardId: string, changes: { name?: string; archived?: boolean }): Promise<Board> {
  const board = await boardFor(sql, userId, boardId);
  if (changes.name !== undefined) checkName(changes.name);
  const next = { ...board, name: changes.name ?? board.name, archived: changes.archived ?? board.archived };
  await sql.query('UPDATE bcf_boards SET name = $2, archived = $3 WHERE id = $1', [boardId, next.name, next.archived]);
  return next;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** A guid a client sent: a UUID, written lower case as stored. */
export function checkGuid(value: unknown, field = 'guid'): string {
  if (!isUuid(value)) throw badRequest(`\`${field}\` must be a UUID (such as ${randomUUID()})`);
  return value.toLowerCase();
}
