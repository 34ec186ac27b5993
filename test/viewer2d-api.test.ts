// Every documented 2D method (seed 002 "Viewer 2D options and methods", COMPAT.md) on a
// real <bim-viewer-2d> with the generated sample buildings, checked against their truth
// (test/support/samples.ts) and what the viewer then shows. A model without storeys:
// test/real-models/viewer2d-api.test.ts.
import type { BimViewer2d } from '../src/elements/bim-viewer-2d';
import { assert, assertAlmostEqual, assertDeepEqual, assertEqual, assertRejects } from './support/assert';
import { PLAN_MODELS, createViewer2d, frames, planSvg, removeViewer2d } from './support/viewer2d';
import { pixelAt, pixelDifference } from './support/viewer';
import { objectIdOf, truthOf, type Truth } from './support/samples';

function record<T = unknown>(el: EventTarget, name: string): T[] {
  const seen: T[] = [];
  el.addEventListener(name, (e) => seen.push((e as CustomEvent<T>).detail));
  return seen;
}

/** The storey groups drawn now. */
function shownStoreyIds(el: BimViewer2d): string[] {
  return Array.from(planSvg(el).querySelectorAll('g.storey')).filter((g) => g.getAttribute('display') !== 'none').map((g) => g.getAttribute('data-storey')!);
}

function spacePath(el: BimViewer2d, id: string): SVGPathElement | null {
  return planSvg(el).querySelector(`path[data-id="${id}"]`);
}

function labels(el: BimViewer2d): string[] {
  return Array.from(planSvg(el).querySelectorAll('g.labels text')).filter((t) => t.getAttribute('display') !== 'none').map((t) => t.textContent ?? '');
}

describe('<bim-viewer-2d> options', () => {
  let el: BimViewer2d;
  afterEach(() => removeViewer2d(el));

  it('has the documented defaults, reflected as attributes', async () => {
    el = await createViewer2d(320, 240);
    assertEqual(el.showViewpoint, true);
    assertEqual(el.selectColor, '#A7F555');
    assertEqual(el.getAttribute('select-color'), '#A7F555');
    assertEqual(el.hasAttribute('show-viewpoint'), true);
  });

  it('takes options from attributes ("false" turns showViewpoint off)', async () => {
    el = await createViewer2d(320, 240, { 'show-viewpoint': 'false', 'select-color': 'rgb(255, 0, 0)' });
    assertEqual(el.showViewpoint, false);
    assertEqual(el.selectColor, 'rgb(255, 0, 0)');
    el.showViewpoint = true;
    await el.updateComplete;
    assertEqual(el.getAttribute('show-viewpoint'), '');
    el.showViewpoint = false;
    await el.updateComplete;
    assertEqual(el.getAttribute('show-viewpoint'), 'false');
  });
});

