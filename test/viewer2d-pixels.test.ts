// Pictures of the sample house's plans (compared with test/screenshots/expected/viewer2d/*.png), readable
// labels at every zoom, and names from files or pages shown as text, never as markup.
import type { BimViewer2d } from '../src/elements/bim-viewer-2d';
import { assert, assertEqual } from './support/assert';
import { expectScreenshot } from './support/screenshot';
import { PLAN_MODELS, createViewer2d, frames, planSvg, removeViewer2d, showPlan } from './support/viewer2d';

const labelNodes = (el: BimViewer2d) => Array.from(planSvg(el).querySelectorAll<SVGTextElement>('g.labels text'));
const visibleLabels = (el: BimViewer2d) => labelNodes(el).filter((t) => t.getAttribute('display') !== 'none');

describe('2D plan pictures', function () {
  let el: BimViewer2d | undefined;
  afterEach(async () => {
    await removeViewer2d(el);
    el = undefined;
  });

  it('house, ground floor: walls cut and filled, doors with swings, windows, the stair, tables below, canopy columns, spaces with names', async () => {
    ({ el } = await showPlan(PLAN_MODELS.house, 'Ground floor', 640, 420));
    await el.hideViewpoint();
    await frames();
    await expectScreenshot('viewer2d/house-ground-floor', await el.screenshot());
  });

  it('house, Level 1 with a selection (the hall around the stair opening) and coloured spaces, in long names', async () => {
    ({ el } = await showPlan(PLAN_MODELS.house, 'Level 1', 640, 420));
    const spaces = el.getSpaces({ visible: true });
    await el.select(spaces.find((s) => s.name === '101')!.id);
    await el.setColor(spaces.find((s) => s.name === '103')!.id, 'rgba(255, 120, 0, 0.45)');
    await el.setColor(spaces.find((s) => s.name === '105')!.id, 'lightblue');
    await el.setSpaceNameFormat('long');
    await el.setViewpoint({ location: { x: 7.5, y: 6.5 }, direction: 225 });
    await frames();
    await expectScreenshot('viewer2d/house-level1-selection', await el.screenshot());
  });

  it('the IFC2X3 house in millimetres (door swings trimmed in degrees) draws the same plan as the house in metres', async () => {
    ({ el } = await showPlan(PLAN_MODELS.houseIfc2x3, 'Ground floor', 640, 420));
    await el.hideViewpoint();
    await frames();
    // The metre house's picture: a swing in the wrong unit or trimmed in radians would not match it.
    await expectScreenshot('viewer2d/house-ground-floor', await el.screenshot());
  });

  it('labels keep their size at every zoom, get smaller (never below 9 px) to fit, and hide when they cannot', async () => {
    ({ el } = await showPlan(PLAN_MODELS.house, 'Ground floor', 640, 560));
    const sizes = () => visibleLabels(el!).map((t) => Number(t.getAttribute('font-size') ?? 12));
    const fitted = visibleLabels(el).length;
    assertEqual(fitted, el.getSpaces({ visible: true }).length, 'every space named when the storey fills the view');
    assertEqual(fitted, 6);
    const hall = el.getSpaces({ visible: true }).find((s) => s.name === '001')!.id;
    await el.lookAt(hall);
    await frames();
    assert(sizes().every((s) => s === 12), `zoomed in: full size ${sizes()}`);
    await el.lookAtBoundingBox({ min: { x: -150, y: -150 }, max: { x: 150, y: 150 } });
    assertEqual(visibleLabels(el).length, 0, 'zoomed far out: no unreadable labels');
    // About 4.6 px a metre: a 6 m room is a little narrower than its name at full size.
    await el.lookAtBoundingBox({ min: { x: -46, y: -50 }, max: { x: 64, y: 60 } });
    assert(sizes().length > 0 && sizes().every((s) => s >= 9 && s <= 12), `sizes ${sizes()}`);
    assert(sizes().some((s) => s < 12), `some labels made smaller to fit: ${sizes()}`);
    // The text size in the SVG does not follow the zoom: labels are outside the zoomed group.
    assert(!planSvg(el).querySelector('g.world g.labels'), 'labels are drawn in screen space');
  });
});

describe('2D viewer: untrusted text is text', function () {
  let el: BimViewer2d;
  after(() => removeViewer2d(el));
  const payload = '<img src=x onerror=window.__xss2d=1>';

  it('a space named <img src=x onerror=...> in the IFC file shows as that text', async () => {
    const ifc = await (await fetch(PLAN_MODELS.cabin)).text();
    assertEqual(ifc.split("'001'").length, 2, 'the cabin names its one space 001, once');
    const url = URL.createObjectURL(new Blob([ifc.replace("'001'", `'${payload}'`)], { type: 'application/x-step' }));
    el = await createViewer2d(640, 400);
    await el.loadUrl(url);
    await el.showStorey(el.getStoreys()[0].id);
    await frames(3);
    const space = el.getSpaces()[0];
    assertEqual(space.name, payload, 'getSpaces gives the name as it is');
    const label = labelNodes(el).find((t) => t.textContent === payload);
    assert(label, `a label with the name as text: ${labelNodes(el).map((t) => t.textContent)}`);
    assertEqual(el.shadowRoot!.querySelectorAll('img').length, 0, 'no <img> element');
    assertEqual(planSvg(el).querySelectorAll('image').length, 0, 'no SVG image either');
    assertEqual((window as unknown as { __xss2d?: number }).__xss2d, undefined, 'nothing ran');
  });

  it('marker texts and names set by the page are text too', async () => {
    const space = el.getSpaces()[0];
    el.addMarker({ x: 1, y: 1, text: payload });
    await el.setSpaceNames({ [space.id]: { name: `<b>${payload}</b>` } });
    await frames(2);
    const texts = Array.from(planSvg(el).querySelectorAll('text')).map((t) => t.textContent);
    assert(texts.includes(payload), 'marker text');
    assert(texts.includes(`<b>${payload}</b>`), 'space name');
    assertEqual(el.shadowRoot!.querySelectorAll('img, b').length, 0, 'no elements made from the text');
    assertEqual((window as unknown as { __xss2d?: number }).__xss2d, undefined, 'nothing ran');
  });
});
