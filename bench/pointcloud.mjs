#!/usr/bin/env node
// `npm run bench:pointcloud [-- --quick]`: point clouds, end to end (numbers in README).
//
// 1. Conversion: points per second of the platform's converter (reader included, the
//    whole machine), on a generated LAS, LAZ (the same points as the LAS) and E57 scan
//    (samples/scan-files.js) and the largest real LAZ of BIM_POINTCLOUDS; the first run
//    and the median of 3.
// 2. The viewer, ours against potree-core 2.0.15 on the same file, budget, canvas and
//    views, each in a fresh page, from a local server that answers range requests:
//    *first picture* from asking for the URL to the end of the first frame with points,
//    *complete* until no node is on its way; frame time at rest with 1 and 5 million
//    points in view (8 views around the cloud), the heap after a GC, the time of a pick.
//    potree-core reads our file as Potree 2.0: the server cuts metadata.json,
//    hierarchy.bin and octree.bin out of it (docs/POINTCLOUD-FORMAT.md).
// Default cloud: office-200k's scan of 20 million points (`--quick`: house, 2 million).
// `--part conversion` or `--part viewers` runs one of the two.
import { createServer } from 'node:http';
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { CHROMIUM_FLAGS } from '../scripts/find-browser.mjs';
import { bimPointcloudsFolder } from '../scripts/bim-models.mjs';
import { sampleScan } from '../samples/files.js';
import { openPointFile } from '../server/pointcloud/point-reader.ts';
import { convertPointCloud } from '../server/pointcloud/octree/convert.ts';
import { readPointCloudHead } from '../src/core/formats/pointcloud.ts';
import { parseRange } from '../server/api/ranges.ts';
import { attachWorkers, buildPages, findChromium, log, measureHeap, startServer, withTimeout } from './run.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'bench-pointclouds');
const quick = process.argv.includes('--quick');
const part = process.argv.includes('--part') ? process.argv[process.argv.indexOf('--part') + 1] : 'both';
if (!['both', 'conversion', 'viewers'].includes(part)) throw new Error(`--part is conversion or viewers, not ${part}`);
const RUNS = 3;
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

mkdirSync(CACHE, { recursive: true });

// ---- 1. conversion ------------------------------------------------------------------------

async function convertOnce(input, output) {
  const reader = await openPointFile(input);
  try {
    return await convertPointCloud(reader, output, { sourceName: path.basename(input) });
  } finally {
    await reader.close();
  }
}

