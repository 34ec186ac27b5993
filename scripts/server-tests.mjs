// The platform server's tests (server/test/*.test.ts, node:test over real HTTP): once on
// the embedded PGlite and once on a real PostgreSQL (scripts/temporary-postgres.mjs),
// each database run counted on its own; then the tests that need no database and the
// example apps' (GROUPS below). The two database runs go at once, beside whatever else
// runs (the browser tests, under `npm test`): their tests wait on servers, processes and
// timers much of the time, so one after the other left the two cores half idle. Their
// output is held and printed whole when the live output is done. Used by scripts/test.mjs;
// also runs alone:
//   node scripts/server-tests.mjs [--db pglite|postgres|both] [files...]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgres, startTemporaryPostgres } from './temporary-postgres.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The groups of node:test files, by folder: the server's (on each database), the
 * console's (in Chromium, once, on PGlite as `npm start` runs it: the API beneath it is
 * tested on both), those that need no database (file readers, converters, formats, the npm
 * package in Node) and the example apps' (each builds its app and starts its own platform
 * on PGlite), the last three run once each.
 */
const GROUPS = {
  server: ['server/test'],
  console: ['server/test/console'],
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

/** The node:test processes running now, for stopServerTests. */
const running = new Set();

/** Stops every run still going (the caller was interrupted). */
export function stopServerTests(signal = 'SIGTERM') {
  for (const child of running) child.kill(signal);
}

/**
 * Runs the files with node:test; resolves with `{passed, failed, failedFiles}`. With
 * `held`, its output is kept in `held.output` instead of printed as it comes.
 */
function runSuite(files, env, label, held) {
  const tmp = mkdtempSync(path.join(tmpdir(), 'bim-server-tests-'));
  const countsFile = path.join(tmp, 'counts.json');
  const title = `\nServer tests on ${label} (${files.length} files)\n`;
  if (held) held.output += title;
  else process.stdout.write(title);
  const args = [
    '--import', 'tsx', '--test', '--test-concurrency=1',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(ROOT, 'scripts/count-reporter.mjs')}`, `--test-reporter-destination=${countsFile}`,
    ...files,
  ];
  return new Promise((resolve) => {
    const stdio = held ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'];
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio });
    running.add(child);
    if (held) for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => (held.output += d));
    child.on('close', (code) => { // after its output, unlike 'exit'
      running.delete(child);
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

/** Adds one run's counts to a total. */
function add(total, counts) {
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.failedFiles.push(...counts.failedFiles);
  return total;
}

/**
 * Starts the database runs (PGlite, PostgreSQL) at once, then the console's after the
 * PostgreSQL run, their output held; resolves with `[{output, counts}]` in that order. PostgreSQL is required when `requirePostgres` (CI):
 * missing, it is one failure that says what to install; otherwise its run is left out with
 * a line saying so.
 */
export function startDatabaseRuns({ db = 'both', files = [], requirePostgres = false } = {}) {
  const list = testFiles(files, 'server');
  const consoleList = db !== 'postgres' ? testFiles(files, 'console') : [];
  const onPglite = (files, label) => {
    const held = { output: '' };
    return runSuite(files, { TEST_DATABASE_URL: '' }, label, held).then((counts) => ({ output: held.output, counts }));
  };
  const pglite = list.length && db !== 'postgres' ? onPglite(list, 'PGlite') : undefined;
  const postgres = list.length && db !== 'pglite' ? onPostgres(list, requirePostgres) : undefined;
  // The console's run follows the shorter of the two, PostgreSQL's (PGlite's when alone).
  const before = postgres ?? pglite ?? Promise.resolve();
  const consoleRun = consoleList.length ? before.then(() => onPglite(consoleList, 'the console (PGlite)')) : undefined;
  return Promise.all([pglite, postgres, consoleRun].filter(Boolean));
}

async function onPostgres(list, requirePostgres) {
  const held = { output: '' };
  if (!findPostgres()) {
    const message = 'PostgreSQL 15+ not found (apt-get install postgresql-15, or PG_BIN)';
    held.output += `Not run on PostgreSQL: ${message}\n`;
    return { output: held.output, counts: requirePostgres ? { passed: 0, failed: 1, failedFiles: [`server tests on PostgreSQL: ${message}`] } : { passed: 0, failed: 0, failedFiles: [] } };
  }
  let postgres;
  try {
    postgres = await startTemporaryPostgres();
    const counts = await runSuite(list, { TEST_DATABASE_URL: postgres.url }, `PostgreSQL (${postgres.url})`, held);
    return { output: held.output, counts };
  } catch (error) {
    held.output += `server tests on PostgreSQL: ${error.message}\n`;
    return { output: held.output, counts: { passed: 0, failed: 1, failedFiles: [`server tests on PostgreSQL: ${error.message}`] } };
  } finally {
    postgres?.stop();
  }
}

/**
 * Every group: the database runs (started here, or passed in as `databases` when they
 * began earlier, beside the browser tests), and meanwhile the Node and example runs with
 * their output live; then the database runs' output. Resolves with the counts over all.
 */
export async function runServerTests({ db = 'both', files = [], requirePostgres = false, databases } = {}) {
  databases ??= startDatabaseRuns({ db, files, requirePostgres });
  const total = { passed: 0, failed: 0, failedFiles: [] };
  const nodeList = testFiles(files, 'node');
  const exampleList = testFiles(files, 'examples');
  if (nodeList.length) add(total, await runSuite(nodeList, {}, 'Node, no database'));
  if (exampleList.length) add(total, await runSuite(exampleList, { TEST_DATABASE_URL: '' }, 'the example apps (PGlite)'));
  for (const { output, counts } of await databases) {
    process.stdout.write(output);
    add(total, counts);
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
