#!/usr/bin/env node
// `npm test`: finds a Chrome/Chromium (scripts/find-browser.mjs), runs web-test-runner with
// web-test-runner.config.mjs while the platform server's tests run on PGlite and on a
// temporary PostgreSQL beside it (their output held until the end), then the Node and
// example apps' tests (scripts/server-tests.mjs), and prints `N passed, N failed[, N
// skipped]` over all as the last line. Extra arguments go to web-test-runner and leave
// the server tests out, e.g.
//   npm test -- --files test/infra.test.ts
//   npm test -- --server [server/test/x.test.ts ...]   the server tests alone
// Environment: CHROME_PATH (browser to use), UPDATE_SCREENSHOTS=1 (create missing
// expected screenshots), NO_BROWSER_INSTALL=1 (never install a browser), BIM_MODELS (the
// folder of real models that test/real-models/ reads; default ../shared/models; without
// it those tests are left out, and the output says so in one line), BIM_BCF (buildingSMART's BCF
// test cases, read by test/*bcf*.test.ts; default ../shared/bcf; likewise).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bimBcfFolder, bimBcfSetting, bimModelsFolder, bimModelsSetting, bimPointcloudsFolder, bimPointcloudsSetting } from './bim-models.mjs';
import { findBrowser } from './find-browser.mjs';
import { bundleIsStale } from './stale-build.mjs';
import { runServerTests, startDatabaseRuns, stopServerTests } from './server-tests.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WTR_BIN = path.join(ROOT, 'node_modules/@web/test-runner/dist/bin.js');

function finish(line, code) {
  process.stdout.write(`${line}\n`);
  process.exit(code);
}

/** The failed files, then the last line over everything counted. */
function report(counts, code) {
  if (counts.failedFiles?.length) process.stdout.write(`failed test files: ${counts.failedFiles.map((f) => path.relative(ROOT, f)).join(', ')}\n`);
  const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
  finish(`${counts.passed} passed, ${counts.failed} failed${skipped}`, code);
}

const args = process.argv.slice(2);
if (args[0] === '--server') {
  const counts = await runServerTests({ files: args.slice(1), requirePostgres: process.env.CI === 'true' });
  report(counts, counts.failed ? 1 : 0);
}

if (!existsSync(WTR_BIN)) {
  process.stderr.write('web-test-runner is not installed: run `npm ci` (or `npm install`) first.\n');
  finish('0 passed, 1 failed', 1);
}

// The bundle and npm-entry tests load dist/: build it first when it is older than src/.
const stale = bundleIsStale();
if (stale) {
  process.stdout.write(`Building dist/ for the bundle tests (${stale})\n`);
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--skip-types', '--skip-manifest'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) finish('0 passed, 1 failed', 1);
}

const browser = await findBrowser({ install: process.env.NO_BROWSER_INSTALL !== '1' });

// Tests of real files written by others need the BIM_MODELS folder; everything else runs on generated buildings.
const realModels = bimModelsFolder();
if (!realModels) {
  const files = readdirSync(path.join(ROOT, 'test/real-models')).filter((f) => f.endsWith('.test.ts'));
  process.stdout.write(`Not run: ${files.length} test files of real models (test/real-models/: ${files.join(', ')}): no BIM_MODELS folder at ${bimModelsSetting()}\n`);
}

// Tests of BCF viewpoints (test/*bcf*.test.ts) read buildingSMART's test cases from the BIM_BCF folder.
const bcf = bimBcfFolder();
if (!bcf) {
  const files = readdirSync(path.join(ROOT, 'test')).filter((f) => /bcf.*\.test\.ts$/.test(f));
  process.stdout.write(`Not run: ${files.length} test files of BCF test cases (test/: ${files.join(', ')}): no BIM_BCF folder at ${bimBcfSetting()}\n`);
}

// Tests of real scans (test/*real-scans*.test.ts) read them from the BIM_POINTCLOUDS folder.
const scans = bimPointcloudsFolder();
if (!scans) {
  const files = readdirSync(path.join(ROOT, 'test')).filter((f) => /real-scans.*\.test\.ts$/.test(f));
  process.stdout.write(`Not run: ${files.length} test files of real scans (test/: ${files.join(', ')}): no BIM_POINTCLOUDS folder at ${bimPointcloudsSetting()}\n`);
}

// The whole suite (no arguments) runs the server's database tests beside the browser's.
const wholeSuite = args.length === 0;
const databases = wholeSuite ? startDatabaseRuns({ requirePostgres: process.env.CI === 'true' }) : undefined;
if (databases) process.stdout.write('The server tests on PGlite and PostgreSQL run beside the browser tests; their output follows at the end.\n');

const tmp = mkdtempSync(path.join(tmpdir(), 'bim-wtr-'));
const countsFile = path.join(tmp, 'counts.json');

const child = spawn(
  process.execPath,
  [WTR_BIN, '--config', path.join(ROOT, 'web-test-runner.config.mjs'), ...args],
  {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CHROME_PATH: browser, WTR_COUNTS_FILE: countsFile, BIM_REAL_MODELS: realModels ? '1' : '0', BIM_BCF_CASES: bcf ? '1' : '0', BIM_POINTCLOUD_SCANS: scans ? '1' : '0' },
  },
);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    child.kill(signal);
    stopServerTests(signal);
  });
}

const code = await new Promise(resolve => {
  child.on('error', err => {
    process.stderr.write(`could not start web-test-runner: ${err.message}\n`);
    resolve(1);
  });
  child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
});

let counts;
try {
  counts = JSON.parse(readFileSync(countsFile, 'utf8'));
} catch {
  counts = undefined;
}
rmSync(tmp, { recursive: true, force: true });

if (!counts) {
  process.stderr.write(`web-test-runner exited with code ${code} before reporting any results\n`);
  counts = { passed: 0, failed: 1 };
}

let exitCode = code || (counts.failed ? 1 : 0);
if (exitCode !== 0 && counts.failed === 0) counts.failed = 1; // runner failed outside any test
counts.failedFiles ??= [];

// The whole suite goes on to the server's other tests, then waits for the database runs.
if (wholeSuite) {
  const server = await runServerTests({ requirePostgres: process.env.CI === 'true', databases });
  counts.passed += server.passed;
  counts.failed += server.failed;
  counts.failedFiles.push(...server.failedFiles);
  if (server.failed) exitCode = 1;
}
report(counts, exitCode);
