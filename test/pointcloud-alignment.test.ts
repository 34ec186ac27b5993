import { assert } from './support/assert';
import { createViewer, removeViewer, pixels, pixelDifference } from './support/viewer';
import { core, settle } from './support/pointclouds';
import { expectScreenshot } from './support/screenshot';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Viewer3d } from '../src/core/viewer3d';
import type { Box, PerspectiveViewpoint } from '../src/core/types';

// The "done when": a generated building (the house at UTM 512,300 / 5,403,800,
// samples/variants.js house-utm) and the generator's scan of it (samples/scan.js, converted
// by the demo backend) in one viewer: the scan's points fall on the building, a moved scan
// does not, and one clipping plane cuts both.


/** Which pixels are drawn (not the background). */
async function mask(el: BimViewer3d): Promise<{ drawn: Uint8Array; width: number; height: number }> {
  const img = await pixels(await el.screenshot());
  const drawn = new Uint8Array(img.width * img.height);
  for (let i = 0; i < drawn.length; i++) {
    const [r, g, b] = [img.data[i * 4], img.data[i * 4 + 1], img.data[i * 4 + 2]];
    drawn[i] = Math.abs(r - 0xf2) + Math.abs(g - 0xf3) + Math.abs(b - 0xf5) > 12 ? 1 : 0;
  }
  return { drawn, width: img.width, height: img.height };
}

/** The share of the scan's pixels within `reach` pixels of a pixel of the building. */
function onBuilding(scan: Awaited<ReturnType<typeof mask>>, building: Awaited<ReturnType<typeof mask>>, reach = 2): number {
  const { width, height } = scan;
  let all = 0;
  let on = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!scan.drawn[y * width + x]) continue;
      all++;
      let near = false;
      for (let dy = -reach; dy <= reach && !near; dy++) {
        for (let dx = -reach; dx <= reach && !near; dx++) {
          const xx = x + dx, yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < width && yy < height && building.drawn[yy * width + xx]) near = true;
        }
      }
      if (near) on++;
    }
  }
  assert(all > 500, `the scan draws (${all} pixels)`);
  return on / all;
}

