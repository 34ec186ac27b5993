// Script payloads are text (issue 22, part 6): names from an IFC file (project, storeys,
// spaces, walls, grid axis tags, property values), marker texts and the widget's
// translations, each carrying markup that would run script if parsed as HTML, are shown
// as text by <bim-viewer-3d>, <bim-viewer-ui> (storey select, context menu, loading
// overlay) and <bim-viewer-2d> (space labels, markers): the texts shown hold the payload
// literally, no element the payload describes exists, and the flag it would set stays unset.
import { assert, assertEqual, assertDeepEqual } from './support/assert';
import { elementPoint, resetMouse, sendMouse } from './support/input';
import { createViewer2d, frames, planSvg, removeViewer2d } from './support/viewer2d';
import { createWidget, removeWidget, until } from './support/viewer-ui';
import { SAMPLES } from './support/samples';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { BimViewerUi } from '../src/elements/bim-viewer-ui';
import type { BimViewer2d } from '../src/elements/bim-viewer-2d';

/* eslint-disable @typescript-eslint/no-explicit-any */
const flag = () => (window as any).__pwned;

/** Markup that sets window.__pwned when a page parses it as HTML (or follows it as a link). No ' or \ (STEP strings). */
const PAYLOADS = [
  '<img src=x onerror="window.__pwned=1">',
  '<script>window.__pwned=2</script>',
  'javascript:window.__pwned=3',
  '"><svg onload="window.__pwned=4"><b>',
];
const payload = (i: number) => PAYLOADS[i % PAYLOADS.length];

/** Elements a parsed payload would have made, anywhere under `root` and the shadow roots within. */
function injected(root: Document | ShadowRoot | Element): Element[] {
  const found = [...root.querySelectorAll('[onerror], [onload], img[src="x"], b')];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) found.push(...injected(el.shadowRoot));
  return found;
}

/**
 * The sample house with payloads for names: the project, the building, each storey, each
 * space's name and long name, each wall, each grid axis tag, and the FireRating values.
 * Returns a blob: URL of the file, and which payload each storey got (by its old name).
 */
