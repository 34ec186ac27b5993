import type { Sql } from '../storage/database.js';
import { badRequest, notFound } from './errors.js';
import type { StoredRevision } from './revisions.js';

/**
 * Product lists and records (seed 000) of one revision or of a project's current set of
 * revisions, straight from the rows processing wrote: basic fields, `attributes` and
 * `definedBy` when asked. Ordered by objectId; pages are 1-based.
 */
export const PER_PAGE_DEFAULT = 100;
export const PER_PAGE_MAX = 1000;
export const OBJECT_IDS_MAX = 100;

export interface ProductFilter {
  type?: string[];
  objectId?: number[];
  attributes?: boolean;
  definedBy?: boolean;
}

export interface Paging {
  page?: number;
  per_page?: number;
}

type Product = Record<string, unknown> & { objectId: number };

export async function listProducts(sql: Sql, revisions: StoredRevision[], filter: ProductFilter, paging: Paging): Promise<Product[]> {
  if ((filter.objectId?.length ?? 0) > OBJECT_IDS_MAX) throw badRequest(`\`objectId\` has more than ${OBJECT_IDS_MAX} elements`);
  const perPage = paging.per_page ?? PER_PAGE_DEFAULT;
  const page = paging.page ?? 1;
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
  params.push(perPage, (page - 1) * perPage);
  const rows = await sql.query(
    `SELECT ${columns(filter)} FROM products p
     JOIN unnest($1::text[], $2::int[]) AS s(model_id, revision_id) ON s.model_id = p.model_id AND s.revision_id = p.revision_id
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY p.object_id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return expand(sql, rows, filter);
}

export async function getProduct(sql: Sql, revisions: StoredRevision[], objectId: number, options: ProductFilter): Promise<Product> {
  const [product] = await listProducts(sql, revisions, { ...options, objectId: [objectId] }, { page: 1, per_page: 1 });
  if (!product) throw notFound('Product', objectId);
  return product;
}

function columns(filter: ProductFilter): string {
  const basic = 'p.model_id, p.revision_id, p.object_id AS "objectId", p.parent, p.global_id AS "globalId", p.type, p.name, p.description';
  return basic + (filter.attributes ? ', p.attributes' : '') + (filter.definedBy ? ', p.defined_by' : '');
}

/** The definitions of a page's products, fetched once for the page, in each product's order. */
async function expand(sql: Sql, rows: Record<string, any>[], filter: ProductFilter): Promise<Product[]> { // eslint-disable-line @typescript-eslint/no-explicit-any
  let definitions = new Map<string, unknown>();
  if (filter.definedBy && rows.length) {
    const wanted = rows.flatMap((r) => (r.defined_by as number[]).map((d) => [r.model_id, r.revision_id, d]));
    const found = await sql.query(
      `SELECT d.model_id, d.revision_id, d.object_id, d.value FROM definitions d
       JOIN unnest($1::text[], $2::int[], $3::bigint[]) AS w(model_id, revision_id, object_id)
         ON w.model_id = d.model_id AND w.revision_id = d.revision_id AND w.object_id = d.object_id`,
      [wanted.map((w) => w[0]), wanted.map((w) => w[1]), wanted.map((w) => w[2])],
    );
    definitions = new Map(found.map((d) => [`${d.model_id}:${d.revision_id}:${d.object_id}`, d.value]));
  }
  return rows.map(({ model_id, revision_id, defined_by, ...product }) => {
    if (filter.definedBy) product.definedBy = (defined_by as number[]).map((d) => definitions.get(`${model_id}:${revision_id}:${d}`)).filter(Boolean);
    return product as Product;
  });
}
