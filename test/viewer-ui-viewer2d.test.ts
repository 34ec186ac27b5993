// The widget's 2D integration on the sample house (seed 002 `enableViewer2dIntegration`,
// `viewer2dId`, `showViewer2dStoreySelect`, set2dLockedNavigationMode,
// set2dLockStoreyMode): real keys move the 3D camera and the 2D arrow follows; real
// clicks and drags on the plan move the 3D camera; selection is shared both ways.
import { sendKeys } from '@web/test-runner-commands';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { BimViewer2d } from '../src/elements/bim-viewer-2d';
import type { BimViewerUi } from '../src/elements/bim-viewer-ui';
import type { Storey2d } from '../src/core/viewer2d/types';
import { assert, assertEqual } from './support/assert';
import { elementPoint, resetMouse, sendMouse, type Point } from './support/input';
import { SAMPLES, objectIdOf, truthOf } from './support/samples';
import { createViewer2d, planSvg, removeViewer2d } from './support/viewer2d';
import { createWidget, frames, removeWidget, sleep, until } from './support/viewer-ui';

interface Core2d {
  toScreen(x: number, y: number): [number, number];
  toView(px: number, py: number): [number, number];
}

describe('<bim-viewer-ui> with a 2D viewer', function () {
  let ui: BimViewerUi;
  let el: BimViewer3d;
  let plan: BimViewer2d;
  let storeys: Storey2d[];
  // the two lowest storeys of the house (ground floor at 0 m, the next 3 m up)
  let lower: Storey2d;
  let upper: Storey2d;

  const core2d = () => (plan as unknown as { core: Core2d }).core;
  const page = (x: number, y: number): Point => {
    const [sx, sy] = core2d().toScreen(x, y);
    const r = planSvg(plan).getBoundingClientRect();
    return [Math.round(r.left + sx), Math.round(r.top + sy)];
  };
  const shownStorey = () => plan.getStoreys({ all: true, visible: true }).map((s) => s.id).join(',');

  before(async function () {
    plan = await createViewer2d(400, 280);
    plan.id = 'plan2d';
    plan.style.top = '300px';
    ({ ui, el } = await createWidget(400, 280, { 'enable-keyboard': '', 'viewer2d-id': 'plan2d', 'enable-viewer2d-integration': '' }));
    await Promise.all([el.loadUrl(SAMPLES.house), plan.loadUrl(SAMPLES.house)]);
    const truth = await truthOf(SAMPLES.house);
    storeys = plan.getStoreys({ all: true }).slice().sort((a, b) => a.elevation - b.elevation);
    assertEqual(storeys.map((s) => `${s.id} ${s.name} ${s.elevation.toFixed(3)}`).join(', '), truth.storeys.map((s) => `${objectIdOf(s.id)} ${s.name} ${s.elevation.toFixed(3)}`).join(', '), 'the storeys of the house');
    [lower, upper] = storeys;
    await frames();
  });

  after(async () => {
    await resetMouse();
    await removeWidget({ ui, el });
    await removeViewer2d(plan);
  });

  beforeEach(async () => {
    await ui.set2dLockStoreyMode(false);
    await ui.set2dLockedNavigationMode(false);
  });

  it('the arrow follows the camera moved by real keys, and the storey its height', async function () {
    await el.viewpoint({ type: 'perspective', location: { x: 2, y: 2, z: lower.elevation + 1.6 }, direction: { x: 1, y: 0, z: 0 }, up: { x: 0, y: 0, z: 1 } });
    await until(() => shownStorey() === lower.id, 'the lower storey shown');
    await until(() => Math.abs(plan.getViewpoint().location.x - 2) < 0.05, 'the arrow at the camera');
    await sendMouse({ type: 'click', position: elementPoint(el, 0.02, 0.02) }); // focus the 3D viewer
    await sendKeys({ down: 'w' });
    await sleep(500);
    await sendKeys({ up: 'w' });
    const vp = await el.viewpoint();
    assert(vp.location.x > 2.5, `the camera moved forward to x ${vp.location.x.toFixed(2)}`);
    await until(() => Math.abs(plan.getViewpoint().location.x - vp.location.x) < 0.05 && Math.abs(plan.getViewpoint().location.y - vp.location.y) < 0.05, 'the arrow followed');
    const d = plan.getViewpoint().direction;
    assert(d.x > 0.99, `the arrow points along the camera: ${JSON.stringify(d)}`);
    await el.viewpoint({ location: { x: vp.location.x, y: vp.location.y, z: upper.elevation + 1.6 } });
    await until(() => shownStorey() === upper.id, 'the upper storey shown when the camera went up');
  });

  it('a click on the plan moves the camera there, above the clicked storey', async function () {
    await el.viewpoint({ type: 'perspective', location: { x: 2, y: 2, z: lower.elevation + 1.6 }, direction: { x: 1, y: 0, z: 0 }, up: { x: 0, y: 0, z: 1 } });
    await until(() => shownStorey() === lower.id, 'the lower storey shown');
    await plan.lookAtBoundingBox({ min: { x: -5, y: -5 }, max: { x: 25, y: 15 } }, { retainStoreys: true });
    const clicks: { location: { x: number; y: number; z: number } }[] = [];
    plan.addEventListener('viewer2d.click', (e) => clicks.push((e as CustomEvent).detail), { once: true });
    const at = page(8, 4);
    await sendMouse({ type: 'click', position: at });
    await until(() => clicks.length > 0, 'viewer2d.click');
    const { location } = clicks[0];
    assert(Math.abs(location.z - lower.elevation) < 0.05, `the click is on the storey shown: z ${location.z}`);
    await until(async () => {
      const vp = await el.viewpoint();
      return Math.abs(vp.location.x - location.x) < 0.05 && Math.abs(vp.location.y - location.y) < 0.05;
    }, 'the camera at the clicked place');
    const vp = await el.viewpoint();
    assert(Math.abs(vp.location.z - (location.z + 1.6)) < 0.05, `eye height above the storey: ${vp.location.z}`);
  });

  it('dragging the arrow moves the camera', async function () {
    await el.viewpoint({ type: 'perspective', location: { x: 4, y: 3, z: lower.elevation + 1.6 }, direction: { x: 1, y: 0, z: 0 }, up: { x: 0, y: 0, z: 1 } });
    await until(() => Math.abs(plan.getViewpoint().location.x - 4) < 0.05, 'the arrow at the camera');
    await frames();
    const from = page(4, 3);
    const to: Point = [from[0] + 40, from[1] - 20];
    await sendMouse({ type: 'move', position: from });
    await sendMouse({ type: 'down' });
    for (let i = 1; i <= 6; i++) await sendMouse({ type: 'move', position: [Math.round(from[0] + (40 * i) / 6), Math.round(from[1] - (20 * i) / 6)] });
    await sendMouse({ type: 'up' });
    const r = planSvg(plan).getBoundingClientRect();
    const [x, y] = core2d().toView(to[0] - r.left, to[1] - r.top);
    await until(async () => {
      const vp = await el.viewpoint();
      return Math.abs(vp.location.x - x) < 0.2 && Math.abs(vp.location.y - y) < 0.2;
    }, `the camera at the dragged arrow (${x.toFixed(2)}, ${y.toFixed(2)})`);
  });

  it('selection is shared both ways', async function () {
    await until(() => shownStorey() !== '', 'a storey shown');
    const space = plan.getSpaces({ storeyId: plan.getStoreys({ all: true, visible: true })[0].id, visible: true })[0];
    assert(space, 'a space on the storey shown');
    await plan.lookAt(space.id, { retainStoreys: true, expand: 2 });
    await frames();
    const b = plan.getBoundingBox(space.id)!;
    await sendMouse({ type: 'click', position: page(b.x + b.width * 0.5, b.y + b.height * 0.2) });
    await until(async () => (await el.eachSelected()).includes(space.id), 'the 3D viewer selected the space');
    // A 3D click on the background clears the selection in both.
    await sendMouse({ type: 'click', position: elementPoint(el, 0.01, 0.01) });
    await until(() => plan.getSelected().length === 0, 'the 2D selection cleared by the 3D click');
    await el.viewpoint('home');
  });

  it('lock storey keeps the storey; locked navigation keeps the arrow in the middle', async function () {
    await el.viewpoint({ type: 'perspective', location: { x: 4, y: 3, z: lower.elevation + 1.6 }, direction: { x: 1, y: 0, z: 0 }, up: { x: 0, y: 0, z: 1 } });
    await until(() => shownStorey() === lower.id, 'the lower storey shown');
    await ui.set2dLockStoreyMode(true);
    await el.viewpoint({ location: { x: 4, y: 3, z: upper.elevation + 1.6 } });
    await sleep(400);
    assertEqual(shownStorey(), lower.id, 'the storey kept');
    await ui.set2dLockStoreyMode(false);
    await until(() => shownStorey() === upper.id, 'unlocked: the storey follows again');
    await ui.set2dLockedNavigationMode(true);
    await el.viewpoint({ location: { x: 10, y: 6, z: upper.elevation + 1.6 } });
    const r = planSvg(plan).getBoundingClientRect();
    await until(() => {
      const [sx, sy] = core2d().toScreen(10, 6);
      return Math.abs(sx - r.width / 2) < 3 && Math.abs(sy - r.height / 2) < 3;
    }, 'the arrow in the middle of the plan');
  });

  it('the lock toggle (showViewer2dLockedNavigationToggle) switches locked navigation with a real click', async function () {
    ui.showViewer2dLockedNavigationToggle = true;
    await ui.updateComplete;
    const toggle = ui.shadowRoot!.querySelector('.lock-toggle') as HTMLButtonElement;
    assert(!toggle.hidden, 'shown');
    await sendMouse({ type: 'click', position: elementPoint(toggle) });
    assertEqual(ui.uiState.lockedNavigation, true);
    assertEqual(toggle.getAttribute('aria-pressed'), 'true');
    await sendMouse({ type: 'click', position: elementPoint(toggle) });
    assertEqual(ui.uiState.lockedNavigation, false);
    ui.showViewer2dLockedNavigationToggle = false;
    await ui.updateComplete;
    assert(toggle.hidden, 'hidden again');
  });

  it('showViewer2dStoreySelect adds a storey select that shows the chosen storey', async function () {
    ui.showViewer2dStoreySelect = true;
    await ui.updateComplete;
    const select = await (async () => {
      let found: HTMLSelectElement | null = null;
      await until(() => !!(found = document.querySelector('.bim-viewer-ui-storey-select select')), 'the storey select');
      return found! as HTMLSelectElement;
    })();
    await until(() => select.options.length === storeys.length, 'every storey listed');
    // Real keys on the focused select (listed from the top storey down).
    select.focus();
    assert(select.value !== lower.id, `the select starts on another storey than the one to choose (${select.value})`);
    for (let i = 0; i < storeys.length && select.value !== lower.id; i++) await sendKeys({ press: select.selectedIndex < select.options.length - 1 && storeys.findIndex((s) => s.id === select.value) > storeys.indexOf(lower) ? 'ArrowDown' : 'ArrowUp' });
    assertEqual(select.value, lower.id, 'the lower storey chosen with the keyboard');
    await until(() => shownStorey() === lower.id, 'the chosen storey shown');
    assertEqual(ui.uiState.lockStorey, true, 'choosing a storey keeps it');
    ui.showViewer2dStoreySelect = false;
    await ui.updateComplete;
    assert(!document.querySelector('.bim-viewer-ui-storey-select'), 'removed again');
  });
});
