// The built 2D script-tag bundle (dist/viewer2d.js, from `npm run build`) in a page the way
// existing pages use it: jQuery 1.12 as a global, a data-viewer2d="svg" element with a 2D
// token URL, the `platform` loader (also through an alias) and the bundle served from
// another origin. This file imports nothing from src/: the bundle brings it all.
import jq1 from 'jquery1';
import { assert, assertEqual } from './support/assert';
import { addScript, inFrame, otherOrigin, sleep, waitFor } from './support/page';
import { SAMPLES, truthOf } from './support/samples';

/* eslint-disable @typescript-eslint/no-explicit-any */
const win = window as any;
const BUNDLE = '/dist/viewer2d.js';

async function tokenUrl(project: string): Promise<string> {
  const res = await fetch(`/v2/projects/${project}/viewer2d/token`, { method: 'POST' });
  return ((await res.json()) as { url: string }).url;
}

describe('dist/viewer2d.js (script-tag bundle)', function () {
  let host: HTMLDivElement;
  const loads: Array<{ self: unknown; modelId: unknown }> = [];
  let callbackCalls = 0;

  before(async () => {
    const head = await fetch(BUNDLE, { method: 'HEAD' });
    if (head.status !== 200) throw new Error(`${BUNDLE} is missing (HTTP ${head.status}): run \`npm run build\` before the tests`);
    assert(!customElements.get('bim-viewer-2d'), 'nothing defined <bim-viewer-2d> before the bundle');
    win.jQuery = win.$ = jq1;
    host = document.createElement('div');
    host.setAttribute('data-viewer2d', 'svg');
    host.setAttribute('data-url', await tokenUrl('house'));
    host.setAttribute('data-show-viewpoint', 'false');
    host.style.cssText = 'width:400px;height:300px';
    document.body.append(host);
    jq1(host).bind('viewer2d.load', function (this: unknown, _event: unknown, modelId: unknown) {
      loads.push({ self: this, modelId });
    });
    await addScript(BUNDLE);
  });

  it('defines platform (with the 2D functions) and $.fn.viewer2d on the page\'s jQuery; registers <bim-viewer-2d>', () => {
    for (const name of ['load', 'setOnLoadCallback', 'loadViewer2d', 'setOnViewer2dLoadCallback']) {
      assertEqual(typeof win.platform[name], 'function', `platform.${name}`);
    }
    assertEqual(typeof jq1.fn.viewer2d, 'function');
    assert(customElements.get('bim-viewer-2d'));
  });

  it('starts the data-viewer2d="svg" element: options from data attributes, data-url loaded (plan worker and wasm beside the bundle)', async () => {
    const element = await waitFor(() => host.querySelector('bim-viewer-2d') as any, 'the element', 5_000);
    assertEqual(element.showViewpoint, false);
    await waitFor(() => loads.length > 0, 'viewer2d.load');
    assertEqual(loads[0].self, host);
    assertEqual(loads[0].modelId, 'house');
    const truth = await truthOf(SAMPLES.house);
    const storeys = jq1(host).viewer2d('getStoreys');
    assertEqual(storeys.length, truth.storeys.length);
    assertEqual(host.querySelector('bim-viewer-2d')!.shadowRoot!.querySelectorAll('g.storey').length, 0, 'nothing shown until a storey is shown');
    jq1(host).viewer2d('showStorey', storeys[1].id);
    assertEqual(jq1(host).viewer2d('getSpaces', { visible: true }).length, truth.spaces.filter((s) => s.storey === truth.storeys[1].id).length);
  });

  it('setOnViewer2dLoadCallback before loadViewer2d: the last callback runs once, through an alias and detached', async () => {
    win.bimsync = win.platform;
    const { bimsync } = win;
    const calls: string[] = [];
    bimsync.setOnViewer2dLoadCallback(() => calls.push('first'));
    bimsync.setOnViewer2dLoadCallback(() => { calls.push('second'); callbackCalls++; });
    const load = bimsync.loadViewer2d;
    const done = load();
    assertEqual(calls.length, 0, 'the callback waits for loading');
    await done;
    assertEqual(calls.join(','), 'second');
  });

  it('setOnViewer2dLoadCallback after loading runs at once', () => {
    let ran = 0;
    win.platform.setOnViewer2dLoadCallback(() => { ran++; });
    assertEqual(ran, 1);
    assertEqual(callbackCalls, 1);
  });

  it('works when the bundle is served from another origin (plan worker and wasm found beside it)', async () => {
    const origin = otherOrigin();
    const token = await tokenUrl('house-ifc2x3');
    await inFrame(`
      <div id="v" data-viewer2d="svg" data-url="${token}" style="width:400px;height:300px"></div>
      <script>
        var v = document.getElementById('v');
        v.addEventListener('viewer2d.load', function (e) { window.loaded = e.detail; });
        v.addEventListener('viewer2d.loadfail', function (e) { window.failed = e.detail; });
      </script>
      <script src="${origin}${BUNDLE}"></script>`, async (frame) => {
      const outcome = await waitFor(() => frame.loaded || frame.failed, 'viewer2d.load in the frame');
      assert(!frame.failed, `the viewer failed: ${JSON.stringify(frame.failed)}`);
      assertEqual(outcome.modelId, 'house-ifc2x3');
      assertEqual(typeof frame.platform?.loadViewer2d, 'function');
    });
  });
});
