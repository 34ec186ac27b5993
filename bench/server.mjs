#!/usr/bin/env node
// `npm run bench:server`: the platform server's figures (README, "The platform: figures").
//
//   npm run bench:server                         every model, both databases, 30 s load runs
//   options: --models a,b  --runs N (default 3; 1 for files over 100 MB)  --duration S (load run, default 30)
//            --db pglite|postgres|both  --skip-load  --skip-import  --out FILE (default bench/results/server.json)
//   A part skipped keeps the figures --out already holds (their date as loadDate or processingDate).
//
// 1. Processing, per model: raw web-ifc in Node (Init, open, StreamAllMeshes with every
//    geometry copied out, GetLine of every product) against ours (server/jobs/ifc-reader.ts:
//    two threads started and warmed up as a running server's are, the STEP checks in each;
//    every product with attributes, every definition and the doors' plan symbols in one,
//    the scene and plans in the other), each in a fresh
//    process (bench/server/read-once.ts), medians of --runs, cold and warm (the same file
//    read twice before the clock; files under 100 MB), with no server running; then the
//    whole import on a running server (PUT to `success`: upload, queue, reader threads,
//    one transaction).
//    The processing process's peak memory (VmHWM) per MB of IFC; the scene's size, raw and
//    gzipped, against the gzipped IFC.
// 2. Product pages under load: autocannon, 50 connections for --duration seconds, on
//    GET /1.0/revision/products?per_page=100 (random pages of office-20k) with a Bearer
//    token, on PGlite and on a temporary PostgreSQL: requests per second and p99 latency.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { allModels, findModel, prepare } from './models.mjs';
import { startTemporaryPostgres } from '../scripts/temporary-postgres.mjs';
import { api, cli, databaseFor, newDataDir, removeDataDir, serverEnv, signInAs, startServer, waitForOutput } from '../server/test/harness.ts';
import { READERS_WARMED_UP } from '../server/platform.ts';
import { NODE_FLAGS } from '../server/node-flags.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const MB = 1024 * 1024;

function parseArgs(argv) {
  const opts = { models: null, runs: null, duration: 30, db: 'both', load: true, import: true, out: path.join(BENCH, 'results', 'server.json') };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=');
    const value = () => inline ?? argv[++i];
    if (name === '--models') opts.models = value().split(',');
    else if (name === '--runs') opts.runs = Number(value());
    else if (name === '--duration') opts.duration = Number(value());
    else if (name === '--db') opts.db = value();
    else if (name === '--skip-load') opts.load = false;
    else if (name === '--skip-import') opts.import = false;
    else if (name === '--out') opts.out = path.resolve(value());
    else if (name === '--help' || name === '-h') {
      process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 8).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
      process.exit(0);
    } else throw new Error(`Unknown option ${argv[i]} (see --help)`);
  }
  return opts;
}

