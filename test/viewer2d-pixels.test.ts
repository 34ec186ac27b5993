// Pictures of plans (compared with test/screenshots/expected/viewer2d/*.png), readable
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

  it('Duplex, Level 1: walls cut and filled, doors with swings, windows, stairs, furniture below, spaces with names', async () => {
    ({ el } = await showPlan(PLAN_MODELS.duplex, 'Level 1', 640, 560));
    await el.hideViewpoint();
    await frames();
    await expectScreenshot('viewer2d/duplex-level1', await el.screenshot());
  });

  it('Duplex, Level 2 with a selection and coloured spaces, in long names', async () => {
    ({ el } = await showPlan(PLAN_MODELS.duplex, 'Level 2', 640, 560));
    const spaces = el.getSpaces({ visible: true });
    await el.select(spaces.find((s) => s.name === 'A202')!.id);
    await el.setColor(spaces.find((s) => s.name === 'B203')!.id, 'rgba(255, 120, 0, 0.45)');
    await el.setColor(spaces.find((s) => s.name === 'A204')!.id, 'lightblue');
    await el.setSpaceNameFormat('long');
    await el.setViewpoint({ location: { x: 6, y: -4 }, direction: 225 });
    await frames();
    await expectScreenshot('viewer2d/duplex-level2-selection', await el.screenshot());
  });

  it('AC20-FZK-Haus, Erdgeschoss', async () => {
    ({ el } = await showPlan(PLAN_MODELS.fzk, 'Erdgeschoss', 640, 540));
    await el.hideViewpoint();
    await frames();
    await expectScreenshot('viewer2d/fzk-haus-erdgeschoss', await el.screenshot());
  });

  it('labels keep their size at every zoom, get smaller (never below 9 px) to fit, and hide when they cannot', async () => {
    ({ el } = await showPlan(PLAN_MODELS.duplex, 'Level 1', 640, 560));
    const sizes = () => visibleLabels(el!).map((t) => Number(t.getAttribute('font-size') ?? 12));
    const fitted = visibleLabels(el).length;
    assertEqual(fitted, 10, 'every space named when the storey fills the view');
    const foyer = el.getSpaces({ visible: true }).find((s) => s.name === 'A101')!.id;
    await el.lookAt(foyer);
    await frames();
    assert(sizes().every((s) => s === 12), `zoomed in: full size ${sizes()}`);
    await el.lookAtBoundingBox({ min: { x: -150, y: -150 }, max: { x: 150, y: 150 } });
    assertEqual(visibleLabels(el).length, 0, 'zoomed far out: no unreadable labels');
    await el.lookAtBoundingBox({ min: { x: -5, y: -22 }, max: { x: 14, y: 3 } });
    assert(sizes().every((s) => s >= 9 && s <= 12), `sizes ${sizes()}`);
    // The text size in the SVG does not follow the zoom: labels are outside the zoomed group.
    assert(!planSvg(el).querySelector('g.world g.labels'), 'labels are drawn in screen space');
  });
});

describe('2D viewer: untrusted text is text', function () {
  let el: BimViewer2d;
  after(() => removeViewer2d(el));
  const payload = '<img src=x onerror=window.__xss2d=1>';

  it('a space named <img src=x onerror=...> in the IFC file shows as that text', async () => {
    const ifc = await (await fetch(PLAN_MODELS.helloWall)).text();
    assert(ifc.includes("'My Space'"), 'the sample names its space My Space');
    const url = URL.createObjectURL(new Blob([ifc.replace("'My Space'", `'${payload}'`)], { type: 'application/x-step' }));
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
