// BCF viewpoints in <bim-viewer-3d>: buildingSMART's BCF 2.1 and 3.0 Visualization test
// cases shown on their models (read at run time from the BIM_BCF folder, default
// ../shared/bcf), taken again and shown in a second viewer; then the rules one by one on
// the sample house (visibility both ways, spaces, colours with alpha, clipping planes,
// cameras, georeferenced coordinates, transitions, bad viewpoints, jQuery).
import jq4 from 'jquery';
import { installViewer3dPlugin } from '../src/jquery/viewer-plugin';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { BcfComponent, BcfViewpoint } from '../src/core/bcf/viewpoint-types';
import type { Vec3, Viewpoint } from '../src/core/types';
import { assert, assertAlmostEqual, assertDeepEqual, assertEqual, assertRejects } from './support/assert';
import { compareScreenshot } from './support/screenshot';
import { BCF_CASES, BCF_MODELS, readBcfCase } from './support/bcf';
import { MODELS, createViewer, idsOfType, pixelDifference, pixels, record, removeViewer } from './support/viewer';
import { objectIdOf, productsOf, truthOf } from './support/samples';

interface State {
  objectId: string;
  type: string;
  visible: boolean;
  selected: boolean;
}

/** The state the renderer draws from (the element has no visibility reader). */
const statesOf = (el: BimViewer3d): State[] => (el as unknown as { core: { objectStates(): State[] } }).core.objectStates();
const sorted = (list: Iterable<string>) => [...list].sort();
const guids = (list: BcfComponent[] | null | undefined) => sorted((list ?? []).map((c) => c.ifc_guid!));

/** GlobalId and type of every product of the loaded models, and their parents. */
async function productIndex(el: BimViewer3d) {
  const products = (await el.getProducts()).filter((p) => p !== null);
  const byId = new Map(products.map((p) => [p!.objectId, p!]));
  const byGuid = new Map(products.map((p) => [p!.globalId, p!]));
  return { byId, byGuid, products };
}

const unit = (v: Vec3) => {
  const n = Math.hypot(v.x, v.y, v.z);
  return { x: v.x / n, y: v.y / n, z: v.z / n };
};
const dot = (a: Vec3, b: Vec3) => a.x * b.x + a.y * b.y + a.z * b.z;
const sub = (a: Vec3, b: Vec3) => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z });
const cross = (a: Vec3, b: Vec3) => ({ x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x });

function assertVec(actual: Vec3, expected: Vec3, epsilon: number, what: string) {
  for (const k of ['x', 'y', 'z'] as const) assertAlmostEqual(actual[k], expected[k], epsilon, `${what}.${k}: ${JSON.stringify(actual)} against ${JSON.stringify(expected)}`);
}

/** The viewer's camera is the viewpoint's: place, direction, up (made square to the direction), fov or scale. */
function assertCamera(actual: Viewpoint, vp: BcfViewpoint, what: string) {
  const camera = (vp.perspective_camera ?? vp.orthogonal_camera)!;
  assertEqual(actual.type, vp.perspective_camera ? 'perspective' : 'orthogonal', `${what}: camera type`);
  assertVec(actual.location, camera.camera_view_point, 1e-6, `${what}: location`);
  const direction = unit(camera.camera_direction);
  assertVec(actual.direction, direction, 1e-5, `${what}: direction`);
  const up = camera.camera_up_vector;
  assertVec(actual.up, unit(sub(up, { x: direction.x * dot(up, direction), y: direction.y * dot(up, direction), z: direction.z * dot(up, direction) })), 1e-4, `${what}: up`);
  if (actual.type === 'perspective') assertAlmostEqual(actual.fov, vp.perspective_camera!.field_of_view, 1e-9, `${what}: field of view`);
  else assertAlmostEqual(actual.viewToWorldScale, vp.orthogonal_camera!.view_to_world_scale, 1e-9, `${what}: view to world scale`);
}

