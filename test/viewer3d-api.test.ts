import { assert, assertEqual, assertDeepEqual, assertAlmostEqual, assertRejects } from './support/assert';
import { createViewer, removeViewer, record, idsOfType, loadHouse, resetObjects, MODELS, pixelDifference } from './support/viewer';
import { truthOf, objectIdOf, type Truth, type ProductTruth } from './support/samples';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Viewpoint } from '../src/core/types';
import type { Viewer3d } from '../src/core/viewer3d';

const length = (v: { x: number; y: number; z: number }) => Math.hypot(v.x, v.y, v.z);

describe('<bim-viewer-3d> options', () => {
  let el: BimViewer3d;
  afterEach(() => removeViewer(el));

  it('has the documented defaults, reflected as attributes', async () => {
    el = await createViewer();
    assertEqual(el.defaultColor, '#101010');
    assertEqual(el.selectedColor, '#a7f555');
    assertEqual(el.translucentOpacity, 0.05);
    assertEqual(el.fieldOfView, 60);
    assertEqual(el.enableTouch, false);
    assertEqual(el.navigationOrbitSphereColor, '#b1d059');
    assertEqual(el.enableClippingPlaneWidget, false);
    assertEqual(el.activeClippingPlaneBorderColor, '#a7f555');
    assertEqual(el.textRenderMode, 'canvas');
    assertEqual(el.getAttribute('selected-color'), '#a7f555');
    assertEqual(el.getAttribute('field-of-view'), '60');
  });

  it('takes options from attributes and reflects property changes', async () => {
    el = await createViewer(320, 240, { 'translucent-opacity': '0.2', 'field-of-view': '45', 'enable-touch': '', 'text-render-mode': 'dom', 'enable-clipping-plane-widget': '' });
    assertEqual(el.translucentOpacity, 0.2);
    assertEqual(el.fieldOfView, 45);
    assertEqual(el.enableTouch, true);
    assertEqual(el.textRenderMode, 'dom');
    assertEqual(el.enableClippingPlaneWidget, true);
    el.activeClippingPlaneBorderColor = '#ff0000';
    el.defaultColor = '#222222';
    await el.updateComplete;
    assertEqual(el.getAttribute('active-clipping-plane-border-color'), '#ff0000');
    assertEqual(el.getAttribute('default-color'), '#222222');
    assertEqual(((await el.viewpoint()) as Viewpoint & { fov: number }).fov, 45, 'fieldOfView drives the camera');
  });
});

