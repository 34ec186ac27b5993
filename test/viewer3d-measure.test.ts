import { Vector3 } from 'three';
import { sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertEqual, assertAlmostEqual, assertRejects } from './support/assert';
import { MODELS, loadHouse, removeViewer, pixelDifference } from './support/viewer';
import { objectIdOf, truthOf, type ProductTruth, type Truth } from './support/samples';
import { corners, project, screenPoint } from './support/screen';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Viewer3d } from '../src/core/viewer3d';
import type { Vec3 } from '../src/core/types';
import type { Point } from './support/input';

const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('measuring', () => {
  let el: BimViewer3d;
  let truth: Truth;
  interface CoreView {
    measure: Viewer3d['measure'];
    labels: Viewer3d['labels'];
    rig: Viewer3d['rig'];
    origin: Vector3;
    pickAt(x: number, y: number): { index: number; point: Vector3; triangle: Vector3[]; model: { objectIdAt(index: number): string } } | null;
  }
  const core = () => (el as unknown as { core: CoreView }).core;
  /** IFC coordinates of a point in viewer coordinates (measurements are in viewer coordinates). */
  const ifc = (p: Vector3) => p.clone().add(core().origin);

  /**
   * Parts of the sample house the home view shows: the south walls of Level 1 and Level 2
   * and points on their outer faces, mid-storey at grid lines between the windows (metres
   * from any vertex: no snapping); the roof and a point on its south slope.
   */
  let south: ProductTruth, southAbove: ProductTruth, roof: ProductTruth;
  let onSouth: Vec3, onSouthAbove: Vec3, onRoof: Vec3;

  before(async () => {
    ({ el } = await loadHouse(480, 360));
    truth = await truthOf(MODELS.house);
    const product = (name: string) => truth.products.find((p) => p.name === name)!;
    const grid = (tag: string) => truth.grid!.axes.find((a) => a.tag === tag)!.start;
    const midHeight = (p: ProductTruth) => (p.box!.min[2] + p.box!.max[2]) / 2;
    [south, southAbove, roof] = ['Wall Level 1 S', 'Wall Level 2 S', 'Roof'].map(product);
    onSouth = { x: grid('2')[0], y: south.box!.min[1], z: midHeight(south) };
    onSouthAbove = { x: grid('3')[0], y: southAbove.box!.min[1], z: midHeight(southAbove) };
    // Halfway up the slope: the ridge runs along x over the middle of the box.
    onRoof = { x: grid('3')[0], y: roof.box!.min[1] + (roof.box!.max[1] - roof.box!.min[1]) / 4, z: midHeight(roof) };
  });
  after(async () => {
    await resetMouse();
    await removeViewer(el);
  });
  beforeEach(async () => {
    await el.clearMeasure();
    await el.disableMeasure();
    await el.deselectAll();
    await el.viewpoint('home');
    await frames();
  });

  /** A real click at a viewport point. */
  async function clickAt(position: Point) {
    await sendMouse({ type: 'click', position });
    await frames();
  }

  /** A real click where an IFC point shows in the current view. */
  async function clickOn(p: Vec3) {
    await clickAt(screenPoint(el, await el.viewpoint(), p));
  }

  /** Asserts an IFC point is on a wall's outer face (`axis` = its coordinate there) inside the wall's box. */
  function assertOnFace(p: Vector3, wall: ProductTruth, axis: 0 | 1, what: string) {
    const { min, max } = wall.box!;
    const xyz = [p.x, p.y, p.z];
    assert(Math.abs(xyz[axis] - min[axis]) < 1e-3, `${what} ${p.toArray().map((v) => v.toFixed(3))} is on the outer face of ${wall.name} (${'xy'[axis]} = ${min[axis]})`);
    assert(xyz.every((v, i) => v >= min[i] - 1e-3 && v <= max[i] + 1e-3), `${what} ${p.toArray().map((v) => v.toFixed(3))} is within ${wall.name}`);
  }

  it('laser: two clicks measure the distance between surface points, labelled in metres; clicks do not select', async () => {
    await el.enableMeasure();
    const before = await el.screenshot();
    await clickOn(onSouth);
    await clickOn(onSouthAbove);
    const [m] = core().measure.measurements;
    assert(m, 'a measurement');
    assertEqual(m.mode, 'laser');
    assertAlmostEqual(m.distance, m.start.distanceTo(m.end), 1e-9);
    assert(m.distance > 0.5, `a real distance: ${m.distance}`);
    // The points clicked, on the faces of the two walls, to within the pixels the clicks
    // were rounded to (a snap to a triangle's edge moves a point at most 8 px, 0.5 m here).
    assertOnFace(ifc(m.start), south, 1, 'start');
    assertOnFace(ifc(m.end), southAbove, 1, 'end');
    const aimed = Math.hypot(onSouth.x - onSouthAbove.x, onSouth.y - onSouthAbove.y, onSouth.z - onSouthAbove.z);
    assert(Math.abs(m.distance - aimed) < 1, `measured ${m.distance.toFixed(3)} m between points ${aimed.toFixed(3)} m apart`);
    assertEqual(core().labels.texts('measure:')[0], `${m.distance.toFixed(3)} m`);
    assertEqual((await el.eachSelected()).length, 0, 'measuring does not select');
    assert((await pixelDifference(before, await el.screenshot())) > 0.0005, 'the line and label are drawn');
  });

  it('snaps to a vertex near the cursor', async () => {
    // The south wall from the front: the top corner of its outer face at the west end (a
    // corner of its box, so a vertex of its geometry), and a click 3 px from it into the wall.
    await el.lookAt(objectIdOf(south.id), 'front');
    await frames();
    const view = await el.viewpoint();
    const rect = el.getBoundingClientRect();
    const { min, max } = south.box!;
    const vertex = { x: min[0], y: min[1], z: max[2] };
    const at = project(el, view, vertex);
    const click: Point = [Math.round(at.x + 3), Math.round(at.y + 3)];
    assert(at.x > rect.left && at.y > rect.top && at.x < rect.right && at.y < rect.bottom, `the corner is on screen: ${at.x}, ${at.y}`);
    const under = core().pickAt(click[0] - rect.left, click[1] - rect.top);
    assert(under, 'something under the click');
    assertEqual(under.model.objectIdAt(under.index), objectIdOf(south.id), `the click beside the corner is on ${south.name}`);
    await el.enableMeasure({ mode: 'laser' });
    await clickAt(click);
    await clickOn(onSouth);
    const [m] = core().measure.measurements;
    assert(m, 'a measurement');
    // The start is a corner of the wall (not the point under the cursor), at most as far on
    // screen as the corner the click was placed beside (the inner face's corner may be nearer).
    const start = ifc(m.start);
    const boxCorners = corners(south.box!);
    assert(boxCorners.some((c) => start.distanceTo(new Vector3(c.x, c.y, c.z)) < 1e-4), `${start.toArray().map((v) => v.toFixed(4))} is a corner of ${south.name}`);
    assert(m.start.distanceTo(under.point) > 1e-6, 'not the surface point under the cursor');
    const seen = project(el, view, start);
    assert(Math.hypot(seen.x - click[0], seen.y - click[1]) <= Math.hypot(at.x - click[0], at.y - click[1]) + 1e-3, 'the nearest vertex on screen');
  });

  it('dimension: the x, y and z parts; enableMeasure without a mode keeps the last one', async () => {
    await el.enableMeasure({ mode: 'dimension' });
    await el.disableMeasure();
    await el.enableMeasure();
    // From a wall to the roof's slope: x, y and z all differ.
    await clickOn(onSouth);
    await clickOn(onRoof);
    const [m] = core().measure.measurements;
    assertEqual(m.mode, 'dimension');
    assertOnFace(ifc(m.start), south, 1, 'start');
    const end = ifc(m.end);
    assert(end.toArray().every((v, i) => v >= roof.box!.min[i] - 1e-3 && v <= roof.box!.max[i] + 1e-3), `end ${end.toArray().map((v) => v.toFixed(3))} is on the roof`);
    const texts = core().labels.texts('measure:');
    const parts = [Math.abs(m.end.x - m.start.x), Math.abs(m.end.y - m.start.y), Math.abs(m.end.z - m.start.z)].filter((d) => d >= 1e-6);
    assertEqual(parts.length, 3, 'the points differ in x, y and z');
    assertEqual(texts.length, parts.length, 'one label per non-zero part');
    parts.forEach((d, i) => assertEqual(texts[i], `${d.toFixed(3)} m`));
    await assertRejects(el.enableMeasure({ mode: 'tape' as never }), /laser.*dimension/);
  });

  it('disableMeasure makes clicks select again; clearMeasure removes the measurements', async () => {
    await el.enableMeasure({ mode: 'laser' });
    await clickOn(onSouth);
    await clickOn(onSouthAbove);
    await el.disableMeasure();
    await clickOn(onSouth);
    assertEqual((await el.eachSelected()).join(), objectIdOf(south.id), `selecting ${south.name} again`);
    assertEqual(core().measure.measurements.length, 1, 'the measurement stays');
    await el.clearMeasure();
    assertEqual(core().measure.measurements.length, 0);
    assertEqual(core().labels.texts('measure:').length, 0);
  });

  it('textRenderMode dom puts labels in the page as text', async () => {
    el.textRenderMode = 'dom';
    await el.updateComplete;
    await el.enableMeasure({ mode: 'laser' });
    await clickOn(onSouth);
    await clickOn(onSouthAbove);
    await frames();
    // The house's grid tags are DOM labels too: the measurement's is keyed measure:<n>.
    const label = el.shadowRoot!.querySelector('.labels .label[data-id^="measure:"]') as HTMLElement;
    assert(label, 'a DOM label');
    assert(/^\d+\.\d{3} m$/.test(label.textContent!), `label text: ${label.textContent}`);
    assertEqual(label.textContent, `${core().measure.measurements[0].distance.toFixed(3)} m`, 'the distance measured');
    assertEqual(label.children.length, 0, 'plain text');
    el.textRenderMode = 'canvas';
    await el.updateComplete;
    assertEqual(el.shadowRoot!.querySelector('.labels .label'), null, 'back to canvas labels');
  });
});