/** Whether a point (IFC coordinates) falls inside the view a BCF camera sees, on a canvas of `aspect`. */
function inView(vp: BcfViewpoint, point: Vec3, aspect: number): boolean {
  const camera = (vp.perspective_camera ?? vp.orthogonal_camera)!;
  const direction = unit(camera.camera_direction);
  const right = unit(cross(direction, camera.camera_up_vector));
  const up = cross(right, direction);
  const v = sub(point, camera.camera_view_point);
  const depth = dot(v, direction);
  const half = vp.perspective_camera ? depth * Math.tan(((vp.perspective_camera.field_of_view / 2) * Math.PI) / 180) : vp.orthogonal_camera!.view_to_world_scale / 2;
  return depth > 0 && Math.abs(dot(v, up)) < half && Math.abs(dot(v, right)) < half * aspect;
}

describe('BCF viewpoints: buildingSMART\'s test cases on Architectural.ifc and MEP.ifc', function () {
  let el: BimViewer3d;
  let copy: BimViewer3d;
  let index: Awaited<ReturnType<typeof productIndex>>;
  /** For each product, the drawn objects it is made of (itself when drawn; a curtain wall its plates). */
  let parts: Map<string, string[]>;

  before(async () => {
    [el, copy] = [await createViewer(480, 360), await createViewer(480, 360)];
    for (const viewer of [el, copy]) {
      await viewer.loadModel(BCF_MODELS.architectural, { modelId: 'architectural' });
      await viewer.loadModel(BCF_MODELS.mep, { modelId: 'mep' });
    }
    index = await productIndex(el);
    const drawn = new Set(await el.each());
    const children = new Map<string, string[]>();
    for (const p of index.products) children.set(p!.parent, [...(children.get(p!.parent) ?? []), p!.objectId]);
    const partsOf = (id: string): string[] => (drawn.has(id) ? [id] : (children.get(id) ?? []).filter((c) => !/^IfcSpace|^IfcOpening/.test(index.byId.get(c)!.type)).flatMap(partsOf));
    parts = new Map(index.products.map((p) => [p!.globalId, partsOf(p!.objectId)]));
  });
  after(async () => {
    await removeViewer(el);
    await removeViewer(copy);
  });

  /** What the viewpoint says each drawn object is, by BCF's rules, read here on their own. */
  function expected(vp: BcfViewpoint) {
    const objectsOf = (list: BcfComponent[] | null | undefined) => new Set((list ?? []).flatMap((c) => parts.get(c.ifc_guid!) ?? []));
    const visibility = vp.components?.visibility;
    const exceptions = objectsOf(visibility?.exceptions);
    const base = visibility ? !!visibility.default_visibility : true;
    const hints = visibility?.view_setup_hints ?? {};
    const visible = new Set<string>();
    for (const s of statesOf(el)) {
      let on = base;
      if (s.type === 'IfcSpace' && !hints.spaces_visible) on = false;
      if (s.type.startsWith('IfcOpening') && !hints.openings_visible) on = false;
      if (exceptions.has(s.objectId)) on = !base;
      if (on) visible.add(s.objectId);
    }
    return { visible, selected: objectsOf(vp.components?.selection) };
  }

  for (const path of BCF_CASES) {
    it(path, async function () {
      const bcf = await readBcfCase(path);
      assert(bcf.viewpoints.length > 0, 'the archive holds a viewpoint');
      // Cases that bring their own model (2.1's cameras and selection: Estructura.ifc) are shown on it alone.
      let viewers = [el, copy];
      if (bcf.models.length) {
        viewers = [await createViewer(480, 360), await createViewer(480, 360)];
        for (const viewer of viewers) {
          for (const model of bcf.models) await viewer.loadModel(URL.createObjectURL(new Blob([model.bytes as BlobPart])), { modelId: model.file.replace(/\W+/g, '-') });
        }
      }
      const [shown, again] = viewers;
      try {
        for (const { file, viewpoint } of bcf.viewpoints) {
          const what = `${path} ${file}`;
          await shown.showBcfViewpoint(viewpoint);
          assertCamera(await shown.viewpoint(), viewpoint, what);
          if (!bcf.models.length) {
            const want = expected(viewpoint);
            const states = statesOf(shown);
            assertDeepEqual(sorted(states.filter((s) => s.visible).map((s) => s.objectId)), sorted(want.visible), `${what}: the visible objects`);
            assertDeepEqual(sorted(await shown.eachSelected()), sorted(want.selected), `${what}: the selected objects`);
            // The camera another tool wrote in IFC world coordinates frames what it shows.
            const box = await shown.boundingBox(null);
            assert(box, `${what}: something is visible`);
            const centre = { x: (box.min.x + box.max.x) / 2, y: (box.min.y + box.max.y) / 2, z: (box.min.z + box.max.z) / 2 };
            assert(inView(viewpoint, centre, 480 / 360), `${what}: the visible objects (centre ${JSON.stringify(centre)}) are in the camera's view`);
          }
          // Taken again, and shown in the second viewer: the same picture and the same components.
          const taken = await shown.getBcfViewpoint({ snapshot: true });
          const picture = await shown.screenshot();
          assertEqual(`data:image/png;base64,${taken.snapshot!.snapshot_data}`, picture, `${what}: the snapshot is the picture, plain base64`);
          assertCamera(await shown.viewpoint(), taken, `${what}: taken camera`);
          await again.showBcfViewpoint(taken);
          const result = await compareScreenshot(`bcf/${path.replace(/\W+/g, '-')}`, await again.screenshot(), { expectedDataUrl: picture, tolerance: 0.005 });
          assert(result.ok, `${what}: the picture shown again: ${result.message}`);
          const retaken = await again.getBcfViewpoint();
          assertDeepEqual(retaken.components, taken.components, `${what}: the components shown again`);
        }
      } finally {
        if (bcf.models.length) for (const viewer of viewers) await removeViewer(viewer);
      }
    });
  }

  it('the cases\' own statements: one wall shown, one hidden, one space, a curtain wall\'s parts, three selected across both models', async () => {
    const show = async (path: string) => el.showBcfViewpoint((await readBcfCase(path)).viewpoints[0].viewpoint);
    const visibleGuids = () => sorted(statesOf(el).filter((s) => s.visible).map((s) => index.byId.get(s.objectId)!.globalId));
    const wallCount = statesOf(el).length;

    await show('v3.0/Visualization/Single visible wall/single visible wall.bcf');
    assertDeepEqual(visibleGuids(), ['1XbKhGD91DvhOpYZbhzGTI'], 'only the wall');
    assertDeepEqual(await el.eachSelected(), [], 'nothing selected');

    await show('v3.0/Visualization/Single invisible wall/single invisible wall.bcf');
    const hinted = statesOf(el).filter((s) => s.type === 'IfcSpace' || s.type.startsWith('IfcOpening')).length;
    assertEqual(visibleGuids().length, wallCount - hinted - 1, 'everything but the spaces (and openings) and one wall');
    assert(!visibleGuids().includes('1E8YkwPMfB$h99jtn_uAjI'), 'the wall is hidden');

    await show('v3.0/Visualization/Single visible space/single visible space.bcf');
    assertDeepEqual(visibleGuids(), ['1bbI761TbBCOoIa5Kt6PXt'], 'one space, though spaces_visible is false: exceptions come last');

    await show('v3.0/Visualization/all components and spaces visible/all components and spaces visible.bcf');
    assertEqual(visibleGuids().length, wallCount, 'every object, the spaces too');

    await show('v3.0/Visualization/All parts of curtain wall visible/all parts of curtain walls visible.bcf');
    const plates = parts.get('2_hQ1Rixj6lgHTra$L72O4')!;
    assert(plates.length > 10, `the curtain wall is made of parts (${plates.length})`);
    assertDeepEqual(visibleGuids(), sorted(plates.map((id) => index.byId.get(id)!.globalId)), 'the curtain wall\'s parts, and nothing else');

    await show('v3.0/Visualization/All parts of decomposed object except one visible/all parts except one visible.bcf');
    assert(!visibleGuids().includes('14rw$C3xD3ZeUJL3YaqCEK'), 'the one plate is hidden');
    assertEqual(visibleGuids().length, plates.length - 1, 'the other parts are shown');

    await show('v3.0/Visualization/Component selection/component selection.bcf');
    const selected = sorted((await el.getProducts(await el.eachSelected())).map((p) => p!.globalId));
    assertDeepEqual(selected, ['0KkZ20so9BsO1d1hFcfLOl', '1XbKhGD91DvhOpYZbhzGTI', '3D9pjHJ0HCnggyepvsht8s'], 'three selected, one of them in MEP.ifc');
  });
});