describe('<bim-viewer-3d> methods on the house', function () {
  let el: BimViewer3d;
  let walls: string[];
  let windows: string[];
  let truth: Truth;
  /** The truth of a product, by its objectId. */
  const truthOfId = (id: string): ProductTruth => truth.products.find((p) => objectIdOf(p.id) === id)!;

  before(async () => {
    ({ el, walls, windows } = await loadHouse(640, 480));
    truth = await truthOf(MODELS.house);
  });
  after(() => removeViewer(el));
  afterEach(async () => {
    await resetObjects(el);
    await el.viewpoint('home');
  });

  it('hide, show, hideAll and showAll change what is drawn', async () => {
    const all = await el.screenshot();
    await el.hide(walls);
    const noWalls = await el.screenshot();
    assert((await pixelDifference(all, noWalls)) > 0.02, 'hiding the walls changes the picture');
    await el.show(walls);
    assert((await pixelDifference(all, await el.screenshot())) < 0.001, 'showing them restores it');
    await el.hideAll();
    const empty = await el.screenshot();
    await el.showAll();
    assert((await pixelDifference(empty, await el.screenshot())) > 0.1, 'showAll brings everything back');
    await el.hide(await idsOfType(el, 'IfcSpace'));
    assert((await pixelDifference(all, await el.screenshot())) < 0.001, 'showAll shows everything, spaces included');
  });

  it('translucent and opaque, one object and all', async () => {
    const before = await el.screenshot();
    await el.translucent(walls);
    const seeThrough = await el.screenshot();
    assert((await pixelDifference(before, seeThrough)) > 0.02, 'translucent walls look different');
    await el.opaque(walls);
    assert((await pixelDifference(before, await el.screenshot())) < 0.001);
    await el.translucentAll();
    assert((await pixelDifference(before, await el.screenshot())) > 0.1);
    await el.opaqueAll();
    assert((await pixelDifference(before, await el.screenshot())) < 0.001);
  });

  it('select, deselect, deselectAll and eachSelected; ids as numbers and strings', async () => {
    await el.select(walls[0]);
    await el.select([Number(walls[1]), Number(walls[2])]);
    assertDeepEqual((await el.eachSelected()).sort(), walls.slice(0, 3).sort());
    const seen: string[] = [];
    await el.eachSelected((id) => seen.push(id));
    assertEqual(seen.length, 3);
    await el.deselect(Number(walls[1]));
    assertEqual((await el.eachSelected()).length, 2);
    await el.deselectAll();
    assertDeepEqual(await el.eachSelected(), []);
    await el.select([]);
    assertDeepEqual(await el.eachSelected(), [], 'empty arrays act on nothing');
    await el.select('no-such-id');
    assertDeepEqual(await el.eachSelected(), [], 'unknown ids are ignored');
  });

  it('each calls back once per object', async () => {
    const ids: string[] = [];
    const result = await el.each((id) => ids.push(id));
    assertEqual(ids.length, result.length);
    // Every object drawn (spaces included, hidden or not), nothing else: no openings, no empty proxies.
    const drawn = truth.products.filter((p) => p.box).map((p) => objectIdOf(p.id));
    assertDeepEqual([...ids].sort(), drawn.sort(), 'the objects with geometry');
    assert(walls.every((w) => ids.includes(w)));
  });

  it('color sets #RRGGBB and #RRGGBBAA, reads them back, and resetColors clears them', async () => {
    assertDeepEqual(await el.color(null, walls[0]), {}, 'no custom colour yet');
    const before = await el.screenshot();
    await el.color('#ff0000', walls);
    assert((await pixelDifference(before, await el.screenshot())) > 0.02, 'red walls are visible');
    await el.color('#0000ff80', windows[0]);
    const colors = (await el.color(null, [walls[0], windows[0], '424242424']))!;
    assertDeepEqual(colors[walls[0]].color, { r: 255, g: 0, b: 0 });
    assertEqual(colors[walls[0]].opacity, 1);
    assertDeepEqual(colors[windows[0]].color, { r: 0, g: 0, b: 255 });
    assertAlmostEqual(colors[windows[0]].opacity, 128 / 255, 0.01);
    assert(!('424242424' in colors), 'unknown ids are left out');
    await el.resetColors();
    assertDeepEqual(await el.color(null, walls), {});
    assert((await pixelDifference(before, await el.screenshot())) < 0.001, 'colours are gone');
  });

  it('boundingBox of ids, of everything, and null for unknown ids', async () => {
    const all = (await el.boundingBox(null))!;
    const wall = (await el.boundingBox(walls[0]))!;
    for (const axis of ['x', 'y', 'z'] as const) {
      assert(wall.min[axis] >= all.min[axis] - 1e-3 && wall.max[axis] <= all.max[axis] + 1e-3, `wall inside the scene on ${axis}`);
      assert(wall.min[axis] <= wall.max[axis]);
    }
    assertEqual(await el.boundingBox('123456789'), null);
  });

  it('lookAt frames objects, from a named direction when given', async () => {
    await el.lookAt(walls[0], 'top');
    const vp = await el.viewpoint();
    assertAlmostEqual(vp.direction.z, -1, 1e-6, 'looking down');
    const box = (await el.boundingBox(walls[0]))!;
    assertAlmostEqual(vp.location.x, (box.min.x + box.max.x) / 2, 1e-3, 'above the wall (x)');
    assertAlmostEqual(vp.location.y, (box.min.y + box.max.y) / 2, 1e-3, 'above the wall (y)');
    const before = vp.direction;
    await el.lookAt(walls[1]);
    const after = await el.viewpoint();
    assertAlmostEqual(after.direction.z, before.z, 1e-6, 'without a direction the view direction stays');
  });

  it('lookAtBoundingBox frames a box', async () => {
    const box = { min: { x: 0, y: 0, z: 0 }, max: { x: 2, y: 2, z: 2 } };
    await el.lookAtBoundingBox(box, 'front');
    const vp = await el.viewpoint();
    assertDeepEqual([vp.direction.x, vp.direction.y, vp.direction.z].map((n) => Math.round(n * 1e6) / 1e6 + 0), [0, 1, 0]);
    assertAlmostEqual(vp.location.x, 1, 1e-6);
    assertAlmostEqual(vp.location.z, 1, 1e-6);
    assert(vp.location.y < 0, 'camera in front of the box');
  });

  it('viewpoint: get, set by name, by partial object, and orthogonal', async () => {
    const home = await el.viewpoint();
    assertEqual(home.type, 'perspective');
    assertAlmostEqual(length(home.direction), 1, 1e-6);
    assertAlmostEqual(length(home.up), 1, 1e-6);
    for (const [name, dir] of [['top', [0, 0, -1]], ['bottom', [0, 0, 1]], ['front', [0, 1, 0]], ['back', [0, -1, 0]], ['left', [1, 0, 0]], ['right', [-1, 0, 0]]] as const) {
      const vp = await el.viewpoint(name);
      assertDeepEqual([vp.direction.x, vp.direction.y, vp.direction.z].map((n) => Math.round(n * 1e6) / 1e6 + 0), [...dir], `direction of ${name}`);
    }
    const set = await el.viewpoint({ location: { x: 1, y: 2, z: 3 } });
    assertDeepEqual(set.location, { x: 1, y: 2, z: 3 }, 'partial viewpoint sets only the location');
    const ortho: Viewpoint = { type: 'orthogonal', location: { x: 4, y: -20, z: 3 }, direction: { x: 0, y: 1, z: 0 }, up: { x: 0, y: 0, z: 1 }, viewToWorldScale: 12 };
    const got = await el.viewpoint(ortho);
    assertEqual(got.type, 'orthogonal');
    assertAlmostEqual((got as { viewToWorldScale: number }).viewToWorldScale, 12, 1e-9);
    assertAlmostEqual(got.location.y, -20, 1e-9);
    assertAlmostEqual(got.up.z, 1, 1e-9);
    const persp = await el.viewpoint({ ...home, fov: 50 });
    assertEqual(persp.type, 'perspective');
    assertEqual((persp as { fov: number }).fov, 50);
    assertAlmostEqual(persp.location.x, home.location.x, 1e-9);
  });

  it('getProducts gives Product records, null for unknown ids; objectInfo adds attributes and property sets', async () => {
    const [wall, missing] = await el.getProducts([walls[0], '999999999']);
    const expected = truthOfId(walls[0]);
    assert(wall, 'a wall product');
    assertEqual(wall!.objectId, walls[0]);
    assertEqual(wall!.type, expected.type);
    assertEqual(wall!.globalId, expected.guid, 'IFC GlobalId');
    assertEqual(wall!.name, expected.name);
    assert(wall!.description === null || typeof wall!.description === 'string');
    assert(wall!.attributes === undefined && wall!.definedBy === undefined, 'basic fields only');
    assertEqual(missing, null);
    assertEqual(wall!.parent, objectIdOf(expected.parent));
    const [parent] = await el.getProducts([wall!.parent]);
    assertEqual(parent!.type, 'IfcBuildingStorey', 'walls are contained in a storey');
    const all = await el.getProducts();
    assertEqual(all.length, truth.products.length + 1, 'every IfcProduct and the project');
    assert(all.some((p) => p!.type === 'IfcProject' && p!.objectId === objectIdOf(truth.project.id) && p!.parent === '0'), 'the project is the root');
    const [info] = await el.objectInfo([walls[0]]);
    assertEqual(info!.attributes!.GlobalId.value, expected.guid);
    assertDeepEqual(info!.attributes!.Name, { type: 'String', value: expected.name });
    // Its own property and quantity sets and its type object, each once.
    type Definition = { objectId: string; type: string; attributes: Record<string, { type: string; value: unknown }> };
    const definitions = info!.definedBy!.map((d) => d.value as Definition);
    const sets = definitions.filter((d) => d.type === 'IfcPropertySet' || d.type === 'IfcElementQuantity');
    assertDeepEqual(sets.map((d) => d.attributes.Name.value).sort(), [...expected.psets].sort(), 'property and quantity sets');
    const types = definitions.filter((d) => !sets.includes(d));
    assertDeepEqual(types.map((d) => d.objectId), [objectIdOf(expected.typeObject!)], 'the type object');
    assertEqual(types[0].attributes.Name.value, truth.types.find((t) => t.id === expected.typeObject)!.name, 'the type object\'s name');
    const pset = sets.find((d) => d.type === 'IfcPropertySet')!;
    assertEqual(pset.attributes.HasProperties.type, 'List');
    const first = (pset.attributes.HasProperties.value as { type: string; value: { type: string } }[])[0];
    assertEqual(first.type, 'Entity');
    assert(first.value.type.startsWith('IfcProperty'), `nested property: ${first.value.type}`);
  });

  it('the core finds objects by IFC GlobalId and knows the storeys (for BCF and plans)', async () => {
    const core = (el as unknown as { core: Viewer3d }).core;
    const wall = truthOfId(walls[0]);
    assertDeepEqual(await core.objectIdsOfGlobalIds([wall.guid, 'not-a-guid']), [[walls[0]], []]);
    const [{ root }] = await core.spatialStructure();
    assertEqual(root!.type, 'IfcProject');
    const storeys: { objectId: string; name: string; elevation?: number }[] = [];
    const visit = (node: NonNullable<typeof root>) => {
      if (node.type === 'IfcBuildingStorey') storeys.push(node);
      node.children.forEach(visit);
    };
    visit(root!);
    // The house is in metres: elevations read as they are in the file.
    assertDeepEqual(
      storeys.map((s) => ({ id: s.objectId, name: s.name, elevation: s.elevation })),
      truth.storeys.map((s) => ({ id: objectIdOf(s.id), name: s.name, elevation: s.elevation })),
      'storeys',
    );
  });

  it('screenshot is a PNG data URL of the canvas size', async () => {
    const url = await el.screenshot();
    assert(url.startsWith('data:image/png;base64,'), url.slice(0, 30));
    const img = new Image();
    img.src = url;
    await img.decode();
    assertEqual(img.width, 640 * devicePixelRatio);
  });

  it('resize follows the element', async () => {
    el.style.width = '400px';
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await el.resize();
    const img = new Image();
    img.src = await el.screenshot();
    await img.decode();
    assertEqual(img.width, 400 * devicePixelRatio);
    el.style.width = '640px';
    await el.resize();
  });

  it('methods called before the load finishes act on the loaded model', async () => {
    const other = await createViewer(200, 150);
    try {
      const loading = other.loadUrl(MODELS.cabin);
      const hidden = other.hideAll();
      const ids = other.each();
      await loading;
      await hidden;
      assert((await ids).length > 0, 'each ran after the load');
    } finally {
      await removeViewer(other);
    }
  });
});

describe('<bim-viewer-3d> dispose', () => {
  it('releases the canvas and rejects later calls', async () => {
    const el = await createViewer(200, 150);
    await el.loadUrl(MODELS.cabin);
    const errors = record<{ type: string }>(el, 'viewer.error');
    await el.dispose();
    assertEqual(el.shadowRoot!.querySelector('canvas'), null, 'canvas removed');
    await assertRejects(el.showAll(), /disposed/);
    assertEqual(errors[0].type, 'disposed');
    el.remove();
  });
});
