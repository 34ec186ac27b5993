import type { BimViewer3d } from '../../src/elements/bim-viewer-3d';
import type { GridInfo } from '../../src/core/scene/grid-axes';
import { assertEqual } from './assert';

/**
 * Hides every grid axis of the loaded models and checks that the axis lines and all the
 * tags cost two draw calls; the axes stay hidden. Returns the grids.
 */
export async function assertGridTagsInOneDrawCall(el: BimViewer3d): Promise<GridInfo[]> {
  const withTags = await el.renderInfo();
  const grids = await el.getGrids();
  for (const grid of grids) for (const axis of grid.axes) await el.setGridAxisState(axis.id, { visible: false });
  const without = await el.renderInfo();
  const tags = grids.reduce((n, g) => n + g.axes.length * 2, 0);
  // Axis lines (one call per model) and tags (one for all of them).
  assertEqual(withTags.drawCalls - without.drawCalls, 2, `draw calls for ${tags} tags and their axes`);
  return grids;
}
