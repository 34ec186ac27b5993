import { Vector3 } from 'three';
import { sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertEqual, assertAlmostEqual, assertRejects } from './support/assert';
import { loadDuplex, removeViewer, pixelDifference } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Viewer3d } from '../src/core/viewer3d';

const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('measuring', () => {
  let el: BimViewer3d;
  let walls: string[];
  interface CoreView {
    measure: Viewer3d['measure'];
    labels: Viewer3d['labels'];
    rig: Viewer3d['rig'];
    pickAt(x: number, y: number): { index: number; point: Vector3; triangle: Vector3[]; model: { forEachTriangle(index: number, fn: (a: Vector3, b: Vector3, c: Vector3) => void): void } } | null;
  }
  const core = () => (el as unknown as { core: CoreView }).core;

  before(async () => {
    ({ el, walls } = await loadDuplex(480, 360));
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

  /** Real clicks at fractions of the viewer. */
  async function clickAt(fx: number, fy: number) {
    const r = el.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(r.left + r.width * fx), Math.round(r.top + r.height * fy)] });
    await frames();
  }

  it('laser: two clicks measure the distance between surface points, labelled in metres; clicks do not select', async () => {
    await el.enableMeasure();
    const before = await el.screenshot();
    await clickAt(0.45, 0.5);
    await clickAt(0.6, 0.45);
    const [m] = core().measure.measurements;
    assert(m, 'a measurement');
    assertEqual(m.mode, 'laser');
    assertAlmostEqual(m.distance, m.start.distanceTo(m.end), 1e-9);
    assert(m.distance > 0.5, `a real distance: ${m.distance}`);
    assertEqual(core().labels.texts('measure:')[0], `${m.distance.toFixed(3)} m`);
    assertEqual((await el.eachSelected()).length, 0, 'measuring does not select');
    assert((await pixelDifference(before, await el.screenshot())) > 0.0005, 'the line and label are drawn');
  });

  it('snaps to a vertex near the cursor', async () => {
    await el.lookAt(walls[0], 'front');
    await frames();
    const rect = el.getBoundingClientRect();
    const hit = core().pickAt(rect.width / 2, rect.height / 2)!;
    assert(hit, 'the wall is under the centre');
    // A vertex of the triangle under the centre, and a click (whole pixels) about 3 px from
    // it towards the triangle's middle that still lands on the wall.
    const camera = core().rig.camera;
    const toPixels = (v: Vector3) => {
      const p = v.clone().project(camera);
      return [((p.x + 1) / 2) * rect.width, ((1 - p.y) / 2) * rect.height];
    };
    const corners = hit.triangle.map(toPixels);
    const [cx, cy] = [0, 1].map((k) => corners.reduce((s, c) => s + c[k], 0) / 3);
    const click = corners
      .map(([vx, vy]) => {
        const towards = Math.hypot(cx - vx, cy - vy) || 1;
        return { vx, vy, px: Math.round(vx + ((cx - vx) / towards) * 3), py: Math.round(vy + ((cy - vy) / towards) * 3) };
      })
      .find(({ vx, vy, px, py }) => vx > 0 && vy > 0 && vx < rect.width && vy < rect.height && core().pickAt(px, py)?.index === hit.index);
    assert(click, 'a vertex on screen with a click beside it on the wall');
    const under = core().pickAt(click.px, click.py)!;
    const vertices: Vector3[] = [];
    under.model.forEachTriangle(under.index, (a, b, c) => vertices.push(a.clone(), b.clone(), c.clone()));
    await el.enableMeasure({ mode: 'laser' });
    await clickAt(click.px / rect.width, click.py / rect.height);
    await clickAt(0.5, 0.5);
    const [m] = core().measure.measurements;
    assert(m, 'a measurement');
    // The start is a vertex of the wall (not the point under the cursor), at most as far
    // on screen as the vertex the click was placed beside.
    assert(vertices.some((v) => v.distanceTo(m.start) < 1e-9), `${JSON.stringify(m.start)} is a vertex of the wall`);
    assert(m.start.distanceTo(under.point) > 1e-6, 'not the surface point under the cursor');
    const [sx, sy] = toPixels(m.start);
    assert(Math.hypot(sx - click.px, sy - click.py) <= Math.hypot(click.vx - click.px, click.vy - click.py) + 1e-6, 'the nearest vertex on screen');
  });

  it('dimension: the x, y and z parts; enableMeasure without a mode keeps the last one', async () => {
    await el.enableMeasure({ mode: 'dimension' });
    await el.disableMeasure();
    await el.enableMeasure();
    await clickAt(0.42, 0.55);
    await clickAt(0.6, 0.4);
    const [m] = core().measure.measurements;
    assertEqual(m.mode, 'dimension');
    const texts = core().labels.texts('measure:');
    const parts = [Math.abs(m.end.x - m.start.x), Math.abs(m.end.y - m.start.y), Math.abs(m.end.z - m.start.z)].filter((d) => d >= 1e-6);
    assertEqual(texts.length, parts.length, 'one label per non-zero part');
    parts.forEach((d, i) => assertEqual(texts[i], `${d.toFixed(3)} m`));
    await assertRejects(el.enableMeasure({ mode: 'tape' as never }), /laser.*dimension/);
  });

  it('disableMeasure makes clicks select again; clearMeasure removes the measurements', async () => {
    await el.enableMeasure({ mode: 'laser' });
    await clickAt(0.45, 0.5);
    await clickAt(0.55, 0.5);
    await el.disableMeasure();
    await clickAt(0.5, 0.5);
    assertEqual((await el.eachSelected()).length, 1, 'selecting again');
    assertEqual(core().measure.measurements.length, 1, 'the measurement stays');
    await el.clearMeasure();
    assertEqual(core().measure.measurements.length, 0);
    assertEqual(core().labels.texts('measure:').length, 0);
  });

  it('textRenderMode dom puts labels in the page as text', async () => {
    el.textRenderMode = 'dom';
    await el.updateComplete;
    await el.enableMeasure({ mode: 'laser' });
    await clickAt(0.45, 0.5);
    await clickAt(0.6, 0.45);
    await frames();
    const label = el.shadowRoot!.querySelector('.labels .label') as HTMLElement;
    assert(label, 'a DOM label');
    assert(/^\d+\.\d{3} m$/.test(label.textContent!), `label text: ${label.textContent}`);
    assertEqual(label.children.length, 0, 'plain text');
    el.textRenderMode = 'canvas';
    await el.updateComplete;
    assertEqual(el.shadowRoot!.querySelector('.labels .label'), null, 'back to canvas labels');
  });
});
