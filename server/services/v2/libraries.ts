import { one, type Sql } from '../../storage/database.js';
import { badRequest, notFound } from '../errors.js';
import { projectFor, requireAdmin, type ProjectAccess } from '../projects.js';
import { newId } from '../secrets.js';

/**
 * A project's document libraries and their items. Every member reads them and adds
 * items; creating a library takes the project's admin role (403, code 100, otherwise).
 * An item's files (its revisions) are library-files.ts.
 */
export interface Library {
  id: string;
  name: string;
  description: string;
  createdAt: Date;
  createdBy: string | null;
}

export interface LibraryItem {
  id: string;
  libraryId: string;
  name: string;
  description: string;
  /** Revision number of the newest file; 0 before the first upload. */
  latestRevision: number;
  /** Id of the newest file; null before the first upload. */
  latestFileId: string | null;
  createdAt: Date;
  createdBy: string | null;
}

export interface NewNamed {
  name: string;
  description?: string;
}

const LIBRARY = 'SELECT id, name, description, created_at AS "createdAt", created_by AS "createdBy" FROM document_libraries';
const ITEM = `SELECT id, library_id AS "libraryId", name, description, last_revision AS "latestRevision", latest_file_id AS "latestFileId",
  created_at AS "createdAt", created_by AS "createdBy" FROM library_items`;

/** A name as kept: not blank, at most 255 characters; a description at most 10,000. */
export function checkNamed(body: NewNamed): Required<NewNamed> {
  if (typeof body.name !== 'string' || body.name.trim() === '') throw badRequest('`name` must be a non-empty string');
  if (body.name.length > 255) throw badRequest('`name` is longer than 255 characters');
  const description = body.description ?? '';
  if (typeof description !== 'string' || description.length > 10_000) throw badRequest('`description` must be a string of at most 10000 characters');
  return { name: body.name, description };
}

export async function listLibraries(sql: Sql, userId: string, projectId: string): Promise<Library[]> {
  await projectFor(sql, userId, projectId);
  return sql.query<Library>(`${LIBRARY} WHERE project_id = $1 ORDER BY created_at, id`, [projectId]);
}

export async function createLibrary(sql: Sql, userId: string, projectId: string, body: NewNamed): Promise<Library> {
  requireAdmin(await projectFor(sql, userId, projectId));
  const { name, description } = checkNamed(body);
  return (await sql.query<Library>(
    `INSERT INTO document_libraries (id, project_id, name, description, created_by) VALUES ($1, $2, $3, $4, $5)
     RETURNING id, name, description, created_at AS "createdAt", created_by AS "createdBy"`,
    [newId(), projectId, name, description, userId],
  ))[0];
}

/** The library of a project the caller is a member of: 404 `Project (...)` or `Library (...) not found`. */
export async function libraryFor(sql: Sql, userId: string, projectId: string, libraryId: string): Promise<Library & { project: ProjectAccess }> {
  const project = await projectFor(sql, userId, projectId);
  const library = await one<Library>(sql, `${LIBRARY} WHERE project_id = $1 AND id = $2`, [projectId, libraryId]);
  if (!library) throw notFound('Library', libraryId);
  return { ...library, project };
}

export async function listItems(sql: Sql, userId: string, projectId: string, libraryId: string): Promise<LibraryItem[]> {
  await libraryFor(sql, userId, projectId, libraryId);
  return sql.query<LibraryItem>(`${ITEM} WHERE library_id = $1 ORDER BY created_at, id`, [libraryId]);
}

export async function createItem(sql: Sql, userId: string, projectId: string, libraryId: string, body: NewNamed): Promise<LibraryItem> {
  await libraryFor(sql, userId, projectId, libraryId);
  const { name, description } = checkNamed(body);
  const id = newId();
  await sql.query('INSERT INTO library_items (id, library_id, name, description, created_by) VALUES ($1, $2, $3, $4, $5)', [id, libraryId, name, description, userId]);
  return (await one<LibraryItem>(sql, `${ITEM} WHERE id = $1`, [id]))!;
}

/** An item of the library: 404 `Library item (...) not found` otherwise. */
export async function itemOf(sql: Sql, libraryId: string, itemId: string): Promise<LibraryItem> {
  const item = await one<LibraryItem>(sql, `${ITEM} WHERE library_id = $1 AND id = $2`, [libraryId, itemId]);
  if (!item) throw notFound('Library item', itemId);
  return item;
}

export async function itemFor(sql: Sql, userId: string, projectId: string, libraryId: string, itemId: string): Promise<LibraryItem> {
  await libraryFor(sql, userId, projectId, libraryId);
  return itemOf(sql, libraryId, itemId);
}
