import { one, type Sql } from '../storage/database.js';
import { badRequest } from './errors.js';
import { hashSecret, newId, newToken, verifySecret } from './secrets.js';

/** A registered application (seed 000: "registered by contacting support"; here `cli.ts app add`). */
export interface Client {
  id: string;
  name: string;
  redirectUri: string;
}

/** Registers an application; the secret is shown once and stored hashed. */
export async function createClient(sql: Sql, name: string, redirectUri: string, fixed?: { id: string; secret: string }): Promise<Client & { secret: string }> {
  let uri: URL;
  try {
    uri = new URL(redirectUri);
  } catch {
    throw badRequest(`Not an absolute URL: ${redirectUri}`);
  }
  if (uri.hash) throw badRequest('A callback URL has no fragment (RFC 6749, 3.1.2)');
  const id = fixed?.id ?? newId();
  const secret = fixed?.secret ?? newToken();
  await sql.query('INSERT INTO oauth_clients (id, name, secret_hash, redirect_uri) VALUES ($1, $2, $3, $4)', [id, name, await hashSecret(secret), redirectUri]);
  return { id, name, redirectUri, secret };
}

export async function findClient(sql: Sql, id: string): Promise<Client | undefined> {
  return one<Client>(sql, 'SELECT id, name, redirect_uri AS "redirectUri" FROM oauth_clients WHERE id = $1', [id]);
}

/** The client when its secret matches (constant time), else undefined. */
export async function authenticateClient(sql: Sql, id: string, secret: string): Promise<Client | undefined> {
  const row = await one(sql, 'SELECT id, name, redirect_uri, secret_hash FROM oauth_clients WHERE id = $1', [id]);
  const ok = await verifySecret(secret, row?.secret_hash);
  return ok && row ? { id: row.id, name: row.name, redirectUri: row.redirect_uri } : undefined;
}
