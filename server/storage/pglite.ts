import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { INT8_OID, type Database, type Row, type Sql } from './database.js';
import { lockFolder } from './folder-lock.js';

/**
 * PostgreSQL in wasm, in a data folder of this process's own. PGlite takes no lock on its
 * folder, and two processes writing one folder lose writes (TOOLCHAIN.md), so the folder
 * is locked first: a second server on the same folder stops with a clear message.
 */
export async function openPglite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const unlock = await lockFolder(dataDir);
  let db: PGlite;
  try {
    db = await PGlite.create(path.join(dataDir, 'pgdata'), { parsers: { [INT8_OID]: Number } });
  } catch (error) {
    await unlock();
    throw error;
  }
  const wrap = (target: { query: PGlite['query']; exec: PGlite['exec'] }): Sql => ({
    async query<T extends Row>(text: string, params?: unknown[]) {
      return (await target.query<T>(text, params)).rows;
    },
    async exec(text: string) {
      await target.exec(text);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    async close() {
      await db.close();
      await unlock();
    },
  };
}