describe('BCF viewpoints: the rules, on the sample house', function () {
  let el: BimViewer3d;
  let fresh: BimViewer3d | undefined;
  let walls: string[];
  let spaces: string[];
  let guidOf: Map<string, string>;

  before(async () => {
    el = await createViewer(400, 300);
    await el.loadUrl(MODELS.house);
    walls = [...(await idsOfType(el, 'IfcWall')), ...(await idsOfType(el, 'IfcWallStandardCase'))];
    spaces = await idsOfType(el, 'IfcSpace');
    guidOf = new Map((await el.getProducts(await el.each())).map((p) => [p!.objectId, p!.globalId]));
  });
  after(() => removeViewer(el));
  beforeEach(async () => {
    await el.showBcfViewpoint({ perspective_camera: { camera_view_point: { x: -15, y: -20, z: 18 }, camera_direction: { x: 1, y: 1.2, z: -0.9 }, camera_up_vector: { x: 0, y: 0, z: 1 }, field_of_view: 60 } });
  });
  afterEach(async () => {
    await removeViewer(fresh);
    fresh = undefined;
  });

  /** A second viewer with the house, for showing what the first took. */
  async function freshViewer() {
    fresh = await createViewer(400, 300);
    await fresh.loadUrl(MODELS.house);
    return fresh;
  }

  it('a viewpoint of the house as loaded: everything shown (no exceptions), spaces hidden by their hint, nothing selected or coloured', async () => {
    const vp = await el.getBcfViewpoint();
    assertDeepEqual(vp.components, {
      selection: [],
      coloring: [],
      visibility: { default_visibility: true, exceptions: [], view_setup_hints: { spaces_visible: false, space_boundaries_visible: false, openings_visible: false } },
    });
    assertEqual(vp.snapshot, undefined, 'no snapshot unless asked');
    assertAlmostEqual(vp.perspective_camera!.aspect_ratio!, 400 / 300, 1e-9);
    assertDeepEqual(vp.clipping_planes, []);
  });

  it('default_visibility true with the hidden as exceptions, false with the shown: whichever list is shorter, both shown back', async () => {
    await el.hide(walls.slice(0, 3));
    const fewHidden = await el.getBcfViewpoint();
    assertEqual(fewHidden.components!.visibility!.default_visibility, true);
    assertDeepEqual(guids(fewHidden.components!.visibility!.exceptions), sorted(walls.slice(0, 3).map((id) => guidOf.get(id)!)));

    await el.hideAll();
    await el.show(walls.slice(0, 2));
    const fewShown = await el.getBcfViewpoint();
    assertEqual(fewShown.components!.visibility!.default_visibility, false);
    assertDeepEqual(guids(fewShown.components!.visibility!.exceptions), sorted(walls.slice(0, 2).map((id) => guidOf.get(id)!)));

    await el.showBcfViewpoint(fewHidden);
    assertDeepEqual(sorted(statesOf(el).filter((s) => !s.visible).map((s) => s.objectId)), sorted([...walls.slice(0, 3), ...spaces]), 'hidden: the three walls and the spaces');
    await el.showBcfViewpoint(fewShown);
    assertDeepEqual(sorted(statesOf(el).filter((s) => s.visible).map((s) => s.objectId)), sorted(walls.slice(0, 2)), 'shown: the two walls');
  });

  it('spaces: shown ones set spaces_visible with default true; spaces_visible shows them all, and exceptions still hide one', async () => {
    await el.showAll();
    const all = await el.getBcfViewpoint();
    assertDeepEqual(all.components!.visibility, { default_visibility: true, exceptions: [], view_setup_hints: { spaces_visible: true, space_boundaries_visible: false, openings_visible: false } });
    await el.hide(spaces[0]);
    const vp = await el.getBcfViewpoint();
    assertDeepEqual(guids(vp.components!.visibility!.exceptions), [guidOf.get(spaces[0])!]);
    await el.showBcfViewpoint({ ...vp, components: { visibility: { default_visibility: true, view_setup_hints: { spaces_visible: true } } } });
    assertEqual(statesOf(el).filter((s) => s.visible).length, statesOf(el).length, 'every space shown');
    await el.showBcfViewpoint(vp);
    assertDeepEqual(statesOf(el).filter((s) => !s.visible).map((s) => s.objectId), [spaces[0]], 'one space hidden');
  });

  it('colours by GlobalId, AARRGGBB when translucent; shown again in a fresh viewer: the same colours and the same picture', async () => {
    await el.color('#ff0000', walls.slice(0, 2));
    await el.color('#0000ff80', walls.slice(2, 4));
    await el.select(walls[5]);
    const vp = await el.getBcfViewpoint();
    const coloring = [...vp.components!.coloring!].sort((a, b) => a.color.localeCompare(b.color));
    assertDeepEqual(coloring.map((c) => c.color), ['800000FF', 'FF0000'], 'alpha first, 6 digits when opaque');
    assertDeepEqual(guids(coloring[0].components), sorted(walls.slice(2, 4).map((id) => guidOf.get(id)!)));
    assertDeepEqual(guids(coloring[1].components), sorted(walls.slice(0, 2).map((id) => guidOf.get(id)!)));
    assertDeepEqual(guids(vp.components!.selection), [guidOf.get(walls[5])!]);

    const other = await freshViewer();
    await other.showBcfViewpoint(vp);
    assertDeepEqual(await other.color(null, walls.slice(0, 4)), await el.color(null, walls.slice(0, 4)));
    assertAlmostEqual((await other.color(null, walls[2]) as Record<string, { opacity: number }>)[walls[2]].opacity, 128 / 255, 1e-9);
    assertDeepEqual(await other.eachSelected(), [walls[5]]);
    const result = await compareScreenshot('bcf/house-colours', await other.screenshot(), { expectedDataUrl: await el.screenshot(), tolerance: 0.002 });
    assert(result.ok, result.message);
    // and showing a viewpoint without colours takes them away
    await other.showBcfViewpoint({ ...vp, components: { visibility: { default_visibility: true } } });
    assertDeepEqual(await other.color(null, walls.slice(0, 4)), {});
    assertDeepEqual(await other.eachSelected(), []);
  });

  it('clipping planes: direction points to the side cut away, as in BCF; they go and come back unchanged', async () => {
    const truth = await truthOf(MODELS.house);
    const z = truth.storeys[0].elevation + 1.5;
    const { min, max } = truth.box!;
    const top: BcfViewpoint = { orthogonal_camera: { camera_view_point: { x: (min[0] + max[0]) / 2, y: (min[1] + max[1]) / 2, z: max[2] + 20 }, camera_direction: { x: 0, y: 0, z: -1 }, camera_up_vector: { x: 0, y: 1, z: 0 }, view_to_world_scale: 30 } };
    await el.showBcfViewpoint(top);
    const whole = await el.screenshot();
    const cutAbove = { ...top, clipping_planes: [{ location: { x: 0, y: 0, z }, direction: { x: 0, y: 0, z: 1 } }] };
    await el.showBcfViewpoint(cutAbove);
    assertDeepEqual(await el.clippingPlanes(), cutAbove.clipping_planes, 'the same planes, direction as given');
    const above = await el.screenshot();
    assert((await pixelDifference(whole, above)) > 0.05, 'cutting away what is above the ground floor opens the house from the top');
    await el.showBcfViewpoint({ ...top, clipping_planes: [{ location: { x: 0, y: 0, z }, direction: { x: 0, y: 0, z: -1 } }] });
    assert((await pixelDifference(whole, await el.screenshot())) < 0.01, 'cutting away what is below leaves the view from the top as it was');

    await el.showBcfViewpoint(cutAbove);
    const vp = await el.getBcfViewpoint();
    assertDeepEqual(vp.clipping_planes, cutAbove.clipping_planes);
    const other = await freshViewer();
    await other.showBcfViewpoint(vp);
    assertDeepEqual(await other.clippingPlanes(), cutAbove.clipping_planes);
    const result = await compareScreenshot('bcf/house-clipped', await other.screenshot(), { expectedDataUrl: above, tolerance: 0.002 });
    assert(result.ok, result.message);
    await el.showBcfViewpoint(top);
    assertDeepEqual(await el.clippingPlanes(), [], 'a viewpoint without planes removes them');
  });

  it('an orthogonal camera goes and comes back: view_to_world_scale is the view\'s height in metres', async () => {
    await el.viewpoint({ type: 'orthogonal', location: { x: -10, y: -12, z: 14 }, direction: { x: 1, y: 1, z: -1 }, up: { x: 0, y: 0, z: 1 }, viewToWorldScale: 18 });
    const vp = await el.getBcfViewpoint();
    assert(vp.orthogonal_camera && !vp.perspective_camera, 'an orthogonal camera only');
    assertAlmostEqual(vp.orthogonal_camera.view_to_world_scale, 18, 1e-9);
    assertVec(vp.orthogonal_camera.camera_view_point, { x: -10, y: -12, z: 14 }, 1e-9, 'camera_view_point');
    const other = await freshViewer();
    await other.showBcfViewpoint(vp);
    assertCamera(await other.viewpoint(), vp, 'shown again');
    const result = await compareScreenshot('bcf/house-orthogonal', await other.screenshot(), { expectedDataUrl: await el.screenshot(), tolerance: 0.002 });
    assert(result.ok, result.message);
  });

  it('unknown GlobalIds are ignored (objects of models not loaded); the known ones count', async () => {
    const errors = record(el, 'viewer.error');
    const vp = await el.getBcfViewpoint();
    await el.showBcfViewpoint({
      ...vp,
      components: {
        selection: [{ ifc_guid: '0000000000000000000000' }, { ifc_guid: guidOf.get(walls[1])!, originating_system: 'elsewhere', authoring_tool_id: '42' }, { authoring_tool_id: 'no guid' }],
        visibility: { default_visibility: false, exceptions: [{ ifc_guid: '3$cshxZO9AJBebsni$z9Yk' }, { ifc_guid: guidOf.get(walls[1])! }] },
        coloring: [{ color: '00ff00', components: [{ ifc_guid: '1$cshxZO9AJBebsni$z9Yk' }] }],
      },
    });
    assertDeepEqual(await el.eachSelected(), [walls[1]]);
    assertDeepEqual(statesOf(el).filter((s) => s.visible).map((s) => s.objectId), [walls[1]]);
    assertEqual(errors.length, 0, 'no viewer.error');
  });

  it('a GlobalId in two loaded models (the house twice): its objects in both', async () => {
    const twice = await freshViewer();
    await twice.loadModel(MODELS.house, { modelId: 'house-again' });
    const [house, again] = await twice.modelInfo();
    assertDeepEqual(again.boundingBox, house.boundingBox, 'the same house in the same place');
    await twice.showBcfViewpoint({ ...(await el.getBcfViewpoint()), components: { selection: [{ ifc_guid: guidOf.get(walls[0])! }], visibility: { default_visibility: false, exceptions: [{ ifc_guid: guidOf.get(walls[1])! }] } } });
    const selected = await twice.eachSelected();
    assertEqual(selected.length, 2, `selected in both models: ${selected}`);
    assertDeepEqual((await twice.getProducts(selected)).map((p) => p!.globalId), [guidOf.get(walls[0]), guidOf.get(walls[0])]);
    const shown = statesOf(twice).filter((s) => s.visible).map((s) => s.objectId);
    assertDeepEqual((await twice.getProducts(shown)).map((p) => p!.globalId), [guidOf.get(walls[1]), guidOf.get(walls[1])], 'shown in both models');
  });

  it('a malformed viewpoint rejects with a ViewerError of type argument, and changes nothing', async () => {
    await el.select(walls[0]);
    const before = await el.getBcfViewpoint();
    const camera = before.perspective_camera!;
    const bad: [unknown, RegExp][] = [
      [null, /must be an object/],
      ['top', /must be an object/],
      [{}, /needs a perspective_camera or an orthogonal_camera/],
      [{ perspective_camera: camera, orthogonal_camera: { ...camera, view_to_world_scale: 3 } }, /exactly one camera/],
      [{ perspective_camera: { ...camera, field_of_view: undefined } }, /field_of_view/],
      [{ perspective_camera: { ...camera, camera_view_point: { x: '1', y: 0, z: 0 } } }, /camera_view_point must be \{x, y, z\}/],
      [{ perspective_camera: { ...camera, camera_direction: { x: 0, y: 0, z: 0 } } }, /camera_direction must not be the zero vector/],
      [{ orthogonal_camera: { ...camera, view_to_world_scale: -1 } }, /view_to_world_scale/],
      [{ perspective_camera: camera, components: { selection: { ifc_guid: 'x' } } }, /selection must be an array/],
      [{ perspective_camera: camera, components: { selection: [{ ifc_guid: 7 }] } }, /ifc_guid must be a string/],
      [{ perspective_camera: camera, components: { coloring: [{ color: '#ff0000', components: [] }] } }, /color must be 6 hex digits/],
      [{ perspective_camera: camera, components: { visibility: { default_visibility: 'true' } } }, /default_visibility must be a boolean/],
      [{ perspective_camera: camera, clipping_planes: [{ location: { x: 0, y: 0, z: 0 } }] }, /clipping_planes\[0\]\.direction/],
      [{ perspective_camera: camera, clipping_planes: Array.from({ length: 7 }, () => ({ location: { x: 0, y: 0, z: 0 }, direction: { x: 0, y: 0, z: 1 } })) }, /at most 6 clipping planes/],
    ];
    for (const [viewpoint, message] of bad) {
      const errors = record<{ type: string }>(el, 'viewer.error');
      const error = await assertRejects(el.showBcfViewpoint(viewpoint as BcfViewpoint), message, JSON.stringify(viewpoint));
      assertEqual((error as { type: string }).type, 'argument', `${JSON.stringify(viewpoint)}: type`);
      assertEqual(errors[0]?.type, 'argument', 'and a viewer.error');
    }
    await assertRejects(el.getBcfViewpoint({ snapshot: 'yes' } as never), /snapshot\?: boolean/);
    assertDeepEqual(await el.getBcfViewpoint(), before, 'nothing changed');
  });

  it('georeferenced: the camera is in IFC world coordinates, so a camera written for a wall frames that wall', async () => {
    const geo = (fresh = await createViewer(400, 300, { 'selected-color': '#ff00ff' }));
    await geo.loadUrl(MODELS.houseGeoreferenced);
    const truth = await truthOf(MODELS.houseGeoreferenced);
    const wall = productsOf(truth, 'IfcWall')[0];
    const [min, max] = [wall.box!.min, wall.box!.max];
    const centre = { x: (min[0] + max[0]) / 2, y: (min[1] + max[1]) / 2, z: (min[2] + max[2]) / 2 };
    assert(Math.abs(centre.x) > 1e6, `the wall is far from the origin (${centre.x})`);
    // 6 m in front of the wall's middle, looking at it across its thinner side; the wall alone, selected
    const x = max[0] - min[0] < max[1] - min[1];
    const across = { x: x ? 1 : 0, y: x ? 0 : 1, z: 0 };
    const place = { x: centre.x - across.x * 6, y: centre.y - across.y * 6, z: centre.z };
    const vp: BcfViewpoint = {
      perspective_camera: { camera_view_point: place, camera_direction: across, camera_up_vector: { x: 0, y: 0, z: 1 }, field_of_view: 50 },
      components: { selection: [{ ifc_guid: wall.guid }], visibility: { default_visibility: false, exceptions: [{ ifc_guid: wall.guid }] } },
    };
    await geo.showBcfViewpoint(vp);
    assertDeepEqual(await geo.eachSelected(), [objectIdOf(wall.id)]);
    const picture = await pixels(await geo.screenshot());
    let magenta = 0;
    for (let i = 0; i < picture.data.length; i += 4) if (picture.data[i] > 200 && picture.data[i + 1] < 80 && picture.data[i + 2] > 200) magenta++;
    assert(magenta / (picture.width * picture.height) > 0.15, `the selected wall fills the view (${((100 * magenta) / (picture.width * picture.height)).toFixed(1)} % of the pixels)`);
    const taken = await geo.getBcfViewpoint();
    assertVec(taken.perspective_camera!.camera_view_point, place, 1e-6, 'taken in world coordinates');
  });

  it('the camera moves as transitionSettings say, and showBcfViewpoint resolves once it has arrived', async () => {
    const target: BcfViewpoint = { perspective_camera: { camera_view_point: { x: 30, y: -25, z: 12 }, camera_direction: { x: -1, y: 0.8, z: -0.3 }, camera_up_vector: { x: 0, y: 0, z: 1 }, field_of_view: 45 } };
    await el.transitionSettings({ duration: 400, easing: 'QuadraticInOut' });
    try {
      const start = performance.now();
      const shown = el.showBcfViewpoint(target);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const midway = (el as unknown as { core: { getViewpoint(): Viewpoint } }).core.getViewpoint();
      assert(Math.abs(midway.location.x - 30) > 0.5, `still on its way at 150 ms (${midway.location.x})`);
      await shown;
      assert(performance.now() - start >= 380, 'resolved after the transition');
      assertCamera(await el.viewpoint(), target, 'arrived');
    } finally {
      await el.transitionSettings({ duration: 0 });
    }
  });

  it('through jQuery: $(el).viewer(\'getBcfViewpoint\', options, callback) and $(el).viewer(\'showBcfViewpoint\', vp) chaining', async () => {
    installViewer3dPlugin(jq4);
    const host = document.createElement('div');
    host.style.cssText = 'position:fixed;left:0;top:0;width:320px;height:240px';
    document.body.append(host);
    const $v = jq4(host) as unknown as { viewer(...args: unknown[]): unknown };
    try {
      $v.viewer({});
      await $v.viewer('loadUrl', MODELS.cabin);
      const vp = await new Promise<BcfViewpoint>((resolve) => $v.viewer('getBcfViewpoint', { snapshot: true }, (value: BcfViewpoint) => resolve(value)));
      assert(vp.snapshot?.snapshot_data && atob(vp.snapshot.snapshot_data).startsWith('\x89PNG'), 'a PNG snapshot, plain base64');
      const hidden = { ...vp, components: { visibility: { default_visibility: false } } };
      assert($v.viewer('showBcfViewpoint', hidden) === $v, 'showBcfViewpoint chains');
      const again = await ($v.viewer('getBcfViewpoint') as Promise<BcfViewpoint>);
      assertEqual(again.components!.visibility!.default_visibility, false);
      assertDeepEqual(again.components!.visibility!.exceptions, []);
    } finally {
      await ($v.viewer('dispose') as unknown);
      host.remove();
    }
  });
});
