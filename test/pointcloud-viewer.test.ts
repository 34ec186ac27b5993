import { sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertAlmostEqual, assertEqual } from './support/assert';
import { createViewer, removeViewer, pixels, pixelDifference, record, MODELS } from './support/viewer';
import { screenPoint } from './support/screen';
import { sleep } from './support/page';
import { expectScreenshot } from './support/screenshot';
import { createViewer2d, removeViewer2d } from './support/viewer2d';
import { buildCloud, core, floorAndWall, serveCloud, settle } from './support/pointclouds';
import { nodeBounds, type PointCloudMetadata, type Vec3 as Tuple } from '../src/core/formats/pointcloud';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Viewer3d } from '../src/core/viewer3d';
import type { PerspectiveViewpoint, Vec3, ViewerError } from '../src/core/types';

// Point clouds in <bim-viewer-3d> (src/core/pointcloud/): generated clouds in the platform's
// format, served with HTTP range requests by the test server, drawn by real WebGL.


/** Pixels matching `test` in a screenshot, as a fraction. */
async function share(el: BimViewer3d, test: (r: number, g: number, b: number) => boolean, shot?: string): Promise<number> {
  const img = await pixels(shot ?? (await el.screenshot()));
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) if (test(img.data[i], img.data[i + 1], img.data[i + 2])) n++;
  return n / (img.width * img.height);
}

const red = (r: number, g: number, b: number) => r > 140 && g < 110 && b < 90;
const green = (r: number, g: number, b: number) => g > 130 && r < 110 && b < 120;
const background = (r: number, g: number, b: number) => Math.abs(r - 0xf2) < 6 && Math.abs(g - 0xf3) < 6 && Math.abs(b - 0xf5) < 6;

/** Looking down at the floor from above its centre, the wall at the top of the picture. */
const unit = (x: number, y: number, z: number) => {
  const l = Math.hypot(x, y, z);
  return { x: x / l, y: y / l, z: z / l };
};
/** Closer: the floor's nodes are large on screen, so deeper ones are wanted. */
const CLOSE: PerspectiveViewpoint = { type: 'perspective', location: { x: 10, y: 6, z: 7 }, direction: unit(0, 0.25, -1), up: unit(0, 1, 0.25), fov: 60 };
const TOP: PerspectiveViewpoint = { type: 'perspective', location: { x: 10, y: 5, z: 24 }, direction: unit(0, 0.25, -1), up: unit(0, 1, 0.25), fov: 60 };

