// README's "Reliability" tables, made from bench/results/soak/*.json: `npm run soak`
// prints them at its end (`node bench/soak/summary.mjs` prints them alone). A part whose
// figures are missing shows a dash.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../results/soak');

function figuresOf(part) {
  const file = path.join(RESULTS, `${part}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

const n = (value) => (typeof value === 'number' ? value.toLocaleString('en-US') : value ?? '—');
const mb = (memory) => (memory ? `${Math.round(memory.startMB)} → ${Math.round(memory.endMB)} MB (max ${Math.round(memory.maxMB)}), ${memory.grows ? 'GROWS' : 'flat'}` : '—');
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
const dated = (result) => (result ? ` (${result.date.slice(0, 10)})` : '');

/** One table per part, markdown. */
export function summary() {
  const out = [];
  const bad = figuresOf('bad-files');
  const b = bad?.figures ?? {};
  out.push(`Bad files${dated(bad)}`, table(['files (3D / 2D)', 'crashes', 'hangs', 'clear errors', 'odd but valid, loaded', 'unclear', 'model before broken'],
    [[`${n(b.files)} (${n(b.files3d)} / ${n(b.files2d)})`, n(b.crashes), n(b.hangs), n(b.clearErrors), n(b.loadedValid), n(b.unclear), n(b.modelsBroken)]]));

  const fuzz = figuresOf('fuzz');
  const f = fuzz?.figures ?? {};
  out.push(`Bad requests${dated(fuzz)}`, table(['endpoints', 'requests', 'BCF files', '5xx', 'crashes', 'hangs', 'unclear 4xx', 'headers injected', 'files outside'],
    [[n(f.endpoints), n(f.requests), n(f.archives), n(f.status5xx), n(f.crashes), n(f.hangs), n(f.unclear4xx), n(f.headersInjected), n(f.filesOutside)]]));

  const auth = figuresOf('authorization');
  const a = auth?.figures ?? {};
  out.push(`Wrong users${dated(auth)}`, table(['endpoints × principals', 'checks', 'wrong status', 'leaks', 'wrong CORS', 'preflights', 'answered 429 at the limits'],
    [[`${n(a.endpoints)} × ${n(a.principals)}`, n(a.checks), n(a.wrongStatus), n(a.leaks), n(a.corsWrong), n(a.preflights), n(a.rateLimited)]]));

  const killed = figuresOf('killed-processes');
  const k = killed?.figures ?? {};
  out.push(`Killed processes${dated(killed)}`, table(['database', 'imports / kills', 'ended success / error / stuck', 'half / duplicate revisions', 'writes acknowledged / lost', 'API kills / reopened', 'PostgreSQL restarts survived'],
    Object.values(k).map((d) => [d.database, `${n(d.imports)} / ${n(d.kills)}`, `${n(d.endedSuccess)} / ${n(d.endedError)} / ${n(d.stuck)}`, `${n(d.halfRevisions)} / ${n(d.duplicateRevisions)}`,
      `${n(d.writesAcknowledged)} / ${n(d.writesLost)}`, `${n(d.apiKills)} / ${n(d.reopenedAfterKill)}`, d.postgresRestarts === undefined ? '—' : `${n(d.postgresRestartsSurvived)} of ${n(d.postgresRestarts)}`])));

  const load = figuresOf('load');
  const l = load?.figures ?? {};
  out.push(`Load${dated(load)}: ${n(l.connections)} connections × ${n(l.durationS)} s each, ${l.database ?? '—'}`, table(['scenario', 'requests/s', 'p50', 'p99', 'errors', 'server memory', 'database backends'],
    Object.entries(l.scenarios ?? {}).map(([name, s]) => [name, n(s.requestsPerSecond), `${n(s.p50Ms)} ms`, `${n(s.p99Ms)} ms`, n(s.errors), mb(s.memory), mb(s.databaseMemory)])));

  const long = figuresOf('long-sessions');
  const g = long?.figures ?? {};
  const before = (kind, key, unit = '') => `${n(g[`${kind}${key}Before`])} → ${n(g[`${kind}${key}After`])}${unit}`;
  out.push(`Long sessions${dated(long)}`, table(['cycles of', 'ms a cycle', 'page heap', 'IFC worker heap', 'wasm', 'three geometries / textures', 'live WebGL buffers', 'context lost mid-load'],
    ['ifc', 'scene'].map((kind) => [`${n(g[`${kind}Cycles`])} × ${kind === 'ifc' ? 'IFC' : 'scene'}`, n(g[`${kind}CycleMs`]), before(kind, 'PageHeapMB', ' MB'), before(kind, 'WorkerHeapMB', ' MB'), before(kind, 'WasmMB', ' MB'),
      `${before(kind, 'Geometries')} / ${before(kind, 'Textures')}`, before(kind, 'GlBuffers'), g[`contextLost${kind === 'ifc' ? 'Ifc' : 'Scene'}`] ?? '—'])));
  return out.join('\n\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${summary()}\n`);
