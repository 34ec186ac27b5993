#!/usr/bin/env node
// CPU profile of one viewer's load path, main thread and workers, through Chrome's
// DevTools protocol (Profiler domain; workers through Target auto-attach).
//
//   node bench/profile.mjs [--viewer ours] [--model office-20k] [--phase load|cold|orbit|pick] [--top 25]
//                          [--timeline MS]   also print each thread's busy time per MS-long slice
//
// Writes bench/results/profiles/<model>-<viewer>-<phase>-<thread>.cpuprofile (open them in
// Chrome DevTools > Performance, or speedscope) and prints, per thread, the functions with
// the most self time and the files (scripts) they are in.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { attachWorkers, Browser, buildPages, convert, findChromium, modelUrl, orbitSteps, PAGE, PROCESSED, startServer } from './run.mjs';
import { findModel, prepare } from './models.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));

function parse(argv) {
  const o = { viewer: 'ours', model: 'office-20k', phase: 'load', top: 25, interval: 200, timeline: 0 };
  for (let i = 0; i < argv.length; i++) {
    const [k, inline] = argv[i].split('=');
    const v = inline ?? argv[++i];
    if (k === '--viewer') o.viewer = v;
    else if (k === '--model') o.model = v;
    else if (k === '--phase') {
      if (!['load', 'cold', 'orbit', 'pick'].includes(v)) throw new Error(`--phase is load, cold, orbit or pick, not ${v}`);
      o.phase = v;
    }
    else if (k === '--top') o.top = Number(v);
    else if (k === '--interval') o.interval = Number(v);
    else if (k === '--timeline') o.timeline = Number(v);
    else throw new Error(`unknown option ${k}`);
  }
  return o;
}

/** Self time per function and per script, in ms. */
export function summarise(profile, top) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  }
  const fns = new Map();
  const files = new Map();
  let total = 0;
  for (const [id, ms] of self) {
    const f = byId.get(id).callFrame;
    const file = f.url ? f.url.split('/').pop().replace(/\?.*$/, '') : `(${f.functionName || 'native'})`;
    const key = `${f.functionName || '(anonymous)'}  ${file}:${f.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + ms);
    files.set(file, (files.get(file) ?? 0) + ms);
    total += ms;
  }
  const sort = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { total, functions: sort(fns).slice(0, top), files: sort(files).slice(0, 12) };
}

/**
 * Busy ms per `sliceMs` of the profile, with the function that had the most self time in
 * each slice and the innermost frame of page code (not a library) above it: where the
 * thread was, and on whose behalf, as the load went on. Times are ms from `t0` (µs).
 */
export function timeline(profile, sliceMs, t0) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const own = (f) => /\/(ours|ifc-worker|plan-worker)[^/]*\.js/.test(f.url);
  const slices = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]);
    if (node.callFrame.functionName === '(idle)') continue;
    let caller = node;
    while (caller && !own(caller.callFrame)) caller = byId.get(parent.get(caller.id));
    const k = Math.floor((t - t0) / 1000 / sliceMs);
    const slice = slices.get(k) ?? { busy: 0, leaf: new Map(), caller: new Map() };
    slice.busy += dt;
    const leaf = node.callFrame.functionName || '(anonymous)';
    slice.leaf.set(leaf, (slice.leaf.get(leaf) ?? 0) + dt);
    const by = caller ? caller.callFrame.functionName || '(anonymous)' : '-';
    slice.caller.set(by, (slice.caller.get(by) ?? 0) + dt);
    slices.set(k, slice);
  }
  const most = (m) => [...m.entries()].sort((a, b) => b[1] - a[1])[0][0];
  return [...slices.entries()].sort((a, b) => a[0] - b[0]).map(([k, s]) => `  ${String(k * sliceMs).padStart(6)} ms  busy ${s.busy.toFixed(0).padStart(4)}  ${most(s.leaf)}  <- ${most(s.caller)}`);
}

async function main() {
  const o = parse(process.argv.slice(2));
  const model = prepare(findModel(o.model));
  process.env.BENCH_MINIFY ??= '0'; // profiles that name functions (the build is redone when this changes)
  buildPages(false);
  if (PROCESSED[o.viewer]) convert(o.viewer, model); // the scene, XKT or Fragments file its page loads
  const server = await startServer();
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = new Browser(await findChromium());
  await browser.start();
  const context = await browser.browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const outDir = path.join(BENCH, 'results', 'profiles');
  mkdirSync(outDir, { recursive: true });
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
    await page.goto(`${base}/${PAGE[o.viewer]}`);
    await page.waitForFunction(() => globalThis.__bench?.state.phase === 'ready');
    const cdp = await context.newCDPSession(page);
    // cold: the bench's cold page, from creating the viewer (the engine preloaded as the page loaded) to its first frame.
    if (o.phase !== 'cold') await page.evaluate(() => globalThis.__bench.setup());
    const workers = await attachWorkers(cdp);
    await page.evaluate((url) => globalThis.__bench.fetchModel(url), modelUrl(o.viewer, model));
    const steps = orbitSteps(model, { quick: false });
    if (o.phase === 'orbit' || o.phase === 'pick') await page.evaluate((s) => globalThis.__bench.load(s), steps);

    const threads = [{ name: 'main', send: (m, p) => cdp.send(m, p) }];
    for (const id of workers.ids()) threads.push({ name: `worker-${(workers.info(id).title || workers.info(id).url).split('/').pop().replace(/[^\w.-]+/g, '_')}`, send: (m, p) => workers.send(id, m, p) });
    for (const t of threads) {
      await t.send('Profiler.enable');
      await t.send('Profiler.setSamplingInterval', { interval: o.interval });
      await t.send('Profiler.start');
    }
    const t0 = performance.now();
    const result = await page.evaluate(
      ({ phase, s }) => globalThis.__bench[phase](s), // load(steps), cold(), orbit(), pick()
      { phase: o.phase, s: steps },
    );
    const wall = performance.now() - t0;
    process.stdout.write(`${o.viewer} ${model.name} ${o.phase}: ${JSON.stringify(result)} (wall ${wall.toFixed(0)} ms)\n`);
    for (const t of threads) t.profile = (await t.send('Profiler.stop')).profile;
    // The threads' profiles share one monotonic clock: slices line up across threads.
    const start = Math.min(...threads.map((t) => t.profile.startTime));
    for (const t of threads) {
      const { profile } = t;
      const file = path.join(outDir, `${model.name}-${o.viewer}-${o.phase}-${t.name}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      const s = summarise(profile, o.top);
      const busy = s.functions.length ? s.total - (s.functions.find(([k]) => k.startsWith('(idle)'))?.[1] ?? 0) : 0;
      process.stdout.write(`\n== ${t.name}: ${s.total.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms not idle  (${path.relative(process.cwd(), file)})\n`);
      process.stdout.write('   self ms  function  script:line\n');
      for (const [k, ms] of s.functions) process.stdout.write(`  ${ms.toFixed(1).padStart(8)}  ${k}\n`);
      process.stdout.write('   by script:\n');
      for (const [k, ms] of s.files) process.stdout.write(`  ${ms.toFixed(1).padStart(8)}  ${k}\n`);
      if (o.timeline > 0) process.stdout.write(`   timeline (busy ms per ${o.timeline} ms, top function <- page code calling it):\n${timeline(profile, o.timeline, start).join('\n')}\n`);
    }
  } finally {
    await context.close().catch(() => undefined);
    await browser.stop();
    server.close();
  }
}

main().catch((e) => {
  process.stderr.write(`${e.stack ?? e}\n`);
  process.exit(1);
});
