import type { FastifyInstance, FastifyReply } from 'fastify';
import { getProduct, listProducts, revisionPage, type ProductFilter } from '../../services/products.js';
import { projectFor } from '../../services/projects.js';
import { currentRevisions, revisionFor, type StoredRevision } from '../../services/revisions.js';
import type { Context } from '../context.js';
import { revisionQuery } from './revisions.js';
import { idString, int64Id, paging, product, productFilter, productOptions } from './schemas.js';

const products = { type: 'array', items: product } as const;
const objectId = { object_id: int64Id } as const;
const projectQuery = { type: 'object', properties: { project_id: idString }, required: ['project_id'] } as const;

type Query = { project_id: string; model_id: string; revision_id?: number; object_id: number; page: number; per_page: number };

/** The services answer JSON text written by the database: sent as it is. */
const json = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);

/**
 * Seed 000's product resources: of one revision (`/revision/...`, the latest when no
 * revision_id) and of a project's current set of revisions (`/project/...`). GET gives
 * basic records; POST takes the filter (lists) or `{attributes, definedBy}` (one product).
 */
export async function productRoutes(app: FastifyInstance, ctx: Context) {
  const { db } = ctx;
  const tags = ['v1 products'];
  const scopes: [string, typeof projectQuery | typeof revisionQuery, (userId: string, q: Query) => Promise<StoredRevision[]>][] = [
    ['/revision', revisionQuery, async (userId, q) => [await revisionFor(db, userId, q.model_id, q.revision_id)]],
    [
      '/project',
      projectQuery,
      async (userId, q) => {
        await projectFor(db, userId, q.project_id);
        return currentRevisions(db, q.project_id);
      },
    ],
  ];
  for (const [prefix, base, revisions] of scopes) {
    const listQuery = { ...base, properties: { ...base.properties, ...paging } };
    const oneQuery = { ...base, properties: { ...base.properties, ...objectId }, required: [...base.required, 'object_id'] };
    type List = { Querystring: Query; Body?: ProductFilter };
    const list = async (userId: string, q: Query, filter: ProductFilter) => {
      if (prefix === '/revision' && !filter.type && !filter.objectId) {
        const page = await revisionPage(db, userId, q.model_id, q.revision_id, filter, q);
        if (page !== undefined) return page;
      }
      return listProducts(db, await revisions(userId, q), filter, q);
    };

    app.get<List>(`${prefix}/products`, { schema: { tags, querystring: listQuery, response: { 200: products } } }, async (request, reply) =>
      json(reply, await list(request.auth.userId, request.query, {})),
    );
    app.post<List>(`${prefix}/products`, { schema: { tags, querystring: listQuery, body: productFilter, response: { 200: products } } }, async (request, reply) =>
      json(reply, await list(request.auth.userId, request.query, request.body ?? {})),
    );
    app.get<List>(`${prefix}/product`, { schema: { tags, querystring: oneQuery, response: { 200: product } } }, async (request, reply) =>
      json(reply, await getProduct(db, await revisions(request.auth.userId, request.query), request.query.object_id, {})),
    );
    app.post<List>(`${prefix}/product`, { schema: { tags, querystring: oneQuery, body: productOptions, response: { 200: product } } }, async (request, reply) =>
      json(reply, await getProduct(db, await revisions(request.auth.userId, request.query), request.query.object_id, request.body ?? {})),
    );
  }
}
