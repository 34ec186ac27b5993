import { one, type Database, type Sql } from '../../storage/database.js';
import { ApiError, badRequest, forbidden, notFound } from '../errors.js';
import { projectFor, type ProjectAccess } from '../projects.js';
import { newId, newToken } from '../secrets.js';
import { collectionConditions, RESOLVED_FILE, SHARED_BY_LINK, type CollectionQuery } from './collection-filter.js';
import { parseIsoSpan } from './iso-dates.js';
import { checkNamed } from './libraries.js';

/**
 * Library item collections (seed 002): named groups of library items, each at a file
 * revision, or following the item's latest revision when the collection says so.
 *
 * Who may do what: every member of the project creates collections and sees those whose
 * visibility is `project-members`; a `private` one exists for its creator alone (404,
 * `Collection not found, id (...)`, for everyone else, admins too). Editing (PATCH) takes
 * the creator or a project admin (403, code 100, otherwise). A finalized collection is
 * read-only (403 to any edit), except for its share link. Anyone who sees a collection
 * may follow it; its creator follows it from the start.
 */
export type Visibility = 'private' | 'project-members';

export interface NewCollection {
  name: string;
  description?: string;
  items?: { libraryId: string; libraryItemId: string; fileId?: string }[];
  followLatestRevision?: boolean;
}

export interface CollectionChange {
  name?: string;
  description?: string;
  finalized?: boolean;
  visibility?: Visibility;
  shareExpiresAt?: string | null;
  followLatestRevision?: boolean;
}

interface CollectionRow {
  id: string;
  name: string;
  description: string;
  finalized: boolean;
  followLatestRevision: boolean;
  visibility: Visibility;
  createdAt: Date;
  createdBy: string | null;
  followers: string[];
  shareToken: string | null;
  shareExpiresAt: Date | null;
  shared: boolean;
}

/** Most items one collection is created with. */
export const COLLECTION_ITEMS_MAX = 1000;

const COLLECTION = `SELECT c.id, c.name, c.description, c.finalized, c.follow_latest_revision AS "followLatestRevision", c.visibility,
  c.created_at AS "createdAt", c.created_by AS "createdBy", c.share_token AS "shareToken", c.share_expires_at AS "shareExpiresAt",
  ${SHARED_BY_LINK} AS shared,
  ARRAY(SELECT f.user_id FROM library_collection_followers f WHERE f.collection_id = c.id ORDER BY f.user_id) AS followers
  FROM library_collections c`;
/** What the caller may see: project members' collections and their own private ones ($1 project, $2 caller). */
const VISIBLE = `c.project_id = $1 AND (c.visibility = 'project-members' OR c.created_by = $2)`;

/** The public address of a share token. */
export const shareUrlOf = (origin: string, token: string) => `${origin}/v2/shared/collections/${token}`;

/** A collection as answered; `shareUrl` while its link works, `shareExpiresAt` as set (in the past once expired). */
export function collectionJson(row: CollectionRow, origin: string) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    finalized: row.finalized,
    followLatestRevision: row.followLatestRevision,
    visibility: row.visibility,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    followers: row.followers,
    shareUrl: row.shared && row.shareToken ? shareUrlOf(origin, row.shareToken) : null,
    shareExpiresAt: row.shareToken ? row.shareExpiresAt : null,
  };
}

export const collectionNotFound = (id: string) => new ApiError(404, 20, 'NOT_FOUND', `Collection not found, id (${id})`);

async function visibleCollection(sql: Sql, project: ProjectAccess, userId: string, collectionId: string): Promise<CollectionRow> {
  const row = await one<CollectionRow>(sql, `${COLLECTION} WHERE ${VISIBLE} AND c.id = $3`, [project.id, userId, collectionId]);
  if (!row) throw collectionNotFound(collectionId);
  return row;
}