describe('point clouds: a generated floor and wall', () => {
  let el: BimViewer3d;
  let url: string;
  let metadata: PointCloudMetadata;
  const points = floorAndWall(20, 0.05);
  const count = points.positions.length / 3;

  before(async () => {
    const built = buildCloud(points, { cells: 32 });
    metadata = built.metadata;
    url = await serveCloud('floor-wall.pointcloud', built.bytes);
    el = await createViewer(480, 360);
  });

  after(() => removeViewer(el));

  it('loads with loadModel: modelInfo gives its point count and bounds', async () => {
    const info = await el.loadModel(url, { modelType: 'point-cloud', modelId: 'scan' });
    assertEqual(info.modelId, 'scan');
    assertEqual(info.modelType, 'point-cloud');
    assertEqual(info.pointCount, count);
    assertEqual(metadata.points, count);
    const { min, max } = metadata.container.tightBoundingBox;
    for (const [i, axis] of (['x', 'y', 'z'] as const).entries()) {
      assertAlmostEqual(info.boundingBox.min[axis], min[i], 1e-6, `min ${axis}`);
      assertAlmostEqual(info.boundingBox.max[axis], max[i], 1e-6, `max ${axis}`);
    }
    assertEqual(info.visible, true);
    const [listed] = await el.modelInfo();
    assertEqual(listed.pointCount, count);
    assertEqual(JSON.stringify(await el.boundingBox()), JSON.stringify(info.boundingBox), 'the scene box is the cloud');
  });

  it('draws the points in their own colours (the floor red, the wall green, not white)', async () => {
    await el.viewpoint(TOP);
    await settle(el);
    const shot = await el.screenshot();
    await expectScreenshot('pointcloud-floor-wall', shot, { tolerance: 0.03 });
    const reds = await share(el, red, shot);
    const greens = await share(el, green, shot);
    const whites = await share(el, (r, g, b) => r > 235 && g > 235 && b > 235 && !background(r, g, b), shot);
    assert(reds > 0.15, `the floor shows red: ${reds}`);
    assert(greens > 0.01, `the wall shows green: ${greens}`);
    assert(whites < 0.01, `no white points: ${whites}`);
    // Where the floor is, there are no gaps: the adaptive size closes them.
    const [x, y] = screenPoint(el, TOP, [10, 10, 0]);
    const img = await pixels(shot);
    let filled = 0;
    for (let dx = -20; dx <= 20; dx += 2) for (let dy = -20; dy <= 20; dy += 2) {
      const i = ((y + dy) * img.width + (x + dx)) * 4;
      if (!background(img.data[i], img.data[i + 1], img.data[i + 2])) filled++;
    }
    assert(filled / 441 > 0.9, `the floor is nearly closed: ${filled}/441 samples drawn`);
  });

  it('draws no more points than the budget, nearer nodes first', async () => {
    await el.viewpoint(CLOSE);
    await el.setPointCloudOptions({ pointBudget: 2_000_000 });
    await settle(el);
    const all = (await el.renderInfo()).points;
    assert(all > 60_000, `with the default budget, more than 60,000 points show: ${all}`);
    await el.setPointCloudOptions({ pointBudget: 50_000 });
    await settle(el);
    const info = await el.renderInfo();
    const drawnByGl = core(el).renderer.info.render.points;
    assert(info.points <= 50_000 && info.points > 10_000, `the budget's points: ${info.points}`);
    assert(drawnByGl <= 50_000 && drawnByGl > 10_000, `WebGL drew ${drawnByGl} points`);
    assertEqual((await el.getPointCloudOptions()).pointBudget, 50_000);

    // A fresh viewer close to one corner of the floor: the nodes asked for nearest first.
    const near = await createViewer(480, 360);
    try {
      await near.loadModel(url, { modelType: 'point-cloud', modelId: 'scan' });
      const eye = { x: 1, y: 1, z: 1.6 };
      await near.viewpoint({ type: 'perspective', location: eye, direction: { x: 0.6, y: 0.6, z: -0.3 }, up: { x: 0, y: 0, z: 1 }, fov: 60 });
      const requested = core(near).pointClouds.requested;
      const before = requested.length;
      await settle(near);
      const names = requested.slice(before);
      assert(names.length >= 12, `nodes were asked for: ${names.length}`);
      const distance = (name: string) => {
        const { min, max } = nodeBounds(metadata.boundingBox, name);
        const c = [0, 1, 2].map((i) => Math.max(min[i] - [eye.x, eye.y, eye.z][i], 0, [eye.x, eye.y, eye.z][i] - max[i]));
        return Math.hypot(c[0], c[1], c[2]);
      };
      // Within each level, the first third asked for is nearer than the last third.
      const levels = new Map<number, string[]>();
      for (const name of names) levels.set(name.length, [...(levels.get(name.length) ?? []), name]);
      let compared = 0;
      for (const [level, list] of levels) {
        if (list.length < 6) continue;
        const third = Math.floor(list.length / 3);
        const mean = (l: string[]) => l.reduce((s, n) => s + distance(n), 0) / l.length;
        assert(mean(list.slice(0, third)) < mean(list.slice(-third)), `level ${level - 1}: nearer nodes first (${mean(list.slice(0, third))} < ${mean(list.slice(-third))})`);
        compared++;
      }
      assert(compared > 0, 'a level had enough nodes to compare');
    } finally {
      await removeViewer(near);
    }
    await el.setPointCloudOptions({ pointBudget: 2_000_000 });
  });

  it('colours by intensity, classification and elevation, and hides a class', async () => {
    await el.viewpoint(TOP);
    await settle(el);
    const shots: Record<string, string> = {};
    for (const mode of ['rgb', 'intensity', 'classification', 'elevation'] as const) {
      await el.setPointCloudOptions({ colorMode: mode });
      shots[mode] = await el.screenshot();
    }
    const modes = Object.keys(shots);
    for (let i = 0; i < modes.length; i++) {
      for (let j = i + 1; j < modes.length; j++) {
        const d = await pixelDifference(shots[modes[i]], shots[modes[j]]);
        assert(d > 0.2, `${modes[i]} and ${modes[j]} differ: ${d}`);
      }
    }
    // Intensity rises with x: grey, darker on the left than on the right.
    const img = await pixels(shots.intensity);
    const at = (p: Tuple) => {
      const [x, y] = screenPoint(el, TOP, p);
      const i = (y * img.width + x) * 4;
      return [img.data[i], img.data[i + 1], img.data[i + 2]];
    };
    const [l, r] = [at([3, 10, 0]), at([17, 10, 0])];
    assert(Math.abs(l[0] - l[1]) < 8 && Math.abs(r[0] - r[1]) < 8, `grey: ${l} ${r}`);
    assert(r[0] - l[0] > 80, `brighter with intensity: ${l[0]} -> ${r[0]}`);
    await el.setPointCloudOptions({ colorMode: 'rgb' });
    assert((await share(el, green)) > 0.01, 'the wall shows');
    await el.setPointCloudOptions({ hiddenClasses: [6] });
    assert((await share(el, green)) < 0.001, 'class 6 (the wall) is hidden');
    assert((await share(el, red)) > 0.15, 'class 2 (the floor) still shows');
    assertEqual(JSON.stringify((await el.getPointCloudOptions()).hiddenClasses), '[6]');
    await el.setPointCloudOptions({ hiddenClasses: [] });
  });

  it('a clipping plane removes the points on its side', async () => {
    await el.viewpoint(TOP);
    await settle(el);
    const left = screenPoint(el, TOP, [5, 10, 0]);
    const right = screenPoint(el, TOP, [15, 10, 0]);
    /** Of the 11 x 11 pixels around `p`, the share matching `test`. */
    const around = async (p: [number, number], test: typeof red) => {
      const img = await pixels(await el.screenshot());
      let n = 0;
      for (let dx = -5; dx <= 5; dx++) for (let dy = -5; dy <= 5; dy++) {
        const i = ((p[1] + dy) * img.width + p[0] + dx) * 4;
        if (test(img.data[i], img.data[i + 1], img.data[i + 2])) n++;
      }
      return n / 121;
    };
    assert((await around(right, red)) > 0.6, 'the right half shows before');
    await el.clippingPlanes([{ location: { x: 10, y: 0, z: 0 }, direction: { x: 1, y: 0, z: 0 } }]);
    await settle(el);
    assertEqual(await around(right, background), 1, 'the right half is cut away');
    assert((await around(left, red)) > 0.6, 'the left half stays');
    const hit = await click(el, right);
    assert(!hit.intersects, 'nothing to pick where the points are cut away');
    await el.clippingPlanes([]);
  });

  it('a click on a point reports it (viewer.click intersects.point), with no objectId', async () => {
    await el.viewpoint(TOP);
    await settle(el);
    const target: Tuple = [7.5, 12.5, 0];
    const hit = await click(el, screenPoint(el, TOP, target));
    assertEqual(hit.objectId, undefined);
    assert(hit.intersects, 'a point was picked');
    const p = hit.intersects!.point;
    assertEqual(hit.intersects!.modelId, 'scan');
    // On the generated grid (5 cm), within a few centimetres of where the click aimed.
    for (const v of [p.x, p.y]) assertAlmostEqual(v, Math.round(v / 0.05) * 0.05, 0.0015, 'a real point of the grid');
    assertAlmostEqual(p.z, 0, 0.0015);
    assert(Math.hypot(p.x - target[0], p.y - target[1]) < 0.2, `near the aim: ${JSON.stringify(p)}`);
  });

  it('measuring snaps to the picked point', async () => {
    await el.viewpoint(TOP);
    await settle(el);
    await el.enableMeasure({ mode: 'laser' });
    const a = await click(el, screenPoint(el, TOP, [5, 5, 0]));
    const b = await click(el, screenPoint(el, TOP, [12, 5, 0]));
    assert(a.intersects && b.intersects, 'both clicks picked points');
    // The measurement runs between the picked points (viewer coordinates: the origin added back).
    const { measurements } = core(el).measure;
    assertEqual(measurements.length, 1);
    const origin = core(el).getViewpoint().location;
    const viewer = core(el).rig.camera.position;
    const shift = { x: origin.x - viewer.x, y: origin.y - viewer.y, z: origin.z - viewer.z };
    const [m] = measurements;
    for (const [end, hit] of [[m.start, a.intersects!.point], [m.end, b.intersects!.point]] as const) {
      assertAlmostEqual(end.x + shift.x, hit.x, 1e-4);
      assertAlmostEqual(end.y + shift.y, hit.y, 1e-4);
      assertAlmostEqual(end.z + shift.z, hit.z, 1e-4);
    }
    const dx = b.intersects!.point.x - a.intersects!.point.x, dy = b.intersects!.point.y - a.intersects!.point.y;
    assertAlmostEqual(m.distance, Math.hypot(dx, dy, b.intersects!.point.z - a.intersects!.point.z), 1e-4);
    assert(Math.abs(m.distance - 7) < 0.3, `about 7 m apart: ${m.distance}`);
    await el.clearMeasure();
    await el.disableMeasure();
  });

  it('shows, hides, moves and unloads the cloud', async () => {
    await el.viewpoint(TOP);
    await settle(el);
    assert((await share(el, red)) > 0.15, 'shown');
    await el.hideModel('scan');
    assert((await share(el, red)) < 0.001, 'hidden');
    assertEqual((await el.modelInfo('scan'))[0].visible, false);
    await el.showModel('scan');
    await settle(el);
    assert((await share(el, red)) > 0.15, 'shown again');
    const before = (await el.modelInfo('scan'))[0].boundingBox;
    await el.transformModel('scan', { position: { x: 100, y: 0, z: 0 } });
    const moved = (await el.modelInfo('scan'))[0].boundingBox;
    assertAlmostEqual(moved.min.x, before.min.x + 100, 1e-6, 'moved 100 m');
    await settle(el);
    assert((await share(el, red)) < 0.001, 'moved out of the view');
    await el.transformModel('scan', {});
    await settle(el);
    assert((await share(el, red)) > 0.15, 'back');
    await el.unloadModel('scan');
    assertEqual((await el.modelInfo()).length, 0);
    assert((await share(el, red)) < 0.001, 'gone');
    assertEqual(await el.boundingBox(), null);
  });
});

