import type { Sql } from '../storage/database.js';
import { authenticateClient, findClient, type Client } from './clients.js';
import { newToken, tokenHash } from './secrets.js';

/**
 * The storage half of OAuth 2.0 for @node-oauth/oauth2-server (authorization code with
 * PKCE, refresh tokens): clients, codes and tokens in the database, codes and tokens
 * stored as their SHA-256. The library does the protocol's checks (redirect_uri match,
 * expiry, PKCE S256, single use through revokeAuthorizationCode).
 */
export const GRANTS = ['authorization_code', 'refresh_token'];

const asClient = (client: Client) => ({ id: client.id, grants: GRANTS, redirectUris: [client.redirectUri] });

export function oauthModel(sql: Sql) {
  return {
    generateAccessToken: async () => newToken(),
    generateRefreshToken: async () => newToken(),
    generateAuthorizationCode: async () => newToken(),

    /** `clientSecret` is null at the authorization endpoint (no secret there), undefined when a token request sends none. */
    async getClient(clientId: string, clientSecret: string | null | undefined) {
      const client = clientSecret === null ? await findClient(sql, clientId) : await authenticateClient(sql, clientId, clientSecret);
      return client ? asClient(client) : false;
    },

    async saveAuthorizationCode(
      code: { authorizationCode: string; expiresAt: Date; redirectUri: string; scope?: string[]; codeChallenge?: string; codeChallengeMethod?: string },
      client: { id: string },
      user: { id: string },
    ) {
      await sql.query(
        `INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, code_challenge_method, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [tokenHash(code.authorizationCode), client.id, user.id, code.redirectUri, code.scope?.join(' ') ?? null, code.codeChallenge ?? null, code.codeChallengeMethod ?? null, code.expiresAt],
      );
      // Used codes are kept until they expire (revokeAuthorizationCode); then they go.
      await sql.query('DELETE FROM oauth_codes WHERE expires_at < now()');
      return { ...code, client, user };
    },

    async getAuthorizationCode(authorizationCode: string) {
      const [row] = await sql.query('SELECT * FROM oauth_codes WHERE code_hash = $1', [tokenHash(authorizationCode)]);
      if (!row) return false;
      return {
        authorizationCode,
        expiresAt: row.expires_at,
        redirectUri: row.redirect_uri,
        scope: row.scope ? row.scope.split(' ') : undefined,
        codeChallenge: row.code_challenge ?? undefined,
        codeChallengeMethod: row.code_challenge_method ?? undefined,
        client: { id: row.client_id },
        user: { id: row.user_id },
      };
    },

    /**
     * Marks the code used; false when it was used already, so a replayed code fails even
     * when two arrive at once. A replay also revokes what the first use gave (RFC 6749,
     * 4.1.2): whoever replays it may be the one who stole it.
     */
    async revokeAuthorizationCode(code: { authorizationCode: string }) {
      const hash = tokenHash(code.authorizationCode);
      if ((await sql.query('UPDATE oauth_codes SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL RETURNING 1', [hash])).length > 0) return true;
      await sql.query('DELETE FROM oauth_tokens WHERE code_hash = $1', [hash]);
      return false;
    },

    /** `authorizationCode` for a code's tokens; a refresh's user (from getRefreshToken) carries the code of the tokens it replaces. */
    async saveToken(
      token: { accessToken: string; accessTokenExpiresAt: Date; refreshToken?: string; refreshTokenExpiresAt?: Date; scope?: string[]; authorizationCode?: string },
      client: { id: string },
      user: { id: string; codeHash?: string | null },
    ) {
      const codeHash = token.authorizationCode ? tokenHash(token.authorizationCode) : (user.codeHash ?? null);
      await sql.query(
        `INSERT INTO oauth_tokens (access_hash, refresh_hash, client_id, user_id, scope, access_expires_at, refresh_expires_at, code_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [tokenHash(token.accessToken), token.refreshToken ? tokenHash(token.refreshToken) : null, client.id, user.id, token.scope?.join(' ') ?? null, token.accessTokenExpiresAt, token.refreshTokenExpiresAt ?? null, codeHash],
      );
      return { ...token, client, user };
    },

    async getRefreshToken(refreshToken: string) {
      const [row] = await sql.query('SELECT * FROM oauth_tokens WHERE refresh_hash = $1', [tokenHash(refreshToken)]);
      if (!row) return false;
      return {
        refreshToken,
        refreshTokenExpiresAt: row.refresh_expires_at,
        scope: row.scope ? row.scope.split(' ') : undefined,
        client: { id: row.client_id },
        user: { id: row.user_id, codeHash: row.code_hash as string | null },
      };
    },

    /** A refresh token is used once: its access token goes with it. */
    async revokeToken(token: { refreshToken: string }) {
      return (await sql.query('DELETE FROM oauth_tokens WHERE refresh_hash = $1 RETURNING 1', [tokenHash(token.refreshToken)])).length > 0;
    },
  };
}

/** Revokes the grant (its access and refresh token) that `token`, either of the two, belongs to, when `clientId` was given it; false when none was. */
export async function revokeGrant(sql: Sql, token: string, clientId: string): Promise<boolean> {
  const hash = tokenHash(token);
  return (await sql.query('DELETE FROM oauth_tokens WHERE (access_hash = $1 OR refresh_hash = $1) AND client_id = $2 RETURNING 1', [hash, clientId])).length > 0;
}

/** The user id and client of a live access token; undefined when unknown or expired. */
export async function resolveAccessToken(sql: Sql, accessToken: string): Promise<{ userId: string; clientId: string } | undefined> {
  const [row] = await sql.query('SELECT user_id, client_id FROM oauth_tokens WHERE access_hash = $1 AND access_expires_at > now()', [tokenHash(accessToken)]);
  return row ? { userId: row.user_id, clientId: row.client_id } : undefined;
}
