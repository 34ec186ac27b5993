import { assert, assertEqual, assertDeepEqual, assertAlmostEqual, assertRejects } from './support/assert';
import { loadHouse, removeViewer, pixelDifference } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('camera, transition and render settings', () => {
  let el: BimViewer3d;

  before(async () => {
    ({ el } = await loadHouse(480, 360));
  });
  after(() => removeViewer(el));
  afterEach(async () => {
    await el.transitionSettings({ duration: 0, easing: 'LinearNone' });
    await el.setRenderSettings({ renderMode: 'regular', pixelRatio: devicePixelRatio, depthBuffer: 'standard' });
    await el.viewpoint('home');
  });

  it('transitionSettings start at {duration: 0, easing: LinearNone} and animate viewpoint changes', async () => {
    assertDeepEqual(await el.transitionSettings(), { duration: 0, easing: 'LinearNone' });
    const home = await el.viewpoint();
    // Long enough that frames fall inside it even when a loaded machine draws a frame in 300 ms.
    await el.transitionSettings({ duration: 2000, easing: 'QuadraticInOut' });
    const started = performance.now();
    const arriving = el.viewpoint('top');
    // Sample the camera every frame until it arrives: some frame shows it on the way.
    const core = (el as unknown as { core: { getViewpoint(): typeof home } }).core;
    const samples: number[] = [];
    let arrived = false;
    void arriving.then(() => (arrived = true));
    while (!arrived) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      samples.push(core.getViewpoint().direction.z);
    }
    const took = performance.now() - started;
    const top = await el.viewpoint();
    assert(took >= 1900, `the move took ${Math.round(took)} ms`);
    assertAlmostEqual(top.direction.z, -1, 1e-6, 'arrived looking down');
    assert(samples.some((z) => z < home.direction.z - 0.01 && z > -0.999), `on the way: direction z per frame ${samples.map((z) => z.toFixed(3))}`);
    await assertRejects(el.transitionSettings({ easing: 'Wobbly' }), /unknown easing "Wobbly"/);
    await assertRejects(el.transitionSettings({ duration: -5 }), /duration/);
  });

  it('animates lookAt and lookAtBoundingBox too', async () => {
    await el.transitionSettings({ duration: 300, easing: 'CubicOut' });
    const started = performance.now();
    await el.lookAtBoundingBox({ min: { x: 0, y: 0, z: 0 }, max: { x: 1, y: 1, z: 1 } }, 'front');
    assert(performance.now() - started >= 250, 'lookAtBoundingBox is animated');
    const ids = await el.each();
    const again = performance.now();
    await el.lookAt(ids[0], 'top');
    assert(performance.now() - again >= 250, 'lookAt is animated');
    assertAlmostEqual((await el.viewpoint()).direction.z, -1, 1e-6);
  });

  it('camera settings: fov, near and far', async () => {
    const defaults = await el.getCameraSettings();
    assertEqual(defaults.fov, 60);
    assert(defaults.far >= 2000, `far plane at least 2 km: ${defaults.far}`);
    await el.setCameraSettings({ fov: 40, near: 0.5, far: 500 });
    assertDeepEqual(await el.getCameraSettings(), { fov: 40, near: 0.5, far: 500 });
    assertEqual(((await el.viewpoint()) as { fov: number }).fov, 40);
    assertEqual(el.fieldOfView, 40, 'the fieldOfView option follows');
    await assertRejects(el.setCameraSettings({ near: 10, far: 5 }), /near must be less than far/);
    await assertRejects(el.setCameraSettings({ fov: -1 }), /fov must be a positive number/);
    await el.setCameraSettings({ fov: 60, near: 0.05, far: 2000 });
  });

  it('render settings: pixel ratio, logarithmic depth and incremental mode', async () => {
    const defaults = await el.getRenderSettings();
    assertDeepEqual(defaults, { renderMode: 'regular', pixelRatio: Math.min(devicePixelRatio, 2), depthBuffer: 'standard', shading: 'default' });
    const standard = await el.screenshot();
    await el.setRenderSettings({ pixelRatio: 0.5 });
    const small = new Image();
    small.src = await el.screenshot();
    await small.decode();
    assertEqual(small.width, 240, 'half the pixels across');
    await el.setRenderSettings({ pixelRatio: devicePixelRatio, depthBuffer: 'logarithmic' });
    assertEqual((await el.getRenderSettings()).depthBuffer, 'logarithmic');
    const logarithmic = await el.screenshot();
    const difference = await pixelDifference(standard, logarithmic);
    assert(difference < 0.02, `the logarithmic depth buffer draws the same scene (difference ${difference})`);
    await el.setRenderSettings({ renderMode: 'incremental' });
    const renderer = (el as unknown as { core: { renderer: { getPixelRatio(): number } } }).core.renderer;
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: 240, clientY: 180, bubbles: true, cancelable: true }));
    await frames();
    assert(renderer.getPixelRatio() < devicePixelRatio, 'coarse frames while moving');
    await sleep(400);
    await frames();
    assertEqual(renderer.getPixelRatio(), devicePixelRatio, 'a full frame once the camera rests');
    await assertRejects(el.setRenderSettings({ renderMode: 'fast' as never }), /renderMode/);
  });
});
