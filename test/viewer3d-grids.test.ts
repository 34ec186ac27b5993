import { assert, assertEqual, assertDeepEqual, assertAlmostEqual, assertRejects } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelDifference } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Vec3 } from '../src/core/types';
import { expectScreenshot } from './support/screenshot';

const distance = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

/** The three sample models with IfcGrids (public/models/MANIFEST.tsv). */
const WITH_GRIDS: [string, string, number][] = [
  ['example_project_location', MODELS.location, 3],
  ['Mini_Project_Tekla', MODELS.tekla, 7],
  ['grid-placement', '/models/grid-placement.ifc', 1],
];

describe('grids', () => {
  let el: BimViewer3d;
  afterEach(() => removeViewer(el));

  for (const [modelId, url, count] of WITH_GRIDS) {
    it(`reads the ${count} grid(s) of ${modelId}, with axes, lengths and points along them`, async () => {
      el = await createViewer(400, 300);
      await el.loadUrl(url);
      const grids = await el.getGrids();
      assertEqual(grids.length, count, 'grids');
      for (const grid of grids) {
        assertEqual(grid.modelId, modelId);
        assert(/^\d+$/.test(grid.id) && typeof grid.name === 'string' && typeof grid.type === 'string', JSON.stringify(grid).slice(0, 100));
        assert(grid.axes.length >= 2, `grid ${grid.id} has axes`);
        for (const axis of grid.axes) {
          assert(axis.length > 0, `axis ${axis.id} has a length`);
          const start = await el.calculatePointOnAxis(axis.id, 0);
          const end = await el.calculatePointOnAxis(axis.id, axis.length);
          assertAlmostEqual(Math.hypot(start.direction.x, start.direction.y, start.direction.z), 1, 1e-6, 'unit direction');
          assert(distance(start.location, end.location) <= axis.length + 1e-6, 'the ends are no further apart than the axis is long');
          const middle = await el.calculatePointOnAxis(axis.id, axis.length / 2);
          assertAlmostEqual(distance(start.location, middle.location) + distance(middle.location, end.location), distance(start.location, end.location), 1e-3 + axis.length * 1e-6, 'the middle lies between the ends (straight axes)');
        }
      }
      const labels = (el as unknown as { core: { labels: { texts(prefix: string): string[] } } }).core.labels.texts('grid:');
      assert(labels.length >= 2, 'axis tags are drawn');
    });
  }

  it('draws every axis tag of a model in one draw call, as text facing the screen', async () => {
    el = await createViewer(400, 300);
    await el.loadUrl(MODELS.tekla);
    const withTags = await el.renderInfo();
    const grids = await el.getGrids();
    for (const grid of grids) for (const axis of grid.axes) await el.setGridAxisState(axis.id, { visible: false });
    const without = await el.renderInfo();
    const tags = grids.reduce((n, g) => n + g.axes.length * 2, 0);
    // Axis lines (one call per model) and tags (one for all of them).
    assertEqual(withTags.drawCalls - without.drawCalls, 2, `draw calls for ${tags} tags and their axes`);
    await removeViewer(el);
    el = await createViewer(400, 300);
    await el.loadUrl('/models/grid-placement.ifc');
    await el.viewpoint('top');
    await expectScreenshot('viewer3d/grid-placement-tags', await el.screenshot());
  });

  it('shows, hides and extrudes axes; unknown axes are an error', async () => {
    el = await createViewer(400, 300);
    await el.loadUrl('/models/grid-placement.ifc');
    await el.viewpoint('top');
    const [grid] = await el.getGrids();
    const axis = grid.axes[0].id;
    assertDeepEqual(await el.getGridAxisState(axis), { visible: true, extrudeCurve: false });
    const shown = await el.screenshot();
    for (const a of grid.axes) await el.setGridAxisState(a.id, { visible: false });
    assertDeepEqual(await el.getGridAxisState(axis), { visible: false, extrudeCurve: false });
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
});
