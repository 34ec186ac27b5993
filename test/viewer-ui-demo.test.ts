// demo/widget.html: the three viewers wired together through markup only (data-viewer +
// data-ui + data-viewer2d), served by the demo backend with fresh tokens. The page
// includes only jQuery, viewer3d.js and viewer2d.js; the widget comes by itself.
import { assert, assertEqual } from './support/assert';
import { SAMPLES, truthOf } from './support/samples';
import { inDemoFrame } from './support/demo-page';

/* eslint-disable @typescript-eslint/no-explicit-any */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(condition: () => boolean | Promise<boolean>, what: string, timeout = 90_000) {
  const start = performance.now();
  while (!(await condition())) {
    if (performance.now() - start > timeout) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await sleep(100);
  }
}

describe('demo: the widget page', function () {
  it('/demo/widget.html starts 3D, 2D and the widget from markup, from the scene and plans its token URLs list, and keeps 2D and 3D in step', async () => {
    await inDemoFrame('/demo/widget.html?project=demo', 760, async (iframe) => {
      const doc = () => iframe.contentDocument!;
      await until(() => !!doc()?.querySelector('#viewer bim-viewer-ui'), 'the widget in #viewer');
      const ui = doc().querySelector('#viewer bim-viewer-ui') as any;
      const viewer3d = doc().querySelector('#viewer bim-viewer-3d') as any;
      const viewer2d = doc().querySelector('#plan bim-viewer-2d') as any;
      assert(viewer3d && viewer2d, 'both viewers made from markup');
      assertEqual(ui.enableKeyboard, true);
      assertEqual(ui.enableContextMenu, true);
      assertEqual(ui.viewer2dId, 'plan');
      assertEqual(ui.enableViewer2dIntegration, true);
      assertEqual(ui.showViewer2dLockedNavigationToggle, true);
      assert(Array.from(doc().querySelectorAll<HTMLScriptElement>('script[src]')).some((s) => s.src.endsWith('/dist/viewer.js')), 'viewer.js loaded by the 3D bundle');
      await until(async () => (await viewer3d.modelInfo()).length > 0 && viewer2d.getStoreys({ all: true }).length > 0, 'both viewers loaded');
      // the token URLs' manifests list the house's scene and plans first: the viewers take them
      const fetched = iframe.contentWindow!.performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname);
      for (const file of ['/scenes/samples/house.scene', '/scenes/samples/house.plans']) assert(fetched.includes(file), `${file} loaded through the token URL`);
      // project demo is the sample house
      const truth = await truthOf(SAMPLES.house);
      await until(() => (doc().querySelector('#plan .bim-viewer-ui-storey-select select') as HTMLSelectElement | null)?.options.length === truth.storeys.length, 'the storey select filled');
      const upper = viewer2d.getStoreys({ all: true }).find((s: any) => s.name === truth.storeys[1].name);
      assert(upper && Math.abs(upper.elevation - truth.storeys[1].elevation) < 1e-6, `the storey ${truth.storeys[1].name}: ${JSON.stringify(upper)}`);
      await viewer3d.viewpoint({ type: 'perspective', location: { x: 3, y: -10, z: upper.elevation + 1.6 }, direction: { x: 0, y: 1, z: 0 }, up: { x: 0, y: 0, z: 1 } });
      await until(() => {
        const vp = viewer2d.getViewpoint();
        return Math.abs(vp.location.x - 3) < 0.05 && Math.abs(vp.location.y + 10) < 0.05 && vp.direction.y > 0.99;
      }, 'the 2D arrow at the 3D camera', 5000);
      await until(() => viewer2d.getStoreys({ all: true, visible: true }).map((s: any) => s.id).join() === upper.id, `${truth.storeys[1].name} shown`, 5000);
      const toggle = ui.shadowRoot.querySelector('.lock-toggle') as HTMLButtonElement;
      assert(!toggle.hidden, 'the lock toggle is shown');
      toggle.click();
      assertEqual(ui.uiState.lockedNavigation, true, 'the toggle locks 2D navigation');
      assertEqual(toggle.getAttribute('aria-pressed'), 'true');
    });
  });
});