const log = (line) => process.stdout.write(`${line}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/**
 * One processing run in a fresh process. Waited for without holding this event loop: a
 * run can take minutes, and the sockets to the bench's server must see its keep-alive
 * timeouts meanwhile (a blocked loop reused a closed one: "other side closed").
 */
async function readOnce(mode, file, warm = false) {
  // Ours runs with the platform's flags; raw web-ifc with Node's own (the helpers' garbage collection helps its one thread).
  const args = [...(mode === 'ours' ? NODE_FLAGS : []), '--import', 'tsx', path.join(BENCH, 'server/read-once.ts'), mode, file, ...(warm ? ['warm'] : [])];
  const result = await promisify(execFile)(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 }).catch((error) => {
    throw new Error(`${mode} on ${path.basename(file)}: ${String(error.stderr ?? error.message).trim().split('\n').slice(-3).join(' ')}`);
  });
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

/** A server on a fresh data folder (PGlite, or its own database on `postgresUrl`), signed in, its reader threads warmed up as a running server's are. */
async function serverWithClient(postgresUrl) {
  const dataDir = newDataDir();
  const env = serverEnv(dataDir, { JOB_POLL_MS: '50', LOG_LEVEL: 'fatal', DATABASE_URL: databaseFor(dataDir, postgresUrl) ?? '', READER_WARM_UP: '1' });
  const app = cli(env, 'app', 'add', '--name', 'bench', '--redirect-uri', 'http://127.0.0.1:9/cb');
  const server = await startServer(env);
  await waitForOutput(server, READERS_WARMED_UP);
  const token = (await signInAs(server.url, app)).access_token;
  const client = api(server.url, token);
  const project = (await client.post('/projects/new', { name: 'bench' })).json;
  return { server, token, client, project, dataDir };
}

/** PUT to `success`, in ms; the revision's model id. */
async function timedImport(client, project, file) {
  const model = (await client.post(`/models/new?project_id=${project.id}`, { name: path.basename(file) })).json;
  const bytes = readFileSync(file);
  const start = performance.now();
  const upload = await client.upload(model.id, path.basename(file), bytes);
  if (upload.status !== 200) throw new Error(`upload: ${JSON.stringify(upload.json)}`);
  const until = Date.now() + 30 * 60_000;
  for (;;) {
    const status = await client.get(`/model/import/status?token=${upload.json.token}`);
    if (status.json.result === 'success') return { ms: performance.now() - start, modelId: model.id };
    if (status.json.result === 'error') throw new Error(`import: ${status.json.error}`);
    if (Date.now() > until) throw new Error('import: still running after 30 min');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function processing(opts) {
  const models = (opts.models ? opts.models.map(findModel) : allModels()).map((m) => prepare(m, log));
  // The readings first, with no server running: its job queue asks the database for work
  // every 50 ms here, CPU that ours' two reader threads, on two cores, would share with it.
  const readings = [];
  for (const model of models) readings.push(await reading(model, opts.runs));
  const { server, client, project, dataDir } = await serverWithClient();
  try {
    for (const [i, model] of models.entries()) {
      const { row, runs } = readings[i];
      if (row.error) continue;
      try {
        const imports = [];
        for (let run = 0; run < runs; run++) imports.push((await timedImport(client, project, model.file)).ms);
        row.importMs = Math.round(median(imports));
        row.importPerRaw = +(median(imports) / row.rawMs).toFixed(2);
      } catch (error) {
        row.error = errorText(error);
      }
      log(JSON.stringify(row));
    }
  } finally {
    await server.stop();
    removeDataDir(dataDir);
  }
  return readings.map(({ row }) => row);
}

function errorText(error) {
  return error.cause ? `${error.message} (${error.cause.message ?? error.cause})` : error.message;
}

/**
 * Raw web-ifc's and ours' readings of one model, cold and (under 100 MB) warm, `count` of
 * each in turn (without one: 3, or 1 of a file over 100 MB); the row, and the runs the
 * imports take too.
 */
async function reading(model, count) {
  const mb = statSync(model.file).size / MB;
  const row = { model: model.name, mb: +mb.toFixed(2) };
  const runs = count ?? (mb > 100 ? 1 : 3);
  try {
    const raw = [], ours = [], rawWarm = [], oursWarm = [];
    let peak = 0, products = 0, sizes = {};
    for (let i = 0; i < runs; i++) {
      raw.push((await readOnce('raw', model.file)).ms);
      const run = await readOnce('ours', model.file);
      ours.push(run.ms);
      if (mb < 100) {
        rawWarm.push((await readOnce('raw', model.file, true)).ms);
        oursWarm.push((await readOnce('ours', model.file, true)).ms);
      }
      peak = Math.max(peak, run.peakBytes);
      products = run.products;
      sizes = { sceneKB: Math.round(run.sceneBytes / 1024), sceneGzipKB: Math.round(run.sceneGzipBytes / 1024), ifcGzipKB: Math.round(run.ifcGzipBytes / 1024) };
    }
    Object.assign(row, {
      products,
      rawMs: Math.round(median(raw)),
      oursMs: Math.round(median(ours)),
      oursPerRaw: +(median(ours) / median(raw)).toFixed(2),
      ...(rawWarm.length && {
        rawWarmMs: Math.round(median(rawWarm)),
        oursWarmMs: Math.round(median(oursWarm)),
        oursPerRawWarm: +(median(oursWarm) / median(rawWarm)).toFixed(2),
      }),
      peakMB: Math.round(peak / MB),
      peakPerMB: +(peak / MB / mb).toFixed(1),
      ...sizes,
      sceneGzipPerIfcGzip: +(sizes.sceneGzipKB / sizes.ifcGzipKB).toFixed(2),
    });
  } catch (error) {
    row.error = errorText(error);
  }
  return { row, runs };
}

async function load(opts, label, postgresUrl) {
  const { server, token, client, project, dataDir } = await serverWithClient(postgresUrl);
  try {
    const file = prepare(findModel('office-20k')).file;
    const { modelId } = await timedImport(client, project, file);
    const pages = Math.ceil((await readOnce('ours', file)).products / 100);
    const result = await autocannon({
      url: server.url,
      connections: 50,
      duration: opts.duration,
      headers: { Authorization: `Bearer ${token}` },
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/1.0/revision/products?model_id=${modelId}&per_page=100&page=${1 + Math.floor(Math.random() * pages)}` }) }],
    });
    const row = { database: label, requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, non2xx: result.non2xx, errors: result.errors, duration: opts.duration };
    log(JSON.stringify(row));
    return row;
  } finally {
    await server.stop();
    removeDataDir(dataDir);
  }
}

const opts = parseArgs(process.argv.slice(2));
const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
const result = { date: new Date().toISOString(), machine: `${cpu}, ${(await import('node:os')).cpus().length} cores, Node ${process.version}`, processing: [], load: [] };
// A part skipped keeps the figures the file already holds, with their date.
const before = existsSync(opts.out) ? JSON.parse(readFileSync(opts.out, 'utf8')) : {};
if (opts.import) result.processing = await processing(opts);
else if (before.processing?.length) Object.assign(result, { processing: before.processing, processingDate: before.processingDate ?? before.date });
if (opts.load) {
  if (opts.db !== 'postgres') result.load.push(await load(opts, 'PGlite'));
  if (opts.db !== 'pglite') {
    const postgres = await startTemporaryPostgres();
    try {
      result.load.push(await load(opts, 'PostgreSQL 15', postgres.url));
    } finally {
      postgres.stop();
    }
  }
} else if (before.load?.length) Object.assign(result, { load: before.load, loadDate: before.loadDate ?? before.date });
mkdirSync(path.dirname(opts.out), { recursive: true });
writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
log(`written to ${path.relative(process.cwd(), opts.out)}`);
