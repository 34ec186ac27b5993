#!/usr/bin/env node
// `npm run soak -- load` (issue 22, part 5): the platform server under 100 concurrent
// connections, on a temporary PostgreSQL by default. Three scenarios of --duration
// seconds each, one after another on the same server: product pages, topic lists with
// OData filters, viewpoint creation. Per scenario: requests/s, p50/p99 latency, errors
// (non-2xx, socket errors, timeouts: the target is 0) and the server's memory (RSS from
// /proc once a second: start, end, max, the second half's slope, and whether the last
// third stays within --memory-threshold % of the middle third; on PostgreSQL the same of
// the private memory of the backends serving the server's pool). After the viewpoints,
// every viewpoint acknowledged with a 2xx must be stored. Exits 1 when any check fails.
//
//   node --import tsx bench/soak/load.mjs [--duration S (60)] [--connections N (100)]
//        [--db postgres|pglite (postgres)] [--topics N (300)] [--model NAME (office-20k)]
//        [--memory-threshold PCT (10)] [--only products,topics,viewpoints]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { startTemporaryPostgres } from '../../scripts/temporary-postgres.mjs';
import { databaseFor, newDataDir, removeDataDir, serverEnv } from '../../server/test/harness.ts';
import { writeSoakFigures } from './figures.mjs';
import { createTopics, importModel, startWithBoard } from './load-data.mjs';
import { memoryFigures, sampleBackendMemory, sampleMemory } from './load-memory.mjs';
import { productRequests, topicRequests, viewpointRequests } from './load-scenarios.mjs';
import { storedViewpoints } from './load-check.mjs';

const SCENARIOS = ['products', 'topics', 'viewpoints'];

function parseArgs(argv) {
  const opts = { duration: 60, connections: 100, db: 'postgres', topics: 300, model: 'office-20k', memoryThreshold: 10, only: SCENARIOS };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=');
    const value = () => inline ?? argv[++i];
    if (name === '--duration') opts.duration = Number(value());
    else if (name === '--connections') opts.connections = Number(value());
    else if (name === '--db') opts.db = value();
    else if (name === '--topics') opts.topics = Number(value());
    else if (name === '--model') opts.model = value();
    else if (name === '--memory-threshold') opts.memoryThreshold = Number(value());
    else if (name === '--only') opts.only = value().split(',');
    else if (name === '--help' || name === '-h') {
      process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 14).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
      process.exit(0);
    } else throw new Error(`Unknown option ${argv[i]} (see --help)`);
  }
  if (!['postgres', 'pglite'].includes(opts.db)) throw new Error(`--db is postgres or pglite, not ${opts.db}`);
  for (const s of opts.only) if (!SCENARIOS.includes(s)) throw new Error(`Unknown scenario ${s}: ${SCENARIOS.join(', ')}`);
  return opts;
}

const log = (line) => process.stdout.write(`${line}\n`);

/** One autocannon run with the server's memory sampled; the scenario's figures. */
async function run(name, opts, server, token, requests, database) {
  log(`\n${name}: ${opts.connections} connections for ${opts.duration} s`);
  const memory = sampleMemory(server.process.pid);
  const backends = database ? sampleBackendMemory(database) : null;
  const failures = [];
  const instance = autocannon({
    url: server.url,
    connections: opts.connections,
    duration: opts.duration,
    timeout: 30,
    headers: { Authorization: `Bearer ${token}` },
    // Keep a few of the failures' bodies: a figure of errors alone says nothing of why.
    requests: requests.map((r) => ({
      ...r,
      onResponse: (status, body, context, headers) => {
        if ((status < 200 || status >= 300) && failures.length < 5) failures.push(`${status} ${String(body).slice(0, 200)}`);
        r.onResponse?.(status, body, context, headers);
      },
    })),
  });
  instance.on('reqError', (error) => failures.length < 5 && failures.push(`request error: ${error.message}`));
  const result = await instance;
  const samples = memory.stop();
  const backendSamples = await backends?.stop();
  const figures = {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    socketErrors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    errors: result.non2xx + result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, Number(s.count)])),
    memory: memoryFigures(samples, 'rss', opts.memoryThreshold),
    heapMemory: memoryFigures(samples, 'anon', opts.memoryThreshold),
  };
  if (backendSamples) figures.databaseMemory = { backends: backendSamples.at(-1)?.backends ?? 0, ...memoryFigures(backendSamples, 'anon', opts.memoryThreshold) };
  if (failures.length) figures.firstFailures = failures;
  log(JSON.stringify(figures));
  return figures;
}

