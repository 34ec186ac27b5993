import { assert, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelDifference } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

interface CoreLike {
  renderer: { getContext(): WebGLRenderingContext };
}

// Load/unload cycles (heap, worker and GPU memory) are in long-sessions.test.ts.

describe('robustness', () => {
  let el: BimViewer3d;
  afterEach(() => removeViewer(el));

  it('comes back after the WebGL context is lost and restored', async () => {
    el = await createViewer(400, 300);
    await el.loadUrl(MODELS.house);
    await el.select((await el.each()).slice(0, 5));
    const before = await el.screenshot();
    const core = (el as unknown as { core: CoreLike }).core;
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const lose = core.renderer.getContext().getExtension('WEBGL_lose_context')!;
    const lost = new Promise((resolve) => canvas.addEventListener('webglcontextlost', resolve, { once: true }));
    lose.loseContext();
    await lost;
    await new Promise((resolve) => setTimeout(resolve, 100)); // restoring inside the lost event is ignored
    const restored = new Promise((resolve) => canvas.addEventListener('webglcontextrestored', resolve, { once: true }));
    lose.restoreContext();
    await restored;
    const after = await el.screenshot(); // waits until the geometry is streamed again
    const difference = await pixelDifference(before, after);
    assert(difference < 0.001, `the scene, selection included, is back (difference ${difference})`);
    assertEqual((await el.eachSelected()).length, 5, 'the selection survived');
  });
});
