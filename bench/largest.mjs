#!/usr/bin/env node
// `npm run bench:largest`: the largest IFC file our 3D viewer loads in a page.
//
//   npm run bench:largest                      generated offices of about 50, 200, 500 and 1,000 MB
//   npm run bench:largest -- --sizes 50,200    chosen sizes (MB)
//   options: --timeout SECONDS (per file, default 900)  --no-build  --out FILE (default bench/results/largest.json)
//
// Each file in a fresh browser, on the bench page of ours (bench/pages/ours.js), loaded as
// a page does: `el.loadUrl(url)` until it resolves (download, parse, every object in the
// scene, drawn). Reported per file: the time, the viewer's error if it failed (the limit
// must fail as `too large`, not as a crashed tab), and the peak memory of the page's process (page, its workers and their
// wasm: the renderer's VmHWM) and of the GPU process (SwiftShader's buffers), per MB of IFC.
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Browser, buildPages, findChromium, log, startServer, withTimeout } from './run.mjs';
import { prepare } from './models.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
/** Bytes per product of the generated offices (office-200k: 190 MB). */
const BYTES_PER_PRODUCT = 950;

function parseArgs(argv) {
  const opts = { sizes: [50, 200, 500, 1000], timeout: 900, build: true, out: path.join(BENCH, 'results', 'largest.json') };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=');
    const value = () => inline ?? argv[++i];
    if (name === '--sizes') opts.sizes = value().split(',').map(Number).filter((n) => n > 0);
    else if (name === '--timeout') opts.timeout = Number(value());
    else if (name === '--no-build') opts.build = false;
    else if (name === '--out') opts.out = path.resolve(value());
    else if (name === '--help' || name === '-h') {
      process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 7).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
      process.exit(0);
    } else throw new Error(`Unknown option ${argv[i]} (see --help)`);
  }
  return opts;
}

/** Peak resident memory (VmHWM, bytes) of the browser's processes of one type, the largest one. */
function peakOf(browserPid, type) {
  let peak = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes(`--type=${type}`)) continue;
      if (!descends(pid, browserPid)) continue;
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      peak = Math.max(peak, Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024);
    } catch {
      // a process that ended meanwhile
    }
  }
  return peak;
}

/** Whether process `pid` runs under `ancestor` (its parent, or a parent's parent...). */
function descends(pid, ancestor) {
  for (let p = pid, depth = 0; p && p !== '1' && depth < 10; depth++) {
    if (p === String(ancestor)) return true;
    p = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1];
  }
  return false;
}

async function measureFile(executablePath, base, model, opts) {
  const browser = new Browser(executablePath);
  await browser.start();
  const pid = browser.server.process().pid;
  const context = await browser.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const row = { model: model.name, mb: statSync(model.file).size / 1e6 };
  try {
    await page.goto(`${base}/ours.html`);
    await page.waitForFunction(() => globalThis.__bench?.state.phase === 'ready', null, { timeout: 60_000 });
    await page.evaluate(() => globalThis.__bench.setup());
    // As a page does: loadUrl on the element, its promise and its viewer.error event.
    const result = await withTimeout(page.evaluate(async (url) => {
      const el = document.querySelector('bim-viewer-3d');
      let reported = null;
      el.addEventListener('viewer.error', (e) => (reported = e.detail));
      const t0 = performance.now();
      try {
        await el.loadUrl(url);
        return { load_s: (performance.now() - t0) / 1000 };
      } catch (e) {
        return { error: reported ? `viewer.error ${reported.type}: ${reported.message}` : `rejected without viewer.error: ${e.message}` };
      }
    }, model.url), opts.timeout * 1000, `timeout after ${opts.timeout} s`);
    Object.assign(row, result);
  } catch (e) {
    row.error = /crash|closed/i.test(e.message) ? `the page crashed (${e.message.split('\n')[0]})` : `${e.message.split('\n')[0].slice(0, 300)}${errors[0] ? ` (page: ${errors[0].slice(0, 200)})` : ''}`;
  } finally {
    row.renderer_peak_mb = peakOf(pid, 'renderer') / 1e6;
    row.gpu_peak_mb = peakOf(pid, 'gpu-process') / 1e6;
    row.renderer_mb_per_ifc_mb = row.renderer_peak_mb / row.mb;
    await browser.stop();
  }
  return row;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.build) buildPages(false);
  const executablePath = await findChromium();
  const server = await startServer();
  const base = `http://127.0.0.1:${server.address().port}`;
  const rows = [];
  try {
    for (const mb of opts.sizes) {
      const name = `office-${Math.round((mb * 1e6) / BYTES_PER_PRODUCT / 1000)}k`;
      const model = prepare({ name, kind: 'generated', url: `/samples/${name}.ifc` }, log);
      log(`${name}: ${(statSync(model.file).size / 1e6).toFixed(0)} MB`);
      const row = await measureFile(executablePath, base, model, opts);
      log(JSON.stringify(row));
      rows.push(row);
    }
  } finally {
    server.close();
  }
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));
  process.stdout.write('\n| file | MB | load s | page process peak MB (per MB of IFC) | GPU process peak MB | result |\n| --- | ---: | ---: | ---: | ---: | --- |\n');
  for (const r of rows) {
    const result = r.error ? `fails: ${r.error}` : `loads`;
    process.stdout.write(`| ${r.model} | ${r.mb.toFixed(0)} | ${r.load_s?.toFixed(1) ?? '–'} | ${r.renderer_peak_mb.toFixed(0)} (${r.renderer_mb_per_ifc_mb.toFixed(1)}) | ${r.gpu_peak_mb.toFixed(0)} | ${result} |\n`);
  }
}

main().catch((e) => {
  process.stderr.write(`${e.stack ?? e}\n`);
  process.exit(1);
});
