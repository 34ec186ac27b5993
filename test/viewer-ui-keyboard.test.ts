// The widget's keyboard shortcuts (seed 002 "Keyboard shortcuts", COMPAT.md), with real
// key presses (Playwright through sendKeys) on a focused viewer showing the sample house.
import { sendKeys } from '@web/test-runner-commands';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { BimViewerUi } from '../src/elements/bim-viewer-ui';
import { assert, assertEqual } from './support/assert';
import { elementPoint, resetMouse, sendMouse, type Point } from './support/input';
import { pixelDifference, resetObjects } from './support/viewer';
import { angle, clickObject, dist, frames, openWidgetOnHouse, removeWidget, sleep, until } from './support/viewer-ui';

describe('<bim-viewer-ui> keyboard', function () {
  let ui: BimViewerUi;
  let el: BimViewer3d;
  let middle: Point;
  let corner: Point;

  const click = (at: Point) => clickObject(el, at);

  /** Holds a key for `ms`. */
  async function hold(key: string, ms = 500) {
    await sendKeys({ down: key });
    await sleep(ms);
    await sendKeys({ up: key });
    await sleep(50);
  }

  before(async function () {
    ({ ui, el, middle, corner } = await openWidgetOnHouse({ 'enable-keyboard': '' }));
  });

  after(async () => {
    await resetMouse();
    await removeWidget({ ui, el });
  });

  beforeEach(async () => {
    await el.viewpoint('home');
    await resetObjects(el); // spaces hidden, as after loading
    await frames();
    await click(corner); // focuses the viewer's canvas
  });

  it('w held moves forward, s back', async function () {
    const before = await el.viewpoint();
    await hold('w');
    const after = await el.viewpoint();
    const moved = dist(before.location, after.location);
    assert(moved > 0.3, `w moved the camera ${moved.toFixed(3)} m`);
    const along = ((after.location.x - before.location.x) * before.direction.x + (after.location.y - before.location.y) * before.direction.y + (after.location.z - before.location.z) * before.direction.z);
    assert(along > 0, 'w moved forward');
    await hold('s');
    const back = await el.viewpoint();
    assert(dist(back.location, before.location) < moved, 's moved back');
  });

  it('arrow keys and x/c move; q/e turn; r/f tilt', async function () {
    const start = await el.viewpoint();
    await hold('x', 400);
    const up = await el.viewpoint();
    assert(up.location.z - start.location.z > 0.2, `x moved up ${(up.location.z - start.location.z).toFixed(3)}`);
    await hold('c', 400);
    const down = await el.viewpoint();
    assert(down.location.z < up.location.z - 0.2, 'c moved down');
    await hold('q', 400);
    const turned = await el.viewpoint();
    assert(angle(turned.direction, down.direction) > 5, `q turned ${angle(turned.direction, down.direction).toFixed(1)} degrees`);
    await hold('r', 400);
    const tilted = await el.viewpoint();
    assert(tilted.direction.z > turned.direction.z + 0.05, 'r looked up');
    await hold('ArrowLeft', 400);
    const left = await el.viewpoint();
    assert(dist(left.location, tilted.location) > 0.3, 'ArrowLeft moved');
  });

  it('0-5 go to the named views', async function () {
    await sendKeys({ press: '5' });
    await until(async () => (await el.viewpoint()).direction.z < -0.99, 'the top view');
    await sendKeys({ press: '3' });
    await until(async () => Math.abs((await el.viewpoint()).direction.z) < 0.01, 'the front view');
    const front = await el.viewpoint();
    await sendKeys({ press: '1' });
    await until(async () => angle((await el.viewpoint()).direction, front.direction) > 170, 'the back view');
    await sendKeys({ press: '0' });
    await sleep(100);
  });

  it('h hides the selection, Shift+g shows all, g shows it, Shift+h hides the others', async function () {
    const id = await click(middle);
    assert(id, 'the middle of the view is on the building');
    await sendKeys({ press: 'h' });
    await until(async () => (await click(middle)) !== id, 'the object hidden');
    await el.select([id!]);
    await sendKeys({ press: 'Shift+G' });
    await until(async () => (await click(middle)) === id, 'the object shown again');
    // select it (the click above did), hide the others: only it is left
    await sendKeys({ press: 'Shift+H' });
    await until(async () => (await click(corner)) === undefined && (await click(middle)) === id, 'the others hidden');
    await el.select([id!]);
    await sendKeys({ press: 'h' });
    await until(async () => (await click(middle)) === undefined, 'nothing left');
    await el.select([id!]);
    await sendKeys({ press: 'g' });
    await until(async () => (await click(middle)) === id, 'g showed it');
    await sendKeys({ press: 'o' });
  });

  it('show all keeps the spaces hidden (setSpaces), unless spaces are visible', async function () {
    const id = await click(middle);
    await ui.setSpaces([id!]); // pretend the object at the middle is a space
    await until(async () => (await click(middle)) !== id, 'the "space" hidden');
    await sendKeys({ press: 'Shift+G' });
    await sleep(300);
    assert((await click(middle)) !== id, 'show all kept the space hidden');
    await ui.setSpacesVisible(true);
    await until(async () => (await click(middle)) === id, 'setSpacesVisible(true) showed it');
    await ui.setSpacesVisible(false);
    await until(async () => (await click(middle)) !== id, 'setSpacesVisible(false) hid it');
    await ui.setSpaces([]);
  });

  it('Delete hides the selection, or removes the selected clipping plane (and nothing else)', async function () {
    const id = await click(middle);
    assert(id, 'an object selected');
    await sendKeys({ press: 'Delete' });
    await until(async () => (await click(middle)) !== id, 'Delete hid the selection');
    await resetObjects(el);
    await click(corner);
    // As viewer3d-clipping.test.ts: looking down, Shift+click selects the upper plane.
    const planes = [
      { location: { x: 0, y: 0, z: 2.5 }, direction: { x: 0, y: 0, z: 1 } },
      { location: { x: 0, y: 0, z: -50 }, direction: { x: 0, y: 0, z: -1 } },
    ];
    await el.clippingPlanes(planes);
    await el.viewpoint('top');
    await frames();
    await el.deselectAll();
    await sendKeys({ down: 'Shift' });
    await sendMouse({ type: 'click', position: middle });
    await sendKeys({ up: 'Shift' });
    const selected = await el.eachSelected();
    await sendKeys({ press: 'Delete' });
    await until(async () => (await el.clippingPlanes()).length === 1, 'the viewer removed the selected plane');
    assertEqual(JSON.stringify(await el.eachSelected()), JSON.stringify(selected), 'the widget did not hide or change the selection');
    await el.clippingPlanes([]);
    await el.deselectAll();
  });

  it('t makes the selection translucent, Shift+t and i the others', async function () {
    const shot0 = await el.screenshot();
    const id = await click(middle);
    assert(id, 'an object selected');
    await el.deselectAll();
    await el.select([id!]);
    const shot1 = await el.screenshot();
    await sendKeys({ press: 't' });
    await sleep(200);
    const shot2 = await el.screenshot();
    assert((await pixelDifference(shot1, shot2)) > 0.005, 't changed the picture');
    await el.opaqueAll();
    await sendKeys({ press: 'i' });
    await sleep(200);
    const shot3 = await el.screenshot();
    assert((await pixelDifference(shot1, shot3)) > 0.01, 'i changed the picture');
    await el.opaqueAll();
    await sendKeys({ press: 'Shift+T' });
    await sleep(200);
    assert((await pixelDifference(shot3, await el.screenshot())) < 0.01, 'Shift+t as i');
    assert(shot0.startsWith('data:image/png'), 'screenshots');
  });

  it('l looks at the selection', async function () {
    const id = await click(middle);
    const before = await el.viewpoint();
    await sendKeys({ press: 'l' });
    await until(async () => dist((await el.viewpoint()).location, before.location) > 0.5, 'the camera moved to the object', 4000);
    assert(id, 'an object was selected');
  });

  it('keys do nothing while a text field has the focus, nor without enableKeyboard', async function () {
    const input = document.createElement('input');
    input.style.cssText = 'position:fixed;left:700px;top:10px;width:100px';
    document.body.appendChild(input);
    try {
      await sendMouse({ type: 'click', position: elementPoint(input) });
      const before = await el.viewpoint();
      await hold('w');
      assert(input.value.includes('w'), 'the key went to the field');
      assert(dist((await el.viewpoint()).location, before.location) < 1e-6, 'the camera did not move');
    } finally {
      input.remove();
    }
    ui.enableKeyboard = false;
    await ui.updateComplete;
    try {
      await click(corner);
      const before = await el.viewpoint();
      await hold('w');
      assert(dist((await el.viewpoint()).location, before.location) < 1e-6, 'no movement without enableKeyboard');
    } finally {
      ui.enableKeyboard = true;
      await ui.updateComplete;
    }
  });
});
