// The built script-tag bundle (dist/viewer3d.js, from `npm run build`) in a page the way
// existing pages use it: jQuery 1.12 as a global, then the bundle, a data-API element,
// the `platform` loader global (also through an alias) and the bundle served from
// another origin. This file imports nothing from src/: the bundle brings it all.
import jq1 from 'jquery1';
import jq4 from 'jquery';
import { assert, assertEqual } from './support/assert';
import { addScript, inFrame, otherOrigin, sleep, waitFor } from './support/page';
import { SAMPLES, objectIdOf, sceneOf, truthOf } from './support/samples';

/* eslint-disable @typescript-eslint/no-explicit-any */
const win = window as any;
const MODEL = SAMPLES.cabin;
const BUNDLE = '/dist/viewer3d.js';

/** Collects console.error messages while `run` runs (and `settle` ms after). */
async function consoleErrors(run: () => Promise<unknown>, settle = 100): Promise<string[]> {
  const seen: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    seen.push(args.map(String).join(' '));
  };
  try {
    await run();
    await sleep(settle);
  } finally {
    console.error = original;
  }
  return seen;
}


describe('dist/viewer3d.js (script-tag bundle)', function () {
  let host: HTMLDivElement;
  const loads: Array<{ self: unknown; args: number }> = [];

  before(async () => {
    const head = await fetch(BUNDLE, { method: 'HEAD' });
    if (head.status !== 200) throw new Error(`${BUNDLE} is missing (HTTP ${head.status}): run \`npm run build\` before the tests`);
    assert(!customElements.get('bim-viewer-3d'), 'nothing defined <bim-viewer-3d> before the bundle');

    // A page: jQuery 1.12 as a global, a data-API element, then the bundle.
    win.jQuery = win.$ = jq1;
    host = document.createElement('div');
    host.id = 'viewer';
    host.setAttribute('data-viewer', 'webgl');
    host.setAttribute('data-url', MODEL);
    host.setAttribute('data-field-of-view', '75');
    host.setAttribute('data-enable-touch', 'true');
    host.setAttribute('data-translucent-opacity', '0.2');
    host.style.cssText = 'width:400px;height:300px';
    document.body.append(host);
    jq1(host).bind('viewer.load', function (this: unknown) {
      loads.push({ self: this, args: arguments.length });
    });
    await addScript(BUNDLE);
  });

  it('defines the platform global and $.fn.viewer on the page\'s jQuery', () => {
    assert(win.platform, 'window.platform');
    for (const name of ['load', 'setOnLoadCallback', 'loadViewer2d', 'setOnViewer2dLoadCallback']) {
      assertEqual(typeof win.platform[name], 'function', `platform.${name}`);
    }
    assertEqual(typeof jq1.fn.viewer, 'function', '$.fn.viewer on jQuery 1.12');
    assert(customElements.get('bim-viewer-3d'), 'the bundle registered <bim-viewer-3d>');
  });

  it('starts the data-viewer="webgl" element: options from data attributes, data-url loaded, viewer.load to jQuery handlers', async () => {
    const element = await waitFor(() => host.querySelector('bim-viewer-3d') as any, 'the viewer element', 5_000);
    assertEqual(element.fieldOfView, 75);
    assertEqual(element.enableTouch, true);
    assertEqual(element.translucentOpacity, 0.2);
    await waitFor(() => loads.length > 0, 'viewer.load');
    assertEqual(loads.length, 1, 'viewer.load once');
    assertEqual(loads[0].self, host, 'handler this = the div');
    assertEqual(loads[0].args, 1, 'viewer.load handler gets (event)');
    const infos = await jq1(host).viewer('modelInfo');
    assertEqual(infos.length, 1, 'one model loaded from data-url');
    const products: { objectId: string }[] = await jq1(host).viewer('getProducts');
    const ids = new Set(products.map((p) => p.objectId));
    const drawn = (await truthOf(MODEL)).products.filter((p) => p.box).map((p) => objectIdOf(p.id));
    assert(drawn.length > 0 && drawn.every((id) => ids.has(id)), `the bundled worker answered product queries: ${products.length} products`);
  });

  it('setOnLoadCallback before load: the last callback runs when loading finished, through an alias; the widget bundle loads from beside the 3D one; an unknown module is a console error, not a failure', async () => {
    win.bimsync = win.platform;
    const { bimsync } = win;
    const calls: string[] = [];
    bimsync.setOnLoadCallback(() => calls.push('first'));
    bimsync.setOnLoadCallback(() => calls.push('second')); // replaces the first
    const load = bimsync.load; // detached: must not rely on `this`
    const errors = await consoleErrors(async () => {
      const done = load(['viewer-ui', 'no-such-module']);
      assertEqual(calls.length, 0, 'the callback waits for loading');
      await done;
    });
    assertEqual(calls.join(','), 'second', 'only the last callback ran, once');
    assertEqual(typeof jq1.fn.viewerUI, 'function', 'viewer.js (the widget) loaded from beside viewer3d.js');
    assert(errors.some((e) => e.includes('unknown module "no-such-module"')),
      `a clear console error about the unknown module: ${JSON.stringify(errors)}`);
    assert(!errors.some((e) => e.includes('viewer.js')), `no error about the widget bundle: ${JSON.stringify(errors)}`);
  });

  it('setOnLoadCallback after load runs at once', () => {
    let ran = 0;
    win.bimsync.setOnLoadCallback(() => { ran++; });
    assertEqual(ran, 1, 'ran synchronously');
    win.platform.setOnLoadCallback(() => { ran++; });
    assertEqual(ran, 2, 'through the original name too');
  });

  it('installs the plugin on a jQuery that arrives after the bundle, at platform.load()', async () => {
    win.jQuery = win.$ = jq4;
    try {
      assertEqual(typeof jq4.fn.viewer, 'undefined', 'not yet on jQuery 4');
      await win.platform.load();
      assertEqual(typeof jq4.fn.viewer, 'function', '$.fn.viewer on jQuery 4 too');
      let seen = 0;
      jq4(host).on('viewer.error', () => { seen++; });
      const first: unknown[] = [];
      jq1(host).on('viewer.error', (_e: unknown, type: unknown) => { first.push(type); });
      jq4(host).viewer('noSuchMethod');
      assertEqual(seen, 1, 'jQuery 4 handler once');
      assertEqual(first.join(), 'method', 'jQuery 1.12 handler once, type method');
    } finally {
      win.jQuery = win.$ = jq1;
    }
  });

  it('loadViewer2d loads dist/viewer2d.js from beside the 3D bundle, then calls the 2D callback', async () => {
    let called = 0;
    win.platform.setOnViewer2dLoadCallback(() => { called++; });
    const errors = await consoleErrors(() => win.platform.loadViewer2d());
    assertEqual(called, 1, 'the 2D callback ran once');
    assertEqual(errors.length, 0, `no console errors: ${JSON.stringify(errors)}`);
    assertEqual(typeof jq1.fn.viewer2d, 'function', '$.fn.viewer2d on the page\'s jQuery');
    assert(customElements.get('bim-viewer-2d'), 'the 2D bundle registered <bim-viewer-2d>');
    const script = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).find((s) => s.src.endsWith('/dist/viewer2d.js'));
    assert(script, 'the 2D bundle was loaded beside the 3D one');
  });

  it('works when the bundle is served from another origin (worker and wasm found beside it)', async () => {
    const origin = otherOrigin();
    assert(origin !== location.origin, 'a second origin');
    // srcdoc documents share this page's origin; the bundle comes from the other origin.
    await inFrame(`
      <div id="v" data-viewer="webgl" data-url="${location.origin}${MODEL}" style="width:400px;height:300px"></div>
      <script>
        var v = document.getElementById('v');
        v.addEventListener('viewer.load', function (e) { window.loaded = e.detail; });
        v.addEventListener('viewer.error', function (e) { window.failed = e.detail; });
      </script>
      <script src="${origin}${BUNDLE}"></script>`, async (frame) => {
      const outcome = await waitFor(() => frame.loaded || frame.failed, 'viewer.load in the frame');
      assert(!frame.failed, `the viewer failed: ${JSON.stringify(frame.failed)}`);
      assertEqual(outcome.modelIds.length, 1);
      assertEqual(typeof frame.platform?.load, 'function', 'platform in the frame');
      const script = frame.document.querySelector('script[src]') as HTMLScriptElement;
      assert(script.src.startsWith(origin), `the bundle came from ${script.src}`);
    });
  });

  it('data-engine-loading="lazy" on its tag: a scene loads and no worker starts, at evaluation or at load', async () => {
    await inFrame(`
      <div id="v" data-viewer="webgl" data-url="${location.origin}${sceneOf(MODEL)}" style="width:400px;height:300px"></div>
      <script>
        window.workers = 0;
        window.Worker = class extends Worker {
          constructor(url, options) { super(url, options); window.workers++; }
        };
        var v = document.getElementById('v');
        v.addEventListener('viewer.load', function (e) { window.loaded = e.detail; });
        v.addEventListener('viewer.error', function (e) { window.failed = e.detail; });
      </script>
      <script src="${BUNDLE}" data-engine-loading="lazy"></script>`, async (frame) => {
      const outcome = await waitFor(() => frame.loaded || frame.failed, 'viewer.load in the frame');
      assert(!frame.failed, `the viewer failed: ${JSON.stringify(frame.failed)}`);
      assertEqual(outcome.modelIds.length, 1, 'the scene is in');
      assertEqual(frame.workers, 0, 'no worker started');
    });
  });
});