describe('point clouds: a generated building and its scan, lined up', () => {
  let el: BimViewer3d;
  let box: Box;

  before(async function () {
    this.timeout(600_000);
    el = await createViewer(480, 360);
    await el.loadModel('/samples/house-utm.ifc', { modelId: 'house' });
    await el.loadModel('/pointclouds/samples/house-utm.scan-200k.las.pointcloud', { modelType: 'point-cloud', modelId: 'scan' });
    box = (await el.modelInfo('house'))[0].boundingBox;
    // The ground around the building (class 2) is no part of it.
    await el.setPointCloudOptions({ hiddenClasses: [2] });
  });

  after(() => removeViewer(el));

  it('both are far from the origin, in the same place', async () => {
    const scan = (await el.modelInfo('scan'))[0].boundingBox;
    assert(box.min.x > 500_000 && box.min.y > 5_400_000, `the house is at UTM coordinates: ${JSON.stringify(box.min)}`);
    const overlap = (a: number, b: number, c: number, d: number) => Math.min(b, d) - Math.max(a, c);
    assert(overlap(box.min.x, box.max.x, scan.min.x, scan.max.x) > 0.8 * (box.max.x - box.min.x), 'x ranges overlap');
    assert(overlap(box.min.y, box.max.y, scan.min.y, scan.max.y) > 0.8 * (box.max.y - box.min.y), 'y ranges overlap');
  });

  it("the scan's points fall on the building (and a scan moved by two metres does not)", async () => {
    await el.viewpoint('home');
    await settle(el);
    await el.hideModel('scan');
    const building = await mask(el);
    await el.showModel('scan');
    await el.hideModel('house');
    await settle(el);
    const aligned = onBuilding(await mask(el), building);
    await el.transformModel('scan', { position: { x: 2, y: -2, z: 1 } });
    await settle(el);
    const moved = onBuilding(await mask(el), building);
    await el.transformModel('scan', {});
    await el.showModel('house');
    assert(aligned > 0.97, `${(aligned * 100).toFixed(1)}% of the scan's pixels are on the building`);
    assert(moved < aligned - 0.03, `moved by two metres, fewer are (${(moved * 100).toFixed(1)}%)`);
  });

  it('eye-dome lighting shades the scan only: the building draws as without it', async () => {
    await el.viewpoint('home');
    await settle(el);
    await el.hideModel('scan');
    const house = await el.screenshot();
    await el.setPointCloudOptions({ eyeDomeLighting: true });
    const houseEdl = await el.screenshot();
    await el.showModel('scan');
    await settle(el);
    const both = await el.screenshot();
    await el.setPointCloudOptions({ eyeDomeLighting: false });
    const bothPlain = await el.screenshot();
    assert((await pixelDifference(house, houseEdl)) < 0.001, 'no cloud shown: the same picture');
    const d = await pixelDifference(both, bothPlain, 8);
    assert(d > 0.002, `the scan is shaded: ${d}`);
    // Where only the building shows (no scan pixel there without EDL), EDL changes nothing.
    const [a, b, h] = await Promise.all([pixels(both), pixels(bothPlain), pixels(house)]);
    let changed = 0;
    let buildingOnly = 0;
    for (let i = 0; i < a.data.length; i += 4) {
      const same = (x: ImageData, y: ImageData) => Math.abs(x.data[i] - y.data[i]) + Math.abs(x.data[i + 1] - y.data[i + 1]) + Math.abs(x.data[i + 2] - y.data[i + 2]) < 6;
      if (!same(b, h)) continue; // the scan shows here
      buildingOnly++;
      if (!same(a, b)) changed++;
    }
    assert(changed / buildingOnly < 0.01, `the building's own pixels stay: ${changed} of ${buildingOnly} changed`);
  });

  it('one clipping plane cuts both', async () => {
    const c = { x: (box.min.x + box.max.x) / 2, y: (box.min.y + box.max.y) / 2 };
    const span = Math.max(box.max.x - box.min.x, box.max.y - box.min.y);
    // Straight down over the plane: the plane x = c.x is the picture's middle column.
    const top: PerspectiveViewpoint = { type: 'perspective', location: { x: c.x, y: c.y, z: box.max.z + span * 1.2 }, direction: { x: 0, y: 0, z: -1 }, up: { x: 0, y: 1, z: 0 }, fov: 60 };
    await el.viewpoint(top);
    await el.clippingPlanes([{ location: { x: c.x, y: c.y, z: 0 }, direction: { x: 1, y: 0, z: 0 } }]);
    const halves = async () => {
      const m = await mask(el);
      let left = 0;
      let right = 0;
      for (let y = 0; y < m.height; y++) {
        for (let x = 0; x < m.width; x++) {
          if (!m.drawn[y * m.width + x]) continue;
          if (x < m.width / 2 - 3) left++;
          else if (x > m.width / 2 + 3) right++;
        }
      }
      return { left, right };
    };
    // The house's grid axes are overlays the planes do not cut: out of the picture.
    for (const grid of await el.getGrids()) for (const axis of grid.axes) await el.setGridAxisState(axis.id, { visible: false });
    await el.hideModel('scan');
    await expectScreenshot('pointcloud-house-cut', await el.screenshot(), { tolerance: 0.03 });
    const house = await halves();
    await el.showModel('scan');
    await el.hideModel('house');
    await settle(el);
    await expectScreenshot('pointcloud-house-scan-cut', await el.screenshot(), { tolerance: 0.03 });
    const scan = await halves();
    await el.showModel('house');
    await el.clippingPlanes([]);
    assert(house.left > 2000 && scan.left > 2000, `both show left of the plane: ${house.left}, ${scan.left}`);
    assert(house.right === 0, `nothing of the house right of it: ${house.right}`);
    assert(scan.right === 0, `nothing of the scan right of it: ${scan.right}`);
  });
});
