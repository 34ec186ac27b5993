import { one, type Sql } from '../storage/database.js';
import { badRequest } from './errors.js';
import { hashSecret, newId, verifySecret } from './secrets.js';

export interface User {
  id: string;
  email: string;
  name: string;
}

/** Creates a user (the `cli.ts user add` command, and the first start). */
export async function createUser(sql: Sql, email: string, name: string, password: string): Promise<User> {
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw badRequest(`Not an e-mail address: ${email}`);
  if (password.length < 8) throw badRequest('A password has at least 8 characters');
  if (await one(sql, 'SELECT 1 FROM users WHERE lower(email) = lower($1)', [email])) throw badRequest(`A user with the e-mail ${email} exists`);
  const user = { id: newId(), email, name: name || email };
  await sql.query('INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4)', [user.id, email, user.name, await hashSecret(password)]);
  return user;
}

/** The user with this e-mail and password, or undefined (the same time either way). */
export async function signIn(sql: Sql, email: string, password: string): Promise<User | undefined> {
  const row = await one(sql, 'SELECT id, email, name, password_hash FROM users WHERE lower(email) = lower($1)', [email]);
  const ok = await verifySecret(password, row?.password_hash);
  return ok && row ? { id: row.id, email: row.email, name: row.name } : undefined;
}

export async function findUser(sql: Sql, id: string): Promise<User | undefined> {
  return one<User>(sql, 'SELECT id, email, name FROM users WHERE id = $1', [id]);
}

export async function findUserByEmail(sql: Sql, email: string): Promise<User | undefined> {
  return one<User>(sql, 'SELECT id, email, name FROM users WHERE lower(email) = lower($1)', [email]);
}

export async function countUsers(sql: Sql): Promise<number> {
  return (await one(sql, 'SELECT count(*)::int AS n FROM users'))!.n;
}
