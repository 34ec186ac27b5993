import { Readable } from 'node:stream';
import type { BlobStore } from '../../storage/blobs.js';
import { one, type Database, type Sql } from '../../storage/database.js';
import { badRequest, notFound } from '../errors.js';
import { sizeGuard } from '../imports.js';
import { checkFilename } from '../bcf/documents.js';
import { newId } from '../secrets.js';
import { itemFor } from './libraries.js';

/**
 * The files of a library item, one per revision (1, 2, ...: the newest is the item's
 * latest): the request's body streamed to blob storage through the upload size guard
 * (MAX_UPLOAD_BYTES, 413 beyond, nothing kept), then numbered and recorded in one
 * transaction. Deleting a project removes their blobs (projectLibraryFileKeys).
 */
export interface LibraryFile {
  id: string;
  revision: number;
  filename: string;
  size: number;
  createdAt: Date;
  createdBy: string | null;
}

export interface LibraryFileRow extends LibraryFile {
  itemId: string;
  blobKey: string;
}

const FILE = `SELECT id, item_id AS "itemId", revision, filename, size, blob_key AS "blobKey", created_at AS "createdAt", created_by AS "createdBy" FROM library_item_files`;

export const fileJson = ({ id, revision, filename, size, createdAt, createdBy }: LibraryFileRow): LibraryFile => ({ id, revision, filename, size, createdAt, createdBy });

/** Uploads a new revision of the item; the caller is any member of the project. */
export async function uploadFile(db: Database, blobs: BlobStore, userId: string, at: { projectId: string; libraryId: string; itemId: string }, filename: unknown, body: Readable, limit: number): Promise<LibraryFile> {
  const item = await itemFor(db, userId, at.projectId, at.libraryId, at.itemId);
  const name = checkFilename(filename);
  const id = newId();
  const key = `libraries/${at.projectId}/${item.id}/${id}`;
  const guard = sizeGuard(limit);
  body.on('error', (error) => guard.destroy(error));
  const size = await blobs.put(key, body.pipe(guard));
  try {
    if (size === 0) throw badRequest('The request has no body: send the file as the body');
    return await db.transaction(async (tx) => {
      // The item's row lock numbers concurrent uploads one after the other.
      const { revision } = (await tx.query<{ revision: number }>('UPDATE library_items SET last_revision = last_revision + 1, latest_file_id = $2 WHERE id = $1 RETURNING last_revision AS revision', [item.id, id]))[0];
      const rows = await tx.query<LibraryFileRow>(
        `INSERT INTO library_item_files (id, item_id, revision, filename, size, blob_key, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)
         RETURNING id, item_id AS "itemId", revision, filename, size, blob_key AS "blobKey", created_at AS "createdAt", created_by AS "createdBy"`,
        [id, item.id, revision, name, size, key, userId],
      );
      return fileJson(rows[0]);
    });
  } catch (error) {
    await blobs.delete(key);
    throw error;
  }
}

/** The item's files, newest first. */
export async function listFiles(sql: Sql, userId: string, projectId: string, libraryId: string, itemId: string): Promise<LibraryFile[]> {
  const item = await itemFor(sql, userId, projectId, libraryId, itemId);
  return (await sql.query<LibraryFileRow>(`${FILE} WHERE item_id = $1 ORDER BY revision DESC`, [item.id])).map(fileJson);
}

/** A file of the item: 404 `Library item file (...) not found` otherwise. */
export async function fileOf(sql: Sql, itemId: string, fileId: string): Promise<LibraryFileRow> {
  const row = await one<LibraryFileRow>(sql, `${FILE} WHERE item_id = $1 AND id = $2`, [itemId, fileId]);
  if (!row) throw notFound('Library item file', fileId);
  return row;
}

export async function fileFor(sql: Sql, userId: string, at: { projectId: string; libraryId: string; itemId: string }, fileId: string): Promise<LibraryFileRow> {
  const item = await itemFor(sql, userId, at.projectId, at.libraryId, at.itemId);
  return fileOf(sql, item.id, fileId);
}

export const fileBytes = (blobs: BlobStore, row: LibraryFileRow): Promise<Readable> => blobs.get(row.blobKey);

/** The blob keys of every library file of a project (deleteProject removes them with its rows). */
export async function projectLibraryFileKeys(sql: Sql, projectId: string): Promise<string[]> {
  const rows = await sql.query<{ blob_key: string }>(
    'SELECT f.blob_key FROM library_item_files f JOIN library_items i ON i.id = f.item_id JOIN document_libraries l ON l.id = i.library_id WHERE l.project_id = $1',
    [projectId],
  );
  return rows.map((r) => r.blob_key);
}
