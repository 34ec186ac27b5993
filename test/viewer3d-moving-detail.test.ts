import { Vector3, type PerspectiveCamera, type WebGLRenderer } from 'three';
import { assert, assertEqual } from './support/assert';
import { loadHouse, removeViewer, MODELS } from './support/viewer';
import { truthOf, type Truth } from './support/samples';
import { corners, project } from './support/screen';
import { sleep } from './support/page';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { SceneModel } from '../src/core/scene/scene-model';
import type { Viewpoint } from '../src/core/types';

interface Core {
  render(): void;
  renderInfo(): { triangles: number };
  renderer: WebGLRenderer;
  rig: { camera: PerspectiveCamera; place(position: Vector3, direction: Vector3, up: Vector3, distance: number): void };
  models: SceneModel[];
}

/** Global indices of the objects a batch leaves out in the frame just drawn (the pieces past its draw range). */
function leftOut(model: SceneModel): Set<number> {
  const out = new Set<number>();
  for (const batch of model.batches) {
    const end = batch.geometry.drawRange.count;
    for (let k = 0; k < batch.sizes.length; k++) if (batch.ranges[k * 3 + 1] >= end) out.add(batch.ranges[k * 3]);
  }
  return out;
}

/** The diagonal in pixels of a truth box's projection (the screen box around its eight corners). */
function pixels(el: Element, viewpoint: Viewpoint, box: { min: number[]; max: number[] }): number {
  const points = corners(box).map((p) => project(el, viewpoint, p));
  const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
  return Math.hypot(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
}

describe('while the camera moves, objects too small to see are left out', () => {
  let el: BimViewer3d;
  let truth: Truth;
  const core = () => (el as unknown as { core: Core }).core;

  before(async () => {
    ({ el } = await loadHouse(640, 480));
    truth = await truthOf(MODELS.house);
  });
  after(() => removeViewer(el));

  /** Moves the camera `back` metres backwards and draws one frame at once, as a navigation frame does. */
  function moveAndDraw(back: number) {
    const { camera } = core().rig;
    const direction = camera.getWorldDirection(new Vector3());
    core().rig.place(camera.position.clone().addScaledVector(direction, -back), direction, camera.up.clone(), 20 + back);
    core().render();
  }

  it('a moving frame draws fewer triangles, never an object of 4 pixels or more; the full frame follows at rest', async () => {
    await el.viewpoint('home');
    const all = core().renderInfo().triangles;
    moveAndDraw(400);
    const moving = core().renderer.info.render.triangles;
    const out = leftOut(core().models[0]);
    const viewpoint = await el.viewpoint();
    assert(moving < all * 0.9 && moving > 0, `a moving frame from afar draws less: ${moving} of ${all} triangles`);
    assert(out.size > 0, 'objects were left out');
    const model = core().models[0];
    for (const index of out) {
      const product = truth.products.find((p) => p.id === Number(model.objectIdAt(index)))!;
      const size = pixels(el, viewpoint, product.box!);
      assert(size < 4.05, `${product.name} (${product.type}) left out at ${size.toFixed(1)} px`);
    }
    // Nothing moves now: the full frame comes by itself.
    await sleep(400);
    assertEqual(core().renderer.info.render.triangles, all, 'the frame at rest draws everything');
    assertEqual(leftOut(model).size, 0, 'no draw range is cut at rest');
  });

  it('a moving frame slower than the rest gets no full frame before the next move: the rest counts from the frame finished', async () => {
    await el.viewpoint('home');
    await sleep(400);
    const model = core().models[0];
    const frames: boolean[] = []; // per frame drawn: complete?
    const own = core().render;
    core().render = function (this: Core, ...args: unknown[]) {
      (own as (...a: unknown[]) => void).apply(this, args);
      frames.push(leftOut(model).size === 0);
    } as Core['render'];
    try {
      moveAndDraw(400);
      // A frame that keeps the page busy for twice the rest (as a big model's frame does on
      // software GL, when the page waits for its pixels), then the page is free for a moment.
      const until = performance.now() + 300;
      while (performance.now() < until) { /* the frame */ }
      await sleep(60);
      assertEqual(frames.join(), 'false', 'only the moving frame: the rest starts once the frame is finished');
      moveAndDraw(10);
      await sleep(400);
      assertEqual(frames.join(), 'false,false,true', 'the full frame once the camera rests');
    } finally {
      core().render = own;
    }
  });

  it('near the building nothing is left out, and a screenshot always draws everything', async () => {
    await el.viewpoint('home');
    const all = core().renderInfo().triangles;
    moveAndDraw(-2);
    assertEqual(core().renderer.info.render.triangles, all, 'every object of the house shows larger than 4 pixels from its home view');
    moveAndDraw(400);
    const shot = await el.screenshot();
    assert(shot.startsWith('data:image/png'), 'a screenshot');
    assertEqual(core().renderer.info.render.triangles, all, 'the screenshot drew everything');
    assertEqual(leftOut(core().models[0]).size, 0);
  });
});
