// The 2D viewer under a real mouse (Playwright through sendMouse/sendKeys: trusted events
// through the browser's hit testing): click, Ctrl+click, double click, context menu, pan,
// wheel zoom, markers (click, hover, drag) and the viewpoint arrow. The wheel and the
// second click of a double click are synthesised where sendMouse cannot send them (said
// where it happens).
import { sendKeys } from '@web/test-runner-commands';
import type { BimViewer2d } from '../src/elements/bim-viewer-2d';
import type { Location3, Marker, ViewpointChange } from '../src/core/viewer2d/types';
import { assert, assertAlmostEqual, assertDeepEqual, assertEqual } from './support/assert';
import { drag, releaseMouse, sendMouse, type Point } from './support/input';
import { PLAN_MODELS, createViewer2d, planSvg, removeViewer2d } from './support/viewer2d';
import { truthOf } from './support/samples';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Core {
  toScreen(x: number, y: number): [number, number];
  toView(px: number, py: number): [number, number];
  zoomState(): { k: number; x: number; y: number };
}

describe('<bim-viewer-2d> with the mouse', function () {
  let el: BimViewer2d;
  let core: Core;
  /** Level 1 of the house (not at 0 m, so events' z says which storey). */
  let level1: string;
  let level1Z: number;
  /** Its rooms 101 (the hall, around the stair opening) and 102 (the kitchen). */
  let hall: string;
  let kitchen: string;
  let listening: AbortController;

  /** Page pixel of a view point. */
  const page = (x: number, y: number): Point => {
    const [sx, sy] = core.toScreen(x, y);
    const r = planSvg(el).getBoundingClientRect();
    return [Math.round(r.left + sx), Math.round(r.top + sy)];
  };
  /** A page point inside a space, away from its label. */
  const inside = (id: string, fx = 0.5, fy = 0.2): Point => {
    const b = el.getBoundingBox(id)!;
    return page(b.x + b.width * fx, b.y + b.height * fy);
  };
  const viewOf = (p: Point): [number, number] => {
    const r = planSvg(el).getBoundingClientRect();
    return core.toView(p[0] - r.left, p[1] - r.top);
  };
  function events<T>(name: string, cancel = false): T[] {
    const seen: T[] = [];
    el.addEventListener(name, (e) => {
      seen.push((e as CustomEvent<T>).detail);
      if (cancel) e.preventDefault();
    }, { signal: listening.signal });
    return seen;
  }

  before(async () => {
    level1Z = (await truthOf(PLAN_MODELS.house)).storeys.find((s) => s.name === 'Level 1')!.elevation;
    el = await createViewer2d(640, 480);
    await el.loadUrl(PLAN_MODELS.house);
    core = (el as unknown as { core: Core }).core;
    level1 = el.getStoreys().find((s) => s.name === 'Level 1')!.id;
    await el.showStorey(level1);
    const spaces = el.getSpaces({ storeyId: level1 });
    hall = spaces.find((s) => s.name === '101')!.id;
    kitchen = spaces.find((s) => s.name === '102')!.id;
  });
  after(() => removeViewer2d(el));
  beforeEach(async () => {
    listening = new AbortController();
    await el.unselect();
    await el.clearMarkers();
    await el.lookAt(level1);
  });
  afterEach(async () => {
    listening.abort();
    await sendKeys({ up: 'Control' }).catch(() => undefined);
    await releaseMouse();
  });

  it('click on a space: viewer2d.click with the location (z = storey height) and id, then viewer2d.select', async () => {
    const clicks = events<{ location: Location3; id?: string }>('viewer2d.click');
    const selects = events<{ selected: string[] }>('viewer2d.select');
    const at = inside(hall);
    await sendMouse({ type: 'click', position: at });
    assertEqual(clicks.length, 1);
    assertEqual(clicks[0].id, hall);
    const [x, y] = viewOf(at);
    assertAlmostEqual(clicks[0].location.x, x, 0.1);
    assertAlmostEqual(clicks[0].location.y, y, 0.1);
    assertEqual(clicks[0].location.z, level1Z, 'Level 1\'s elevation');
    assertDeepEqual(selects.map((s) => s.selected), [[hall]]);
    assertDeepEqual(el.getSelected(), [hall]);
  });

  it('Ctrl+click adds to the selection (and removes again); a click on nothing clears it, with id undefined', async () => {
    const clicks = events<{ location: Location3; id?: string }>('viewer2d.click');
    const selects = events<{ selected: string[] }>('viewer2d.select');
    await sendMouse({ type: 'click', position: inside(hall) });
    await sendKeys({ down: 'Control' });
    await sendMouse({ type: 'click', position: inside(kitchen) });
    assertDeepEqual(el.getSelected().sort(), [hall, kitchen].sort());
    await sendMouse({ type: 'click', position: inside(hall) });
    assertDeepEqual(el.getSelected(), [kitchen]);
    await sendKeys({ up: 'Control' });
    await sendMouse({ type: 'click', position: [5, 5] });
    assertEqual(clicks.at(-1)!.id, undefined, 'no space under the cursor');
    assert('location' in clicks.at(-1)!, 'a location all the same');
    assertDeepEqual(el.getSelected(), []);
    assertEqual(selects.length, 4);
    assertDeepEqual(selects.at(-1)!.selected, []);
  });

  it('a click in the stair opening, inside the hall\'s outline, is on no space', async () => {
    const truth = await truthOf(PLAN_MODELS.house);
    // The flight coming up from the ground floor lies under the hole in the hall's footprint.
    const flight = truth.products.find((p) => p.type === 'IfcStairFlight' && p.storey === truth.storeys[0].id)!.box!;
    const clicks = events<{ location: Location3; id?: string }>('viewer2d.click');
    await sendMouse({ type: 'click', position: inside(hall) });
    assertDeepEqual(el.getSelected(), [hall]);
    await sendMouse({ type: 'click', position: page((flight.min[0] + flight.max[0]) / 2, (flight.min[1] + flight.max[1]) / 2) });
    assertEqual(clicks.length, 2);
    assertEqual(clicks[1].id, undefined, 'the hole is not the hall');
    assertDeepEqual(el.getSelected(), []);
  });

  it('returning false from viewer2d.click (preventDefault) keeps the selection', async () => {
    events('viewer2d.click', true);
    const selects = events('viewer2d.select');
    await sendMouse({ type: 'click', position: inside(hall) });
    assertEqual(selects.length, 0);
    assertDeepEqual(el.getSelected(), []);
  });

  /** Two real clicks, and the dblclick Chromium does not derive from Playwright's clicks (see viewer3d-interaction). */
  async function doubleClick(at: Point) {
    const native: Event[] = [];
    planSvg(el).addEventListener('dblclick', (e) => native.push(e), { signal: listening.signal });
    await sendMouse({ type: 'click', position: at });
    await sendMouse({ type: 'click', position: at });
    await sleep(50);
    if (native.length === 0) {
      const target = el.shadowRoot!.elementFromPoint(at[0], at[1]) ?? planSvg(el);
      target.dispatchEvent(new MouseEvent('dblclick', { clientX: at[0], clientY: at[1], detail: 2, button: 0, bubbles: true, cancelable: true, composed: true }));
    }
  }

  it('double click on a space zooms to it (viewer2d.dblclick); cancelled, it does not', async () => {
    const doubles = events<{ location: Location3; id?: string }>('viewer2d.dblclick');
    const k0 = core.zoomState().k;
    await doubleClick(inside(kitchen));
    assertEqual(doubles.length, 1);
    assertEqual(doubles[0].id, kitchen);
    assert(core.zoomState().k > k0 * 1.5, `zoomed in: ${k0} -> ${core.zoomState().k}`);
    await el.lookAt(level1);
    events('viewer2d.dblclick', true);
    await doubleClick(inside(kitchen));
    assertAlmostEqual(core.zoomState().k, k0, 1e-9, 'cancelled: no zoom');
  });

  it('right click: viewer2d.contextmenu with location and id; the browser menu is suppressed', async () => {
    const menus = events<{ location: Location3; id?: string }>('viewer2d.contextmenu');
    const natives: Event[] = [];
    planSvg(el).addEventListener('contextmenu', (e) => natives.push(e), { signal: listening.signal });
    await sendMouse({ type: 'click', position: inside(hall), button: 'right' });
    assertEqual(menus.length, 1);
    assertEqual(menus[0].id, hall);
    assertEqual(menus[0].location.z, level1Z);
    assert(natives[0]?.defaultPrevented, 'no browser context menu');
  });

  it('drag pans the plan (and is no click); the wheel zooms around the cursor', async () => {
    const clicks = events('viewer2d.click');
    const before = core.zoomState();
    const from = inside(hall);
    await drag(from, [from[0] + 100, from[1] + 40], { steps: 8 });
    const after = core.zoomState();
    assertAlmostEqual(after.x - before.x, 100, 1.5);
    assertAlmostEqual(after.y - before.y, 40, 1.5);
    assertEqual(after.k, before.k);
    assertEqual(clicks.length, 0, 'a drag is not a click');
    // sendMouse has no wheel: a WheelEvent on the SVG, as the browser sends it.
    const at = inside(kitchen);
    const under = viewOf(at);
    planSvg(el).dispatchEvent(new WheelEvent('wheel', { deltaY: -200, deltaMode: 0, clientX: at[0], clientY: at[1], bubbles: true, cancelable: true, composed: true }));
    await sleep(50);
    assert(core.zoomState().k > after.k * 1.2, 'zoomed in');
    const still = viewOf(at);
    assertAlmostEqual(still[0], under[0], 0.05, 'the point under the cursor stays (x)');
    assertAlmostEqual(still[1], under[1], 0.05, 'the point under the cursor stays (y)');
  });

  it('a pinch zooms (synthetic touches: the test runner has no touch input)', async () => {
    const svg = planSvg(el);
    const centre = inside(kitchen);
    const touch = (id: number, x: number, y: number) => new Touch({ identifier: id, target: svg, clientX: x, clientY: y });
    const send = (type: string, touches: Touch[], changed: Touch[]) => {
      svg.dispatchEvent(new TouchEvent(type, { touches: type === 'touchend' ? [] : touches, targetTouches: touches, changedTouches: changed, bubbles: true, cancelable: true, composed: true }));
    };
    const k0 = core.zoomState().k;
    let a = touch(1, centre[0] - 20, centre[1]), b = touch(2, centre[0] + 20, centre[1]);
    send('touchstart', [a, b], [a, b]);
    for (let d = 30; d <= 80; d += 10) {
      a = touch(1, centre[0] - d, centre[1]);
      b = touch(2, centre[0] + d, centre[1]);
      send('touchmove', [a, b], [a, b]);
    }
    send('touchend', [], [a, b]);
    assertAlmostEqual(core.zoomState().k / k0, 4, 0.2, 'fingers 40 -> 160 px apart: four times the scale');
  });

  it('markers: hover (markerhover, cancellable), click (markerclick, then the plan click unless cancelled)', async () => {
    const b = el.getBoundingBox(kitchen)!;
    const id = el.addMarker({ x: b.x + 1, y: b.y + 1, clickable: true, color: 'orange', text: 'Valve', data: { tag: 'V-1' } });
    const hovers = events<{ marker: Marker }>('viewer2d.markerhover');
    const clicks = events<{ marker: Marker }>('viewer2d.markerclick');
    const planClicks = events('viewer2d.click');
    const at = page(b.x + 1, b.y + 1);
    await sendMouse({ type: 'move', position: [at[0] - 40, at[1]] });
    await sendMouse({ type: 'move', position: at });
    assertEqual(hovers.length, 1);
    assertDeepEqual(hovers[0].marker, { id, x: b.x + 1, y: b.y + 1, color: 'orange', text: 'Valve', data: { tag: 'V-1' } });
    const node = planSvg(el).querySelector('g.marker')!;
    assertEqual(node.getAttribute('data-hover'), 'true', 'highlighted');
    await sendMouse({ type: 'click', position: at });
    assertEqual(clicks.length, 1);
    assertEqual(clicks[0].marker.id, id);
    assertEqual(planClicks.length, 1, 'the click goes on to the plan');
    // Cancelled: no plan click, no highlight.
    listening.abort();
    listening = new AbortController();
    events('viewer2d.markerclick', true);
    events('viewer2d.markerhover', true);
    const planClicks2 = events('viewer2d.click');
    await sendMouse({ type: 'move', position: [5, 5] });
    assertEqual(node.getAttribute('data-hover'), null);
    await sendMouse({ type: 'move', position: at });
    assertEqual(node.getAttribute('data-hover'), null, 'markerhover cancelled: no highlight');
    await sendMouse({ type: 'click', position: at });
    assertEqual(planClicks2.length, 0, 'markerclick cancelled: the plan sees no click');
  });

  it('a draggable marker dragged with the mouse moves and reports its new place (viewer2d.markerdrag)', async () => {
    const b = el.getBoundingBox(hall)!;
    const id = el.addMarker({ x: b.x + 0.5, y: b.y + 1, draggable: true, text: 'drag me' });
    const drags = events<{ marker: Marker }>('viewer2d.markerdrag');
    const clicks = events('viewer2d.click');
    const selects = events('viewer2d.select');
    const before = core.zoomState();
    const from = page(b.x + 0.5, b.y + 1);
    const to: Point = [from[0] + 60, from[1] - 80];
    await drag(from, to, { steps: 10 });
    assertEqual(drags.length, 1);
    const [x, y] = viewOf(to);
    const moved = el.getMarkers().find((m) => m.id === id)!;
    assertAlmostEqual(moved.x, x, 0.1);
    assertAlmostEqual(moved.y, y, 0.1);
    assertDeepEqual(drags[0].marker, moved, 'the event reports where it is now');
    assertDeepEqual(core.zoomState(), before, 'the plan did not pan');
    assertEqual(clicks.length + selects.length, 0, 'a drag is no click');
    // Cancelled: it goes back.
    events('viewer2d.markerdrag', true);
    await drag(to, [to[0] - 50, to[1] + 20], { steps: 5 });
    assertDeepEqual(el.getMarkers().find((m) => m.id === id), moved, 'back where it was');
  });

  it('dragging the viewpoint arrow moves it, dragging its head turns it: viewer2d.viewpoint', async () => {
    const b = el.getBoundingBox(kitchen)!;
    await el.setViewpoint({ location: { x: b.x + 1, y: b.y + 1 }, direction: 0 });
    const changes = events<{ viewpoint: ViewpointChange }>('viewer2d.viewpoint');
    const from = page(b.x + 1, b.y + 1);
    const to: Point = [from[0] + 50, from[1] + 30];
    await drag(from, to, { steps: 6 });
    assert(changes.length >= 1, 'reported while dragging');
    const [x, y] = viewOf(to);
    const last = changes.at(-1)!.viewpoint;
    assertAlmostEqual(last.location.x, x, 0.1);
    assertAlmostEqual(last.location.y, y, 0.1);
    assertEqual(last.location.z, level1Z);
    assertDeepEqual(el.getViewpoint().location, last.location);
    // The head points to +x (rotation 0), 18 px from the centre: drag it to straight up on screen.
    await drag([to[0] + 18, to[1]], [to[0], to[1] - 40], { steps: 6 });
    const turned = changes.at(-1)!.viewpoint;
    assertAlmostEqual(turned.rotation, 90, 1, 'pointing +y (up on screen)');
    assertAlmostEqual(turned.direction.y, 1, 1e-3);
    assertDeepEqual(turned.location, last.location, 'turning does not move it');
  });
});
