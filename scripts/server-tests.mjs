// The platform server's tests (server/test/*.test.ts, node:test over real HTTP): once on
// the embedded PGlite and once on a real PostgreSQL (scripts/temporary-postgres.mjs),
// each database run counted on its own; then the tests that need no database and the
// example apps' (GROUPS below). Used by scripts/test.mjs; also runs alone:
//   node scripts/server-tests.mjs [--db pglite|postgres|both] [files...]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgres, startTemporaryPostgres } from './temporary-postgres.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The groups of node:test files, by folder: the server's (on each database), those that
 * need no database (file readers, converters, the npm package in Node) and the example
 * apps' (each builds its app and starts its own platform on PGlite), run once each.
 */
const GROUPS = {
  server: ['server/test'],
  node: ['server/test/node', 'test/node'],
  examples: readdirSync(path.join(ROOT, 'examples'), { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'shared').map((d) => `examples/${d.name}`),
};

function groupOf(file) {
  const dir = path.relative(ROOT, path.dirname(path.resolve(ROOT, file))).split(path.sep).join('/');
  return Object.keys(GROUPS).find((group) => GROUPS[group].includes(dir));
}

function testFiles(only, group) {
  if (only.length) return only.filter((f) => groupOf(f) === group).map((f) => path.resolve(ROOT, f));
  return GROUPS[group].flatMap((dir) => {
    const full = path.join(ROOT, dir);
    return existsSync(full) ? readdirSync(full).filter((f) => f.endsWith('.test.ts')).sort().map((f) => path.join(full, f)) : [];
  });
}

/** Runs the files with node:test; resolves with `{passed, failed, failedFiles}`. */
function runSuite(files, env, label) {
  const tmp = mkdtempSync(path.join(tmpdir(), 'bim-server-tests-'));
  const countsFile = path.join(tmp, 'counts.json');
  process.stdout.write(`\nServer tests on ${label} (${files.length} files)\n`);
  const args = [
    '--import', 'tsx', '--test', '--test-concurrency=1',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(ROOT, 'scripts/count-reporter.mjs')}`, `--test-reporter-destination=${countsFile}`,
    ...files,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => {
      let counts;
      try {
        counts = JSON.parse(readFileSync(countsFile, 'utf8'));
      } catch {
        counts = { passed: 0, failed: 1, failedFiles: [`server tests on ${label}: node --test exited with ${code} before reporting`] };
      }
      if (code !== 0 && counts.failed === 0) counts.failed = 1;
      rmSync(tmp, { recursive: true, force: true });
      resolve(counts);
    });
  });
}

/**
 * Both database runs. PostgreSQL is required when `requirePostgres` (CI): missing, it is one
 * failure that says what to install; otherwise its run is left out with a line saying so.
 */
export async function runServerTests({ db = 'both', files = [], requirePostgres = false } = {}) {
  const list = testFiles(files, 'server');
  const nodeList = testFiles(files, 'node');
  const exampleList = testFiles(files, 'examples');
  const total = { passed: 0, failed: 0, failedFiles: [] };
  const add = (counts) => {
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.failedFiles.push(...counts.failedFiles);
  };
  if (nodeList.length) add(await runSuite(nodeList, {}, 'Node, no database'));
  if (exampleList.length) add(await runSuite(exampleList, { TEST_DATABASE_URL: '' }, 'the example apps (PGlite)'));
  if (!list.length) return total;
  if (db !== 'postgres') add(await runSuite(list, { TEST_DATABASE_URL: '' }, 'PGlite'));
  if (db !== 'pglite') {
    if (!findPostgres()) {
      const message = 'PostgreSQL 15+ not found (apt-get install postgresql-15, or PG_BIN)';
      process.stdout.write(`Not run on PostgreSQL: ${message}\n`);
      if (requirePostgres) add({ passed: 0, failed: 1, failedFiles: [`server tests on PostgreSQL: ${message}`] });
    } else {
      let postgres;
      try {
        postgres = await startTemporaryPostgres();
        add(await runSuite(list, { TEST_DATABASE_URL: postgres.url }, `PostgreSQL (${postgres.url})`));
      } catch (error) {
        process.stdout.write(`server tests on PostgreSQL: ${error.message}\n`);
        add({ passed: 0, failed: 1, failedFiles: [`server tests on PostgreSQL: ${error.message}`] });
      } finally {
        postgres?.stop();
      }
    }
  }
  return total;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dbIndex = args.indexOf('--db');
  const db = dbIndex >= 0 ? args.splice(dbIndex, 2)[1] : 'both';
  const counts = await runServerTests({ db, files: args, requirePostgres: process.env.CI === 'true' });
  if (counts.failedFiles.length) process.stdout.write(`failed: ${counts.failedFiles.map((f) => path.relative(ROOT, f) || f).join(', ')}\n`);
  process.stdout.write(`${counts.passed} passed, ${counts.failed} failed\n`);
  process.exit(counts.failed ? 1 : 0);
}
