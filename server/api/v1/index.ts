import type { FastifyInstance } from 'fastify';
import { requireBearer } from '../auth.js';
import type { Context } from '../context.js';
import { parseFormOrJson } from '../form-or-json.js';
import { importRoutes } from './imports.js';
import { modelRoutes } from './models.js';
import { productRoutes } from './products.js';
import { projectRoutes } from './projects.js';
import { revisionRoutes } from './revisions.js';

/** The v1 REST API (seed 000) under `{base_url}/1.0`: every route needs a Bearer access token. */
export async function v1Routes(app: FastifyInstance, ctx: Context) {
  requireBearer(app, ctx);
  // Seed 000: write bodies are JSON though labelled application/x-www-form-urlencoded; both parse.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1 << 20 }, parseFormOrJson);
  await app.register(async (scope) => projectRoutes(scope, ctx));
  await app.register(async (scope) => modelRoutes(scope, ctx));
  await app.register(async (scope) => importRoutes(scope, ctx));
  await app.register(async (scope) => revisionRoutes(scope, ctx));
  await app.register(async (scope) => productRoutes(scope, ctx));
}