async function payloadHouse(): Promise<string> {
  let text = await (await fetch(SAMPLES.house)).text();
  let n = 0;
  const name = (line: RegExp) => {
    text = text.replace(line, (_all, head: string) => `${head}'${payload(n++)}'`);
  };
  name(/(IFCPROJECT\('[^']*',#\d+,)'[^']*'/g);
  name(/(IFCBUILDING\('[^']*',#\d+,)'[^']*'/g);
  name(/(IFCBUILDINGSTOREY\('[^']*',#\d+,)'[^']*'/g);
  name(/(IFCSPACE\('[^']*',#\d+,)'[^']*'/g);
  name(/(IFCSPACE\([^\n]*?,)'[^']*'(?=,\.ELEMENT\.)/g); // long names
  name(/(IFCWALL(?:STANDARDCASE)?\('[^']*',#\d+,)'[^']*'/g);
  name(/(IFCGRIDAXIS\()'[^']*'/g);
  name(/(IFCLABEL\()'EI30'/g);
  assert(n > 20, `payloads written into the file (${n})`);
  return URL.createObjectURL(new Blob([text], { type: 'application/x-step' }));
}

describe('script payloads are shown as text, never run', function () {
  let url: string;
  let ui: BimViewerUi;
  let el: BimViewer3d;
  let plan: BimViewer2d;

  before(async () => {
    url = await payloadHouse();
    plan = await createViewer2d(400, 280);
    plan.id = 'payload-plan';
    plan.style.top = '300px';
    ({ ui, el } = await createWidget(400, 280, { 'viewer2d-id': 'payload-plan', 'enable-viewer2d-integration': '', 'enable-context-menu': '', 'text-render-mode': 'dom' }));
    el.setAttribute('text-render-mode', 'dom');
  });

  after(async () => {
    await resetMouse();
    await removeWidget({ ui, el });
    await removeViewer2d(plan);
    URL.revokeObjectURL(url);
  });

  beforeEach(() => {
    delete (window as any).__pwned;
  });

  /** Ends each test: no payload ran, and none became elements. */
  async function nothingRan() {
    await new Promise((resolve) => setTimeout(resolve, 200)); // an onerror or onload would have fired by now
    assertEqual(flag(), undefined, 'no payload ran');
    assertDeepEqual(injected(document).map((e) => e.outerHTML), [], 'no element made from a payload');
  }

  it('the widget\'s translations: context menu entries and the loading overlay', async () => {
    const translations: Record<string, string> = {};
    for (const [i, key] of ['showAll', 'hide', 'hideOthers', 'makeTranslucent', 'isolate', 'lookAt', 'removeClippingPlanes', 'addClippingPlane', 'sectionTopAndBottom', 'noModelsLoaded', 'loading'].entries()) translations[key] = payload(i);
    ui.setAttribute('translations', JSON.stringify(translations)); // as a page's markup (and the jQuery data API) gives them
    await ui.updateComplete;
    assertEqual(ui.translations.hide, translations.hide, 'the attribute\'s JSON read literally');
    const overlay = [...ui.shadowRoot!.querySelectorAll('*')].find((e) => e.children.length === 0 && e.textContent === translations.noModelsLoaded);
    assert(overlay, 'the overlay says noModelsLoaded as text');
    await el.loadUrl(url);
    await frames();
    const seen: unknown[] = [];
    el.addEventListener('viewer.contextmenu', (e) => seen.push((e as CustomEvent).detail), { once: true });
    await sendMouse({ type: 'click', position: elementPoint(el, 0.5, 0.5), button: 'right' });
    const menu = () => ui.shadowRoot!.querySelector('.context-menu') as HTMLElement;
    await until(() => seen.length > 0 && !menu().hidden, 'the context menu');
    const entries = [...menu().querySelectorAll('.item')].map((item) => item.textContent);
    assertDeepEqual(entries, ['showAll', 'hide', 'hideOthers', 'makeTranslucent', 'isolate', 'lookAt', 'removeClippingPlanes', 'addClippingPlane', 'sectionTopAndBottom'].map((k) => translations[k]), 'the entries, literally');
    await sendMouse({ type: 'click', position: elementPoint(el, 0.02, 0.02) });
    await nothingRan();
  });

  it('names from the IFC in the 3D viewer: product names, and grid axis tags drawn as DOM labels', async () => {
    const products = await el.getProducts(await el.each());
    const walls = products.filter((p) => p && /^IfcWall/.test(p.type));
    assert(walls.length > 0 && walls.every((w) => PAYLOADS.includes(w!.name ?? '')), `the walls' names come back literally: ${walls.slice(0, 2).map((w) => w!.name)}`);
    assert((await el.getGrids()).length > 0, 'the house has a grid');
    await frames();
    const labels = [...el.shadowRoot!.querySelectorAll('.label')].map((l) => l.textContent);
    assert(labels.length > 0 && labels.every((l) => PAYLOADS.includes(l ?? '')), `the axis tags are labels holding the payloads as text: ${labels.slice(0, 3)}`);
    await nothingRan();
  });

  it('names from the IFC in the 2D viewer and the storey select: storeys and space labels', async () => {
    await plan.loadUrl(url);
    const storeys = plan.getStoreys({ all: true });
    assert(storeys.length === 3 && storeys.every((s) => PAYLOADS.includes(s.name)), `storey names literally: ${storeys.map((s) => s.name)}`);
    const storey = storeys.find((s) => plan.getSpaces({ storeyId: s.id }).length > 0)!;
    await plan.showStorey(storey.id);
    await frames();
    const texts = [...planSvg(plan).querySelectorAll('text')].map((t) => t.textContent);
    assert(texts.length > 0 && texts.every((t) => PAYLOADS.includes(t ?? '')), `space labels hold the payloads as text: ${texts.slice(0, 3)}`);
    ui.showViewer2dStoreySelect = true;
    await ui.updateComplete;
    let select: HTMLSelectElement | null = null;
    await until(() => !!(select = document.querySelector('.bim-viewer-ui-storey-select select')) && select.options.length === 3, 'the storey select');
    const options = [...select!.options].map((o) => o.textContent).sort();
    assertDeepEqual(options, storeys.map((s) => s.name).sort(), 'the select lists the storey names as text');
    assertEqual(select!.querySelectorAll(':not(option)').length, 0, 'nothing but options in the select');
    await nothingRan();
    ui.showViewer2dStoreySelect = false;
    await ui.updateComplete;
  });

  it('marker texts in the 2D viewer', async () => {
    const ids = PAYLOADS.map((text, i) => plan.addMarker({ x: i, y: i, text }));
    await frames();
    const markerTexts = [...planSvg(plan).querySelectorAll('text')].map((t) => t.textContent);
    for (const text of PAYLOADS) assert(markerTexts.includes(text), `a marker shows ${text} as text`);
    assertDeepEqual(plan.getMarkers().filter((m) => ids.includes(m.id)).map((m) => m.text), PAYLOADS, 'the markers keep their texts');
    await nothingRan();
    for (const id of ids) await plan.removeMarker(id);
  });
});
