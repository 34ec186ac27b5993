import { expectScreenshot } from './support/screenshot';
import { removeViewer, idsOfType, loadHouse, resetObjects } from './support/viewer';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

/**
 * What a person sees, compared with approved pictures (test/screenshots/expected/viewer3d).
 * A mismatch writes the actual image and a diff beside them under test/screenshots/actual.
 */
describe('house pictures', () => {
  let el: BimViewer3d;
  let walls: string[];
  let windows: string[];

  before(async () => {
    ({ el, walls, windows } = await loadHouse(480, 360));
  });
  after(() => removeViewer(el));
  afterEach(async () => {
    await resetObjects(el);
  });

  it('default view', async () => {
    await expectScreenshot('viewer3d/house-home', await el.screenshot());
  });

  it('walls hidden', async () => {
    await el.hide(walls);
    await expectScreenshot('viewer3d/house-hide-walls', await el.screenshot());
  });

  it('walls translucent', async () => {
    await el.translucent(walls);
    await expectScreenshot('viewer3d/house-translucent-walls', await el.screenshot());
  });

  it('walls red, windows half-transparent blue', async () => {
    await el.color('#ff0000', walls);
    await el.color('#0000ff80', windows);
    await expectScreenshot('viewer3d/house-colors', await el.screenshot());
  });

  it('walls selected', async () => {
    await el.select(walls);
    await expectScreenshot('viewer3d/house-selected-walls', await el.screenshot());
  });

  it('top view, orthogonal', async () => {
    await el.viewpoint('top');
    const vp = await el.viewpoint();
    await el.viewpoint({ ...vp, type: 'orthogonal', viewToWorldScale: 30 });
    await expectScreenshot('viewer3d/house-top-orthogonal', await el.screenshot());
    await el.viewpoint({ ...vp, type: 'perspective', fov: 60 });
    await el.viewpoint('home');
  });
});
