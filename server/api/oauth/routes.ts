import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import OAuth2Server, { OAuthError, Request, Response } from '@node-oauth/oauth2-server';
import { findClient } from '../../services/clients.js';
import { oauthModel } from '../../services/oauth-model.js';
import { signIn, type User } from '../../services/users.js';
import { hasConsent, recordConsent, sessionUser, SESSION_LIFETIME_S, startSession } from '../../services/sessions.js';
import type { Context } from '../context.js';
import { parseFormOrJson } from '../form-or-json.js';
import { errorPage, signInPage } from './sign-in-page.js';
import { revocationRoutes } from './revocation.js';
import { clientCredentials, cookie, SESSION_COOKIE } from './request-parts.js';
import type { Client } from '../../services/clients.js';

/** The query parameters of an authorization request that the sign-in form carries on. */
const AUTHORIZE_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'state', 'scope', 'code_challenge', 'code_challenge_method'];

/**
 * OAuth 2.0, authorization-code flow (seed 000) with PKCE and refresh tokens, at both
 * addresses: `/1.0/oauth/authorize` + `/1.0/oauth/access_token` (seed 000) and
 * `/oauth2/authorize` + `/oauth2/token` (seed 001's auth info), and revocation and
 * sign-out (revocation.ts). The protocol's checks are @node-oauth/oauth2-server's;
 * storage is services/oauth-model.ts.
 */
