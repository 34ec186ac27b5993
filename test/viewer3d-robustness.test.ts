import { assert, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelDifference } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

interface CoreLike {
  renderer: { getContext(): WebGLRenderingContext; info: { memory: { geometries: number; textures: number } } };
}

const heap = () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
const collect = async () => {
  for (let i = 0; i < 3; i++) {
    (globalThis as unknown as { gc(): void }).gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

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

  it('20 load/unload cycles return heap and GPU memory to the baseline', async () => {
    el = await createViewer(320, 240);
    const core = (el as unknown as { core: CoreLike }).core;
    const cycle = async () => {
      await el.loadUrl(MODELS.house);
      await el.screenshot();
      await el.unloadModel('house');
    };
    await cycle(); // warm-up: shaders, worker and wasm are made once
    await collect();
    const baseHeap = heap();
    const baseGpu = { ...core.renderer.info.memory };
    for (let i = 0; i < 20; i++) await cycle();
    await collect();
    const grown = (heap() - baseHeap) / 1e6;
    console.log(`heap after 20 cycles: ${grown.toFixed(2)} MB over the baseline; GPU ${JSON.stringify(core.renderer.info.memory)} vs ${JSON.stringify(baseGpu)}`);
    assert(grown < 5, `the heap grew ${grown.toFixed(2)} MB`);
    assertEqual(core.renderer.info.memory.geometries, baseGpu.geometries, 'no geometry left on the GPU');
    assertEqual(core.renderer.info.memory.textures, baseGpu.textures, 'no texture left on the GPU');
  });
});
