import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Context } from './api/context.js';
import { DEFAULT_MAX_URL_BYTES } from './config.js';
import { installErrorHandling } from './api/errors.js';
import { installUrlLimit, refusedRequests } from './api/refused-requests.js';
import { installUnstorableValueCheck } from './api/unstorable-values.js';
import { installJsonDepthLimit } from './api/json-depth.js';
import { oauthRoutes } from './api/oauth/routes.js';
import { v1Routes } from './api/v1/index.js';
import { v2Routes } from './api/v2/index.js';
import { viewer2dAccessRoutes } from './api/beta/viewer2d-access.js';
import { bcfRoutes } from './api/bcf/index.js';
import { rateLimitRoutes, type RateLimits } from './api/rate-limits.js';

/**
 * The HTTP side of the platform: one Fastify app, each API a plugin with its own prefix;
 * the OpenAPI description at /openapi.json is generated from the routes' own schemas.
 */
export async function buildApp(ctx: Context, options: { logLevel?: string; pages?: (app: FastifyInstance) => Promise<void>; rateLimits?: RateLimits } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'error' },
    bodyLimit: 1 << 20,
    // A field the schema does not know is a 400, not dropped: a misspelled filter must not answer every product.
    ajv: { customOptions: { removeAdditional: false } },
    ...refusedRequests,
  });
  installErrorHandling(app);
  installUrlLimit(app, ctx.maxUrlBytes ?? DEFAULT_MAX_URL_BYTES);
  installUnstorableValueCheck(app);
  installJsonDepthLimit(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'BIM platform', version: '1.0', description: 'Model hosting (v1), OAuth 2.0, the viewers\' tokens and issue tracking (BCF API 2.0, 2.1, 3.0). See README.md, "The platform".' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  // Before the routes: the limits are added to the routes as they are declared.
  if (options.rateLimits) await rateLimitRoutes(app, options.rateLimits);
  await app.register(async (scope) => oauthRoutes(scope, ctx));
  await app.register(async (scope) => v1Routes(scope, ctx), { prefix: '/1.0' });
  await app.register(async (scope) => v2Routes(scope, ctx), { prefix: '/v2' });
  await app.register(async (scope) => viewer2dAccessRoutes(scope, ctx), { prefix: '/beta' });
  await app.register(async (scope) => bcfRoutes(scope, ctx), { prefix: '/bcf' });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  if (options.pages) await options.pages(app);
  return app;
}