describe('<bim-viewer-2d> on the house', function () {
  let el: BimViewer2d;
  let truth: Truth;
  /** Ground floor (at 0 m) and Level 1 above it. */
  let ground: string;
  let level1: string;
  let spaces0: ReturnType<BimViewer2d['getSpaces']>;
  /** The space named `name` on the ground floor. */
  const groundSpace = (name: string) => spaces0.find((s) => s.name === name)!;

  before(async () => {
    truth = await truthOf(PLAN_MODELS.house);
    el = await createViewer2d(640, 480);
    const ids = await el.loadUrl(PLAN_MODELS.house);
    assertDeepEqual(ids.length, 1);
    const storeys = el.getStoreys();
    ground = storeys.find((s) => s.name === 'Ground floor')!.id;
    level1 = storeys.find((s) => s.name === 'Level 1')!.id;
    spaces0 = el.getSpaces({ storeyId: ground });
  });
  after(() => removeViewer2d(el));
  afterEach(async () => {
    await el.hideStoreys();
    await el.unselect();
    await el.clearColors();
    await el.clearMarkers();
    await el.clearImages();
    await el.setSpaceNameFormat('regular');
  });

  it('shows nothing until a storey is shown; showStorey, hideStorey, hideStoreys', async () => {
    const blank = await el.screenshot();
    assertDeepEqual(shownStoreyIds(el), []);
    assertEqual((await pixelAt(blank, 320, 240)).slice(0, 3).join(), '255,255,255', 'white before a storey is shown');
    await el.showStorey(ground);
    assertDeepEqual(shownStoreyIds(el), [ground]);
    const shown = await el.screenshot();
    assert((await pixelDifference(blank, shown, 8)) > 0.1, 'the plan is drawn');
    await el.showStorey(level1);
    assertDeepEqual(shownStoreyIds(el).sort(), [ground, level1].sort(), 'several storeys may be shown');
    await el.hideStorey(ground);
    assertDeepEqual(shownStoreyIds(el), [level1]);
    await el.hideStoreys();
    assertDeepEqual(shownStoreyIds(el), []);
    await assertRejects(el.showStorey('123456'), /no storey/);
  });

  it('getStoreys: {id, guid, name, elevation} lowest first; visible; buildingId', async () => {
    const storeys = el.getStoreys();
    assertDeepEqual(storeys.map((s) => s.name), truth.storeys.map((s) => s.name));
    assertDeepEqual(storeys.map((s) => s.elevation), truth.storeys.map((s) => s.elevation));
    assertDeepEqual(storeys.map((s) => s.id), truth.storeys.map((s) => objectIdOf(s.id)));
    assertDeepEqual(Object.keys(storeys[1]).sort(), ['elevation', 'guid', 'id', 'name']);
    assertEqual(storeys[1].guid, truth.storeys[1].guid);
    assertDeepEqual(el.getStoreys({ visible: true }), []);
    await el.showStorey(level1);
    assertDeepEqual(el.getStoreys({ visible: true }).map((s) => s.id), [level1]);
    assertEqual(el.getStoreys({ buildingId: objectIdOf(truth.site.id) }).length, 0, 'not a building id (the site)');
    assertEqual(el.getStoreys({ buildingId: objectIdOf(truth.building.id) }).length, truth.storeys.length, 'the building\'s storeys');
    const building = el.getStoreys({ all: true }).length;
    assertEqual(building, truth.storeys.length);
  });

  it('getStoreyByElevation and getStoreysByElevation', () => {
    // Storeys at 0, 3 and 6 m.
    assertEqual(el.getStoreyByElevation(1.5)!.name, 'Ground floor');
    assertEqual(el.getStoreyByElevation(3)!.name, 'Level 1');
    assertEqual(el.getStoreyByElevation(100)!.name, 'Level 2');
    assertEqual(el.getStoreyByElevation(-10)!.name, 'Ground floor', 'below all: the lowest');
    assertDeepEqual(el.getStoreysByElevation(4).map((s) => s.name), ['Level 1']);
  });

  it('getSpaces: all fields; storeyId; visible with bounding boxes', async () => {
    const all = el.getSpaces();
    assertEqual(all.length, truth.spaces.length);
    const expected = truth.spaces.find((s) => s.name === '001')!;
    const hall = all.find((s) => s.name === '001')!;
    assertDeepEqual(Object.keys(hall).sort(), ['guid', 'id', 'longName', 'name', 'storey', 'storeyId']);
    assertEqual(hall.id, objectIdOf(expected.id));
    assertEqual(hall.guid, expected.guid);
    assertEqual(hall.longName, 'Entrance hall');
    assertEqual(hall.storey, 'Ground floor');
    assertEqual(hall.storeyId, ground);
    assertEqual(spaces0.length, truth.spaces.filter((s) => s.storey === truth.storeys[0].id).length);
    assertDeepEqual(el.getSpaces({ visible: true }), [], 'nothing shown yet');
    await el.showStorey(ground);
    const visible = el.getSpaces({ visible: true });
    assertEqual(visible.length, spaces0.length);
    const box = visible.find((s) => s.name === '001')!.boundingBox!;
    // The room's footprint (web-ifc's meshes are float32: within a micrometre or so).
    assertAlmostEqual(box.x, expected.box.min[0], 1e-5);
    assertAlmostEqual(box.y, expected.box.min[1], 1e-5);
    assertAlmostEqual(box.width, expected.box.max[0] - expected.box.min[0], 1e-5);
    assertAlmostEqual(box.height, expected.box.max[1] - expected.box.min[1], 1e-5);
    assertEqual(el.getSpaces({ all: true }).length, truth.spaces.length);
  });

  it('getBoundingBox of spaces (one, several) and getOffset', async () => {
    const a = el.getBoundingBox(spaces0[0].id)!;
    const both = el.getBoundingBox([spaces0[0].id, spaces0[1].id])!;
    assert(a.width > 0 && a.height > 0);
    assert(both.x <= a.x && both.y <= a.y && both.x + both.width >= a.x + a.width - 1e-9, 'the union holds each');
    assertAlmostEqual(a.max.x - a.min.x, a.width, 1e-9);
    // 001 and 002 side by side along x: the union spans both rooms.
    const [r1, r2] = ['001', '002'].map((n) => truth.spaces.find((s) => s.name === n)!.box);
    assertDeepEqual([spaces0[0].name, spaces0[1].name], ['001', '002']);
    assertAlmostEqual(both.width, r2.max[0] - r1.min[0], 1e-5);
    assertEqual(el.getBoundingBox('987654321'), null);
    assertDeepEqual(el.getOffset(), { z: 0 });
  });

  it('select, getSelected, unselect: only spaces shown in 2D; selection drawn in selectColor', async () => {
    const id = spaces0[0].id;
    await el.select(id);
    assertDeepEqual(el.getSelected(), [], 'a space on a hidden storey is not selected');
    await el.showStorey(ground);
    await el.select(id);
    assertDeepEqual(el.getSelected(), [id]);
    assertEqual(spacePath(el, id)!.getAttribute('fill'), '#A7F555');
    await el.select([spaces0[1].id, spaces0[2].id]);
    assertDeepEqual(el.getSelected().sort(), [spaces0[1].id, spaces0[2].id].sort(), 'select replaces the selection');
    assertEqual(spacePath(el, id)!.getAttribute('fill'), '#eef1f5', 'the old one is back to normal');
    await el.unselect(spaces0[1].id);
    assertDeepEqual(el.getSelected(), [spaces0[2].id]);
    el.selectColor = '#ff00ff';
    await el.updateComplete;
    assertEqual(spacePath(el, spaces0[2].id)!.getAttribute('fill'), '#ff00ff', 'selectColor applies to the selection');
    el.selectColor = '#A7F555';
    await el.updateComplete;
    await el.unselect();
    assertDeepEqual(el.getSelected(), []);
  });

  it('setColor with CSS colours and rgba, clearColors', async () => {
    await el.showStorey(ground);
    const [a, b, c] = spaces0;
    await el.setColor(a.id, 'red');
    await el.setColor([b.id], '#0000ff');
    await el.setColor(c.id, 'rgba(0, 128, 0, 0.5)');
    assertEqual(spacePath(el, a.id)!.getAttribute('fill'), 'red');
    assertEqual(spacePath(el, c.id)!.getAttribute('fill'), 'rgba(0, 128, 0, 0.5)');
    await frames();
    const box = el.getBoundingBox(b.id)!;
    // (off the middle, where the name and the table are)
    const [px, py] = (el as unknown as { core: { toScreen(x: number, y: number): [number, number] } }).core.toScreen(box.x + box.width * 0.2, box.y + box.height * 0.25);
    const shot = await el.screenshot();
    const rgb = (await pixelAt(shot, px, py)).slice(0, 3);
    assert(rgb[2] > 200 && rgb[0] < 60, `the blue space is blue on screen: ${rgb}`);
    await assertRejects(el.setColor(a.id, 'not-a-colour'), /CSS colour/);
    await el.clearColors();
    assertEqual(spacePath(el, a.id)!.getAttribute('fill'), '#eef1f5');
  });

  it('setSpaceNames and setSpaceNameFormat change the labels (and getSpaces)', async () => {
    await el.showStorey(ground);
    assert(labels(el).includes('001'), `regular names: ${labels(el)}`);
    await el.setSpaceNameFormat('long');
    assert(labels(el).includes('Entrance hall'), `long names: ${labels(el)}`);
    assert(labels(el).includes('Küche') && labels(el).includes("Manager's office"), `long names as written: ${labels(el)}`);
    const hall = groundSpace('001');
    await el.setSpaceNames({ [hall.id]: { name: 'F-1', longName: 'Entrance' } });
    assert(labels(el).includes('Entrance'));
    await el.setSpaceNameFormat('regular');
    assert(labels(el).includes('F-1'));
    assertEqual(el.getSpaces().find((s) => s.id === hall.id)!.longName, 'Entrance');
    await el.setSpaceNames({ [hall.id]: { name: '001', longName: 'Entrance hall' } });
    await assertRejects(el.setSpaceNameFormat('short' as never), /regular/);
  });

  it('addMarker returns ids; removeMarker, clearMarkers; marker text is text', async () => {
    await el.showStorey(ground);
    const box = el.getBoundingBox(spaces0[0].id)!;
    const id = el.addMarker({ x: box.x + 1, y: box.y + 1, color: '#ff0000', text: 'Pump 3', data: { n: 3 } });
    assertEqual(typeof id, 'string');
    const given = el.addMarker({ id: 'm-1', x: box.x, y: box.y, clickable: true });
    assertEqual(given, 'm-1');
    assertDeepEqual(el.getMarkers().map((m) => m.id).sort(), [id, 'm-1'].sort());
    const marker = el.getMarkers().find((m) => m.id === id)!;
    assertDeepEqual(marker, { id, x: box.x + 1, y: box.y + 1, color: '#ff0000', text: 'Pump 3', data: { n: 3 } });
    assert(Array.from(planSvg(el).querySelectorAll('g.marker text')).some((t) => t.textContent === 'Pump 3'));
    await el.removeMarker('m-1');
    assertDeepEqual(el.getMarkers().map((m) => m.id), [id]);
    const pin = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%2216%22 height=%2216%22/%3E';
    const icon = el.addMarker({ x: box.x, y: box.y, icon: { url: pin, size: { width: 16, height: 16 }, anchor: { x: 8, y: 16 } } });
    const image = planSvg(el).querySelector('g.marker image')!;
    assertEqual(image.getAttribute('href'), pin);
    assertEqual(image.getAttribute('x'), '-8');
    assert(el.getMarkers().some((m) => m.id === icon));
    await el.clearMarkers();
    assertDeepEqual(el.getMarkers(), []);
    let threw = false;
    try {
      el.addMarker({ x: 'a' } as never);
    } catch {
      threw = true;
    }
    assert(threw, 'a marker without coordinates is refused');
  });

  it('addImage places an image in model coordinates; clearImages', async () => {
    await el.showStorey(ground);
    const png = await el.screenshot({ width: 8, height: 8 });
    const id = el.addImage({ url: png, x: 0, y: -5, width: 4, height: 2 });
    assertEqual(typeof id, 'string');
    const image = planSvg(el).querySelector('g.images image')!;
    assertEqual(image.getAttribute('width'), '4');
    assertEqual(image.getAttribute('height'), '2');
    assertEqual(el.addImage({ id: 'plan-underlay', url: png, x: 0, y: 0, width: 1, height: 1, rotate: true }), 'plan-underlay');
    assertEqual(planSvg(el).querySelectorAll('g.images image').length, 2);
    await el.clearImages();
    assertEqual(planSvg(el).querySelectorAll('g.images image').length, 0);
  });

  it('getViewpoint, setViewpoint (degrees or a vector), moveTo; z is the storey shown', async () => {
    await el.showStorey(level1);
    const z = truth.storeys[1].elevation;
    await el.setViewpoint({ location: { x: 2, y: -3 }, direction: 90 });
    let vp = el.getViewpoint();
    assertDeepEqual(vp.location, { x: 2, y: -3, z });
    assertAlmostEqual(vp.direction.x, 0, 1e-6);
    assertAlmostEqual(vp.direction.y, 1, 1e-6);
    assertEqual(vp.direction.z, 0, 'horizontal');
    await el.setViewpoint({ direction: { x: 1, y: 0 } });
    vp = el.getViewpoint();
    assertDeepEqual(vp.direction, { x: 1, y: 0, z: 0 });
    await el.moveTo(5, -6);
    assertDeepEqual(el.getViewpoint().location, { x: 5, y: -6, z });
    assertDeepEqual(el.getViewpoint().direction, { x: 1, y: 0, z: 0 }, 'moveTo keeps the direction');
  });

  it('hideViewpoint and showViewpoint toggle the red arrow', async () => {
    await el.showStorey(ground);
    const arrow = () => planSvg(el).querySelector('g.viewpoint')!.getAttribute('display') !== 'none';
    assert(arrow(), 'shown by default once a storey is shown');
    await el.hideViewpoint();
    assert(!arrow(), 'hidden');
    assertEqual(el.showViewpoint, false);
    await el.revealViewpoint();
    assert(arrow(), 'shown again');
    await el.hideStoreys();
    assert(!arrow(), 'no arrow without a storey');
  });

  it('lookAt: frames spaces, keeps visible storeys, switches to the lowest storey otherwise, honours retainStoreys and expand', async () => {
    const hall = groundSpace('001');
    const upstairs = el.getSpaces({ storeyId: level1 })[0];
    await el.lookAt(hall.id);
    assertDeepEqual(shownStoreyIds(el), [ground], 'switched to the storey of the space');
    const state = () => (el as unknown as { core: { zoomState(): { k: number } } }).core.zoomState();
    const k1 = state().k;
    await el.lookAt(hall.id, { expand: 5 });
    assert(state().k < k1, 'expand zooms out');
    await el.lookAt([hall.id, upstairs.id]);
    assertDeepEqual(shownStoreyIds(el), [ground], 'one of them is visible: storeys kept');
    await el.lookAt(upstairs.id, { retainStoreys: true });
    assertDeepEqual(shownStoreyIds(el), [ground], 'retainStoreys');
    await el.lookAt(upstairs.id);
    assertDeepEqual(shownStoreyIds(el), [level1]);
    await el.hideStoreys();
    await el.lookAt([upstairs.id, hall.id]);
    assertDeepEqual(shownStoreyIds(el), [ground], 'none visible: the lowest storey of them');
  });

  it('lookAtBoundingBox: with z switches storeys, without z keeps them', async () => {
    await el.showStorey(ground);
    await el.lookAtBoundingBox({ min: { x: 0, y: -10 }, max: { x: 4, y: -6 } });
    assertDeepEqual(shownStoreyIds(el), [ground]);
    await el.lookAtBoundingBox({ min: { x: 0, y: -10, z: 3.5 }, max: { x: 4, y: -6, z: 4 } });
    assertDeepEqual(shownStoreyIds(el), [level1]);
    await el.lookAtBoundingBox({ min: { x: 0, y: -10, z: 0.5 }, max: { x: 4, y: -6, z: 1 } }, { retainStoreys: true });
    assertDeepEqual(shownStoreyIds(el), [level1], 'retainStoreys');
  });

  it('screenshot: a PNG data URL at the asked size, and through a callback', async () => {
    await el.showStorey(ground);
    const image = await el.screenshot({ width: 300, height: 200 });
    assert(image.startsWith('data:image/png;base64,'));
    const img = new Image();
    img.src = image;
    await img.decode();
    assertEqual(img.width, 300);
    assertEqual(img.height, 200);
    const viaCallback = await new Promise<string>((resolve) => { void el.screenshot({ width: 50, height: 50 }, resolve); });
    assert(viaCallback.startsWith('data:image/png'));
  });

  it('setTransformation turns and moves a model: boxes follow', async () => {
    const modelId = el.getStoreys() && (el as unknown as { core: { modelIds(): string[] } }).core.modelIds()[0];
    const before = el.getBoundingBox(spaces0[0].id)!;
    await el.setTransformation(modelId, { position: { x: 100, y: 0, z: 0 }, rotation: { centerOfRotation: { x: 0, y: 0 }, angle: Math.PI / 2 } });
    const after = el.getBoundingBox(spaces0[0].id)!;
    assertAlmostEqual(after.width, before.height, 1e-6, 'a quarter turn swaps width and height');
    assertAlmostEqual(after.x, 100 - (before.y + before.height), 1e-6, 'turned about the origin, then moved');
    await el.setTransformation(modelId, {});
    assertAlmostEqual(el.getBoundingBox(spaces0[0].id)!.x, before.x, 1e-9, 'back');
    await assertRejects(el.setTransformation('nope', {}), /no model/);
  });

  it('wrong arguments reject with viewer2d.error and leave the viewer usable', async () => {
    const errors = record<{ type: string; message: string }>(el, 'viewer2d.error');
    await assertRejects(el.showStorey({} as never), /showStorey/);
    await assertRejects(el.setViewpoint({ direction: 'north' } as never), /direction/);
    await assertRejects(el.lookAtBoundingBox({ min: 1 } as never), /lookAtBoundingBox/);
    await assertRejects(el.moveTo('a' as never, 1), /moveTo/);
    assertEqual(errors.length, 4);
    assert(errors.every((e) => e.type === 'argument'));
    await el.showStorey(ground);
    assertDeepEqual(shownStoreyIds(el), [ground]);
  });
});

