import type { FastifyInstance } from 'fastify';
import { createProject, deleteProject, listProjects, projectFor, renameProject } from '../../services/projects.js';
import type { Context } from '../context.js';
import { idString, nameBody, projectOrModel } from './schemas.js';

const projectQuery = { type: 'object', properties: { project_id: idString }, required: ['project_id'] } as const;
type ProjectQuery = { Querystring: { project_id: string } };

/** Seed 000: GET /projects, POST /projects/new, GET|PUT|DELETE /project. */
export async function projectRoutes(app: FastifyInstance, ctx: Context) {
  const { db } = ctx;
  const tags = ['v1 projects'];

  app.get('/projects', { schema: { tags, response: { 200: { type: 'array', items: projectOrModel } } } }, (request) => listProjects(db, request.auth.userId));

  app.post<{ Body: { name: string } }>('/projects/new', { schema: { tags, body: nameBody, response: { 200: projectOrModel } } }, (request) =>
    createProject(db, request.auth.userId, request.body.name),
  );

  app.get<ProjectQuery>('/project', { schema: { tags, querystring: projectQuery, response: { 200: projectOrModel } } }, async (request) => {
    const { id, name } = await projectFor(db, request.auth.userId, request.query.project_id);
    return { id, name };
  });

  app.put<ProjectQuery & { Body: { name: string } }>('/project', { schema: { tags, querystring: projectQuery, body: nameBody, response: { 200: projectOrModel } } }, (request) =>
    renameProject(db, request.auth.userId, request.query.project_id, request.body.name),
  );

  // Seed 000 shows no body for DELETE: 204 No Content.
  app.delete<ProjectQuery>('/project', { schema: { tags, querystring: projectQuery } }, async (request, reply) => {
    const blobs = await deleteProject(db, request.auth.userId, request.query.project_id);
    await Promise.all(blobs.map((key) => ctx.blobs.delete(key).catch(() => {})));
    reply.status(204).send();
  });
}
