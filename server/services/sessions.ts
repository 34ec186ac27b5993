import { one, type Sql } from '../storage/database.js';
import { newToken, tokenHash } from './secrets.js';
import type { User } from './users.js';

/**
 * The sign-in page's memory (docs/V2.md, "What clients call"): signing in there starts a
 * session (a random token in an HttpOnly cookie, stored as its SHA-256, as access
 * tokens are) and records that the user allowed the application. An authorization
 * request that finds both, `prompt=none` or none, gets its code at once.
 */
export const SESSION_LIFETIME_S = 14 * 24 * 3600;

export async function startSession(sql: Sql, userId: string): Promise<string> {
  const token = newToken();
  await sql.query(`INSERT INTO oauth_sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [tokenHash(token), userId, SESSION_LIFETIME_S]);
  // Expired sessions go when new ones come.
  await sql.query('DELETE FROM oauth_sessions WHERE expires_at < now()');
  return token;
}

/** The user of a live session; undefined when there is none, or it expired. */
export async function sessionUser(sql: Sql, token: string | undefined): Promise<User | undefined> {
  if (!token) return undefined;
  return one<User>(
    sql,
    'SELECT u.id, u.email, u.name FROM oauth_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.expires_at > now()',
    [tokenHash(token)],
  );
}

/** Ends a session (signing out): the sign-in page asks for the password again. */
export async function endSession(sql: Sql, token: string): Promise<void> {
  await sql.query('DELETE FROM oauth_sessions WHERE token_hash = $1', [tokenHash(token)]);
}

export async function recordConsent(sql: Sql, userId: string, clientId: string): Promise<void> {
  await sql.query('INSERT INTO oauth_consents (user_id, client_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, clientId]);
}

export async function hasConsent(sql: Sql, userId: string, clientId: string): Promise<boolean> {
  return !!(await one(sql, 'SELECT 1 FROM oauth_consents WHERE user_id = $1 AND client_id = $2', [userId, clientId]));
}
