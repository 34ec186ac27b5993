// IfcGrids of real files (BIM_MODELS): several grids in one model (example_project_location,
// 3; Mini_Project_Tekla, 7 with 120 axis tags). The sample house's grid is checked against
// its truth in test/viewer3d-grids.test.ts.
import { assert, assertEqual, assertAlmostEqual } from '../support/assert';
import { createViewer, removeViewer } from '../support/viewer';
import { REAL_MODELS } from '../support/real-models';
import type { BimViewer3d } from '../../src/elements/bim-viewer-3d';
import type { Vec3 } from '../../src/core/types';
import { assertGridTagsInOneDrawCall } from '../support/grids';

const distance = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

/** Real models with IfcGrids (MANIFEST.tsv in the BIM_MODELS folder). */
const WITH_GRIDS: [string, string, number][] = [
  ['example_project_location', REAL_MODELS.location, 3],
  ['Mini_Project_Tekla', REAL_MODELS.tekla, 7],
];

describe('grids of real models', () => {
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

  it('draws the 120 axis tags of Mini_Project_Tekla\'s 7 grids in one draw call, their text reaching the GPU after the warm-up\'s tags', async () => {
    el = await createViewer(400, 300);
    const core = (el as unknown as { core: { warmedUp: Promise<void>; renderer: { getContext(): WebGL2RenderingContext } } }).core;
    await core.warmedUp; // the warm-up's 8 tags have gone to the GPU in an atlas too small for Tekla's 120
    const gl = core.renderer.getContext();
    gl.getError();
    await el.loadUrl(REAL_MODELS.tekla);
    await el.renderInfo();
    // The atlas grew; a texture kept at its old size refuses the new rows (GL_INVALID_VALUE), and those tags show other text.
    assertEqual(gl.getError(), gl.NO_ERROR, 'no WebGL error drawing the tags');
    await assertGridTagsInOneDrawCall(el);
  });
});
