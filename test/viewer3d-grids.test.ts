import { assert, assertEqual, assertDeepEqual, assertAlmostEqual, assertRejects } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelDifference } from './support/viewer';
import { objectIdOf, truthOf } from './support/samples';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Vec3 } from '../src/core/types';
import { expectScreenshot } from './support/screenshot';
import { assertGridTagsInOneDrawCall } from './support/grids';
import { setEngineLoading } from '../src/core/engine';

const distance = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
const vec = ([x, y, z]: readonly number[]): Vec3 => ({ x, y, z });
const near = (a: Vec3, b: Vec3, what: string, tolerance = 1e-4) =>
  assert(distance(a, b) < tolerance, `${what}: (${[a.x, a.y, a.z].map((v) => v.toFixed(4))}), expected (${[b.x, b.y, b.z].map((v) => v.toFixed(4))})`);

interface LabelsView {
  texts(prefix: string): string[];
  labels: Map<string, { text: string; position: Vec3 }>;
}
interface CoreView {
  labels: LabelsView;
  origin: Vec3;
}

// The sample house's IfcGrid (samples/building.js): U axes "1".."4" at x = 0, 6, 12, 18 and
// V axes "A".."C" at y = 0, 5, 10, reaching a little beyond the building. Tekla's and
// example_project_location's grids are read in test/real-models/grids.test.ts.
describe('grids', () => {
  let el: BimViewer3d;
  const core = () => (el as unknown as { core: CoreView }).core;
  afterEach(() => removeViewer(el));

  it('reads the grid of the house, with its axes, lengths, tags at both ends and points along them', async () => {
    el = await createViewer(400, 300);
    await el.loadUrl(MODELS.house);
    const truth = await truthOf(MODELS.house);
    const grids = await el.getGrids();
    assertEqual(grids.length, 1, 'grids');
    const [grid] = grids;
    assertEqual(grid.modelId, 'house');
    assertEqual(grid.id, objectIdOf(truth.grid!.id));
    assertEqual(grid.name, truth.grid!.name);
    assertEqual(grid.type, 'RECTANGULAR', 'the predefined type the generator writes in IFC4');
    assertDeepEqual(grid.axes.map((a) => a.id).sort(), truth.grid!.axes.map((a) => objectIdOf(a.id)).sort(), 'axes');
    const origin = core().origin;
    const labels = core().labels.labels;
    for (const axis of grid.axes) {
      const expected = truth.grid!.axes.find((a) => objectIdOf(a.id) === axis.id)!;
      const [start, end] = [vec(expected.start), vec(expected.end)];
      const what = `axis ${expected.tag}`;
      assertAlmostEqual(axis.length, distance(start, end), 1e-6, `${what} length`);
      const first = await el.calculatePointOnAxis(axis.id, 0);
      const last = await el.calculatePointOnAxis(axis.id, axis.length);
      const middle = await el.calculatePointOnAxis(axis.id, axis.length / 2);
      near(first.location, start, `${what} at 0`);
      near(last.location, end, `${what} at its length`);
      near(middle.location, vec([0, 1, 2].map((i) => (expected.start[i] + expected.end[i]) / 2)), `${what} halfway`);
      near(first.direction, vec([0, 1, 2].map((i) => (expected.end[i] - expected.start[i]) / axis.length)), `${what} direction`, 1e-6);
      // Its tag at both ends (labels are in viewer coordinates: IFC minus the origin).
      [start, end].forEach((point, i) => {
        const label = labels.get(`grid:${axis.id}:${i}`);
        assert(label, `${what}: a tag at end ${i}`);
        assertEqual(label.text, expected.tag, `${what}: the tag at end ${i}`);
        near({ x: label.position.x + origin.x, y: label.position.y + origin.y, z: label.position.z + origin.z }, point, `${what}: where the tag at end ${i} is`);
      });
    }
    assertDeepEqual(core().labels.texts('grid:').sort(), truth.grid!.axes.flatMap((a) => [a.tag, a.tag]).sort(), 'the tags drawn');
  });

  it('draws every axis tag of a model in one draw call, as text facing the screen', async () => {
    el = await createViewer(400, 300);
    await el.loadUrl(MODELS.house);
    const grids = await assertGridTagsInOneDrawCall(el);
    for (const grid of grids) for (const axis of grid.axes) await el.setGridAxisState(axis.id, { visible: true });
    // From above, cut through the ground floor (the roof would hide the axes): the axes run
    // along the walls' middle lines and out beyond the house, upright tags at their ends.
    const storey = (await truthOf(MODELS.house)).storeys[0];
    await el.clippingPlanes([{ location: { x: 0, y: 0, z: storey.elevation + 1.5 }, direction: { x: 0, y: 0, z: 1 } }]);
    await el.viewpoint('top');
    await expectScreenshot('viewer3d/house-grid-tags', await el.screenshot());
  });

  it('shows, hides and extrudes axes; unknown axes are an error', async () => {
    el = await createViewer(400, 300);
    await el.loadUrl(MODELS.house);
    await el.viewpoint('top');
    const truth = await truthOf(MODELS.house);
    const [grid] = await el.getGrids();
    // Axis B runs west to east through the middle of the house: from the front its curtain faces the camera.
    const axis = objectIdOf(truth.grid!.axes.find((a) => a.tag === 'B')!.id);
    assertDeepEqual(await el.getGridAxisState(axis), { visible: true, extrudeCurve: false });
    const shown = await el.screenshot();
    for (const a of grid.axes) await el.setGridAxisState(a.id, { visible: false });
    assertDeepEqual(await el.getGridAxisState(axis), { visible: false, extrudeCurve: false });
    assertEqual(core().labels.texts('grid:').length, 0, 'no tags of hidden axes');
    const hidden = await el.screenshot();
    assert((await pixelDifference(shown, hidden)) > 0.002, 'hiding the axes and their tags changes the picture');
    await el.viewpoint('front');
    const front = await el.screenshot();
    await el.setGridAxisState(axis, { visible: true, extrudeCurve: true });
    assertDeepEqual(await el.getGridAxisState(axis), { visible: true, extrudeCurve: true });
    assert((await pixelDifference(front, await el.screenshot())) > 0.002, 'an extruded axis shows as a curtain');
    await assertRejects(el.getGridAxisState('123'), /No grid axis with id "123"/);
    await assertRejects(el.setGridAxisState(axis, { visible: 'yes' } as never), /visible\?: boolean/);
    await assertRejects(el.calculatePointOnAxis(axis, NaN), /distance must be a number/);
  });

  it('draws every tag of a model that has more tags than the models before it (after the warm-up and a small model)', async () => {
    el = await createViewer(400, 300);
    await (el as unknown as { core: { warmedUp: Promise<void> } }).core.warmedUp; // the warm-up has drawn its own 8 tags
    // With every object hidden, what is drawn as triangles is the tags' quads: two triangles a tag.
    const drawnTags = async () => {
      await el.hideAll();
      return (await el.renderInfo()).triangles / 2;
    };
    for (const url of [MODELS.cabin, MODELS.office2k]) {
      const truth = await truthOf(url);
      await el.loadUrl(url);
      assertEqual(await drawnTags(), 2 * truth.grid!.axes.length, `${url}: a tag at each end of its ${truth.grid!.axes.length} axes`);
      await el.unloadModel(url.replace(/^.*\/|\.ifc$/g, ''));
    }
  });

  it('compiles the grid and tag shaders as it is made: a first model with grids links no program (no warm-up to do it)', async () => {
    setEngineLoading('lazy'); // no engine, so no warm-up model drawn with its grid
    try {
      el = await createViewer(400, 300);
    } finally {
      setEngineLoading('eager');
    }
    const original = WebGL2RenderingContext.prototype.linkProgram;
    let linked = 0;
    WebGL2RenderingContext.prototype.linkProgram = function (this: WebGL2RenderingContext, program: WebGLProgram) {
      linked++;
      original.call(this, program);
    };
    try {
      await el.loadUrl(MODELS.house);
      assertEqual((await el.renderInfo()).triangles > 0, true, 'a frame drawn');
    } finally {
      WebGL2RenderingContext.prototype.linkProgram = original;
    }
    assert((await el.getGrids()).length > 0, 'the house has grids');
    assertEqual(linked, 0, 'programs linked for the house and its grid');
  });
});
