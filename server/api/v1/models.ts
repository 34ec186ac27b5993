import type { FastifyInstance } from 'fastify';
import { createModel, deleteModel, listModels, modelFor, renameModel } from '../../services/models.js';
import type { Context } from '../context.js';
import { idString, nameBody, projectOrModel } from './schemas.js';

const projectQuery = { type: 'object', properties: { project_id: idString }, required: ['project_id'] } as const;
const modelQuery = { type: 'object', properties: { model_id: idString }, required: ['model_id'] } as const;
type ModelQuery = { Querystring: { model_id: string } };

/** Seed 000: GET /models, POST /models/new, GET|PUT|DELETE /model. */
export async function modelRoutes(app: FastifyInstance, ctx: Context) {
  const { db } = ctx;
  const tags = ['v1 models'];

  app.get<{ Querystring: { project_id: string } }>('/models', { schema: { tags, querystring: projectQuery, response: { 200: { type: 'array', items: projectOrModel } } } }, (request) =>
    listModels(db, request.auth.userId, request.query.project_id),
  );

  app.post<{ Querystring: { project_id: string }; Body: { name: string } }>(
    '/models/new',
    { schema: { tags, querystring: projectQuery, body: nameBody, response: { 200: projectOrModel } } },
    (request) => createModel(db, request.auth.userId, request.query.project_id, request.body.name),
  );

  app.get<ModelQuery>('/model', { schema: { tags, querystring: modelQuery, response: { 200: projectOrModel } } }, async (request) => {
    const { id, name } = await modelFor(db, request.auth.userId, request.query.model_id);
    return { id, name };
  });

  app.put<ModelQuery & { Body: { name: string } }>('/model', { schema: { tags, querystring: modelQuery, body: nameBody, response: { 200: projectOrModel } } }, (request) =>
    renameModel(db, request.auth.userId, request.query.model_id, request.body.name),
  );

  app.delete<ModelQuery>('/model', { schema: { tags, querystring: modelQuery } }, async (request, reply) => {
    const blobs = await deleteModel(db, request.auth.userId, request.query.model_id);
    await Promise.all(blobs.map((key) => ctx.blobs.delete(key).catch(() => {})));
    reply.status(204).send();
  });
}
