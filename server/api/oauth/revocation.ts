import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateClient } from '../../services/clients.js';
import { revokeGrant } from '../../services/oauth-model.js';
import { endSession } from '../../services/sessions.js';
import type { Context } from '../context.js';
import { clientCredentials, cookie, SESSION_COOKIE } from './request-parts.js';

/**
 * Ending access. Token revocation (RFC 7009) at `/1.0/oauth/revoke` and `/oauth2/revoke`:
 * the client, authenticated as at the token endpoint (secret in the body or HTTP Basic; a
 * public client by its id), sends an access or refresh token it was given; both tokens
 * of that grant stop working. And `/oauth2/sign-out`: the sign-in page's session of this
 * browser ends, so the next authorization asks for the password again.
 */
export function revocationRoutes(app: FastifyInstance, ctx: Context) {
  for (const path of ['/1.0/oauth/revoke', '/oauth2/revoke']) {
    app.post(path, { schema: { tags: ['oauth'], summary: 'Revoke an access or refresh token (RFC 7009)' } }, revoke);
  }
  app.post('/oauth2/sign-out', { schema: { tags: ['oauth'], summary: "End this browser's sign-in session" } }, signOut);

  async function revoke(request: FastifyRequest, reply: FastifyReply) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    reply.header('Cache-Control', 'no-store');
    const credentials = clientCredentials(request.headers.authorization, body);
    const client = credentials && (await authenticateClient(ctx.db, credentials.id, credentials.secret));
    if (!client) {
      return reply.status(401).header('WWW-Authenticate', 'Basic realm="oauth"').send({ error: 'invalid_client', error_description: 'Invalid client: cannot retrieve client credentials' });
    }
    if (typeof body.token !== 'string' || body.token === '') {
      return reply.status(400).send({ error: 'invalid_request', error_description: 'Missing parameter: `token`' });
    }
    // An unknown token, or another client's, changes nothing and is answered alike (RFC 7009, 2.2): no way to probe for tokens.
    await revokeGrant(ctx.db, body.token, client.id);
    return reply.status(200).send({});
  }

  async function signOut(request: FastifyRequest, reply: FastifyReply) {
    const session = cookie(request, SESSION_COOKIE);
    if (session) await endSession(ctx.db, session);
    return reply.status(204).header('Cache-Control', 'no-store').header('Set-Cookie', `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`).send();
  }
}
