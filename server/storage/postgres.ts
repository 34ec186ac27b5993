import pg from 'pg';
import { DatabaseUnavailable, INT8_OID, type Database, type QueryOptions, type Row, type Sql } from './database.js';

/** Connection exceptions (08...) and operator intervention (57P01 shutdown, 57P03 starting up...), and the socket's own errors. */
const GONE_CODES = /^(08|57P)|^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)$/;
const GONE_MESSAGES = /Connection terminated|not queryable|timeout exceeded when trying to connect|Query read timeout/;

/** Longer than any statement waits, for those that may wait without end (migrations, and the lock that takes turns at them). */
const NO_READ_TIMEOUT = 2 ** 31 - 1;

/** A statement's config; pg reads a read timeout of its own from it, which its types do not list. */
const statement = (config: pg.QueryConfig, waits = false): pg.QueryConfig => (waits ? { ...config, query_timeout: NO_READ_TIMEOUT } as pg.QueryConfig : config);

/** A query that failed because the server is away, not because of the query: DatabaseUnavailable. */
function unavailable(error: unknown): unknown {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const gone = (typeof code === 'string' && GONE_CODES.test(code)) || (typeof message === 'string' && GONE_MESSAGES.test(message));
  return gone ? new DatabaseUnavailable(error) : error;
}

/** Statements prepared and kept per connection, at most (each holds tens of KB of a backend's memory). */
export const MAX_NAMED_STATEMENTS = 500;

/** A real PostgreSQL (15 or later) through a pool: what several API processes and workers share. */
export async function openPostgres(url: string): Promise<Database> {
  const types = { getTypeParser: (oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')) };
  // A connection that gets no answer (a network partition, not a stopped server, which
  // refuses at once) fails after DATABASE_CONNECT_TIMEOUT_MS, and a statement whose answer
  // does not come (the line went silent under an open connection) after
  // DATABASE_QUERY_TIMEOUT_MS: a 503, not a request left waiting until TCP gives up.
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    connectionTimeoutMillis: Number(process.env.DATABASE_CONNECT_TIMEOUT_MS ?? 10_000),
    query_timeout: Number(process.env.DATABASE_QUERY_TIMEOUT_MS ?? 30_000),
    keepAlive: true,
  });
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
      try {
        return (await target.query(statement({ name: named(text, options), text, values: params }, options?.waits))).rows as T[];
      } catch (error) {
        throw unavailable(error);
      }
    },
    async exec(text: string) {
      try {
        await target.query(statement({ text }, true));
      } catch (error) {
        throw unavailable(error);
      }
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect().catch((error) => {
        throw unavailable(error);
      });
      // A checked-out client has no 'error' listener of the pool's: its connection cut
      // (the server restarted) would end the process. The query under way fails anyway.
      let broken: Error | undefined;
      const lost = (error: Error) => (broken = error);
      client.on('error', lost);
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        const failed = unavailable(error);
        // A connection whose statement got no answer may still get one: it is not used again.
        if (failed instanceof DatabaseUnavailable) broken ??= error as Error;
        else if (!broken) await client.query('ROLLBACK').catch(() => {});
        throw failed;
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
