// Mouse and touch interaction of <bim-viewer-3d> (COMPAT.md "Interaction a user of this
// kind of viewer expects", "Events and their arguments"; seed 002 "Events").
//
// Mouse input is real: Playwright through sendMouse/sendKeys, so the events are trusted
// and go through the browser's hit testing, click counting and context-menu logic. The
// viewer is position:fixed at (0, 0), so viewport coordinates are canvas coordinates.
// Two inputs cannot be sent that way and are synthesised (each place says so): the wheel
// (sendMouse has no wheel) and touch (the test runner has no touch input).
import { sendKeys } from '@web/test-runner-commands';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Box, Intersection, Vec3, Viewpoint } from '../src/core/types';
import { assert, assertDeepEqual, assertEqual } from './support/assert';
import { elementPoint, resetMouse, sendMouse, type MouseButton, type Point } from './support/input';
import { MODELS, createViewer, removeViewer } from './support/viewer';
import { objectIdOf, productsOf, truthOf, type ProductTruth, type Truth } from './support/samples';
import { corners, project, screenPoint, vec3 } from './support/screen';

// ---- small helpers -----------------------------------------------------------------

interface Hit {
  objectId?: string;
  intersects?: Intersection;
}

const sub = (a: Vec3, b: Vec3): Vec3 => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z });
const dot = (a: Vec3, b: Vec3) => a.x * b.x + a.y * b.y + a.z * b.z;
const length = (a: Vec3) => Math.sqrt(dot(a, a));
const distance = (a: Vec3, b: Vec3) => length(sub(a, b));
const unit = (a: Vec3): Vec3 => {
  const l = length(a);
  return { x: a.x / l, y: a.y / l, z: a.z / l };
};
const cross = (a: Vec3, b: Vec3): Vec3 => ({ x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x });
const degrees = (a: Vec3, b: Vec3) => (Math.acos(Math.min(1, Math.max(-1, dot(unit(a), unit(b))))) * 180) / Math.PI;
const centre = (box: Box): Vec3 => ({ x: (box.min.x + box.max.x) / 2, y: (box.min.y + box.max.y) / 2, z: (box.min.z + box.max.z) / 2 });
const fmt = (v: Vec3) => `(${v.x.toFixed(3)}, ${v.y.toFixed(3)}, ${v.z.toFixed(3)})`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `condition()` holds; fails with `what` after `timeout` ms. */
async function until(condition: () => boolean, what: string, timeout = 3000) {
  const end = performance.now() + timeout;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** Two animation frames: the viewer has drawn what changed. */
const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('<bim-viewer-3d> mouse and touch interaction', function () {
  let el: BimViewer3d;
  let truth: Truth;
  /** Listeners of the running test; removed after it. */
  let listening: AbortController;
  /**
   * Two exterior walls of the sample house the home view shows, and where the clicks aim
   * on them (IFC metres): the middle of a storey's height on the outer face, at a grid
   * line, between the windows. `middle` and `other` are those points on screen.
   */
  let wall: ProductTruth;
  let wallPoint: Vec3;
  let middle: Point;
  let middleHit: Required<Hit>;
  let otherWall: ProductTruth;
  let other: Point;
  let otherHit: Required<Hit>;
  /** A canvas corner: outside everything drawn in the home view (background). */
  let corner: Point;

  const canvas = () => el.shadowRoot!.querySelector('canvas')!;
  const core = () => (el as unknown as { core: any }).core;
  const orbitSphere = () => core().scene.getObjectByName('orbit-sphere') as { visible: boolean; position: Vec3 };
  const cameraPosition = (): Vec3 => core().rig.camera.position;

  /** Details of every `name` event of the running test, in order. */
  function events<T = unknown>(name: string): T[] {
    const seen: T[] = [];
    el.addEventListener(name, (e) => seen.push((e as CustomEvent<T>).detail), { signal: listening.signal });
    return seen;
  }

  /** Cancels every `name` event of the running test. */
  function cancel(name: string) {
    el.addEventListener(name, (e) => e.preventDefault(), { signal: listening.signal });
  }

  /** A real left click at `at`; resolves to the viewer.click detail. */
  async function click(at: Point, button: MouseButton = 'left'): Promise<Hit> {
    const clicks = events<Hit>('viewer.click');
    await sendMouse({ type: 'click', position: at, button });
    await until(() => clicks.length > 0, `viewer.click at ${at}`);
    return clicks[0];
  }

  /** Presses `button` at `from`, moves to `to` in `steps` moves, calls `whileHeld`, releases. */
  async function drag(from: Point, to: Point, button: MouseButton, whileHeld?: () => void | Promise<void>, steps = 6) {
    await sendMouse({ type: 'move', position: from });
    await sendMouse({ type: 'down', button });
    for (let i = 1; i <= steps; i++) {
      const t = i / steps;
      await sendMouse({ type: 'move', position: [Math.round(from[0] + (to[0] - from[0]) * t), Math.round(from[1] + (to[1] - from[1]) * t)] });
    }
    await whileHeld?.();
    await sendMouse({ type: 'up', button });
  }

  /**
   * Touch input: the test runner cannot send touches (no Playwright touchscreen through
   * @web/test-runner-commands), so these are synthetic PointerEvents of pointerType
   * 'touch' dispatched on the canvas, as the browser would deliver them.
   */
  function touch(type: 'pointerdown' | 'pointermove' | 'pointerup', pointerId: number, [x, y]: Point) {
    canvas().dispatchEvent(new PointerEvent(type, {
      pointerId, pointerType: 'touch', isPrimary: pointerId === 11, clientX: x, clientY: y,
      button: type === 'pointermove' ? -1 : 0, buttons: type === 'pointerup' ? 0 : 1,
      bubbles: true, cancelable: true, composed: true,
    }));
  }

  /** Fingers (pointer id → path of points) go down at their first point, move along their paths together, and lift. */
  function touchGesture(paths: Record<number, Point[]>, { lift = true } = {}) {
    const ids = Object.keys(paths).map(Number);
    for (const id of ids) touch('pointerdown', id, paths[id][0]);
    const steps = Math.max(...ids.map((id) => paths[id].length));
    for (let i = 1; i < steps; i++) for (const id of ids) if (paths[id][i]) touch('pointermove', id, paths[id][i]);
    if (lift) for (const id of ids) touch('pointerup', id, paths[id][paths[id].length - 1]);
  }

  /** `n` + 1 points from `from` to `to`. */
  function line(from: Point, to: Point, n = 6): Point[] {
    return Array.from({ length: n + 1 }, (_, i): Point => [from[0] + ((to[0] - from[0]) * i) / n, from[1] + ((to[1] - from[1]) * i) / n]);
  }

  before(async function () {
    el = await createViewer(640, 480);
    await el.loadUrl(MODELS.house);
    truth = await truthOf(MODELS.house);
    await frames();
    listening = new AbortController();
    const home = await el.viewpoint();
    const product = (name: string) => truth.products.find((p) => p.name === name)!;
    const grid = (tag: string) => truth.grid!.axes.find((a) => a.tag === tag)!.start;
    const midHeight = (p: ProductTruth) => (p.box!.min[2] + p.box!.max[2]) / 2;
    // The home view looks at the south (y < 0) and west (x < 0) fronts from above.
    wall = product('Wall Level 1 S');
    wallPoint = { x: grid('2')[0], y: wall.box!.min[1], z: midHeight(wall) };
    otherWall = product('Wall Level 1 W');
    const otherPoint = { x: otherWall.box!.min[0], y: grid('B')[1], z: midHeight(otherWall) };
    for (const [p, on] of [[wallPoint, wall], [otherPoint, otherWall]] as const) {
      const inWindow = productsOf(truth, 'IfcWindow', 'IfcDoor').find((w) => (['x', 'y', 'z'] as const).every((c, i) => p[c] >= w.box!.min[i] - 0.3 && p[c] <= w.box!.max[i] + 0.3));
      assert(!inWindow, `${fmt(p)} on ${on.name} is by ${inWindow?.name}`);
    }
    middle = screenPoint(el, home, wallPoint);
    other = screenPoint(el, home, otherPoint);
    middleHit = (await click(middle)) as Required<Hit>;
    assertEqual(middleHit.objectId, objectIdOf(wall.id), `the object at ${middle}, where ${wall.name} shows in the home view`);
    otherHit = (await click(other)) as Required<Hit>;
    assertEqual(otherHit.objectId, objectIdOf(otherWall.id), `the object at ${other}, where ${otherWall.name} shows in the home view`);
    // Background: a corner of the canvas outside the screen rectangle of the house's box and its grid.
    corner = elementPoint(el, 0.02, 0.02);
    const drawn = [...corners(truth.box!), ...truth.grid!.axes.flatMap((a) => [vec3(a.start), vec3(a.end)])].map((p) => project(el, home, p));
    assert(drawn.every((p) => p.depth > 0), 'the whole house is in front of the camera');
    const margin = 20; // tags around the ends of the grid axes
    assert(corner[0] < Math.min(...drawn.map((p) => p.x)) - margin || corner[1] < Math.min(...drawn.map((p) => p.y)) - margin, `the corner ${corner} is outside the house on screen`);
    listening.abort();
    await el.deselectAll();
  });

  after(async () => {
    await resetMouse();
    await removeViewer(el);
  });

  beforeEach(async () => {
    listening = new AbortController();
    el.enableTouch = false;
    el.removeAttribute('enable-touch');
    await el.updateComplete;
    await el.viewpoint('home');
    await el.deselectAll();
  });

  afterEach(async () => {
    listening.abort();
    await sendKeys({ up: 'Control' });
    await resetMouse();
  });

  // ---- click and selection ----------------------------------------------------------

  it('click on the building fires viewer.click with the object and the surface point, then selects it', async () => {
    const clicks = events<Hit>('viewer.click');
    const selects = events<{ selected: string[] }>('viewer.select');
    const order: string[] = [];
    el.addEventListener('viewer.click', () => order.push('click'), { signal: listening.signal });
    el.addEventListener('viewer.select', () => order.push('select'), { signal: listening.signal });

    await sendMouse({ type: 'click', position: middle, button: 'left' });
    await until(() => selects.length > 0, 'viewer.select');

    assertEqual(clicks.length, 1, 'viewer.click events');
    const { objectId, intersects } = clicks[0];
    assertEqual(objectId, objectIdOf(wall.id), `objectId of ${wall.name}`);
    assert(intersects, 'intersects is undefined on the building');
    assertDeepEqual(Object.keys(intersects).sort(), ['normal', 'objectId', 'point']);
    assertEqual(intersects.objectId, objectId, 'intersects.objectId');
    for (const v of [intersects.point, intersects.normal]) {
      for (const c of ['x', 'y', 'z'] as const) assert(Number.isFinite(v[c]), `${c} of ${JSON.stringify(v)}`);
    }
    assert(Math.abs(length(intersects.normal) - 1) < 1e-3, `normal ${fmt(intersects.normal)} is not unit length`);
    const box = wall.box!;
    const margin = 0.01;
    (['x', 'y', 'z'] as const).forEach((c, i) => {
      assert(intersects.point[c] >= box.min[i] - margin && intersects.point[c] <= box.max[i] + margin,
        `point ${fmt(intersects.point)} is outside the box of ${wall.name} (${c})`);
    });
    // The point aimed at (IFC coordinates), to within the pixel the click was rounded to: on the wall's outer face, facing south.
    assert(Math.abs(intersects.point.y - box.min[1]) < 1e-3, `point ${fmt(intersects.point)} is not on the outer face y = ${box.min[1]}`);
    assert(distance(intersects.point, wallPoint) < 0.1, `point ${fmt(intersects.point)} is ${distance(intersects.point, wallPoint).toFixed(3)} m from ${fmt(wallPoint)}`);
    assert(intersects.normal.y < -0.999, `normal ${fmt(intersects.normal)} of the south face`);
    // The surface faces the camera.
    const viewpoint = await el.viewpoint();
    assert(dot(intersects.normal, viewpoint.direction) < 0, `normal ${fmt(intersects.normal)} faces away from the camera`);

    assertDeepEqual(order, ['click', 'select'], 'event order');
    assertDeepEqual(selects, [{ selected: [objectId] }]);
    assertDeepEqual(await el.eachSelected(), [objectId]);
  });

  it('click on the background fires viewer.click with nothing and clears the selection', async () => {
    await el.select(middleHit.objectId);
    const selects = events<{ selected: string[] }>('viewer.select');

    const hit = await click(corner);

    assertEqual(hit.objectId, undefined, 'objectId on the background');
    assertEqual(hit.intersects, undefined, 'intersects on the background');
    await until(() => selects.length > 0, 'viewer.select');
    assertDeepEqual(selects, [{ selected: [] }]);
    assertDeepEqual(await el.eachSelected(), []);
  });

  it('clicking a window\'s glass picks the window (see-through surfaces are pickable)', async () => {
    // A window is a frame (as deep as its box) round a thinner pane of glass (transparency 0.7) in the middle of its depth.
    const window = productsOf(truth, 'IfcWindow')[0];
    const { min, max } = window.box!;
    const thin = max[0] - min[0] < max[1] - min[1] ? 0 : 1;
    const middleOfWindow = vec3(min.map((m, i) => (m + max[i]) / 2));
    // Look at the window across its thin side, from both sides, and click its middle: the glass.
    const views = thin === 0 ? (['left', 'right'] as const) : (['front', 'back'] as const);
    for (const view of views) {
      await el.lookAt(objectIdOf(window.id), view);
      await frames();
      const hit = await click(screenPoint(el, await el.viewpoint(), middleOfWindow));
      assertEqual(hit.objectId, objectIdOf(window.id), `picked from the ${view} through the glass of ${window.name}`);
      // Recessed in the frame: the glass, not the frame's face (half the box's depth from the middle).
      const half = (max[thin] - min[thin]) / 2;
      const depth = Math.abs(hit.intersects!.point[(['x', 'y'] as const)[thin]] - (min[thin] + max[thin]) / 2);
      assert(depth < half / 2, `from the ${view}, the hit is ${depth.toFixed(3)} m off the window's middle plane (its frame's faces: ${half.toFixed(3)} m)`);
    }
  });

  it('cancelling viewer.click prevents selecting', async () => {
    await el.select(otherHit.objectId);
    cancel('viewer.click');
    const selects = events('viewer.select');

    const hit = await click(middle);
    await sleep(300);

    assertEqual(hit.objectId, middleHit.objectId, 'the click still reports the object');
    assertEqual(selects.length, 0, 'viewer.select events after a cancelled click');
    assertDeepEqual(await el.eachSelected(), [otherHit.objectId], 'selection after a cancelled click');
  });

  it('Ctrl+click adds an object to the selection and removes a selected one', async () => {
    const selects = events<{ selected: string[] }>('viewer.select');
    await click(middle);
    assertDeepEqual(await el.eachSelected(), [middleHit.objectId], 'after a plain click');

    await sendKeys({ down: 'Control' });
    try {
      await click(other);
      await until(() => selects.length >= 2, 'viewer.select after Ctrl+click on a second object');
      const both = [middleHit.objectId, otherHit.objectId].sort();
      assertDeepEqual([...selects[1].selected].sort(), both, 'viewer.select after Ctrl+click on a second object');
      assertDeepEqual([...(await el.eachSelected())].sort(), both, 'selection after Ctrl+click on a second object');

      await click(middle);
      await until(() => selects.length >= 3, 'viewer.select after Ctrl+click on a selected object');
      assertDeepEqual(selects[2].selected, [otherHit.objectId], 'viewer.select after Ctrl+click on a selected object');
      assertDeepEqual(await el.eachSelected(), [otherHit.objectId], 'selection after Ctrl+click on a selected object');
    } finally {
      await sendKeys({ up: 'Control' });
    }
  });

  it('selecting through the API fires no viewer.select', async () => {
    const selects = events('viewer.select');
    await el.select(middleHit.objectId);
    await el.select([otherHit.objectId]);
    await el.deselect(middleHit.objectId);
    await sleep(300);
    assertDeepEqual(await el.eachSelected(), [otherHit.objectId]);
    await el.deselectAll();
    await sleep(100);
    assertEqual(selects.length, 0, 'viewer.select events from API calls');
  });

  // ---- double click and context menu -----------------------------------------------

  /**
   * Two quick real clicks, then the dblclick the browser fires for them. Playwright's
   * mouse (behind sendMouse) presses with clickCount 1 every time, so Chromium never
   * counts two clicks and fires no dblclick of its own: when none came, a synthetic
   * dblclick (detail 2, same position) is dispatched on the canvas, as a real double
   * click would deliver it.
   */
  async function doubleClick(at: Point) {
    const native: Event[] = [];
    canvas().addEventListener('dblclick', (e) => native.push(e), { signal: listening.signal });
    await sendMouse({ type: 'click', position: at, button: 'left' });
    await sendMouse({ type: 'click', position: at, button: 'left' });
    await sleep(50);
    if (native.length === 0) {
      canvas().dispatchEvent(new MouseEvent('dblclick', {
        clientX: at[0], clientY: at[1], detail: 2, button: 0, bubbles: true, cancelable: true, composed: true,
      }));
    }
  }

  it('double click looks at the object and fires viewer.doubleclick and viewer.viewpoint', async () => {
    const doubles = events<Hit>('viewer.doubleclick');
    const viewpoints = events<{ viewpoint: Viewpoint }>('viewer.viewpoint');
    const before = await el.viewpoint();
    const box = { min: vec3(otherWall.box!.min), max: vec3(otherWall.box!.max) };
    const offAxis = degrees(sub(centre(box), before.location), before.direction);

    await doubleClick(other);
    await until(() => doubles.length > 0, 'viewer.doubleclick');

    assertEqual(doubles.length, 1, 'viewer.doubleclick events');
    assertEqual(doubles[0].objectId, otherHit.objectId, 'viewer.doubleclick objectId');
    assertEqual(doubles[0].intersects?.objectId, otherHit.objectId, 'viewer.doubleclick intersects.objectId');
    await until(() => viewpoints.length > 0, 'viewer.viewpoint');
    const after = await el.viewpoint();
    assertDeepEqual(viewpoints[viewpoints.length - 1].viewpoint, after, 'viewer.viewpoint carries the new viewpoint');
    assert(distance(after.location, before.location) > 0.1, `the camera did not move (${fmt(before.location)} → ${fmt(after.location)})`);
    const angle = degrees(sub(centre(box), after.location), after.direction);
    assert(angle < Math.min(10, offAxis / 2), `the object's centre is ${angle.toFixed(1)}° off the view direction (was ${offAxis.toFixed(1)}°)`);
  });

  it('cancelling viewer.doubleclick keeps the viewpoint', async () => {
    cancel('viewer.doubleclick');
    const doubles = events<Hit>('viewer.doubleclick');
    const viewpoints = events('viewer.viewpoint');
    const before = await el.viewpoint();

    await doubleClick(other);
    await until(() => doubles.length > 0, 'viewer.doubleclick');
    await sleep(300);

    assertEqual(doubles[0].objectId, otherHit.objectId, 'viewer.doubleclick objectId');
    assertDeepEqual(await el.viewpoint(), before, 'viewpoint after a cancelled double click');
    assertEqual(viewpoints.length, 0, 'viewer.viewpoint events after a cancelled double click');
  });

  it('right click fires viewer.contextmenu with the object and suppresses the browser menu', async () => {
    const menus = events<Hit>('viewer.contextmenu');
    const clicks = events('viewer.click');
    const native: MouseEvent[] = [];
    const onNative = (e: MouseEvent) => native.push(e);
    window.addEventListener('contextmenu', onNative, { capture: true, signal: listening.signal });

    await sendMouse({ type: 'click', position: middle, button: 'right' });
    await until(() => menus.length > 0, 'viewer.contextmenu');

    assertEqual(menus.length, 1, 'viewer.contextmenu events');
    assertEqual(menus[0].objectId, middleHit.objectId, 'viewer.contextmenu objectId');
    assertEqual(menus[0].intersects?.objectId, middleHit.objectId, 'viewer.contextmenu intersects.objectId');
    assert(distance(menus[0].intersects!.point, middleHit.intersects.point) < 1e-3, 'viewer.contextmenu point');
    assertEqual(native.length, 1, 'native contextmenu events');
    assertEqual(native[0].defaultPrevented, true, 'the native contextmenu was not cancelled (the browser menu would open)');
    assertEqual(clicks.length, 0, 'viewer.click events from a right click');

    await sendMouse({ type: 'click', position: corner, button: 'right' });
    await until(() => menus.length > 1, 'viewer.contextmenu on the background');
    assertEqual(menus[1].objectId, undefined, 'objectId on the background');
    assertEqual(menus[1].intersects, undefined, 'intersects on the background');
  });

  // ---- mouse navigation ---------------------------------------------------------------

  it('left drag orbits about the point under the cursor, showing the orbit sphere', async () => {
    const viewpoints = events<{ viewpoint: Viewpoint }>('viewer.viewpoint');
    const selects = events('viewer.select');
    const clicks = events('viewer.click');
    const pivot = middleHit.intersects.point;
    const before = await el.viewpoint();
    let sphereWhileHeld = false;
    let sphereDistance = NaN;
    let viewpointsWhileHeld = -1;

    await drag(middle, [middle[0] + 120, middle[1] + 40], 'left', () => {
      const sphere = orbitSphere();
      sphereWhileHeld = sphere.visible;
      sphereDistance = distance(sphere.position, cameraPosition());
      viewpointsWhileHeld = viewpoints.length;
    });
    await until(() => viewpoints.length > 0, 'viewer.viewpoint after the drag');
    await sleep(300);

    const after = await el.viewpoint();
    assert(dot(after.direction, before.direction) < 0.99, `direction hardly changed: ${fmt(before.direction)} → ${fmt(after.direction)}`);
    const d0 = distance(before.location, pivot), d1 = distance(after.location, pivot);
    assert(Math.abs(d1 - d0) < 0.01 * d0, `distance to the orbit point changed from ${d0.toFixed(3)} to ${d1.toFixed(3)} m`);
    assertEqual(sphereWhileHeld, true, 'orbit sphere visible while the button is held');
    assert(Math.abs(sphereDistance - d1) < 0.01 * d1, `orbit sphere is ${sphereDistance.toFixed(3)} m from the camera, the orbit point ${d1.toFixed(3)} m`);
    assertEqual(orbitSphere().visible, false, 'orbit sphere visible after the drag');
    assertEqual(viewpointsWhileHeld, 0, 'viewer.viewpoint events during the drag');
    assertEqual(viewpoints.length, 1, 'viewer.viewpoint events for one drag');
    assertDeepEqual(viewpoints[0].viewpoint, after, 'viewer.viewpoint carries the new viewpoint');
    assertEqual(clicks.length + selects.length, 0, 'viewer.click/viewer.select events from a drag');
  });

  for (const button of ['right', 'middle'] as const) {
    it(`${button} drag pans`, async () => {
      const viewpoints = events<{ viewpoint: Viewpoint }>('viewer.viewpoint');
      const before = await el.viewpoint();

      await drag(middle, [middle[0] + 100, middle[1] + 60], button);
      await until(() => viewpoints.length > 0, 'viewer.viewpoint after the drag');
      await sleep(300);

      const after = await el.viewpoint();
      assert(dot(after.direction, before.direction) > 0.9999, `direction changed: ${fmt(before.direction)} → ${fmt(after.direction)}`);
      const moved = sub(after.location, before.location);
      assert(length(moved) > 0.5, `location moved only ${length(moved).toFixed(3)} m`);
      assert(Math.abs(dot(unit(moved), before.direction)) < 0.01, `the pan moved along the view direction: ${fmt(moved)}`);
      // The point under the cursor follows it: the surface point grabbed at the start lies under the end point.
      const pivot = middleHit.intersects.point;
      const seen = degrees(sub(pivot, after.location), after.direction);
      const expected = degrees(sub(pivot, before.location), before.direction);
      assert(seen > expected + 5, `the grabbed point did not move off the view centre (${expected.toFixed(1)}° → ${seen.toFixed(1)}°)`);
      assertEqual(viewpoints.length, 1, 'viewer.viewpoint events for one drag');
      assertEqual(orbitSphere().visible, false, 'orbit sphere after a pan');
    });
  }

  it('right drag pans without opening the context menu', async () => {
    const menus = events<Hit>('viewer.contextmenu');
    const viewpoints = events('viewer.viewpoint');
    let menusWhileHeld = -1;
    await drag(middle, [middle[0] + 100, middle[1] + 60], 'right', () => { menusWhileHeld = menus.length; });
    await sleep(300);
    assertEqual(viewpoints.length, 1, 'viewer.viewpoint events (the drag panned)');
    assertEqual(menus.length, 0, `viewer.contextmenu events from a right drag (pan; ${menusWhileHeld} of them before the button was released)`);
  });

  it('wheel moves the camera towards the point under the cursor', async () => {
    const viewpoints = events<{ viewpoint: Viewpoint }>('viewer.viewpoint');
    const before = await el.viewpoint();
    const target = middleHit.intersects.point;
    // sendMouse has no wheel: a synthetic WheelEvent on the canvas, as the browser sends it.
    const wheels: WheelEvent[] = [];
    for (let i = 0; i < 3; i++) {
      const wheel = new WheelEvent('wheel', { deltaY: -100, deltaMode: 0, clientX: middle[0], clientY: middle[1], bubbles: true, cancelable: true, composed: true });
      canvas().dispatchEvent(wheel);
      wheels.push(wheel);
      await sleep(50);
    }
    const midway = await el.viewpoint();
    assertEqual(viewpoints.length, 0, 'viewer.viewpoint while the wheel turns');
    await until(() => viewpoints.length > 0, 'viewer.viewpoint after the wheel stops', 2000);
    await sleep(400);

    const after = await el.viewpoint();
    assertDeepEqual(midway, after, 'the camera moved after the wheel stopped');
    assert(wheels.every((w) => w.defaultPrevented), 'wheel events not cancelled (the page would scroll)');
    assert(dot(after.direction, before.direction) > 0.9999, `direction changed: ${fmt(before.direction)} → ${fmt(after.direction)}`);
    const d0 = distance(before.location, target), d1 = distance(after.location, target);
    assert(d1 < 0.8 * d0, `distance to the point under the cursor went from ${d0.toFixed(2)} to ${d1.toFixed(2)} m`);
    // Along the line from the camera to that point.
    const offLine = length(cross(unit(sub(target, before.location)), sub(after.location, before.location)));
    assert(offLine < 0.01 * d0, `the camera left the line towards the point by ${offLine.toFixed(3)} m`);
    assertEqual(viewpoints.length, 1, 'viewer.viewpoint events for one wheel burst');
    assertDeepEqual(viewpoints[0].viewpoint, after, 'viewer.viewpoint carries the new viewpoint');

    // And back: the wheel the other way moves away.
    canvas().dispatchEvent(new WheelEvent('wheel', { deltaY: 300, clientX: middle[0], clientY: middle[1], bubbles: true, cancelable: true, composed: true }));
    await until(() => viewpoints.length > 1, 'viewer.viewpoint after wheeling back', 2000);
    assert(distance((await el.viewpoint()).location, target) > d1, 'wheel back did not move away');
  });

  // ---- touch ------------------------------------------------------------------------

  describe('touch', () => {
    // Synthetic pointers are not active pointers, so the browser's setPointerCapture and
    // releasePointerCapture would throw NotFoundError for them: make them no-ops on this
    // canvas while the touch tests run (real touches are active pointers).
    beforeEach(() => {
      const c = canvas() as unknown as Record<string, unknown>;
      c.setPointerCapture = () => undefined;
      c.releasePointerCapture = () => undefined;
    });
    afterEach(() => {
      const c = canvas() as unknown as Record<string, unknown>;
      delete c.setPointerCapture;
      delete c.releasePointerCapture;
    });

    // Gestures centre on `middle`, the wall point the pinch is measured against.
    it('does nothing while enableTouch is false', async () => {
      const [x, y] = middle;
      assertEqual(el.enableTouch, false, 'enableTouch default');
      const viewpoints = events('viewer.viewpoint');
      const before = await el.viewpoint();
      touchGesture({ 11: line([x, y], [x + 120, y + 40]) });
      touchGesture({ 11: line([x - 40, y], [x + 60, y + 40]), 12: line([x + 40, y], [x + 140, y + 40]) });
      touchGesture({ 11: line([x - 20, y], [x - 150, y]), 12: line([x + 20, y], [x + 150, y]) });
      await sleep(300);
      assertDeepEqual(await el.viewpoint(), before, 'viewpoint after touch gestures with touch disabled');
      assertEqual(viewpoints.length, 0, 'viewer.viewpoint events');
    });

    it('one finger orbits when enableTouch is true', async () => {
      el.enableTouch = true;
      await el.updateComplete;
      const viewpoints = events('viewer.viewpoint');
      const before = await el.viewpoint();
      const pivot = middleHit.intersects.point;

      touchGesture({ 11: line(middle, [middle[0] + 120, middle[1] + 40]) }, { lift: false });
      const sphereWhileDown = orbitSphere().visible;
      touch('pointerup', 11, [middle[0] + 120, middle[1] + 40]);

      const after = await el.viewpoint();
      assert(dot(after.direction, before.direction) < 0.99, `direction hardly changed: ${fmt(before.direction)} → ${fmt(after.direction)}`);
      const d0 = distance(before.location, pivot), d1 = distance(after.location, pivot);
      assert(Math.abs(d1 - d0) < 0.01 * d0, `distance to the orbit point changed from ${d0.toFixed(3)} to ${d1.toFixed(3)} m`);
      assertEqual(sphereWhileDown, true, 'orbit sphere while the finger is down');
      assertEqual(orbitSphere().visible, false, 'orbit sphere after the finger lifts');
      assertEqual(viewpoints.length, 1, 'viewer.viewpoint events');
    });

    it('two fingers pan (enable-touch attribute)', async () => {
      const [x, y] = middle;
      el.setAttribute('enable-touch', '');
      await el.updateComplete;
      assertEqual(el.enableTouch, true, 'enableTouch from the attribute');
      const viewpoints = events('viewer.viewpoint');
      const before = await el.viewpoint();

      touchGesture({ 11: line([x - 40, y], [x + 60, y + 50]), 12: line([x + 40, y], [x + 140, y + 50]) });

      const after = await el.viewpoint();
      assert(dot(after.direction, before.direction) > 0.9999, `direction changed: ${fmt(before.direction)} → ${fmt(after.direction)}`);
      const moved = sub(after.location, before.location);
      assert(length(moved) > 0.5, `location moved only ${length(moved).toFixed(3)} m`);
      assert(Math.abs(dot(unit(moved), before.direction)) < 0.05, `a two-finger pan moved along the view direction: ${fmt(moved)}`);
      assertEqual(viewpoints.length, 1, 'viewer.viewpoint events');
    });

    it('pinching apart moves the camera closer', async () => {
      const [x, y] = middle;
      el.enableTouch = true;
      await el.updateComplete;
      const before = await el.viewpoint();
      const target = middleHit.intersects.point;

      const viewpoints = events('viewer.viewpoint');

      touchGesture({ 11: line([x - 30, y], [x - 150, y]), 12: line([x + 30, y], [x + 150, y]) });

      assertEqual(viewpoints.length, 1, 'viewer.viewpoint events');
      const after = await el.viewpoint();
      assert(dot(after.direction, before.direction) > 0.9999, `direction changed: ${fmt(before.direction)} → ${fmt(after.direction)}`);
      const d0 = distance(before.location, target), d1 = distance(after.location, target);
      assert(d1 < 0.8 * d0, `distance to the pinched point went from ${d0.toFixed(2)} to ${d1.toFixed(2)} m`);
    });

    it('a second finger landing during a one-finger orbit leaves no orbit sphere behind', async () => {
      const [x, y] = middle;
      el.enableTouch = true;
      await el.updateComplete;
      // The first finger starts orbiting before the second lands, as happens with real hands.
      touch('pointerdown', 11, [x - 40, y]);
      for (const p of line([x - 40, y], [x - 20, y], 2).slice(1)) touch('pointermove', 11, p);
      assertEqual(orbitSphere().visible, true, 'orbit sphere during the one-finger orbit');
      touchGesture({ 12: line([x + 40, y], [x + 80, y + 30]) }, { lift: false });
      touch('pointerup', 11, [x - 20, y]);
      touch('pointerup', 12, [x + 80, y + 30]);
      await frames();
      assertEqual(orbitSphere().visible, false, 'orbit sphere after both fingers lifted');
    });
  });
});