describe('point clouds: files that cannot be read', () => {
  let el: BimViewer3d;
  let good: Uint8Array;

  before(async () => {
    good = buildCloud(floorAndWall(4, 0.1), { cells: 16 }).bytes;
    el = await createViewer(320, 240);
    await el.loadUrl(MODELS.cabin);
  });

  after(() => removeViewer(el));

  async function expectRefused(url: string, pattern: RegExp) {
    const errors = record<{ type: string; message: string }>(el, 'viewer.error');
    const rejected = await el.loadModel(url, { modelType: 'point-cloud' }).then(() => null, (e: ViewerError) => e);
    assert(rejected, `${url} is refused`);
    assertEqual(rejected!.type, 'pointcloud');
    assert(pattern.test(rejected!.message), `the message says why: ${rejected!.message}`);
    assertEqual(errors.length, 1);
    assertEqual(errors[0].type, 'pointcloud');
    // The IFC model loaded before still works.
    const models = await el.modelInfo();
    assertEqual(models.map((m) => m.modelId).join(), 'cabin');
    assert((await el.renderInfo()).triangles > 0, 'the cabin still draws');
    assert((await el.each()).length > 0, 'its objects are there');
  }

  it('a 404', () => expectRefused('/test-files/pointclouds/missing.pointcloud', /404/));

  it('not a point cloud (wrong magic)', async () => {
    const bytes = good.slice();
    bytes.set(new TextEncoder().encode('NOTCLOUD'));
    await expectRefused(await serveCloud('magic.pointcloud', bytes), /Not a point cloud/);
  });

  it('a damaged hierarchy (CRC-32)', async () => {
    const { metadata } = buildCloud(floorAndWall(4, 0.1), { cells: 16 });
    const bytes = good.slice();
    bytes[metadata.container.hierarchy.offset + 3] ^= 0xff;
    await expectRefused(await serveCloud('crc.pointcloud', bytes), /CRC-32/);
  });

  it('a file cut short (in its root node)', async () => {
    const { metadata } = buildCloud(floorAndWall(4, 0.1), { cells: 16 });
    await expectRefused(await serveCloud('short.pointcloud', good.slice(0, metadata.container.octree.offset + 100)), /cut short/);
  });

  it('a wrong modelType is an argument error', async () => {
    const rejected = await el.loadModel('/x', { modelType: 'mesh' as 'bim' }).then(() => null, (e: ViewerError) => e);
    assertEqual(rejected!.type, 'argument');
  });
});

