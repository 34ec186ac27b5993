import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { ApiError } from '../services/errors.js';

/** Requests per window and client IP address; 0 turns a limit off (server/config.ts, README "The platform"). */
export interface RateLimits {
  /** Failed POSTs of the sign-in form (`/1.0/oauth/authorize`, `/oauth2/authorize`): password guessing. */
  signIn: number;
  /** Failed token and revocation requests (`/1.0/oauth/access_token`, `/oauth2/token`, `.../revoke`): code and secret guessing. */
  token: number;
  /** Viewer tokens issued (`/v2/projects/{p}/viewer3d|viewer2d/token`, `/beta/viewer2d/access`). */
  viewerToken: number;
  windowMs: number;
}

type Kind = Exclude<keyof RateLimits, 'windowMs'>;

/** Which limit a route counts against: both addresses of a kind share one count. */
function kindOf(method: string, url: string): Kind | undefined {
  if (method !== 'POST') return undefined;
  if (url === '/1.0/oauth/authorize' || url === '/oauth2/authorize') return 'signIn';
  if (['/1.0/oauth/access_token', '/oauth2/token', '/1.0/oauth/revoke', '/oauth2/revoke'].includes(url)) return 'token';
  if (/^\/v2\/projects\/:project\/viewer(3d|2d)\/token$/.test(url) || url === '/beta/viewer2d/access') return 'viewerToken';
  return undefined;
}

/**
 * Rate limits per client IP (@fastify/rate-limit's memory store: per process, so N API
 * processes allow N times as much): past the limit 429 with the JSON error body and
 * Retry-After (seconds). Added to each matching route as it is declared, so it must be
 * installed before the routes. Behind a proxy, Fastify's `trustProxy` would be needed for
 * the client's address; the platform does not set it, so a proxy's clients share one count.
 */
export async function rateLimitRoutes(app: FastifyInstance, limits: RateLimits): Promise<void> {
  await app.register(rateLimit, { global: false });
  const checks = new Map<Kind, ReturnType<FastifyInstance['createRateLimit']>>();
  for (const kind of ['signIn', 'token', 'viewerToken'] as const) {
    if (limits[kind] > 0) checks.set(kind, app.createRateLimit({ max: limits[kind], timeWindow: limits.windowMs }));
  }
  const refuse = (reply: FastifyReply, max: number, ttlInSeconds: number) => {
    const seconds = Math.max(1, ttlInSeconds);
    reply.header('Retry-After', String(seconds));
    return new ApiError(429, 429, 'TOO_MANY_REQUESTS', `Too many requests from this address: at most ${max} in ${limits.windowMs / 1000} s; retry in ${seconds} s`);
  };
  /** Viewer tokens: every request counts. */
  const counted = (kind: Kind) => async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = await checks.get(kind)!(request);
    if (!limit.isAllowed && limit.isExceeded) throw refuse(reply, limit.max, limit.ttlInSeconds);
  };
  /** Sign-in and tokens: only failures count (a wrong password, a guessed code or secret), so people who sign in right are never held up. */
  const failures = (kind: Kind): Pick<RouteOptions, 'onRequest' | 'onResponse'> => ({
    onRequest: async (request, reply) => {
      const limit = await checks.get(kind)!(request, { increment: false });
      if (!limit.isAllowed && limit.remaining === 0) throw refuse(reply, limit.max, limit.ttlInSeconds);
    },
    onResponse: async (request, reply) => {
      if (reply.statusCode >= 400 && reply.statusCode !== 429) await checks.get(kind)!(request);
    },
  });
  app.addHook('onRoute', (route: RouteOptions) => {
    const kind = [route.method].flat().map((m) => kindOf(m, route.url)).find(Boolean);
    if (!kind || !checks.has(kind)) return;
    // First of the route's own hooks: a request over the limit is refused before anything is read or checked.
    const hooks = kind === 'viewerToken' ? { onRequest: counted(kind) } : failures(kind);
    route.onRequest = [hooks.onRequest!, ...[route.onRequest ?? []].flat()] as RouteOptions['onRequest'];
    if (hooks.onResponse) route.onResponse = [hooks.onResponse, ...[route.onResponse ?? []].flat()] as RouteOptions['onResponse'];
  });
}