export async function oauthRoutes(app: FastifyInstance, ctx: Context) {
  const server = new OAuth2Server({
    model: oauthModel(ctx.db),
    allowEmptyState: true, // seed 000: state is optional
    authorizationCodeLifetime: ctx.oauth.codeLifetime,
    accessTokenLifetime: ctx.oauth.accessTokenLifetime,
    refreshTokenLifetime: ctx.oauth.refreshTokenLifetime,
    alwaysIssueNewRefreshToken: true,
    // Public clients send no secret; getClient (services/oauth-model.ts) still demands one of every confidential client.
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
    // The library's types ask for getAccessToken, used only by its authenticate(): API routes check Bearer tokens themselves (api/auth.ts).
  } as unknown as ConstructorParameters<typeof OAuth2Server>[0]);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, parseFormOrJson);

  for (const [authorizePath, tokenPath] of [
    ['/1.0/oauth/authorize', '/1.0/oauth/access_token'],
    ['/oauth2/authorize', '/oauth2/token'],
  ]) {
    app.get(authorizePath, { schema: { tags: ['oauth'], hide: false } }, (request, reply) => authorizeGet(request, reply, authorizePath));
    app.post(authorizePath, { schema: { tags: ['oauth'] } }, (request, reply) => authorize(request, reply, authorizePath));
    app.post(tokenPath, { schema: { tags: ['oauth'] } }, (request, reply) => token(request, reply));
  }
  revocationRoutes(app, ctx);

  function pick(source: Record<string, unknown>): Record<string, string> {
    return Object.fromEntries(AUTHORIZE_PARAMS.filter((k) => typeof source[k] === 'string' && source[k] !== '').map((k) => [k, source[k] as string]));
  }

  /** Checks the client and redirect_uri before anything goes back to that URI (RFC 6749, 4.1.2.1). */
  async function checkedClient(params: Record<string, string>, reply: FastifyReply) {
    const client = params.client_id ? await findClient(ctx.db, params.client_id) : undefined;
    if (!client) {
      reply.status(400).type('text/html').send(errorPage('Unknown application (client_id).'));
      return undefined;
    }
    if (params.redirect_uri !== undefined && params.redirect_uri !== client.redirectUri) {
      reply.status(400).type('text/html').send(errorPage('The redirect_uri does not match the callback URL registered for this application.'));
      return undefined;
    }
    return client;
  }

  async function authorizePage(request: FastifyRequest, reply: FastifyReply, action: string, extra: { email?: string; message?: string }, status = 200) {
    const params = pick({ ...(request.query as object), ...((request.body as object) ?? {}) });
    const client = await checkedClient(params, reply);
    if (!client) return reply;
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
      .send(signInPage({ action, clientName: client.name, params, ...extra }));
  }

  /** The page, or the code at once for a browser whose session's user allowed this application before. */
  async function authorizeGet(request: FastifyRequest, reply: FastifyReply, action: string) {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const prompt = typeof query.prompt === 'string' ? query.prompt : '';
    const user = prompt === '' || prompt === 'none' ? await sessionUser(ctx.db, cookie(request, SESSION_COOKIE)) : undefined;
    if (user) {
      const params = pick(query);
      const client = await checkedClient(params, reply);
      if (!client) return reply;
      if (await hasConsent(ctx.db, user.id, client.id)) return issueCode(request, reply, params, client, user);
    }
    return authorizePage(request, reply, action, {});
  }

  async function authorize(request: FastifyRequest, reply: FastifyReply, action: string) {
    const body = (request.body ?? {}) as Record<string, string>;
    const params = pick({ ...(request.query as object), ...body });
    const client = await checkedClient(params, reply);
    if (!client) return reply;
    if (body.decision !== 'allow') return refuse(reply, params, client, 'access_denied');
    if (withoutPkce(client, params)) return refuse(reply, params, client, 'invalid_request');
    const user = await signIn(ctx.db, String(body.email ?? ''), String(body.password ?? ''));
    if (!user) return authorizePage(request, reply, action, { email: body.email, message: 'Wrong e-mail or password.' }, 401);
    const session = await startSession(ctx.db, user.id);
    const secure = request.protocol === 'https' || (process.env.PUBLIC_URL ?? '').startsWith('https:');
    reply.header('Set-Cookie', `${SESSION_COOKIE}=${session}; Path=/; Max-Age=${SESSION_LIFETIME_S}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
    await recordConsent(ctx.db, user.id, client.id);
    return issueCode(request, reply, params, client, user);
  }

  /** Back to the application with `error` (RFC 6749, 4.1.2.1). */
  function refuse(reply: FastifyReply, params: Record<string, string>, client: Client, error: string) {
    const url = new URL(params.redirect_uri ?? client.redirectUri);
    url.searchParams.set('error', error);
    if (params.state) url.searchParams.set('state', params.state);
    return reply.redirect(url.href, 302);
  }

  /** Back to the application with a code for `user` (or the library's error). */
  async function issueCode(request: FastifyRequest, reply: FastifyReply, params: Record<string, string>, client: Client, user: User) {
    const redirectUri = params.redirect_uri ?? client.redirectUri;
    if (withoutPkce(client, params)) return refuse(reply, params, client, 'invalid_request');
    const req = new Request({ method: 'POST', query: {}, headers: request.headers as Record<string, string>, body: { ...params, redirect_uri: redirectUri } });
    const res = new Response({});
    try {
      await server.authorize(req, res, { authenticateHandler: { handle: () => user } });
    } catch {
      // The library has put the error into the redirect (RFC 6749, 4.1.2.1).
    }
    return reply.redirect(String(res.get('location') ?? res.headers?.location), 302);
  }

  async function token(request: FastifyRequest, reply: FastifyReply) {
    const body = { ...((request.body ?? {}) as Record<string, string>) };
    // Seed 000's token request has no redirect_uri: a client has one registered callback, which the authorization request matched.
    if (body.grant_type === 'authorization_code' && !body.redirect_uri) {
      const clientId = clientCredentials(request.headers.authorization, body)?.id;
      const client = clientId ? await findClient(ctx.db, clientId) : undefined;
      if (client) body.redirect_uri = client.redirectUri;
    }
    const req = new Request({ method: 'POST', query: {}, headers: request.headers as Record<string, string>, body });
    const res = new Response({});
    try {
      await server.token(req, res);
      return reply.status(200).header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(res.body);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      const header = res.get('WWW-Authenticate');
      if (header) reply.header('WWW-Authenticate', header);
      return reply.status(error.code).header('Cache-Control', 'no-store').send({ error: error.name, error_description: error.message });
    }
  }
}

/** A public client proves with PKCE that the code's redeemer asked for it (RFC 7636); S256 only. */
function withoutPkce(client: Client, params: Record<string, string>): boolean {
  return client.public && (!params.code_challenge || params.code_challenge_method !== 'S256');
}

