/**
 * The one narrow interface every service speaks SQL through. One dialect, PostgreSQL 15:
 * the embedded PGlite (pglite.ts) by default, a real server (postgres.ts) when
 * DATABASE_URL is set. int8 columns come back as JavaScript numbers (ids and object ids
 * stay below 2^53), jsonb as objects, timestamptz as Dates.
 */
export type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface QueryOptions {
  /**
   * Keep the statement prepared on its connection (default true). False for texts whose
   * shape a request decides (a topic list's $filter): there is no end to them, and each
   * kept one holds memory in a database backend until the connection ends.
   */
  keep?: boolean;
  /**
   * The statement may wait as long as it takes (a lock another process holds while it
   * migrates): no read timeout (DATABASE_QUERY_TIMEOUT_MS) on a real PostgreSQL.
   */
  waits?: boolean;
}

export interface Sql {
  /** One statement with $1... parameters. */
  query<T extends Row = Row>(text: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /** Several statements, no parameters (migrations): no read timeout. */
  exec(text: string): Promise<void>;
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: all of it is visible afterwards, or none. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The database server cannot be reached (stopped, restarting, connections cut): the API
 * answers 503 (api/errors.ts) instead of 500, and the next query connects again.
 */
export class DatabaseUnavailable extends Error {
  readonly statusCode = 503;
  constructor(cause: unknown) {
    super('The database is unavailable; try again shortly', { cause });
  }
}

/** The first row, or undefined. */
export async function one<T extends Row = Row>(sql: Sql, text: string, params?: unknown[]): Promise<T | undefined> {
  return (await sql.query<T>(text, params))[0];
}

/** PostgreSQL's type oid of int8: parsed as a number, not a string. */
export const INT8_OID = 20;

export interface DatabaseSettings {
  /** postgres://... for a real server; otherwise PGlite in `dataDir`. */
  url?: string;
  dataDir: string;
}

export async function openDatabase(settings: DatabaseSettings): Promise<Database> {
  if (settings.url) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(settings.url);
  }
  const { openPglite } = await import('./pglite.js');
  return openPglite(settings.dataDir);
}