export async function listCollections(sql: Sql, userId: string, projectId: string, query: CollectionQuery, origin: string) {
  await projectFor(sql, userId, projectId);
  const params: unknown[] = [projectId, userId];
  const { conditions, idsOnly } = collectionConditions(query, params);
  const where = [VISIBLE, ...conditions].join(' AND ');
  if (idsOnly) return sql.query<{ id: string }>(`SELECT c.id FROM library_collections c WHERE ${where} ORDER BY c.created_at, c.id`, params);
  return (await sql.query<CollectionRow>(`${COLLECTION} WHERE ${where} ORDER BY c.created_at, c.id`, params)).map((row) => collectionJson(row, origin));
}

export async function getCollection(sql: Sql, userId: string, projectId: string, collectionId: string, origin: string) {
  const project = await projectFor(sql, userId, projectId);
  return collectionJson(await visibleCollection(sql, project, userId, collectionId), origin);
}

/** Each item's library, item and file in this project (404s as the seed words them); the file defaults to the latest. */
async function resolveItems(sql: Sql, projectId: string, items: NonNullable<NewCollection['items']>) {
  if (items.length > COLLECTION_ITEMS_MAX) throw badRequest(`\`items\` has more than ${COLLECTION_ITEMS_MAX} elements`);
  const resolved: { libraryId: string; itemId: string; fileId: string }[] = [];
  for (const entry of items) {
    const library = await one(sql, 'SELECT id FROM document_libraries WHERE project_id = $1 AND id = $2', [projectId, entry.libraryId]);
    if (!library) throw notFound('Library', entry.libraryId);
    const item = await one<{ id: string; latest: string | null }>(sql, 'SELECT id, latest_file_id AS latest FROM library_items WHERE library_id = $1 AND id = $2', [entry.libraryId, entry.libraryItemId]);
    if (!item) throw notFound('Library item', entry.libraryItemId);
    let fileId = item.latest;
    if (entry.fileId !== undefined) {
      if (!(await one(sql, 'SELECT 1 FROM library_item_files WHERE item_id = $1 AND id = $2', [item.id, entry.fileId]))) throw notFound('Library item file', entry.fileId);
      fileId = entry.fileId;
    }
    if (!fileId) throw badRequest(`Library item (${item.id}) has no file yet: upload one before collecting it`);
    if (resolved.some((r) => r.itemId === item.id)) throw badRequest(`\`items\` lists library item (${item.id}) more than once`);
    resolved.push({ libraryId: entry.libraryId, itemId: item.id, fileId });
  }
  return resolved;
}

export async function createCollection(db: Database, userId: string, projectId: string, body: NewCollection, origin: string) {
  const project = await projectFor(db, userId, projectId);
  const { name, description } = checkNamed(body);
  const items = await resolveItems(db, project.id, body.items ?? []);
  const id = newId();
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO library_collections (id, project_id, name, description, follow_latest_revision, created_by) VALUES ($1, $2, $3, $4, $5, $6)', [
      id, project.id, name, description, body.followLatestRevision ?? false, userId,
    ]);
    for (const [position, item] of items.entries()) {
      await tx.query('INSERT INTO library_collection_items (id, collection_id, position, library_id, item_id, file_id, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        newId(), id, position, item.libraryId, item.itemId, item.fileId, userId,
      ]);
    }
    await tx.query('INSERT INTO library_collection_followers (collection_id, user_id) VALUES ($1, $2)', [id, userId]);
  });
  return collectionJson(await visibleCollection(db, project, userId, id), origin);
}

/** When a share link stops working: a future instant (a date alone: its first instant), or null (no link). */
function shareExpiry(value: string | null): Date | null {
  if (value === null) return null;
  const { start } = parseIsoSpan(value);
  if (start.getTime() <= Date.now()) throw badRequest(`\`shareExpiresAt\` (${value}) is not in the future`);
  return start;
}

