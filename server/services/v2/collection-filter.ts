import { badRequest } from '../errors.js';
import { parseIsoSpan } from './iso-dates.js';

/**
 * Where collection lists are filtered (seed 002, "List filters"): the query's filters
 * become SQL conditions on `library_collections c`, all of them ANDed; a comma-separated
 * filter matches a collection that has any of its values. Values go in as parameters.
 */
export interface CollectionQuery {
  finalized?: boolean;
  libraryItems?: string;
  files?: string;
  createdAtFrom?: string;
  createdAtTo?: string;
  createdBy?: string;
  followLatestRevision?: boolean;
  visibility?: string;
  sharedBy?: string;
  followers?: string;
  search?: string;
  fields?: string;
}

/** At most this many values in one comma-separated filter. */
export const LIST_VALUES_MAX = 100;

/** The file an item of `c` answers: the item's latest when the collection follows, else the one it was given. */
export const RESOLVED_FILE = 'CASE WHEN c.follow_latest_revision THEN i.latest_file_id ELSE ci.file_id END';

/** A share link that works now. */
export const SHARED_BY_LINK = '(c.share_token IS NOT NULL AND c.share_expires_at > now())';

export function listOf(name: string, value: string | undefined, allowed?: readonly string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const values = [...new Set(value.split(',').map((v) => v.trim()).filter((v) => v !== ''))];
  if (values.length > LIST_VALUES_MAX) throw badRequest(`\`${name}\` has more than ${LIST_VALUES_MAX} values`);
  const wrong = allowed && values.find((v) => !allowed.includes(v));
  if (wrong) throw badRequest(`\`${name}\` takes ${allowed.map((a) => `\`${a}\``).join(', ')}, not \`${wrong}\``);
  return values;
}

/**
 * The conditions of a query; `params` holds the ones before (they keep their numbers) and
 * gets the new ones. `idsOnly` when `fields=id`.
 */
export function collectionConditions(query: CollectionQuery, params: unknown[]): { conditions: string[]; idsOnly: boolean } {
  const conditions: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (query.finalized !== undefined) conditions.push(`c.finalized = ${param(query.finalized)}`);
  if (query.followLatestRevision !== undefined) conditions.push(`c.follow_latest_revision = ${param(query.followLatestRevision)}`);

  const items = listOf('libraryItems', query.libraryItems);
  if (items) conditions.push(`EXISTS (SELECT 1 FROM library_collection_items ci WHERE ci.collection_id = c.id AND ci.item_id = ANY(${param(items)}::text[]))`);
  const files = listOf('files', query.files);
  if (files) {
    conditions.push(`EXISTS (SELECT 1 FROM library_collection_items ci JOIN library_items i ON i.id = ci.item_id
      WHERE ci.collection_id = c.id AND ${RESOLVED_FILE} = ANY(${param(files)}::text[]))`);
  }

  // A value that is not ISO 8601 is the seed's own 400 (code 24, its message).
  const from = query.createdAtFrom === undefined ? undefined : parseIsoSpan(query.createdAtFrom);
  const to = query.createdAtTo === undefined ? undefined : parseIsoSpan(query.createdAtTo);
  if (from) conditions.push(`c.created_at >= ${param(from.start)}`);
  if (to) conditions.push(`c.created_at < ${param(to.end)}`);

  const creators = listOf('createdBy', query.createdBy);
  if (creators) conditions.push(`c.created_by = ANY(${param(creators)}::text[])`);
  const visibility = listOf('visibility', query.visibility, ['private', 'project-members']);
  if (visibility) conditions.push(`c.visibility = ANY(${param(visibility)}::text[])`);
  const sharedBy = listOf('sharedBy', query.sharedBy, ['link', 'email', 'not-shared']);
  if (sharedBy) {
    // No collection is shared by e-mail: the platform offers links only.
    const ways = sharedBy.map((way) => (way === 'link' ? SHARED_BY_LINK : way === 'not-shared' ? `NOT ${SHARED_BY_LINK}` : 'false'));
    conditions.push(`(${ways.join(' OR ')})`);
  }
  const followers = listOf('followers', query.followers);
  if (followers) conditions.push(`EXISTS (SELECT 1 FROM library_collection_followers f WHERE f.collection_id = c.id AND f.user_id = ANY(${param(followers)}::text[]))`);
  if (query.search !== undefined && query.search.trim() !== '') conditions.push(`position(lower(${param(query.search.trim())}) in lower(c.name)) > 0`);

  const fields = listOf('fields', query.fields, ['id']);
  return { conditions, idsOnly: fields !== undefined && fields.length > 0 };
}