const opts = parseArgs(process.argv.slice(2));
const postgres = opts.db === 'postgres' ? await startTemporaryPostgres() : null;
const dataDir = newDataDir();
let server;
let database;
let ok = true;
try {
  const databaseUrl = databaseFor(dataDir, postgres?.url);
  const env = serverEnv(dataDir, { LOG_LEVEL: 'error', JOB_POLL_MS: '100', DATABASE_URL: databaseUrl ?? '' });
  const started = await startWithBoard(env, log);
  server = started.server;
  const { token, project, board } = started;
  const model = await importModel(server.url, token, project.id, opts.model, log);
  const runStart = new Date().toISOString().replace('Z', '+0000');
  const topics = await createTopics(server.url, token, board.project_id, opts.topics, log);

  // On PostgreSQL, the backends serving the server's pool are memory of the server's too.
  if (databaseUrl) {
    database = new pg.Client(databaseUrl);
    await database.connect();
  }
  const scenarios = {};
  const check = (condition, message) => {
    if (!condition) {
      ok = false;
      log(`FAILED: ${message}`);
    }
  };
  for (const name of opts.only) {
    if (name === 'products') scenarios.products = await run(name, opts, server, token, productRequests({ modelId: model.modelId, projectId: project.id, products: model.products }), database);
    if (name === 'topics') scenarios.topics = await run(name, opts, server, token, topicRequests({ boardId: board.project_id, creationMid: topics.creationMid, runStart, topics: opts.topics }), database);
    if (name === 'viewpoints') {
      // A fixed set of topics takes every viewpoint: many concurrent writes to the same topic.
      const topicGuids = topics.guids.slice(0, 20);
      const { requests, acknowledged } = viewpointRequests({ boardId: board.project_id, topicGuids, globalIds: model.globalIds });
      const figures = await run(name, opts, server, token, requests, database);
      const stored = await storedViewpoints(server.url, token, board.project_id, topicGuids);
      let acked = 0, lost = 0, storedCount = 0;
      for (const [topic, guids] of acknowledged) {
        acked += guids.size;
        storedCount += stored.get(topic).size;
        for (const g of guids) if (!stored.get(topic).has(g)) lost++;
      }
      // Requests cut off by the end of the run may have been stored without their answer being read: at most one a connection.
      const extra = storedCount - (acked - lost);
      Object.assign(figures, { acknowledged: acked, stored: storedCount, lost, storedUnacknowledged: extra });
      log(`viewpoints: ${acked} acknowledged, ${lost} of them lost, ${extra} stored whose answer the run did not read`);
      check(lost === 0, `${lost} acknowledged viewpoints are not stored`);
      check(extra <= opts.connections, `${extra} viewpoints stored without an answer (more than one a connection)`);
      scenarios.viewpoints = figures;
    }
    const s = scenarios[name];
    check(s.errors === 0, `${name}: ${s.errors} errors (${s.non2xx} non-2xx, ${s.socketErrors} socket errors, ${s.timeouts} timeouts)`);
    check(!s.memory.grows, `${name}: memory grows (RSS ${s.memory.middleThirdMedianMB} -> ${s.memory.lastThirdMedianMB} MB, +${s.memory.growthPct} %)`);
    if (s.databaseMemory) check(!s.databaseMemory.grows, `${name}: the database backends' memory grows (${s.databaseMemory.middleThirdMedianMB} -> ${s.databaseMemory.lastThirdMedianMB} MB, +${s.databaseMemory.growthPct} %)`);
  }
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
  const file = writeSoakFigures('load', {
    database: opts.db === 'postgres' ? 'PostgreSQL' : 'PGlite',
    connections: opts.connections,
    durationS: opts.duration,
    model: opts.model,
    products: model.products,
    topics: opts.topics,
    machine: `${cpu}, ${(await import('node:os')).cpus().length} cores, Node ${process.version}`,
    passed: ok,
    scenarios,
  });
  if (file) log(`figures written to ${file}`);
} catch (error) {
  ok = false;
  log(`FAILED: ${error.stack ?? error}`);
  if (server) log(`server output:\n${server.output().slice(-3000)}`);
} finally {
  await database?.end().catch(() => {});
  await server?.stop();
  postgres?.stop();
  removeDataDir(dataDir);
}
log(ok ? '\nload: passed' : '\nload: FAILED');
process.exit(ok ? 0 : 1);