export async function updateCollection(db: Database, userId: string, projectId: string, collectionId: string, change: CollectionChange, origin: string) {
  const project = await projectFor(db, userId, projectId);
  const row = await visibleCollection(db, project, userId, collectionId);
  if (row.createdBy !== userId && project.role !== 'admin') throw forbidden();
  // Finalized: no further edits; sharing it (or ending the share) is not an edit of what it holds.
  if (row.finalized && Object.keys(change).some((key) => key !== 'shareExpiresAt')) throw forbidden();
  const named = change.name !== undefined || change.description !== undefined ? checkNamed({ name: change.name ?? row.name, description: change.description ?? row.description }) : undefined;
  const expiry = change.shareExpiresAt === undefined ? undefined : shareExpiry(change.shareExpiresAt);
  await db.transaction(async (tx) => {
    if (named) await tx.query('UPDATE library_collections SET name = $2, description = $3 WHERE id = $1', [row.id, named.name, named.description]);
    if (change.followLatestRevision !== undefined && change.followLatestRevision !== row.followLatestRevision) {
      // Stopping to follow keeps each item on the revision it shows now.
      if (!change.followLatestRevision) {
        await tx.query('UPDATE library_collection_items ci SET file_id = i.latest_file_id FROM library_items i WHERE i.id = ci.item_id AND ci.collection_id = $1', [row.id]);
      }
      await tx.query('UPDATE library_collections SET follow_latest_revision = $2 WHERE id = $1', [row.id, change.followLatestRevision]);
    }
    if (change.visibility !== undefined) await tx.query('UPDATE library_collections SET visibility = $2 WHERE id = $1', [row.id, change.visibility]);
    if (change.finalized) await tx.query(`UPDATE library_collections SET finalized = true, visibility = 'project-members' WHERE id = $1`, [row.id]);
    if (expiry === null) await tx.query('UPDATE library_collections SET share_token = NULL, share_expires_at = NULL WHERE id = $1', [row.id]);
    else if (expiry) {
      // A link that exists keeps its address (its recipients keep it); a new one gets a new token.
      await tx.query('UPDATE library_collections SET share_token = COALESCE(share_token, $2), share_expires_at = $3 WHERE id = $1', [row.id, newToken(), expiry]);
    }
  });
  // Read back as it is now (an admin who made another's collection private no longer sees it afterwards).
  return collectionJson((await one<CollectionRow>(db, `${COLLECTION} WHERE c.id = $1`, [row.id]))!, origin);
}

/** The caller follows the collection (true) or stops following it (false). */
export async function setFollowing(sql: Sql, userId: string, projectId: string, collectionId: string, follow: boolean, origin: string) {
  const project = await projectFor(sql, userId, projectId);
  const row = await visibleCollection(sql, project, userId, collectionId);
  if (follow) await sql.query('INSERT INTO library_collection_followers (collection_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [row.id, userId]);
  else await sql.query('DELETE FROM library_collection_followers WHERE collection_id = $1 AND user_id = $2', [row.id, userId]);
  return collectionJson(await visibleCollection(sql, project, userId, row.id), origin);
}

export interface CollectionItem {
  id: string;
  libraryId: string;
  libraryItemId: string;
  fileId: string;
  createdAt: Date;
  createdBy: string | null;
}

/** The items of a collection, in the order it was created with; `fileId` the latest when it follows. */
export function collectionItemRows(sql: Sql, collectionId: string) {
  return sql.query<CollectionItem & { name: string }>(
    `SELECT ci.id, ci.library_id AS "libraryId", ci.item_id AS "libraryItemId", ${RESOLVED_FILE} AS "fileId", ci.created_at AS "createdAt", ci.created_by AS "createdBy", i.name
     FROM library_collection_items ci JOIN library_items i ON i.id = ci.item_id JOIN library_collections c ON c.id = ci.collection_id
     WHERE ci.collection_id = $1 ORDER BY ci.position`,
    [collectionId],
  );
}

export async function listCollectionItems(sql: Sql, userId: string, projectId: string, collectionId: string): Promise<CollectionItem[]> {
  const project = await projectFor(sql, userId, projectId);
  const row = await visibleCollection(sql, project, userId, collectionId);
  return (await collectionItemRows(sql, row.id)).map(({ id, libraryId, libraryItemId, fileId, createdAt, createdBy }) => ({ id, libraryId, libraryItemId, fileId, createdAt, createdBy }));
}