describe('point clouds in manifests', () => {
  it('a model offering the point cloud format loads as a cloud in the 3D viewer; the 2D viewer leaves it out', async () => {
    const cloud = await serveCloud('manifest.pointcloud', buildCloud(floorAndWall(4, 0.1), { cells: 16 }).bytes);
    const manifest = {
      models: [
        { id: 'cabin', name: 'Cabin', formats: [{ type: 'application/x-step', url: new URL(MODELS.cabin, location.href).href }] },
        { id: 'scan', name: 'The scan', modelType: 'point-cloud', formats: [{ type: 'application/vnd.platform.pointcloud', url: new URL(cloud, location.href).href }] },
      ],
    };
    const url = URL.createObjectURL(new Blob([JSON.stringify(manifest)], { type: 'application/json' }));
    const el = await createViewer(320, 240);
    try {
      const infos = await el.loadUrl(url);
      assertEqual(infos.map((i) => i.modelId).join(), 'cabin,scan');
      assertEqual(infos[1].modelType, 'point-cloud');
      assertEqual(infos[1].name, 'The scan');
      assertEqual(infos[1].pointCount, 1600 + 40 * 30);
    } finally {
      await removeViewer(el);
    }
    const plan = await createViewer2d(320, 240);
    try {
      assertEqual((await plan.loadUrl(url)).join(), 'cabin', 'the 2D viewer shows the IFC only');
    } finally {
      await removeViewer2d(plan);
    }
  });
});

