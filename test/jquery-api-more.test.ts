// The rest of the documented 3D API (clipping, measuring, grids, images, settings,
// navigation, transformModel) through $(el).viewer(...) on jQuery 1.12.4, 2.2.4 and 4.0.0.
import jq4 from 'jquery';
import jq1 from 'jquery1';
import jq2 from 'jquery2';
import { installViewer3dPlugin } from '../src/jquery/viewer-plugin';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { ClippingPlane, ModelInfo, Vec3, Viewpoint } from '../src/core/types';
import { assert, assertDeepEqual, assertEqual, assertAlmostEqual } from './support/assert';
import { SAMPLES, objectIdOf, truthOf } from './support/samples';

/* eslint-disable @typescript-eslint/no-explicit-any */
type JQ = any;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A reader in its documented form: resolves with what the callback got. */
function read<T>($v: JQ, method: string, ...args: unknown[]): Promise<T> {
  return new Promise((resolve) => $v.viewer(method, ...args, (value: T) => resolve(value)));
}

for (const [version, $] of [['1.12.4', jq1], ['2.2.4', jq2], ['4.0.0', jq4]] as [string, JQ][]) {
  describe(`more 3D methods through jQuery ${version}`, function () {
    let host: HTMLDivElement;
    let $v: JQ;
    let element: BimViewer3d;

    before(async () => {
      installViewer3dPlugin($);
      host = document.createElement('div');
      host.style.cssText = 'position:fixed;left:0;top:0;width:320px;height:240px';
      document.body.append(host);
      $v = $(host).viewer({ enableClippingPlaneWidget: 'true' });
      element = host.querySelector('bim-viewer-3d')!;
      await $v.viewer('loadUrl', SAMPLES.cabin);
    });
    after(async () => {
      await $v.viewer('dispose');
      host.remove();
    });

    it('clippingPlanes, section and viewer.clippingplanes as (event, planes)', async () => {
      const seen: ClippingPlane[][] = [];
      $v.on('viewer.clippingplanes', (_event: unknown, planes: ClippingPlane[]) => seen.push(planes));
      const planes = [{ location: { x: 0, y: 0, z: 1 }, direction: { x: 0, y: 0, z: 1 } }];
      assert($v.viewer('clippingPlanes', planes) === $v, 'setting chains');
      assertDeepEqual(await read($v, 'clippingPlanes', null), planes);
      const ids = await element.each();
      $v.viewer('section', ids, ['bottom']);
      assertEqual((await read<ClippingPlane[]>($v, 'clippingPlanes', null)).length, 2);
      $v.viewer('clippingPlaneWidgetViewport', { x: 0, y: 0, width: 80, height: 80 });
      $v.viewer('clippingPlanes', []);
      assertDeepEqual(await read($v, 'clippingPlanes', null), []);
      assert(seen.length >= 3 && seen[seen.length - 1].length === 0, `events: ${seen.length}`);
      $v.off('viewer.clippingplanes');
    });

    it('camera, transition and render settings', async () => {
      $v.viewer('setCameraSettings', { fov: 50, near: 0.1, far: 900 });
      assertDeepEqual(await read($v, 'getCameraSettings'), { fov: 50, near: 0.1, far: 900 });
      $v.viewer('setCameraSettings', { fov: 60, near: 0.05, far: 2000 });
      $v.viewer('transitionSettings', { duration: 0, easing: 'QuadraticInOut' });
      assertEqual((await element.transitionSettings()).easing, 'QuadraticInOut');
      $v.viewer('setRenderSettings', { pixelRatio: 1, depthBuffer: 'logarithmic' });
      assertEqual((await read<{ depthBuffer: string }>($v, 'getRenderSettings')).depthBuffer, 'logarithmic');
      $v.viewer('setRenderSettings', { depthBuffer: 'standard' });
    });

    it('point cloud options: setPointCloudOptions chains, getPointCloudOptions reads', async () => {
      assert($v.viewer('setPointCloudOptions', { pointBudget: 300_000, colorMode: 'intensity' }) === $v, 'setting chains');
      const options = await read<{ pointBudget: number; colorMode: string; pointSize: number }>($v, 'getPointCloudOptions');
      assertEqual(options.pointBudget, 300_000);
      assertEqual(options.colorMode, 'intensity');
      $v.viewer('setPointCloudOptions', { pointBudget: 2_000_000, colorMode: 'rgb' });
      assertEqual((await read<{ pointBudget: number }>($v, 'getPointCloudOptions')).pointBudget, 2_000_000);
    });

    it('navigation: mode, speeds, keyDown and navigate', async () => {
      assert($v.viewer('setNavigationMode', 'pivot') === $v);
      $v.viewer('setNavigationMode', 'orbit');
      $v.viewer('walkSpeed', 5);
      assertEqual(await read($v, 'walkSpeed', null), 5);
      assertEqual(await read($v, 'rotationSpeed', null), 40);
      assertEqual(await read($v, 'elevationSpeed', null), 1.5);
      const before = await read<Viewpoint>($v, 'viewpoint', null);
      $v.viewer('keyDown', 'moveUp', true);
      await sleep(400);
      $v.viewer('resetKeyDown');
      $v.viewer('navigate', 'rotateLeft', 1);
      await sleep(400);
      $v.viewer('stopNavigation');
      const after = await read<Viewpoint>($v, 'viewpoint', null);
      assert(after.location.z > before.location.z, 'moved up');
      const yaw = (v: Viewpoint) => Math.atan2(v.direction.y, v.direction.x);
      assert(yaw(after) - yaw(before) > 0.01, `turned left: ${yaw(before)} -> ${yaw(after)}`);
    });

    it('transformModel, measuring, images, grids', async () => {
      const [before] = await read<ModelInfo[]>($v, 'modelInfo');
      $v.viewer('transformModel', before.modelId, { position: { x: 3, y: 0, z: 0 } });
      const [moved] = await read<ModelInfo[]>($v, 'modelInfo');
      assertAlmostEqual(moved.boundingBox.min.x, before.boundingBox.min.x + 3, 1e-4);
      $v.viewer('transformModel', before.modelId, {});
      $v.viewer('enableMeasure', { mode: 'dimension' }).viewer('disableMeasure').viewer('clearMeasure');
      $v.viewer('images', []);
      const { grid } = await truthOf(SAMPLES.cabin);
      assert(grid, 'the cabin has a grid');
      const grids = await read<{ id: string; axes: { id: string; length: number }[] }[]>($v, 'getGrids');
      assertEqual(grids.length, 1);
      assertEqual(grids[0].id, objectIdOf(grid.id));
      assertDeepEqual(grids[0].axes.map((a) => a.id).sort(), grid.axes.map((a) => objectIdOf(a.id)).sort());
      const axis = grids[0].axes[0];
      const written = grid.axes.find((a) => objectIdOf(a.id) === axis.id)!;
      $v.viewer('setGridAxisState', axis.id, { visible: false });
      assertDeepEqual(await read($v, 'getGridAxisState', axis.id), { visible: false, extrudeCurve: false });
      // at its length: the axis' end, pointing from its start
      const point = await read<{ location: Vec3; direction: Vec3 }>($v, 'calculatePointOnAxis', axis.id, axis.length);
      const [sx, sy, sz] = written.start;
      const [ex, ey, ez] = written.end;
      const length = Math.hypot(ex - sx, ey - sy, ez - sz);
      assertAlmostEqual(axis.length, length, 1e-6);
      assertAlmostEqual(point.location.x, ex, 1e-6);
      assertAlmostEqual(point.location.y, ey, 1e-6);
      assertAlmostEqual(point.location.z, ez, 1e-6);
      assertAlmostEqual(point.direction.x, (ex - sx) / length, 1e-6);
      assertAlmostEqual(point.direction.y, (ey - sy) / length, 1e-6);
      assertAlmostEqual(point.direction.z, (ez - sz) / length, 1e-6);
    });
  });
}
