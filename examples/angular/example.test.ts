// The Angular example in real Chromium: the shared scenario against a real platform
// (examples/shared/example-scenario.ts), on the app as `ng build` makes it; then the
// package's workers, wasm and schema files that angular.json's assets copy beside the
// app's chunks (the platform's processed models need none of them: an IFC file does).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright';
import { sampleFile } from '../../samples/files.js';
import { EXAMPLES, buildExample } from '../../scripts/example.mjs';
import { CHROMIUM_FLAGS, findBrowser } from '../../scripts/find-browser.mjs';
import { ROOT } from '../../scripts/stale-build.mjs';
import { describeExample } from '../shared/example-scenario.js';
import { serveApp } from '../shared/serve.mjs';

// The functions given to page.evaluate run in the page; this file is compiled with node's types.
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

describeExample({ name: 'Angular', clientId: 'example-angular', build: () => buildExample('angular') });

describe('the Angular build with the package\'s assets beside its chunks', { timeout: 3 * 60_000 }, () => {
  let served: { url: string; close: () => Promise<void> } | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    // Built by the scenario above; nothing here asks the platform anything.
    served = await serveApp({ root: path.join(ROOT, EXAMPLES.angular.dist), platform: 'http://127.0.0.1:9' });
    browser = await chromium.launch({ executablePath: await findBrowser(), headless: true, args: CHROMIUM_FLAGS });
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.route('**/house.ifc', (route) => route.fulfill({ path: sampleFile('house').ifc }));
    await page.goto(served.url);
    await page.waitForSelector('#sign-in');
  });

  after(async () => {
    await browser?.close();
    await served?.close();
  });

  it('opens an IFC file in 3D and 2D: the IFC and plan workers, web-ifc\'s wasm and its schema come from the app\'s own folder', async () => {
    const loaded = await page.evaluate(async () => {
      const [viewer3d, viewer2d] = ['bim-viewer-3d', 'bim-viewer-2d'].map((tag) => document.body.appendChild(document.createElement(tag)));
      const models = await viewer3d.loadUrl('/house.ifc');
      const plans = await viewer2d.loadUrl('/house.ifc');
      const products = await viewer3d.getProducts();
      return { models: models.length, plans: plans.length, walls: products.filter((p: { type: string }) => p.type === 'IfcWall').length, storeys: viewer2d.getStoreys().length };
    });
    assert.equal(loaded.models, 1);
    assert.equal(loaded.plans, 1);
    assert.ok(loaded.walls > 0, `${loaded.walls} walls`);
    assert.ok(loaded.storeys > 0, `${loaded.storeys} storeys`);
    assert.deepEqual(pageErrors, []);
  });
});
