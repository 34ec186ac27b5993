import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

const FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Any constant: the advisory lock that lets one process at a time migrate a shared PostgreSQL. */
const MIGRATION_LOCK = 7_355_608;

/** Applies migrations/NNN-*.sql not applied yet, each in its own transaction, in name order. */
export async function migrate(db: Database): Promise<string[]> {
  await db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const applied: string[] = [];
  for (const name of readdirSync(FOLDER).filter((f) => f.endsWith('.sql')).sort()) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK], { waits: true });
      if ((await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name])).length) return false;
      await tx.exec(readFileSync(path.join(FOLDER, name), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      return true;
    });
    if (done) applied.push(name);
  }
  return applied;
}
