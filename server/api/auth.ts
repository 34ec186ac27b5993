import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveAccessToken } from '../services/oauth-model.js';
import { unauthorized } from '../services/errors.js';
import type { Context } from './context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user and application of the request's OAuth access token (set by requireBearer). */
    auth: { userId: string; clientId: string };
  }
}

/**
 * Every route of the plugin it is added to needs `Authorization: Bearer <access token>`:
 * checked when the request arrives, before its body is read (an upload without a valid
 * token is refused at once). Missing, expired or unknown: 401 with WWW-Authenticate.
 */
export function requireBearer(app: FastifyInstance, ctx: Context): void {
  app.decorateRequest('auth', undefined as unknown as FastifyRequest['auth']);
  // The OpenAPI description says so of each route of the plugin.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ bearer: [] }] };
  });
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S{1,255})$/i.exec(header);
    if (!header) {
      // No credentials at all: the challenge names no error (RFC 6750, 3.1).
      reply.header('WWW-Authenticate', 'Bearer realm="platform"');
      throw unauthorized('The Authorization header with a Bearer access token is missing');
    }
    if (!match) throw unauthorized('The Authorization header is not "Bearer <access token>"');
    const auth = await resolveAccessToken(ctx.db, match[1]);
    if (!auth) throw unauthorized('The access token is expired or unknown');
    request.auth = auth;
  });
}
