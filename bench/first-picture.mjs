#!/usr/bin/env node
// `npm run bench:first-picture [-- model ...]`: how soon a scene streamed over HTTP shows.
// Our viewer loads the model's scene (converted with `npm run scene`) from a local server
// that sends it as the platform does (gzipped), in a fresh page with the viewer warm:
// *first picture* is from asking for the URL to the end of the first frame drawn while
// the scene streams, *frame* that frame's own drawing, *shown* the complete model's
// frame, *done* the whole file read. Medians of 3 runs. Default model: office-200k.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';
import { CHROMIUM_FLAGS } from '../scripts/find-browser.mjs';
import { processedOf } from '../scripts/scene-cache.mjs';
import { buildPages, findChromium, log, startServer } from './run.mjs';
import { findModel, prepare } from './models.mjs';

const names = process.argv.slice(2).length ? process.argv.slice(2) : ['office-200k'];
buildPages(false);
const pages = await startServer();
const browser = await chromium.launch({ executablePath: await findChromium(), headless: true, args: CHROMIUM_FLAGS });
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
try {
  for (const name of names) {
    const model = prepare(findModel(name), log);
    const gz = gzipSync(readFileSync((await processedOf(model.file)).scene));
    const scenes = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/vnd.platform.scene', 'Content-Encoding': 'gzip', 'Content-Length': gz.length, 'Access-Control-Allow-Origin': '*' });
      res.end(gz);
    });
    await new Promise((resolve) => scenes.listen(0, '127.0.0.1', resolve));
    const runs = [];
    for (let run = 0; run < 3; run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`http://127.0.0.1:${pages.address().port}/ours-scene.html`);
      await page.waitForFunction(() => globalThis.__bench?.state.phase === 'ready');
      await page.evaluate(() => globalThis.__bench.setup());
      runs.push(await page.evaluate(async (url) => {
        const core = document.querySelector('bim-viewer-3d').core;
        const gl = core.renderer.getContext();
        const pixel = new Uint8Array(4);
        const frame = core.streamingFrame.bind(core);
        const t0 = performance.now();
        let first = null;
        core.streamingFrame = (...args) => {
          const start = performance.now();
          frame(...args);
          gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel); // the frame finished
          first ??= { first_ms: performance.now() - t0, frame_ms: performance.now() - start };
        };
        let shown = 0;
        await core.loadModel({ url, id: 'm', format: 'scene' }, undefined, () => {}, () => {
          core.render(core.rig.camera, true);
          gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
          shown = performance.now() - t0;
        });
        return { ...first, shown_ms: shown, done_ms: performance.now() - t0 };
      }, `http://127.0.0.1:${scenes.address().port}/m.scene`));
      await page.close();
    }
    scenes.close();
    const row = Object.fromEntries(['first_ms', 'frame_ms', 'shown_ms', 'done_ms'].map((k) => [k, Math.round(median(runs.map((r) => r[k])))]));
    process.stdout.write(`${name}: ${(gz.length / 1e6).toFixed(1)} MB gzipped; first picture ${row.first_ms} ms (its frame ${row.frame_ms} ms), shown ${row.shown_ms} ms, done ${row.done_ms} ms\n`);
  }
} finally {
  await browser.close();
  pages.close();
}