/** The largest LAZ (COPC included) of the real scans, or null. */
function largestLaz() {
  const folder = bimPointcloudsFolder();
  if (!folder) return null;
  const files = readFileSync(path.join(folder, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1).map((line) => line.split('\t')[0]).filter((f) => /\.laz$/i.test(f ?? ''));
  return files.map((f) => path.join(folder, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0] ?? null;
}

async function conversion() {
  const inputs = [
    ['LAS', await sampleScan(quick ? 'house.scan-1m.las' : 'office-200k.scan-5m.las', { log })],
    ['LAZ', await sampleScan(quick ? 'house.scan-1m.laz' : 'office-200k.scan-5m.laz', { log })],
    ['E57', await sampleScan(quick ? 'house.scan-500k.e57' : 'house.scan-2m.e57', { log })],
    ['LAZ (real)', largestLaz()],
  ];
  const rows = [];
  for (const [format, input] of inputs) {
    if (!input) {
      log(`${format}: no file (BIM_POINTCLOUDS has none)`);
      continue;
    }
    const runs = [];
    for (let run = 0; run < RUNS; run++) runs.push(await convertOnce(input, path.join(CACHE, 'conversion.bimcloud')));
    const row = { format, file: path.basename(input), points: runs[0].points, first_pps: Math.round(runs[0].pointsPerSecond), median_pps: Math.round(median(runs.map((r) => r.pointsPerSecond))), median_s: median(runs.map((r) => r.seconds)) };
    rows.push(row);
    log(`convert ${format} ${row.file}: ${row.points} points, ${(row.median_pps / 1e6).toFixed(2)} M points/s (median of ${RUNS}; first ${(row.first_pps / 1e6).toFixed(2)} M/s), ${row.median_s.toFixed(2)} s`);
  }
  return rows;
}

// ---- 2. the viewers ------------------------------------------------------------------------

/** The cloud the viewers are measured on, converted once (cached). */
async function viewedCloud() {
  const name = quick ? 'house.scan-2m.las' : 'office-200k.scan-20m.las';
  const out = path.join(CACHE, name.replace(/\.las$/, '.bimcloud'));
  if (!existsSync(out)) {
    const input = await sampleScan(name, { log });
    const summary = await convertOnce(input, out);
    log(`converted ${name}: ${summary.points} points, ${summary.nodes} nodes in ${summary.seconds.toFixed(1)} s`);
  }
  return { name, file: out };
}

/** Where Potree's three files are in our container. */
function potreeView(file) {
  const fd = openSync(file, 'r');
  try {
    let bytes = Buffer.alloc(64 * 1024);
    readSync(fd, bytes, 0, bytes.length, 0);
    let head = readPointCloudHead(bytes);
    if ('needed' in head) {
      bytes = Buffer.alloc(head.needed);
      readSync(fd, bytes, 0, bytes.length, 0);
      head = readPointCloudHead(bytes);
    }
    const { metadata, length } = head;
    return {
      'metadata.json': { start: 16, length: length - 16 },
      'hierarchy.bin': { start: metadata.container.hierarchy.offset, length: metadata.container.hierarchy.size },
      'octree.bin': { start: metadata.container.octree.offset, length: metadata.container.octree.size },
    };
  } finally {
    closeSync(fd);
  }
}

/** Serves `/cloud.bimcloud` and `/potree/{metadata.json,hierarchy.bin,octree.bin}` with range requests. */
function cloudServer(file) {
  const size = statSync(file).size;
  const parts = { 'cloud.bimcloud': { start: 0, length: size }, ...Object.fromEntries(Object.entries(potreeView(file)).map(([k, v]) => [`potree/${k}`, v])) };
  const server = createServer((req, res) => {
    const part = parts[new URL(req.url, 'http://x').pathname.slice(1)];
    const headers = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'range, content-type', 'Access-Control-Expose-Headers': 'content-range, content-length', 'Accept-Ranges': 'bytes' };
    if (req.method === 'OPTIONS') return res.writeHead(204, headers).end();
    if (!part) return res.writeHead(404, headers).end();
    const range = parseRange(req.headers.range, part.length);
    if (range === 'unsatisfiable') return res.writeHead(416, { ...headers, 'Content-Range': `bytes */${part.length}` }).end();
    const { start, end } = range ?? { start: 0, end: part.length - 1 };
    res.writeHead(range ? 206 : 200, { ...headers, 'Content-Length': end - start + 1, ...(range ? { 'Content-Range': `bytes ${start}-${end}/${part.length}` } : {}) });
    createReadStream(file, { start: part.start + start, end: part.start + end }).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const PAGES = { ours: 'pointcloud-ours.html', 'potree-core': 'pointcloud-potree.html' };

/** One viewer in a fresh page: load under `budget`, then frames and heap, then picks. */
async function viewerRun(browser, pages, clouds, viewer, budget) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    const cdp = await context.newCDPSession(page);
    const workers = await attachWorkers(cdp);
    await page.goto(`http://127.0.0.1:${pages.address().port}/${PAGES[viewer]}`);
    await page.waitForFunction(() => globalThis.__cloud);
    await page.evaluate(() => globalThis.__cloud.setup());
    const base = `http://127.0.0.1:${clouds.address().port}`;
    const url = viewer === 'ours' ? `${base}/cloud.bimcloud` : `${base}/potree/metadata.json`;
    const load = await withTimeout(page.evaluate(([u, b]) => globalThis.__cloud.load(u, b), [url, budget]), 300_000);
    // The whole cloud in view for a million points; nearer (the view filled by 40% of its
    // bounding sphere, so more nodes are large on screen) for five.
    const fill = budget > 1e6 ? 0.4 : 1;
    const frames = await withTimeout(page.evaluate((f) => globalThis.__cloud.frames(8, f), fill), 600_000);
    const heap = await measureHeap(cdp, workers);
    const pick = await withTimeout(page.evaluate(() => globalThis.__cloud.pick()), 120_000);
    if (errors.length) throw new Error(errors.join('; '));
    return { ...load, ...frames, ...pick, heap_mb: (heap.page + heap.worker) / 1e6 };
  } finally {
    await context.close();
  }
}

async function viewers() {
  const cloud = await viewedCloud();
  buildPages(false);
  const pages = await startServer();
  const clouds = await cloudServer(cloud.file);
  const browser = await chromium.launch({ executablePath: await findChromium(), headless: true, args: CHROMIUM_FLAGS });
  const rows = [];
  try {
    for (const budget of quick ? [1e6] : [1e6, 5e6]) {
      for (const viewer of Object.keys(PAGES)) {
        const runs = [];
        for (let run = 0; run < (quick ? 1 : RUNS); run++) {
          try {
            runs.push(await viewerRun(browser, pages, clouds, viewer, budget));
          } catch (error) {
            log(`${viewer} at ${budget / 1e6} M: ${error.message}`);
          }
        }
        if (!runs.length) continue;
        const keys = Object.keys(runs[0]);
        const row = { viewer, budget, ...Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) };
        rows.push(row);
        log(`${cloud.name} ${viewer}, budget ${budget / 1e6} M: first picture ${Math.round(row.first_ms)} ms, complete ${Math.round(row.all_ms)} ms, ` +
          `frame ${Math.round(row.frame_ms)} ms (max ${Math.round(row.frame_max_ms)}) with ${(row.points / 1e6).toFixed(2)} M points drawn, heap ${row.heap_mb.toFixed(0)} MB, pick ${row.pick_ms.toFixed(1)} ms (${row.pick_hits}/9 hit)`);
      }
    }
  } finally {
    await browser.close();
    pages.close();
    clouds.close();
  }
  return { cloud: cloud.name, rows };
}

const results = { conversion: part === 'viewers' ? [] : await conversion(), viewers: part === 'conversion' ? { rows: [] } : await viewers() };
const ratio = (budget, key) => {
  const [ours, peer] = ['ours', 'potree-core'].map((v) => results.viewers.rows.find((r) => r.viewer === v && r.budget === budget)?.[key]);
  return ours && peer ? (ours / peer).toFixed(2) : 'n/a';
};
for (const budget of [...new Set(results.viewers.rows.map((r) => r.budget))]) {
  log(`ours / potree-core at ${budget / 1e6} M points: first picture ${ratio(budget, 'first_ms')}, frame ${ratio(budget, 'frame_ms')}, heap ${ratio(budget, 'heap_mb')}, pick ${ratio(budget, 'pick_ms')}`);
}
process.exit(0);
