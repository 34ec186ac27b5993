import { one, type Sql } from '../storage/database.js';
import { badRequest } from './errors.js';
import { hashSecret, newId, newToken, verifySecret } from './secrets.js';

/** A registered application (seed 000: "registered by contacting support"; here `cli.ts app add`). */
export interface Client {
  id: string;
  name: string;
  redirectUri: string;
  /** No secret; PKCE required (the console). */
  public: boolean;
}

const COLUMNS = 'id, name, redirect_uri AS "redirectUri", public';

function checkRedirectUri(redirectUri: string): void {
  let uri: URL;
  try {
    uri = new URL(redirectUri);
  } catch {
    throw badRequest(`Not an absolute URL: ${redirectUri}`);
  }
  if (uri.hash) throw badRequest('A callback URL has no fragment (RFC 6749, 3.1.2)');
}

/** Registers an application; the secret is shown once and stored hashed. */
export async function createClient(sql: Sql, name: string, redirectUri: string, fixed?: { id: string; secret: string }): Promise<Client & { secret: string }> {
  checkRedirectUri(redirectUri);
  const id = fixed?.id ?? newId();
  const secret = fixed?.secret ?? newToken();
  await sql.query('INSERT INTO oauth_clients (id, name, secret_hash, redirect_uri) VALUES ($1, $2, $3, $4)', [id, name, await hashSecret(secret), redirectUri]);
  return { id, name, redirectUri, secret, public: false };
}

/**
 * Registers or updates a public client (no secret, PKCE required) at this callback URL:
 * the console, whose URL is the server's own, and single-page apps (`cli.ts app add --public`).
 */
export async function ensurePublicClient(sql: Sql, id: string, name: string, redirectUri: string): Promise<void> {
  checkRedirectUri(redirectUri);
  await sql.query(
    `INSERT INTO oauth_clients (id, name, secret_hash, redirect_uri, public) VALUES ($1, $2, NULL, $3, true)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, redirect_uri = EXCLUDED.redirect_uri, public = true, secret_hash = NULL`,
    [id, name, redirectUri],
  );
}

export async function findClient(sql: Sql, id: string): Promise<Client | undefined> {
  return one<Client>(sql, `SELECT ${COLUMNS} FROM oauth_clients WHERE id = $1`, [id]);
}

/**
 * The client of a token request: a confidential one when its secret matches (constant
 * time), a public one when no secret is sent; else undefined.
 */
export async function authenticateClient(sql: Sql, id: string, secret: string | undefined): Promise<Client | undefined> {
  const row = await one(sql, `SELECT ${COLUMNS}, secret_hash FROM oauth_clients WHERE id = $1`, [id]);
  if (row?.public) return secret ? undefined : strip(row);
  const ok = secret !== undefined && (await verifySecret(secret, row?.secret_hash));
  return ok && row ? strip(row) : undefined;
}

const strip = ({ secret_hash: _, ...client }: Record<string, any>) => client as Client; // eslint-disable-line @typescript-eslint/no-explicit-any