describe('point clouds: files, servers and coordinates', () => {
  let el: BimViewer3d | undefined;
  afterEach(async () => {
    await removeViewer(el);
    el = undefined;
  });

  it('a server that answers 200 to a range: the file is read once, whole', async () => {
    const points = floorAndWall(6, 0.05);
    const { bytes } = buildCloud(points, { cells: 16 });
    const url = await serveCloud('whole.pointcloud', bytes, true);
    el = await createViewer(320, 240);
    const info = await el.loadModel(url, { modelType: 'point-cloud' });
    assertEqual(info.pointCount, points.positions.length / 3);
    await settle(el);
    assert((await share(el, red)) > 0.05, 'it draws');
  });

  it('hierarchy chunks behind proxies load as the nodes are reached', async () => {
    const points = floorAndWall(8, 0.02);
    const { bytes, metadata } = buildCloud(points, { cells: 16, stepSize: 2 });
    assert(metadata.hierarchy.depth > 2, `deep enough for proxies: ${metadata.hierarchy.depth}`);
    el = await createViewer(320, 240);
    await el.loadModel(await serveCloud('proxies.pointcloud', bytes), { modelType: 'point-cloud', modelId: 'p' });
    await el.viewpoint({ type: 'perspective', location: { x: 4, y: 3, z: 1.5 }, direction: { x: 0, y: 1, z: -0.6 }, up: { x: 0, y: 0, z: 1 }, fov: 60 });
    await settle(el);
    const deepest = Math.max(...core(el).pointClouds.requested.map((n) => n.length - 1));
    assert(deepest > 2, `nodes below the first chunk were loaded: level ${deepest}`);
  });

  it('UTM coordinates (x ~ 500,000, y ~ 5,400,000) draw as the same cloud at the origin: no jitter', async () => {
    const shots: string[] = [];
    for (const at of [[0, 0, 0], [500_000.25, 5_400_000.5, 300]] as Tuple[]) {
      const points = floorAndWall(4, 0.02, at);
      const { bytes } = buildCloud(points, { cells: 32 });
      el = await createViewer(320, 240);
      await el.loadModel(await serveCloud(`utm-${at[0]}.pointcloud`, bytes), { modelType: 'point-cloud' });
      await el.setPointCloudOptions({ colorMode: 'intensity' });
      // A camera half a metre from the wall, looking at a corner: 2 cm points are a few pixels apart.
      const vp = (dx: number): PerspectiveViewpoint => ({ type: 'perspective', location: { x: at[0] + 2 + dx, y: at[1] + 3.4, z: at[2] + 0.6 }, direction: { x: 0, y: 1, z: -0.2 }, up: { x: 0, y: 0, z: 1 }, fov: 50 });
      await el.viewpoint(vp(0));
      await settle(el);
      shots.push(await el.screenshot());
      // Two frames of a camera moved by a millimetre are nearly the same picture.
      await el.viewpoint(vp(0.001));
      await settle(el);
      const moved = await el.screenshot();
      const d = await pixelDifference(shots[shots.length - 1], moved);
      assert(d < 0.03, `a millimetre's move changes little at ${at}: ${d}`);
      await removeViewer(el);
      el = undefined;
    }
    const d = await pixelDifference(shots[0], shots[1]);
    assert(d < 0.03, `the far cloud looks as the near one: ${d} of the pixels differ`);
  });

  it('eye-dome lighting changes the picture, and the points stay in their colours', async () => {
    const { bytes } = buildCloud(floorAndWall(6, 0.05), { cells: 16 });
    el = await createViewer(320, 240);
    await el.loadModel(await serveCloud('edl.pointcloud', bytes), { modelType: 'point-cloud' });
    await el.viewpoint({ type: 'perspective', location: { x: 3, y: -3, z: 4 }, direction: { x: 0, y: 1, z: -0.7 }, up: { x: 0, y: 0, z: 1 }, fov: 60 });
    await settle(el);
    const off = await el.screenshot();
    await el.setPointCloudOptions({ eyeDomeLighting: true });
    const on = await el.screenshot();
    await expectScreenshot('pointcloud-edl', on, { tolerance: 0.03 });
    assert((await pixelDifference(off, on, 8)) > 0.005, 'EDL shades the edges');
    assert((await share(el, red, on)) > 0.05, 'still red');
  });

  it('a logarithmic depth buffer draws the same points', async () => {
    const { bytes } = buildCloud(floorAndWall(6, 0.05), { cells: 16 });
    el = await createViewer(320, 240);
    await el.loadModel(await serveCloud('log.pointcloud', bytes), { modelType: 'point-cloud' });
    await settle(el);
    const standard = await el.screenshot();
    await el.setRenderSettings({ depthBuffer: 'logarithmic' });
    await settle(el);
    const logarithmic = await el.screenshot();
    assert((await share(el, red, logarithmic)) > 0.05, 'drawn');
    assert((await pixelDifference(standard, logarithmic)) < 0.02, 'the same picture');
    // An orthogonal camera: points sized by metres per pixel, not by distance.
    const vp = await el.viewpoint();
    await el.viewpoint({ type: 'orthogonal', location: vp.location, direction: vp.direction, up: vp.up, viewToWorldScale: 10 });
    await settle(el);
    assert((await share(el, red)) > 0.05, 'drawn by an orthogonal camera');
  });

  it('a lost WebGL context: the points come back', async () => {
    const { bytes } = buildCloud(floorAndWall(6, 0.05), { cells: 16 });
    el = await createViewer(320, 240);
    await el.loadModel(await serveCloud('lost.pointcloud', bytes), { modelType: 'point-cloud' });
    await settle(el);
    const before = await share(el, red);
    assert(before > 0.05, 'drawn');
    const gl = core(el).renderer.getContext();
    const lose = gl.getExtension('WEBGL_lose_context')!;
    const restored = new Promise((resolve) => gl.canvas.addEventListener('webglcontextrestored', resolve, { once: true }));
    lose.loseContext();
    await sleep(50);
    lose.restoreContext();
    await restored;
    await settle(el);
    const after = await share(el, red);
    assertAlmostEqual(after, before, 0.02, 'the same picture again');
  });
});

async function click(el: BimViewer3d, at: [number, number]): Promise<{ objectId?: string; intersects?: { point: Vec3; modelId?: string } }> {
  const seen: { objectId?: string; intersects?: { point: Vec3; modelId?: string } }[] = [];
  const listener = (e: Event) => seen.push((e as CustomEvent).detail);
  el.addEventListener('viewer.click', listener);
  try {
    await sendMouse({ type: 'click', position: at, button: 'left' });
    await sleep(350); // a click is a click once no second one follows
  } finally {
    el.removeEventListener('viewer.click', listener);
    await resetMouse();
  }
  assertEqual(seen.length, 1, 'one viewer.click');
  return seen[0];
}
