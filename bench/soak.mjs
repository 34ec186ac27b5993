#!/usr/bin/env node
// `npm run soak`: the reliability figures (README, "Reliability"). Each part runs the
// checks that `npm test` runs, scaled up (SOAK=1: full corpora, more fuzz runs, 100
// cycles, 20 killed imports, 60 s of load), and writes bench/results/soak/<part>.json;
// this script runs them one after another and prints one line per part.
//
//   npm run soak                       every part
//   npm run soak -- fuzz load          the parts named
//
// A part fails (and the exit code says so) when one of its checks fails. At the end it
// prints README's "Reliability" tables from every part's figures (bench/soak/summary.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summary } from './soak/summary.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/soak');
const browser = (file) => ['node', ['scripts/test.mjs', '--files', file]];
const server = (file, db = 'postgres') => ['node', ['scripts/server-tests.mjs', '--db', db, file]];

/** Part name -> the command that produces bench/results/soak/<name>.json. */
const PARTS = {
  'bad-files': browser('test/bad-files.test.ts'),
  'fuzz': server('server/test/fuzz.test.ts'),
  'authorization': server('server/test/authorization.test.ts'),
  'killed-processes': server('server/test/killed-processes.test.ts', 'both'),
  'load': ['node', ['--import', 'tsx', 'bench/soak/load.mjs']],
  'long-sessions': browser('test/long-sessions.test.ts'),
};

const asked = process.argv.slice(2);
for (const name of asked) if (!PARTS[name]) throw new Error(`Unknown part ${name}: one of ${Object.keys(PARTS).join(', ')}`);
let failed = 0;
for (const name of asked.length ? asked : Object.keys(PARTS)) {
  const [command, args] = PARTS[name];
  const figures = path.join(RESULTS, `${name}.json`);
  rmSync(figures, { force: true });
  process.stdout.write(`\n== ${name}: ${command} ${args.join(' ')}\n`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, SOAK: '1' } });
  const seconds = Math.round((Date.now() - started) / 1000);
  const written = existsSync(figures) ? JSON.parse(readFileSync(figures, 'utf8')) : null;
  const ok = run.status === 0 && written !== null;
  if (!ok) failed++;
  process.stdout.write(`== ${name}: ${ok ? 'passed' : 'FAILED'} in ${seconds} s${written ? '' : ', no figures written'}\n`);
}
process.stdout.write(`\n${summary()}\n`);
process.stdout.write(`\nsoak: ${failed ? `${failed} part(s) failed` : 'every part passed'}; figures in ${path.relative(ROOT, RESULTS)}/\n`);
process.exit(failed ? 1 : 0);
