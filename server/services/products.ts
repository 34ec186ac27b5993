import type { Sql } from '../storage/database.js';
import { badRequest, notFound } from './errors.js';
import { checkProductTypes } from './ifc-types.js';
import { visibleRevision, type StoredRevision } from './revisions.js';

/**
 * Product lists and records (seed 000) of one revision or of a project's current set of
 * revisions, straight from the rows processing wrote: basic fields, `attributes` and
 * `definedBy` when asked. Ordered by objectId; pages are 1-based. PostgreSQL writes the
 * JSON itself (json_build_object, json_agg): the API passes the text on, which doubles
 * the pages served per second against parsing rows and serialising them again.
 */
export const PER_PAGE_DEFAULT = 100;
export const PER_PAGE_MAX = 1000;
export const OBJECT_IDS_MAX = 100;

export interface ProductFilter {
  type?: string[];
  objectId?: number[];
  attributes?: boolean;
  definedBy?: boolean;
  /** The v2 API's item `{objectId, ifcType, attributes}` (docs/V2.md) instead of seed 000's record. */
  shape?: 'v2';
}

export interface Paging {
  page?: number;
  per_page?: number;
}

/** A product as JSON text, the keys in seed 000's order. */
function productJson(filter: ProductFilter): string {
  if (filter.shape === 'v2') return `json_build_object('objectId', p.object_id, 'ifcType', p.type, 'attributes', p.attributes)`;
  const fields = [
    `'objectId', p.object_id, 'parent', p.parent, 'globalId', p.global_id, 'type', p.type, 'name', p.name, 'description', p.description`,
  ];
  if (filter.attributes) fields.push(`'attributes', p.attributes`);
  if (filter.definedBy) {
    fields.push(`'definedBy', (SELECT coalesce(json_agg(d.value ORDER BY u.n), '[]') FROM unnest(p.defined_by) WITH ORDINALITY AS u(id, n)
      JOIN definitions d ON d.model_id = p.model_id AND d.revision_id = p.revision_id AND d.object_id = u.id)`);
  }
  return `json_build_object(${fields.join(', ')})`;
}

/** A JSON array of products, as text. */
export async function listProducts(sql: Sql, revisions: StoredRevision[], filter: ProductFilter, paging: Paging): Promise<string> {
  if ((filter.objectId?.length ?? 0) > OBJECT_IDS_MAX) throw badRequest(`\`objectId\` has more than ${OBJECT_IDS_MAX} elements`);
  await checkProductTypes(filter.type);
  const perPage = paging.per_page ?? PER_PAGE_DEFAULT;
  const offset = ((paging.page ?? 1) - 1) * perPage;
  const page = filter.type || filter.objectId ? filtered(revisions, filter, offset, perPage) : pageOfAll(revisions, filter, offset, perPage);
  if (!page) return '[]';
  const [row] = await sql.query(`SELECT coalesce(json_agg(t.o ORDER BY t.k), '[]')::text AS json FROM (${page.query}) t`, page.params);
  return row.json;
}

/** How many products the revisions hold of the filter's types (all when none). */
export async function countProducts(sql: Sql, revisions: StoredRevision[], filter: Pick<ProductFilter, 'type'>): Promise<number> {
  if (!filter.type) return revisions.reduce((n, r) => n + r.productCount, 0);
  await checkProductTypes(filter.type);
  if (!revisions.length) return 0;
  const [row] = await sql.query(
    `SELECT count(*)::int AS n FROM products p JOIN unnest($1::text[], $2::int[]) AS s(model_id, revision_id) ON s.model_id = p.model_id AND s.revision_id = p.revision_id
     WHERE lower(p.type) = ANY($3)`,
    [revisions.map((r) => r.modelId), revisions.map((r) => r.id), filter.type.map((t) => t.toLowerCase())],
  );
  return row.n;
}

