import { one, type Sql } from '../../storage/database.js';
import { ApiError, notFound } from '../errors.js';
import { collectionItemRows, shareUrlOf } from './collections.js';
import type { LibraryFileRow } from './library-files.js';

/**
 * A collection's public link (`shareExpiresAt` set by PATCH): anyone holding it reads the
 * collection's name, its items at the files they resolve to, and downloads those files,
 * without an access token, until it expires (410 then; 404 for a token never issued or
 * revoked). It grants nothing else: no other file, no user ids.
 */
interface SharedRow {
  id: string;
  name: string;
  description: string;
  finalized: boolean;
  followLatestRevision: boolean;
  expiresAt: Date;
}

export const sharedLinkNotFound = () => new ApiError(404, 20, 'NOT_FOUND', 'Shared link not found');

async function sharedRow(sql: Sql, token: string): Promise<SharedRow> {
  const row = await one<SharedRow & { live: boolean }>(
    sql,
    `SELECT id, name, description, finalized, follow_latest_revision AS "followLatestRevision", share_expires_at AS "expiresAt", share_expires_at > now() AS live
     FROM library_collections WHERE share_token = $1`,
    [token],
  );
  if (!row) throw sharedLinkNotFound();
  if (!row.live) throw new ApiError(410, 410, 'GONE', `The shared link expired at ${row.expiresAt.toISOString()}`);
  return row;
}

const FILE = `SELECT f.id, f.item_id AS "itemId", f.revision, f.filename, f.size, f.blob_key AS "blobKey", f.created_at AS "createdAt", f.created_by AS "createdBy"
  FROM library_item_files f`;

export async function sharedCollection(sql: Sql, token: string, origin: string) {
  const collection = await sharedRow(sql, token);
  const items = await collectionItemRows(sql, collection.id);
  const files = await sql.query<LibraryFileRow>(`${FILE} WHERE f.id = ANY($1::text[])`, [items.map((i) => i.fileId)]);
  const fileOf = new Map(files.map((f) => [f.id, f]));
  const base = shareUrlOf(origin, token);
  return {
    id: collection.id,
    name: collection.name,
    description: collection.description,
    finalized: collection.finalized,
    followLatestRevision: collection.followLatestRevision,
    expiresAt: collection.expiresAt,
    items: items.map((item) => {
      const file = fileOf.get(item.fileId)!;
      return {
        id: item.id,
        libraryId: item.libraryId,
        libraryItemId: item.libraryItemId,
        name: item.name,
        fileId: item.fileId,
        revision: file.revision,
        filename: file.filename,
        size: file.size,
        url: `${base}/files/${item.fileId}`,
      };
    }),
  };
}

/** A file the shared collection holds now (404 `Library item file (...) not found` for any other). */
export async function sharedFile(sql: Sql, token: string, fileId: string): Promise<LibraryFileRow> {
  const collection = await sharedRow(sql, token);
  if (!(await collectionItemRows(sql, collection.id)).some((item) => item.fileId === fileId)) throw notFound('Library item file', fileId);
  return (await one<LibraryFileRow>(sql, `${FILE} WHERE f.id = $1`, [fileId]))!;
}
