// The widget's context menu (seed 002 `enableContextMenu`, COMPAT.md "Context menu
// entries"): real right clicks, real clicks on the entries and real keys (sendMouse,
// sendKeys) on a viewer showing the sample house.
import { sendKeys } from '@web/test-runner-commands';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { BimViewerUi } from '../src/elements/bim-viewer-ui';
import type { Intersection } from '../src/core/types';
import { assert, assertEqual } from './support/assert';
import { elementPoint, resetMouse, sendMouse, type Point } from './support/input';
import { resetObjects } from './support/viewer';
import { angle, clickObject, dist, frames, openWidgetOnHouse, removeWidget, sleep, until } from './support/viewer-ui';

describe('<bim-viewer-ui> context menu', function () {
  let ui: BimViewerUi;
  let el: BimViewer3d;
  let middle: Point;
  let corner: Point;

  const menu = () => ui.shadowRoot!.querySelector('.context-menu') as HTMLElement;
  const item = (action: string) => menu().querySelector(`[data-action="${action}"]`) as HTMLButtonElement;
  const isOpen = () => !menu().hidden;

  const click = (at: Point) => clickObject(el, at);

  /** A real right click; resolves to the viewer.contextmenu detail once the menu is open. */
  async function rightClick(at: Point): Promise<{ objectId?: string; intersects?: Intersection }> {
    const seen: { objectId?: string; intersects?: Intersection }[] = [];
    const listen = (e: Event) => seen.push((e as CustomEvent).detail);
    el.addEventListener('viewer.contextmenu', listen);
    await sendMouse({ type: 'click', position: at, button: 'right' });
    await until(() => seen.length > 0 && isOpen(), 'the context menu');
    el.removeEventListener('viewer.contextmenu', listen);
    return seen[0];
  }

  async function choose(action: string) {
    const target = item(action);
    assert(target.getAttribute('aria-disabled') !== 'true', `${action} is enabled`);
    await sendMouse({ type: 'click', position: elementPoint(target) });
    await until(() => !isOpen(), 'the menu closed');
  }

  before(async function () {
    ({ ui, el, middle, corner } = await openWidgetOnHouse({ 'enable-context-menu': '' }));
  });

  after(async () => {
    await resetMouse();
    await removeWidget({ ui, el });
  });

  beforeEach(async () => {
    // objects first: home fits what is shown (after isolate, only that object)
    await resetObjects(el);
    await el.clippingPlanes([]);
    await el.viewpoint('home');
    await frames();
  });

  it('opens at the pointer with every entry, as text, and closes on Escape and outside clicks', async function () {
    await rightClick(middle);
    const box = menu().getBoundingClientRect();
    // At the pointer, moved up just enough to stay inside the viewer.
    assert(Math.abs(box.left - middle[0]) <= 2 && box.top <= middle[1] + 2 && box.bottom >= middle[1] && box.bottom <= 480 + 1, `menu at ${box.left},${box.top}-${box.bottom}, pointer at ${middle}`);
    const labels = Array.from(menu().querySelectorAll('.item')).map((b) => b.textContent);
    assertEqual(labels.join('|'), 'Show all|Hide|Hide others|Make translucent|Isolate|Look at|Remove clipping planes|Add clipping plane|Section top and bottom');
    assert(ui.shadowRoot!.activeElement === item('showAll'), 'the first entry has the focus');
    await sendKeys({ press: 'Escape' });
    await until(() => !isOpen(), 'Escape closed the menu');
    await rightClick(middle);
    await sendMouse({ type: 'click', position: corner });
    await until(() => !isOpen(), 'a click elsewhere closed the menu');
  });

  it('hide, show all, hide others and isolate act on the clicked object', async function () {
    const { objectId } = await rightClick(middle);
    assert(objectId, 'the right click hit the building');
    await choose('hide');
    await until(async () => (await click(middle)) !== objectId, 'the object hidden');
    await rightClick(corner);
    await choose('showAll');
    await until(async () => (await click(middle)) === objectId, 'show all');
    await rightClick(middle);
    await choose('hideOthers');
    await until(async () => (await click(corner)) === undefined && (await click(middle)) === objectId, 'the others hidden');
    await rightClick(corner);
    await choose('showAll');
    await until(async () => (await click(elementPoint(el, 0.35, 0.55))) !== undefined || (await click(elementPoint(el, 0.65, 0.55))) !== undefined, 'the others back');
    await rightClick(middle);
    await choose('isolate');
    await until(async () => (await click(middle)) === objectId, 'isolated object still there');
    const all = await el.each();
    assert(all.length > 10, 'the model has objects');
  });

  it('is usable by keyboard: arrows move, Enter runs (make translucent, look at)', async function () {
    // A small object (the one in the middle is as big as the building: looking at it changes nothing).
    const big = await click(middle);
    let small: Point | undefined;
    for (const [fx, fy] of [[0.35, 0.55], [0.65, 0.55], [0.3, 0.4], [0.7, 0.4], [0.4, 0.65], [0.6, 0.65], [0.5, 0.7]]) {
      const at = elementPoint(el, fx, fy);
      const id = await click(at);
      if (id && id !== big) { small = at; break; }
    }
    assert(small, 'another object in view');
    await el.deselectAll();
    const before = await el.viewpoint();
    await rightClick(small!);
    // Show all, Hide, Hide others, Make translucent, Isolate, Look at
    for (let i = 0; i < 5; i++) await sendKeys({ press: 'ArrowDown' });
    assert(ui.shadowRoot!.activeElement === item('lookAt'), 'ArrowDown moved to Look at');
    await sendKeys({ press: 'Enter' });
    await until(() => !isOpen(), 'Enter ran the entry and closed the menu');
    await until(async () => dist((await el.viewpoint()).location, before.location) > 0.5, 'the camera looked at the object');
    await rightClick(elementPoint(el, 0.5, 0.3));
    await sendKeys({ press: 'End' });
    await sendKeys({ press: 'ArrowUp' });
    await sendKeys({ press: 'ArrowUp' });
    assert(ui.shadowRoot!.activeElement === item('removeClippingPlanes'), 'End and ArrowUp moved');
    await sendKeys({ press: 'Escape' });
  });

  it('adds a clipping plane at the clicked point facing the surface normal, sections and removes planes', async function () {
    const { intersects } = await rightClick(middle);
    assert(intersects, 'the right click hit a surface');
    assert(item('removeClippingPlanes').getAttribute('aria-disabled') === 'true', 'nothing to remove yet');
    await choose('addClippingPlane');
    await until(async () => (await el.clippingPlanes()).length === 1, 'one clipping plane');
    const [plane] = await el.clippingPlanes();
    assert(dist(plane.location, intersects!.point) < 1e-3, 'the plane passes through the clicked point');
    assert(angle(plane.direction, intersects!.normal) < 1, 'the plane faces the surface normal');
    await rightClick(corner);
    await choose('removeClippingPlanes');
    await until(async () => (await el.clippingPlanes()).length === 0, 'planes removed');
    await rightClick(middle);
    await choose('sectionTopAndBottom');
    await until(async () => (await el.clippingPlanes()).length === 2, 'a top and a bottom plane');
    const planes = await el.clippingPlanes();
    assert(planes.some((p) => p.direction.z > 0.99) && planes.some((p) => p.direction.z < -0.99), 'horizontal planes');
    await sleep(10);
  });

  it('translations replace the texts and stay text; enableContextMenu false opens nothing', async function () {
    ui.translations = { hide: '<b>Verbergen</b>', showAll: 'Alles zeigen' };
    await ui.updateComplete;
    await rightClick(middle);
    assertEqual(item('hide').textContent, '<b>Verbergen</b>');
    assert(!item('hide').querySelector('b'), 'no markup made from the translation');
    assertEqual(item('showAll').textContent, 'Alles zeigen');
    assertEqual(item('isolate').textContent, 'Isolate');
    await sendKeys({ press: 'Escape' });
    ui.translations = {};
    ui.enableContextMenu = false;
    await ui.updateComplete;
    const seen: unknown[] = [];
    el.addEventListener('viewer.contextmenu', (e) => seen.push(e), { once: true });
    await sendMouse({ type: 'click', position: middle, button: 'right' });
    await until(() => seen.length > 0, 'viewer.contextmenu');
    await sleep(100);
    assert(!isOpen(), 'no menu without enableContextMenu');
    ui.enableContextMenu = true;
    await ui.updateComplete;
  });
});