describe('<bim-viewer-2d> loading', function () {
  let el: BimViewer2d;
  afterEach(() => removeViewer2d(el));

  it('loadstart and load with the model id; calls made before the load wait for it', async () => {
    // The storey's id is known before the load: base "0" + its express id in the truth.
    const storeyId = objectIdOf((await truthOf(PLAN_MODELS.houseIfc2x3)).storeys[0].id);
    el = await createViewer2d(400, 300);
    const starts = record<{ modelId: string }>(el, 'viewer2d.loadstart');
    const loads = record<{ modelId: string }>(el, 'viewer2d.load');
    const loading = el.loadUrl(PLAN_MODELS.houseIfc2x3, { modelId: 'ifc2x3', modelName: 'House' });
    const shown = el.showStorey(storeyId);
    const selected = el.select([]);
    await Promise.all([loading, shown, selected]);
    assertDeepEqual(starts.map((s) => s.modelId), ['ifc2x3']);
    assertDeepEqual(loads.map((s) => s.modelId), ['ifc2x3']);
    assertDeepEqual(shownStoreyIds(el), [storeyId], 'showStorey waited for the model');
  });

  it('append keeps models, and without it loadUrl replaces them (unload events); unloadModel', async () => {
    const [cabin, house] = await Promise.all([truthOf(PLAN_MODELS.cabin), truthOf(PLAN_MODELS.house)]);
    el = await createViewer2d(400, 300);
    const unloads = record<{ modelId: string }>(el, 'viewer2d.unload');
    await el.loadUrl(PLAN_MODELS.cabin, { modelId: 'cabin' });
    await el.loadUrl(PLAN_MODELS.house, { modelId: 'house', append: true });
    assertEqual(el.getStoreys({ all: true }).length, cabin.storeys.length + house.storeys.length, 'two models');
    assertEqual(el.getStoreys().length, cabin.storeys.length, 'without all: the first model only');
    assertEqual(el.getSpaces({ all: true }).length, cabin.spaces.length + house.spaces.length);
    assertNotSameIds(el.getSpaces({ all: true }).map((s) => s.id));
    // The two files share express ids: the second model gets the next free base (2^32).
    assertEqual(cabin.storeys[0].id, house.storeys[0].id, 'the same express id in both files');
    const ids = el.getStoreys({ all: true }).map((s) => s.id);
    assert(ids.includes(objectIdOf(cabin.storeys[0].id)) && ids.includes(objectIdOf(house.storeys[0].id, '4294967296')), `object ids ${ids}`);
    await el.loadUrl(PLAN_MODELS.houseIfc4x3);
    assertDeepEqual(unloads.map((u) => u.modelId).sort(), ['cabin', 'house']);
    const storeys = el.getStoreys();
    assertEqual(storeys.length, 3);
    assertEqual(el.getSpaces({ storeyId: storeys[0].id }).length, 6, 'the ground floor\'s 3 x 2 rooms');
    const modelId = (el as unknown as { core: { modelIds(): string[] } }).core.modelIds()[0];
    assert(/^[0-9a-f]{32}$/.test(modelId), `a random id when none is given: ${modelId}`);
    await el.unloadModel(modelId);
    assertDeepEqual(el.getStoreys(), []);
    assertEqual(unloads.at(-1)!.modelId, modelId);
  });

  it('loadfail for a missing file and for a file that is no IFC, with a message; the promise rejects', async () => {
    el = await createViewer2d(400, 300);
    const fails = record<{ modelId: string; message: string }>(el, 'viewer2d.loadfail');
    const errors = record(el, 'viewer2d.error');
    await assertRejects(el.loadUrl('/samples/no-such-file.ifc', { modelId: 'x' }), /404/);
    assertEqual(fails.length, 1);
    assertEqual(fails[0].modelId, 'x');
    assert(/404/.test(fails[0].message));
    const notIfc = URL.createObjectURL(new Blob(['{"models": []'], { type: 'application/json' }));
    await assertRejects(el.loadUrl(notIfc), /manifest/);
    assertEqual(fails.length, 2);
    assertEqual(errors.length, 0, 'load failures are loadfail events, not viewer2d.error');
    await el.loadUrl(PLAN_MODELS.cabin);
    assertEqual(el.getStoreys().length, 1, 'the viewer still loads');
  });
});

function assertNotSameIds(ids: string[]) {
  assertEqual(new Set(ids).size, ids.length, 'ids are unique across models');
}
