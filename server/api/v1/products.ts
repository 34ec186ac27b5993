import type { FastifyInstance } from 'fastify';
import { getProduct, listProducts, type ProductFilter } from '../../services/products.js';
import { projectFor } from '../../services/projects.js';
import { currentRevisions, revisionFor } from '../../services/revisions.js';
import type { Context } from '../context.js';
import { revisionQuery, type RevisionQuery } from './revisions.js';
import { idString, paging, product, productFilter, productOptions } from './schemas.js';

const products = { type: 'array', items: product } as const;
const projectQuery = { type: 'object', properties: { project_id: idString, ...paging }, required: ['project_id'] } as const;
const projectProductQuery = { type: 'object', properties: { project_id: idString, object_id: { type: 'integer' } }, required: ['project_id', 'object_id'] } as const;
const revisionPagedQuery = { ...revisionQuery, properties: { ...revisionQuery.properties, ...paging } } as const;
const revisionProductQuery = { ...revisionQuery, properties: { ...revisionQuery.properties, object_id: { type: 'integer' } }, required: ['model_id', 'object_id'] } as const;

type Paged = { page: number; per_page: number };

/**
 * Seed 000's product resources: of one revision (`/revision/...`, the latest when no
 * revision_id) and of a project's current set of revisions (`/project/...`). GET gives
 * basic records; POST takes the filter (lists) or `{attributes, definedBy}` (one product).
 */
export async function productRoutes(app: FastifyInstance, ctx: Context) {
  const { db } = ctx;
  const tags = ['v1 products'];
  const ofRevision = async (userId: string, q: RevisionQuery['Querystring']) => [await revisionFor(db, userId, q.model_id, q.revision_id)];
  const ofProject = async (userId: string, projectId: string) => {
    await projectFor(db, userId, projectId);
    return currentRevisions(db, projectId);
  };

  app.get<{ Querystring: RevisionQuery['Querystring'] & Paged }>('/revision/products', { schema: { tags, querystring: revisionPagedQuery, response: { 200: products } } }, async (request) =>
    listProducts(db, await ofRevision(request.auth.userId, request.query), {}, request.query),
  );
  app.post<{ Querystring: RevisionQuery['Querystring'] & Paged; Body: ProductFilter }>(
    '/revision/products',
    { schema: { tags, querystring: revisionPagedQuery, body: productFilter, response: { 200: products } } },
    async (request) => listProducts(db, await ofRevision(request.auth.userId, request.query), request.body ?? {}, request.query),
  );
  app.get<{ Querystring: RevisionQuery['Querystring'] & { object_id: number } }>('/revision/product', { schema: { tags, querystring: revisionProductQuery, response: { 200: product } } }, async (request) =>
    getProduct(db, await ofRevision(request.auth.userId, request.query), request.query.object_id, {}),
  );
  app.post<{ Querystring: RevisionQuery['Querystring'] & { object_id: number }; Body: ProductFilter }>(
    '/revision/product',
    { schema: { tags, querystring: revisionProductQuery, body: productOptions, response: { 200: product } } },
    async (request) => getProduct(db, await ofRevision(request.auth.userId, request.query), request.query.object_id, request.body ?? {}),
  );

  app.get<{ Querystring: { project_id: string } & Paged }>('/project/products', { schema: { tags, querystring: projectQuery, response: { 200: products } } }, async (request) =>
    listProducts(db, await ofProject(request.auth.userId, request.query.project_id), {}, request.query),
  );
  app.post<{ Querystring: { project_id: string } & Paged; Body: ProductFilter }>(
    '/project/products',
    { schema: { tags, querystring: projectQuery, body: productFilter, response: { 200: products } } },
    async (request) => listProducts(db, await ofProject(request.auth.userId, request.query.project_id), request.body ?? {}, request.query),
  );
  app.get<{ Querystring: { project_id: string; object_id: number } }>('/project/product', { schema: { tags, querystring: projectProductQuery, response: { 200: product } } }, async (request) =>
    getProduct(db, await ofProject(request.auth.userId, request.query.project_id), request.query.object_id, {}),
  );
  app.post<{ Querystring: { project_id: string; object_id: number }; Body: ProductFilter }>(
    '/project/product',
    { schema: { tags, querystring: projectProductQuery, body: productOptions, response: { 200: product } } },
    async (request) => getProduct(db, await ofProject(request.auth.userId, request.query.project_id), request.query.object_id, request.body ?? {}),
  );
}
