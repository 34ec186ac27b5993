// The 2D + 3D demo page (demo/plan.html) on a real file (BIM_MODELS) whose lowest storey
// has no spaces (Duplex's T/FDN): the page picks the first storey with spaces. The same
// page on the generated house: test/viewer2d-demo-server.test.ts.
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { BimViewer2d } from '../../src/elements/bim-viewer-2d';
import { assert, assertDeepEqual, assertEqual } from '../support/assert';

describe('demo: the 2D + 3D page', function () {
  it('/demo/plan.html loads Duplex in both viewers, picks Level 1, and the arrow drives the 3D camera', async () => {
    const iframe = document.createElement('iframe');
    iframe.style.cssText = 'position:fixed;left:0;top:0;width:1000px;height:700px;border:0';
    iframe.src = '/demo/plan.html?project=duplex-a-20110907';
    document.body.append(iframe);
    try {
      const frame = () => iframe.contentWindow as unknown as Window & { viewer2d?: BimViewer2d; viewer3d?: any; document: Document };
      const start = performance.now();
      while (!((frame().document?.getElementById('storey') as HTMLSelectElement | null)?.options.length)) {
        if (performance.now() - start > 90_000) throw new Error('the page did not fill its storey picker');
        await new Promise((r) => setTimeout(r, 100));
      }
      const picker = frame().document.getElementById('storey') as HTMLSelectElement;
      assertDeepEqual(Array.from(picker.options).map((o) => o.textContent), ['T/FDN (-1.25 m)', 'Level 1 (0.00 m)', 'Level 2 (3.10 m)', 'Roof (6.00 m)']);
      const viewer2d = frame().viewer2d!;
      const viewer3d = frame().viewer3d!;
      while ((await viewer3d.modelInfo()).length === 0) await new Promise((r) => setTimeout(r, 100));
      assertEqual(viewer2d.getStoreys({ visible: true }).map((s) => s.name).join(), 'Level 1');
      // What dragging the arrow does: the page moves the 3D camera there, at eye height.
      const change = { location: { x: 2, y: -15, z: 0 }, direction: { x: 1, y: 0, z: 0 }, rotation: 0 };
      viewer2d.dispatchEvent(new CustomEvent('viewer2d.viewpoint', { detail: { viewpoint: change }, bubbles: true, composed: true }));
      await new Promise((r) => setTimeout(r, 200));
      const vp = await viewer3d.viewpoint();
      assert(Math.abs(vp.location.x - 2) < 1e-3 && Math.abs(vp.location.y + 15) < 1e-3 && Math.abs(vp.location.z - 1.6) < 1e-3, `3D camera at the arrow: ${JSON.stringify(vp.location)}`);
    } finally {
      iframe.remove();
    }
  });
});
