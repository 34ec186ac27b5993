import { sendKeys, sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertEqual, assertAlmostEqual, assertRejects } from './support/assert';
import { loadHouse, removeViewer, record } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Vec3, Viewpoint } from '../src/core/types';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const distance = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
const dot = (a: Vec3, b: Vec3) => a.x * b.x + a.y * b.y + a.z * b.z;
const yaw = (v: Vec3) => Math.atan2(v.y, v.x);

describe('navigation: movement keywords, speeds and navigation modes', () => {
  let el: BimViewer3d;

  before(async () => {
    ({ el } = await loadHouse(480, 360));
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

  /**
   * Holds `movement` through keyDown for at least `ms`; resolves to the viewpoints before
   * and after, and the bounds of how long it was held: at least the `ms` slept between the
   * two calls, at most the time from the first call until the second one resolved.
   */
  async function hold(movement: Parameters<BimViewer3d['keyDown']>[0], ms: number): Promise<[Viewpoint, Viewpoint, { min: number; max: number }]> {
    const before = await el.viewpoint();
    const started = performance.now();
    await el.keyDown(movement, true);
    const slept = performance.now();
    await sleep(ms);
    const woke = performance.now();
    await el.keyDown(movement, false);
    const held = { min: (woke - slept) / 1000, max: (performance.now() - started) / 1000 };
    return [before, await el.viewpoint(), held];
  }

  /** Asserts `amount` moved at `speed` per second for a time within `held` (1 % for rounding). */
  function assertHeld(amount: number, speed: number, held: { min: number; max: number }, what: string) {
    const text = `${what}: ${amount.toFixed(3)} at ${speed}/s, held ${held.min.toFixed(3)}-${held.max.toFixed(3)} s`;
    assert(amount >= speed * held.min * 0.99 && amount <= speed * held.max * 1.01, text);
  }

  it('has the documented speeds and reads and sets them', async () => {
    assertEqual(await el.walkSpeed(), 3);
    assertEqual(await el.elevationSpeed(), 1.5);
    assertEqual(await el.rotationSpeed(), 40);
    assertEqual(await el.walkSpeed(6), 6);
    assertEqual(await el.walkSpeed(null), 6);
    await assertRejects(el.walkSpeed(-1), /positive number/);
  });

  it('moveForward walks level at walkSpeed, by the wall clock, and fires viewer.viewpoint when it stops', async () => {
    const viewpoints = record(el, 'viewer.viewpoint');
    const [before, after, held] = await hold('moveForward', 500);
    assertHeld(distance(before.location, after.location), 3, held, 'moved (m)');
    assertAlmostEqual(after.location.z, before.location.z, 1e-6, 'walking keeps the height');
    const step = { x: after.location.x - before.location.x, y: after.location.y - before.location.y, z: 0 };
    assert(dot(step, before.direction) > 0, 'forward is where the camera looks');
    assert(viewpoints.length >= 1, 'viewer.viewpoint after the movement');
  });

  it('walkSpeed scales the movement; moveUp uses elevationSpeed; rotateLeft turns at rotationSpeed', async () => {
    await el.walkSpeed(10);
    const [a, b, held1] = await hold('moveRight', 400);
    assertHeld(distance(a.location, b.location), 10, held1, 'moved right at 10 m/s (m)');
    const [c, d, held2] = await hold('moveUp', 400);
    assertHeld(d.location.z - c.location.z, 1.5, held2, 'rose (m)');
    const [e, f, held3] = await hold('rotateLeft', 400);
    assertHeld(((yaw(f.direction) - yaw(e.direction)) * 180) / Math.PI, 40, held3, 'turned left (degrees)');
    assertAlmostEqual(f.location.x, e.location.x, 1e-6, 'turning stays in place');
  });

  it('moves by the time held even when frames take longer than the hold (a page busy for 0.8 s)', async () => {
    const before = await el.viewpoint();
    const started = performance.now();
    await el.keyDown('moveForward', true);
    const slept = performance.now();
    // The main thread is busy: no frame runs until the key is released.
    while (performance.now() - slept < 800) { /* busy */ }
    const woke = performance.now();
    await el.keyDown('moveForward', false);
    const held = { min: (woke - slept) / 1000, max: (performance.now() - started) / 1000 };
    assertHeld(distance(before.location, (await el.viewpoint()).location), 3, held, 'moved while no frame ran (m)');
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
