// The React example in real Chromium: the shared scenario against a real platform
// (examples/shared/example-scenario.ts), then the wrapper itself on a small page served
// by Vite's dev server (wrapper-check/): React's development build, so StrictMode mounts,
// unmounts and mounts again; props reach the element as properties, events the on... props.
// The page imports the package as built by the scenario's build (dist/npm), which runs first.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium, type Browser, type Page } from 'playwright';
import { createServer, type ViteDevServer } from 'vite';
import { sampleFile } from '../../samples/files.js';
import { CHROMIUM_FLAGS, findBrowser } from '../../scripts/find-browser.mjs';
import { buildExample } from '../../scripts/example.mjs';
import { ROOT } from '../../scripts/stale-build.mjs';
import { describeExample } from '../shared/example-scenario.js';

// The functions given to page.evaluate run in the page; this file is compiled with node's types.
declare const document: any, window: any; // eslint-disable-line @typescript-eslint/no-explicit-any

describeExample({ name: 'React', clientId: 'example-react', build: () => buildExample('react') });

/** Keeps every WebGL context the page makes, to count those not lost (a released viewer loses its own). */
const COUNT_WEBGL = `(() => {
  const contexts = new Set();
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    const context = getContext.call(this, type, ...rest);
    if (context && /webgl/.test(type)) contexts.add(context);
    return context;
  };
  window.liveWebglContexts = () => [...contexts].filter((context) => !context.isContextLost()).length;
})();`;

describe('the React wrapper in Chromium (development build, StrictMode)', { timeout: 3 * 60_000 }, () => {
  let vite: ViteDevServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    const model = sampleFile('house').ifc;
    vite = await createServer({
      configFile: false,
      root: path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrapper-check'),
      plugins: [react()],
      logLevel: 'warn',
      server: { host: '127.0.0.1', port: 0, fs: { allow: [ROOT, path.dirname(model)] } },
    });
    await vite.listen();
    browser = await chromium.launch({ executablePath: await findBrowser(), headless: true, args: CHROMIUM_FLAGS });
    page = await browser.newPage();
    await page.addInitScript(COUNT_WEBGL);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${vite.resolvedUrls!.local[0]}?model=${encodeURIComponent(`/@fs${model}`)}`);
  });

  after(async () => {
    await browser?.close();
    await vite?.close();
  });

  const viewer = () => page.evaluate(() => {
    const element = document.querySelector('bim-viewer-3d');
    const box = document.querySelector('#viewer');
    return { selectedColor: element.selectedColor, loads: box.dataset.loads, selected: box.dataset.selected, contexts: window.liveWebglContexts() };
  });
  /** Waits for the first viewer.load, then for every call made before (the element queues them): a second load would be counted. */
  const loaded = async () => {
    await page.waitForSelector('#viewer:not([data-loads="0"])', { timeout: 120_000 });
    return page.evaluate(async () => (await document.querySelector('bim-viewer-3d').modelInfo()).length);
  };

  it('mounts under StrictMode with one viewer, one model and one WebGL context; onViewerLoad fires once', async () => {
    assert.equal(await loaded(), 1, 'one model loaded');
    assert.deepEqual(await viewer(), { selectedColor: '#ff8800', loads: '1', selected: '', contexts: 1 });
  });

  it('sets a changed prop as the element\'s property, and passes an event\'s detail to its on... prop', async () => {
    await page.click('#recolor');
    await page.waitForFunction(() => document.querySelector('bim-viewer-3d').selectedColor === '#0088ff', undefined, { timeout: 5000 });
    await page.evaluate(() => document.querySelector('bim-viewer-3d').dispatchEvent(new CustomEvent('viewer.select', { detail: { selected: ['12', '34'] } })));
    await page.waitForSelector('#viewer[data-selected="12 34"]', { timeout: 5000 });
  });

  it('unmounted, releases its WebGL context; mounted again, starts a new viewer that loads', async () => {
    await page.click('#toggle');
    await page.waitForFunction(() => window.liveWebglContexts() === 0, undefined, { timeout: 5000 });
    await page.click('#toggle');
    assert.equal(await loaded(), 1, 'one model loaded');
    assert.deepEqual(await viewer(), { selectedColor: '#0088ff', loads: '1', selected: '', contexts: 1 });
    assert.deepEqual(pageErrors, []);
  });
});
