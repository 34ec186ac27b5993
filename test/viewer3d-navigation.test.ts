import { sendKeys, sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertEqual, assertAlmostEqual, assertRejects } from './support/assert';
import { loadDuplex, removeViewer, record } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Vec3, Viewpoint } from '../src/core/types';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const distance = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
const dot = (a: Vec3, b: Vec3) => a.x * b.x + a.y * b.y + a.z * b.z;
const yaw = (v: Vec3) => Math.atan2(v.y, v.x);

describe('navigation: movement keywords, speeds and navigation modes', () => {
  let el: BimViewer3d;

  before(async () => {
    ({ el } = await loadDuplex(480, 360));
  });
  after(() => removeViewer(el));
  beforeEach(async () => {
    await el.setNavigationMode('orbit');
    await el.stopNavigation();
    await el.resetKeyDown();
    await el.walkSpeed(3);
    await el.elevationSpeed(1.5);
    await el.rotationSpeed(40);
    await el.viewpoint('home');
  });
  afterEach(() => resetMouse());

  /** Holds `movement` for about `ms` through keyDown; resolves to the viewpoints before and after. */
  async function hold(movement: Parameters<BimViewer3d['keyDown']>[0], ms: number): Promise<[Viewpoint, Viewpoint, number]> {
    const before = await el.viewpoint();
    const started = performance.now();
    await el.keyDown(movement, true);
    await sleep(ms);
    await el.keyDown(movement, false);
    const took = (performance.now() - started) / 1000;
    return [before, await el.viewpoint(), took];
  }

  it('has the documented speeds and reads and sets them', async () => {
    assertEqual(await el.walkSpeed(), 3);
    assertEqual(await el.elevationSpeed(), 1.5);
    assertEqual(await el.rotationSpeed(), 40);
    assertEqual(await el.walkSpeed(6), 6);
    assertEqual(await el.walkSpeed(null), 6);
    await assertRejects(el.walkSpeed(-1), /positive number/);
  });

  it('moveForward walks level at walkSpeed and fires viewer.viewpoint when it stops', async () => {
    const viewpoints = record(el, 'viewer.viewpoint');
    const [before, after, seconds] = await hold('moveForward', 500);
    const moved = distance(before.location, after.location);
    assert(moved > 3 * seconds * 0.35 && moved < 3 * seconds * 1.5, `moved ${moved.toFixed(2)} m in ${seconds.toFixed(2)} s at 3 m/s`);
    assertAlmostEqual(after.location.z, before.location.z, 1e-6, 'walking keeps the height');
    const step = { x: after.location.x - before.location.x, y: after.location.y - before.location.y, z: 0 };
    assert(dot(step, before.direction) > 0, 'forward is where the camera looks');
    assert(viewpoints.length >= 1, 'viewer.viewpoint after the movement');
  });

  it('walkSpeed scales the movement; moveUp uses elevationSpeed; rotateLeft turns at rotationSpeed', async () => {
    await el.walkSpeed(10);
    const [a, b, t1] = await hold('moveRight', 400);
    assert(distance(a.location, b.location) > 10 * t1 * 0.35, 'faster at 10 m/s');
    const [c, d, t2] = await hold('moveUp', 400);
    const up = d.location.z - c.location.z;
    assert(up > 1.5 * t2 * 0.35 && up < 1.5 * t2 * 1.5, `rose ${up.toFixed(2)} m in ${t2.toFixed(2)} s at 1.5 m/s`);
    const [e, f, t3] = await hold('rotateLeft', 400);
    const turned = ((yaw(f.direction) - yaw(e.direction)) * 180) / Math.PI;
    assert(turned > 40 * t3 * 0.35 && turned < 40 * t3 * 1.5, `turned ${turned.toFixed(1)} degrees left in ${t3.toFixed(2)} s at 40 deg/s`);
    assertAlmostEqual(f.location.x, e.location.x, 1e-6, 'turning stays in place');
  });

  it('navigate moves with a strength until stopNavigation; resetKeyDown releases held keys', async () => {
    const before = await el.viewpoint();
    await el.navigate('rotateRight', 0.5);
    await sleep(300);
    await el.stopNavigation();
    const after = await el.viewpoint();
    assert(yaw(after.direction) < yaw(before.direction), 'turned right');
    await sleep(100);
    assertEqual(JSON.stringify(await el.viewpoint()), JSON.stringify(after), 'stopped');
    await el.keyDown('moveBackward');
    await sleep(100);
    await el.resetKeyDown();
    const released = await el.viewpoint();
    await sleep(100);
    assertEqual(JSON.stringify(await el.viewpoint()), JSON.stringify(released), 'resetKeyDown stops held movements');
    await assertRejects(el.keyDown('jump' as never), /unknown movement "jump"/);
  });

  /** A real left drag across the middle of the viewer. */
  async function leftDrag(withShift = false) {
    const rect = el.getBoundingClientRect();
    const x = Math.round(rect.left + rect.width / 2), y = Math.round(rect.top + rect.height / 2);
    if (withShift) await sendKeys({ down: 'Shift' });
    await sendMouse({ type: 'move', position: [x, y] });
    await sendMouse({ type: 'down' });
    for (let i = 1; i <= 5; i++) await sendMouse({ type: 'move', position: [x + i * 12, y + i * 4] });
    await sendMouse({ type: 'up' });
    if (withShift) await sendKeys({ up: 'Shift' });
  }

  it('pan mode: the left drag pans; pivot mode: it turns the camera in place', async () => {
    await el.setNavigationMode('pan');
    const a = await el.viewpoint();
    await leftDrag();
    const b = await el.viewpoint();
    assert(dot(a.direction, b.direction) > 0.9999, 'panning keeps the direction');
    assert(distance(a.location, b.location) > 0.2, 'and moves the camera');
    await el.setNavigationMode('pivot');
    await leftDrag();
    const c = await el.viewpoint();
    assert(distance(b.location, c.location) < 1e-6, 'pivoting keeps the camera where it is');
    assert(dot(b.direction, c.direction) < 0.9999, 'and turns it');
    await assertRejects(el.setNavigationMode('fly' as never), /unknown mode "fly"/);
  });

  it('a custom map replaces the defaults, with filters, in order, stopping at a cancelled action', async () => {
    await el.setNavigationMode({
      mouse: [
        { event: 'leftdrag', action: 'pan', filter: 'shift' },
        { event: 'click', action: 'select' },
        { event: 'click', action: 'lookAt' },
      ],
    });
    const a = await el.viewpoint();
    await leftDrag();
    assertEqual(JSON.stringify(await el.viewpoint()), JSON.stringify(a), 'no shift: the drag does nothing (no orbit any more)');
    await leftDrag(true);
    const b = await el.viewpoint();
    assert(distance(a.location, b.location) > 0.2 && dot(a.direction, b.direction) > 0.9999, 'shift+drag pans');
    // click: select, then look at; a cancelled viewer.click skips the look-at.
    const rect = el.getBoundingClientRect();
    const centre: [number, number] = [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)];
    await el.viewpoint('home');
    const cancel = (e: Event) => e.preventDefault();
    el.addEventListener('viewer.click', cancel);
    const doubles = record(el, 'viewer.doubleclick');
    const home = await el.viewpoint();
    await sendMouse({ type: 'click', position: centre });
    await sleep(100);
    assertEqual(doubles.length, 0, 'lookAt did not run after the cancelled select');
    assertEqual(JSON.stringify(await el.viewpoint()), JSON.stringify(home));
    el.removeEventListener('viewer.click', cancel);
    await sendMouse({ type: 'click', position: centre });
    await sleep(100);
    assertEqual((await el.eachSelected()).length, 1, 'select ran');
    assertEqual(doubles.length, 1, 'then lookAt ran');
    await el.deselectAll();
  });

  it('{} disables navigation; a keyboard map moves while its key is held', async () => {
    await el.setNavigationMode({});
    const clicks = record(el, 'viewer.click');
    const a = await el.viewpoint();
    await leftDrag();
    const rect = el.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)] });
    assertEqual(clicks.length, 0, 'no click action');
    assertEqual(JSON.stringify(await el.viewpoint()), JSON.stringify(a), 'no camera movement');
    await el.setNavigationMode({ keyboard: [{ event: 'w', action: 'moveForward', scale: 2 }] });
    el.shadowRoot!.querySelector('canvas')!.focus();
    await sendKeys({ down: 'w' });
    await sleep(300);
    await sendKeys({ up: 'w' });
    const b = await el.viewpoint();
    assert(distance(a.location, b.location) > 0.5, `holding w walked ${distance(a.location, b.location).toFixed(2)} m`);
    await assertRejects(el.setNavigationMode({ mouse: [{ event: 'tripleclick', action: 'select' }] }), /unknown event "tripleclick"/);
    await assertRejects(el.setNavigationMode({ mouse: [{ event: 'click', action: 'explode' }] }), /unknown action "explode"/);
    await assertRejects(el.setNavigationMode({ mouse: [{ event: 'click', action: 'select', filter: 'hyper' }] }), /unknown filter "hyper"/);
  });
});
