import pg from 'pg';
import { INT8_OID, type Database, type QueryOptions, type Row, type Sql } from './database.js';

/** Statements prepared and kept per connection, at most (each holds tens of KB of a backend's memory). */
export const MAX_NAMED_STATEMENTS = 500;

/** A real PostgreSQL (15 or later) through a pool: what several API processes and workers share. */
export async function openPostgres(url: string): Promise<Database> {
  const types = { getTypeParser: (oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')) };
  const pool = new pg.Pool({ connectionString: url, types, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  // An idle client's error (the server restarted) must not end the process; the next query reconnects.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  // Each statement is prepared once per connection and its plan kept (named statements):
  // planning cost more than running the small queries of a product page. Kept statements
  // hold memory in every backend until the connection ends: texts a request shapes are
  // not kept (QueryOptions.keep), and past MAX_NAMED_STATEMENTS texts none are, should
  // some other text turn out to vary without end (planned each time instead).
  const names = new Map<string, string>();
  const named = (text: string, options?: QueryOptions) => {
    if (options?.keep === false) return undefined;
    let name = names.get(text);
    if (!name && names.size < MAX_NAMED_STATEMENTS) names.set(text, (name = `s${names.size}`));
    return name;
  };
  const wrap = (target: pg.Pool | pg.PoolClient): Sql => ({
    async query<T extends Row>(text: string, params?: unknown[], options?: QueryOptions) {
      return (await target.query({ name: named(text, options), text, values: params })).rows as T[];
    },
    async exec(text: string) {
      await target.query(text);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