/**
 * A page of every product of one revision the user can see, as JSON text, in one query
 * with the revision's lookup (the API's busiest request: a round trip less is a quarter
 * more pages a second); undefined when there is no such revision (revisionFor says why).
 */
export async function revisionPage(sql: Sql, userId: string, modelId: string, revisionId: number | undefined, filter: ProductFilter, paging: Paging): Promise<string | undefined> {
  const perPage = paging.per_page ?? PER_PAGE_DEFAULT;
  const first = ((paging.page ?? 1) - 1) * perPage + 1;
  const [row] = await sql.query(
    `WITH r AS (${visibleRevision('r.model_id, r.id')})
     SELECT EXISTS (SELECT 1 FROM r) AS found,
       (SELECT coalesce(json_agg(t.o ORDER BY t.k), '[]') FROM (
          SELECT ${productJson(filter)} AS o, p.object_id AS k
          FROM r JOIN products p ON p.model_id = r.model_id AND p.revision_id = r.id AND p.seq BETWEEN $4 AND $5) t)::text AS json`,
    [modelId, userId, revisionId ?? null, first, first + perPage - 1],
  );
  return row.found ? row.json : undefined;
}

/** One product as JSON text; 404 when the revisions have none of that id. */
export async function getProduct(sql: Sql, revisions: StoredRevision[], objectId: number, options: ProductFilter): Promise<string> {
  const text = await listProducts(sql, revisions, { attributes: options.attributes, definedBy: options.definedBy, shape: options.shape, objectId: [objectId] }, { page: 1, per_page: 1 });
  if (text === '[]') throw notFound('Product', objectId);
  return text.slice(1, -1);
}

interface PageQuery {
  /** Selects `o` (the product's JSON) and `k` (its place on the page). */
  query: string;
  params: unknown[];
}

/**
 * A page of every product: revisions' object ids never interleave (each has its own
 * 2^32 range, and `revisions` come in object id order), so a page is a range of `seq`
 * in one or two revisions, read from the index however deep the page is.
 */
function pageOfAll(revisions: StoredRevision[], filter: ProductFilter, offset: number, count: number): PageQuery | undefined {
  const ranges: [string, number, number, number][] = [];
  for (const r of revisions) {
    if (count <= 0) break;
    if (offset >= r.productCount) {
      offset -= r.productCount;
      continue;
    }
    const take = Math.min(count, r.productCount - offset);
    ranges.push([r.modelId, r.id, offset + 1, offset + take]);
    offset = 0;
    count -= take;
  }
  if (!ranges.length) return undefined;
  return {
    query: `SELECT ${productJson(filter)} AS o, p.object_id AS k
      FROM unnest($1::text[], $2::int[], $3::int[], $4::int[]) AS s(model_id, revision_id, lo, hi)
      JOIN products p ON p.model_id = s.model_id AND p.revision_id = s.revision_id AND p.seq BETWEEN s.lo AND s.hi`,
    params: [0, 1, 2, 3].map((i) => ranges.map((r) => r[i])),
  };
}

/** A page of the products of some types or ids. */
function filtered(revisions: StoredRevision[], filter: ProductFilter, offset: number, count: number): PageQuery | undefined {
  if (!revisions.length) return undefined;
  const params: unknown[] = [revisions.map((r) => r.modelId), revisions.map((r) => r.id)];
  const where: string[] = [];
  if (filter.type) {
    params.push(filter.type.map((t) => t.toLowerCase()));
    where.push(`lower(p.type) = ANY($${params.length})`);
  }
  if (filter.objectId) {
    params.push(filter.objectId);
    where.push(`p.object_id = ANY($${params.length}::bigint[])`);
  }
  params.push(count, offset);
  return {
    query: `SELECT ${productJson(filter)} AS o, p.object_id AS k FROM products p
      JOIN unnest($1::text[], $2::int[]) AS s(model_id, revision_id) ON s.model_id = p.model_id AND s.revision_id = p.revision_id
      WHERE ${where.join(' AND ')}
      ORDER BY p.object_id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  };
}
