import { Vector3, type Object3D, type Camera } from 'three';
import { sendKeys, sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertEqual, assertDeepEqual, assertRejects, assertAlmostEqual } from './support/assert';
import { expectScreenshot } from './support/screenshot';
import { MODELS, loadHouse, removeViewer, record, pixelDifference } from './support/viewer';
import { objectIdOf, truthOf, type Truth } from './support/samples';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { ClippingPlane } from '../src/core/types';

const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('clipping planes on the sample house', () => {
  let el: BimViewer3d;
  let truth: Truth;
  let events: { planes: ClippingPlane[] }[];
  /** A horizontal plane through the ground floor's windows (sills 0.9 m, heads 2.3 m), cutting away what is above. */
  let groundCut: ClippingPlane;
  /** Its location in the middle of the house (the widget's place). */
  let middleCut: ClippingPlane;
  const core = () => (el as unknown as { core: { scene: Object3D; rig: { camera: Camera } } }).core;

  before(async () => {
    ({ el } = await loadHouse(480, 360));
    truth = await truthOf(MODELS.house);
    const z = truth.storeys[0].elevation + 1.5;
    groundCut = { location: { x: 0, y: 0, z }, direction: { x: 0, y: 0, z: 1 } };
    const { min, max } = truth.box!;
    middleCut = { location: { x: (min[0] + max[0]) / 2, y: (min[1] + max[1]) / 2, z }, direction: { x: 0, y: 0, z: 1 } };
  });
  after(() => removeViewer(el));
  beforeEach(async () => {
    await el.clippingPlanes([]);
    el.enableClippingPlaneWidget = false;
    await el.updateComplete;
    await el.viewpoint('home');
    events = record(el, 'viewer.clippingplanes');
  });
  afterEach(() => resetMouse());

  it('sets and reads planes, fires viewer.clippingplanes, and cuts the model with solid caps', async () => {
    const before = await el.screenshot();
    const planes = [groundCut];
    assertDeepEqual(await el.clippingPlanes(planes), planes);
    assertDeepEqual(await el.clippingPlanes(), planes);
    assertDeepEqual(await el.clippingPlanes(null), planes);
    assertEqual(events.length, 1);
    assertDeepEqual(events[0].planes, planes);
    const cut = await el.screenshot();
    assert((await pixelDifference(before, cut)) > 0.05, 'the upper floors and the roof are cut away');
    await expectScreenshot('viewer3d/house-clipped-top', cut);
    await el.clippingPlanes([]);
    assert((await pixelDifference(before, await el.screenshot())) < 0.001, 'removing the planes restores the picture');
  });

  it('accepts six planes and rejects a seventh with a clear error', async () => {
    const six = Array.from({ length: 6 }, (_, i) => ({ location: { x: 0, y: 0, z: 10 + i }, direction: { x: 0, y: 0, z: 1 } }));
    assertEqual((await el.clippingPlanes(six)).length, 6);
    const errors = record<{ type: string }>(el, 'viewer.error');
    await assertRejects(el.clippingPlanes([...six, six[0]]), /at most 6 planes/);
    assertEqual(errors[0].type, 'argument');
    assertEqual((await el.clippingPlanes()).length, 6, 'the six planes stay');
    await assertRejects(el.clippingPlanes([{ location: { x: 0, y: 0, z: 0 } }] as never), /plane 0 must be/);
  });

  it('section makes top and bottom planes from the objects\' bounding box', async () => {
    // A wall of Level 1: from the storey's elevation (3 m) to the slab above (5.8 m).
    const wall = truth.products.find((p) => p.name === 'Wall Level 1 S')!;
    const id = objectIdOf(wall.id);
    const planes = await el.section(id, ['top', 'bottom']);
    assertEqual(planes.length, 2);
    assertAlmostEqual(planes[0].location.z, wall.box!.max[2], 1e-5);
    assertDeepEqual(planes[0].direction, { x: 0, y: 0, z: 1 });
    assertAlmostEqual(planes[1].location.z, wall.box!.min[2], 1e-5);
    assertDeepEqual(planes[1].direction, { x: 0, y: 0, z: -1 });
    assertEqual((await el.section(id, ['top'])).length, 3, 'section adds to the planes there are');
    await assertRejects(el.section(id, ['sideways'] as never), /top.*bottom/);
  });

  it('Shift+click selects a plane and Delete removes it', async () => {
    const planes = [groundCut, { location: { x: 0, y: 0, z: -50 }, direction: { x: 0, y: 0, z: -1 } }];
    await el.clippingPlanes(planes);
    await el.viewpoint('top');
    await frames();
    const rect = el.getBoundingClientRect();
    const centre: [number, number] = [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)];
    await sendKeys({ down: 'Shift' });
    await sendMouse({ type: 'click', position: centre });
    await sendKeys({ up: 'Shift' });
    // Looking down, the nearest plane under the cursor is the one through the ground floor.
    await sendKeys({ press: 'Delete' });
    await frames();
    const left = await el.clippingPlanes();
    assertDeepEqual(left, [planes[1]], 'the upper plane was selected and deleted');
    assertEqual(events[events.length - 1].planes.length, 1, 'viewer.clippingplanes reported it');
  });

  it('the widget shows on the selected plane only when enabled, and dragging its arrow moves the plane', async () => {
    const widget = () => core().scene.getObjectByName('clipping-widget');
    el.enableClippingPlaneWidget = true;
    await el.updateComplete;
    await frames();
    assert(!widget(), 'no widget without a plane');
    el.enableClippingPlaneWidget = false;
    await el.updateComplete;
    await el.clippingPlanes([middleCut]);
    assert(!widget(), 'no widget while disabled');
    el.enableClippingPlaneWidget = true;
    await el.updateComplete;
    await frames();
    assert(widget(), 'the widget appears on the plane');
    // The arrow handle of TransformControls points along the plane normal (+z here):
    // grab it a little above the plane's location on screen.
    const camera = core().rig.camera;
    const rect = el.getBoundingClientRect();
    const toScreen = (p: Vector3): [number, number] => {
      const v = p.clone().project(camera);
      return [Math.round(rect.left + ((v.x + 1) / 2) * rect.width), Math.round(rect.top + ((1 - v.y) / 2) * rect.height)];
    };
    const origin = new Vector3();
    widget()!.children[0].getWorldPosition(origin);
    const start = toScreen(origin);
    const up = toScreen(origin.clone().add(new Vector3(0, 0, 1)));
    const along = [up[0] - start[0], up[1] - start[1]];
    const length = Math.hypot(along[0], along[1]);
    // Screen direction of +z; the arrow is about 60 px long near its base.
    const grab: [number, number] = [Math.round(start[0] + (along[0] / length) * 40), Math.round(start[1] + (along[1] / length) * 40)];
    await sendMouse({ type: 'move', position: grab });
    await sendMouse({ type: 'down' });
    for (let i = 1; i <= 5; i++) await sendMouse({ type: 'move', position: [grab[0], grab[1] - i * 8] });
    await sendMouse({ type: 'up' });
    const [moved] = await el.clippingPlanes();
    assert(moved.location.z > middleCut.location.z + 0.1, `dragging the arrow up moved the plane up: z ${moved.location.z}`);
    assertDeepEqual(moved.direction, { x: 0, y: 0, z: 1 }, 'moving keeps the direction');
    assert(events.length >= 2, 'viewer.clippingplanes fires while the plane moves');
    // R switches the widget between moving and turning the plane.
    const modes = () => (core() as unknown as { sectioning: { widget: { mode: string } } }).sectioning.widget.mode;
    assertEqual(modes(), 'translate');
    el.shadowRoot!.querySelector('canvas')!.focus();
    await sendKeys({ press: 'r' });
    assertEqual(modes(), 'rotate', 'R turns the widget into a rotation gizmo');
    await sendKeys({ press: 'r' });
    assertEqual(modes(), 'translate');
  });

  it('clippingPlaneWidgetViewport draws the widget in its own rectangle', async () => {
    el.enableClippingPlaneWidget = true;
    await el.updateComplete;
    await el.clippingPlanes([middleCut]);
    const before = await el.screenshot();
    await el.clippingPlaneWidgetViewport({ x: 10, y: 10, width: 120, height: 120 });
    const overlay = el.shadowRoot!.querySelector('.clipping-widget-viewport') as HTMLElement;
    assert(overlay, 'an input area for the widget');
    assertEqual(overlay.style.width, '120px');
    assert((await pixelDifference(before, await el.screenshot())) > 0.001, 'the widget now draws in the corner');
    await assertRejects(el.clippingPlaneWidgetViewport({ x: 0, y: 0, width: -1, height: 5 }), /positive size/);
  });
});
