// The React example in real Chromium: the shared scenario against a real platform
// (examples/shared/example-scenario.ts) on the built app; the app again under Vite's dev
// server, where React's development build runs StrictMode (each effect set up, cleaned up
// and set up again); then the wrapper itself on a small page (wrapper-check/): props reach
// the element as properties, events the on... props. The dev server serves the package as
// the scenario's build left it (dist/npm), which runs first.
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
import { ADMIN } from '../../server/test/harness.js';
import { COUNT_WEBGL, describeExample, freePort, startTestPlatform, type TestPlatform } from '../shared/example-scenario.js';

// The functions given to page.evaluate run in the page; this file is compiled with node's types.
declare const document: any, window: any; // eslint-disable-line @typescript-eslint/no-explicit-any

describeExample({ name: 'React', clientId: 'example-react', build: () => buildExample('react') });

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Counts the viewers' load events as they bubble to the document: a second load of one open would show. */
const COUNT_LOADS = `(() => {
  window.loads = { '3d': 0, '2d': 0 };
  document.addEventListener('viewer.load', () => window.loads['3d']++);
  document.addEventListener('viewer2d.load', () => window.loads['2d']++);
})();`;

describe('the React example under Vite\'s dev server (development build, StrictMode)', { timeout: 5 * 60_000 }, () => {
  let platform: TestPlatform | undefined;
  let vite: ViteDevServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let project: { id: string; name: string };
  const pageErrors: string[] = [];
  let tokenRequests = 0;

  before(async () => {
    const port = await freePort();
    platform = await startTestPlatform('example-react', 'React example', `http://127.0.0.1:${port}/`);
    ({ project } = platform);
    process.env.PLATFORM_URL = platform.server.url; // where vite.config.ts forwards the platform's paths
    vite = await createServer({ configFile: path.join(HERE, 'vite.config.ts'), logLevel: 'warn', server: { port } });
    await vite.listen();
    browser = await chromium.launch({ executablePath: await findBrowser(), headless: true, args: CHROMIUM_FLAGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
    await page.addInitScript(COUNT_WEBGL);
    await page.addInitScript(COUNT_LOADS);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => { if (new URL(request.url()).pathname === '/1.0/oauth/access_token') tokenRequests++; });
  });

  after(async () => {
    await browser?.close();
    await vite?.close();
    await platform?.stop();
  });

  it('trades the sign-in code once, though StrictMode runs the app\'s effects twice', async () => {
    await page.goto(vite!.resolvedUrls!.local[0]);
    await page.click('#sign-in');
    await page.fill('#email', ADMIN.email);
    await page.fill('#password', ADMIN.password);
    await page.click('button[value=allow]');
    await page.waitForSelector(`#projects button[data-project-id="${project.id}"]`);
    assert.equal(tokenRequests, 1);
  });

  it('loads each viewer once per open project, with one WebGL context, closed and opened again', async () => {
    for (const round of [1, 2]) {
      await page.click(`#projects button[data-project-id="${project.id}"]`);
      await page.waitForSelector('#viewer-status[data-state="loaded"]', { timeout: 120_000 });
      // Calls are queued behind any load already asked for: a second one would be counted by now.
      const models = await page.evaluate(async () => (await document.querySelector('bim-viewer-3d').modelInfo()).length);
      const seen = await page.evaluate(() => ({ ...window.loads, contexts: window.liveWebglContexts() }));
      assert.deepEqual({ models, ...seen }, { models: 1, '3d': round, '2d': round, contexts: 1 }, `open ${round}`);
      await page.click('#close-project');
      await page.waitForSelector('#projects');
    }
    assert.deepEqual(pageErrors, []);
  });
});

describe('the React wrapper in Chromium (development build, StrictMode)', { timeout: 3 * 60_000 }, () => {
  let vite: ViteDevServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    const model = sampleFile('house').ifc;
    vite = await createServer({
      configFile: false,
      root: path.join(HERE, 'wrapper-check'),
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
