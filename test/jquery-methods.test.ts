// Every documented 3D method through $(el).viewer(...), in its documented call form, on
// jQuery 1.12.4, 2.2.4 and 4.0.0, checked against what the viewer then reports.
import jq4 from 'jquery';
import jq1 from 'jquery1';
import jq2 from 'jquery2';
import { installViewer3dPlugin } from '../src/jquery/viewer-plugin';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Box, ColorInfo, ModelInfo, Product, Viewpoint } from '../src/core/types';
import { assert, assertDeepEqual, assertEqual } from './support/assert';
import { SAMPLES, objectIdOf, productsOf, truthOf, type ProductTruth } from './support/samples';
import { idsOfType, pixelDifference } from './support/viewer';

/* eslint-disable @typescript-eslint/no-explicit-any */
type JQ = any;

/** Calls a reader in its documented form and resolves with what the callback got, and its `this`. */
function read<T>($v: JQ, method: string, ...args: unknown[]): Promise<{ value: T; self: unknown }> {
  return new Promise((resolve) => {
    const chained = $v.viewer(method, ...args, function (this: unknown, value: T) {
      resolve({ value, self: this });
    });
    assert(chained === $v, `${method} with a callback chains`);
  });
}

for (const [version, $] of [['1.12.4', jq1], ['2.2.4', jq2], ['4.0.0', jq4]] as [string, JQ][]) {
  describe(`every 3D method through jQuery ${version}`, function () {
    let host: HTMLDivElement;
    let $v: JQ;
    let element: BimViewer3d;
    let walls: string[];
    let wallTruth: ProductTruth[];

    before(async () => {
      installViewer3dPlugin($);
      host = document.createElement('div');
      host.style.cssText = 'position:fixed;left:0;top:0;width:400px;height:300px';
      document.body.append(host);
      $v = $(host);
      $v.viewer({ selectedColor: '#ff00ff' });
      element = host.querySelector('bim-viewer-3d')!;
      await $v.viewer('loadUrl', SAMPLES.house);
      // exterior walls (IfcWall) and partitions (IfcWallStandardCase)
      wallTruth = productsOf(await truthOf(SAMPLES.house), 'IfcWall', 'IfcWallStandardCase');
      walls = wallTruth.map((w) => objectIdOf(w.id));
    });
    after(async () => {
      await $v.viewer('dispose');
      host.remove();
    });

    it('show, hide, translucent, opaque and their *All forms', async () => {
      const all = await element.screenshot();
      assert($v.viewer('hide', walls) === $v, 'hide chains');
      assert((await pixelDifference(all, await element.screenshot())) > 0.02, 'hide');
      $v.viewer('show', walls);
      assert((await pixelDifference(all, await element.screenshot())) < 0.001, 'show');
      $v.viewer('hideAll');
      assert((await pixelDifference(all, await element.screenshot())) > 0.1, 'hideAll');
      $v.viewer('showAll').viewer('hide', await idsOfType(element, 'IfcSpace'));
      assert((await pixelDifference(all, await element.screenshot())) < 0.001, 'showAll');
      $v.viewer('translucent', walls[0]);
      $v.viewer('translucentAll');
      assert((await pixelDifference(all, await element.screenshot())) > 0.1, 'translucentAll');
      $v.viewer('opaque', walls[0]).viewer('opaqueAll');
      assert((await pixelDifference(all, await element.screenshot())) < 0.001, 'opaqueAll');
    });

    it('select, deselect, deselectAll, each and eachSelected', async () => {
      $v.viewer('select', [walls[0], Number(walls[1])]);
      const seen: string[] = [];
      const { self } = await new Promise<{ self: unknown }>((resolve) => {
        $v.viewer('eachSelected', function (this: unknown, id: string) {
          seen.push(id);
          if (seen.length === 2) resolve({ self: this });
        });
      });
      assertEqual(self, host, 'this is the page element');
      assertDeepEqual(seen.sort(), [walls[0], walls[1]].sort());
      $v.viewer('deselect', walls[0]);
      assertDeepEqual(await $v.viewer('eachSelected'), [walls[1]]);
      $v.viewer('deselectAll');
      assertDeepEqual(await $v.viewer('eachSelected'), []);
      const every: string[] = [];
      await new Promise<void>((resolve) => {
        $v.viewer('each', (id: string) => {
          every.push(id);
        });
        $v.viewer('modelInfo', () => resolve()); // runs after each
      });
      assert(walls.every((w) => every.includes(w)), 'each visits every wall');
    });

    it('color sets and reads; resetColors', async () => {
      $v.viewer('color', '#00ff00', walls[0]);
      const { value, self } = await read<ColorInfo>($v, 'color', null, [walls[0]]);
      assertEqual(self, host);
      assertDeepEqual(value[walls[0]].color, { r: 0, g: 255, b: 0 });
      $v.viewer('resetColors');
      assertDeepEqual((await read<ColorInfo>($v, 'color', null, walls[0])).value, {});
    });

    it('viewpoint get and set (name, object), lookAt, boundingBox, lookAtBoundingBox', async () => {
      $v.viewer('viewpoint', 'top');
      const top = (await read<Viewpoint>($v, 'viewpoint', null)).value;
      assertEqual(Math.round(top.direction.z), -1);
      $v.viewer('viewpoint', { ...top, type: 'orthogonal', viewToWorldScale: 25 });
      const ortho = (await read<Viewpoint>($v, 'viewpoint', null)).value;
      assertEqual(ortho.type, 'orthogonal');
      $v.viewer('viewpoint', { type: 'perspective', fov: 60 });
      $v.viewer('lookAt', walls[0], 'front');
      const front = (await read<Viewpoint>($v, 'viewpoint', null)).value;
      assertEqual(Math.round(front.direction.y), 1);
      const box = (await read<Box>($v, 'boundingBox', [walls[0]])).value;
      const all = (await read<Box>($v, 'boundingBox', null)).value;
      assert(box.max.z <= all.max.z + 1e-6 && box.min.x >= all.min.x - 1e-6, 'wall inside the scene');
      const { min, max } = wallTruth[0].box!;
      assert([box.min.x - min[0], box.min.y - min[1], box.min.z - min[2], box.max.x - max[0], box.max.y - max[1], box.max.z - max[2]].every((d) => Math.abs(d) < 1e-3),
        `the wall's box ${JSON.stringify(box)}, written ${JSON.stringify(wallTruth[0].box)}`);
      $v.viewer('lookAtBoundingBox', box, 'top');
      const over = (await read<Viewpoint>($v, 'viewpoint', null)).value;
      assert(Math.abs(over.location.x - (box.min.x + box.max.x) / 2) < 1e-3, 'above the box');
      $v.viewer('viewpoint', 'home');
    });

    it('getProducts, objectInfo, modelInfo, screenshot, resize', async () => {
      const products = (await read<(Product | null)[]>($v, 'getProducts', [walls[0], '987654321'])).value;
      assertEqual(products[0]!.type, wallTruth[0].type);
      assertEqual(products[0]!.globalId, wallTruth[0].guid);
      assertEqual(products[1], null);
      const info = (await read<(Product | null)[]>($v, 'objectInfo', [walls[0]])).value;
      assert(info[0]!.definedBy!.length > 0, 'objectInfo has property sets');
      const models = (await read<ModelInfo[]>($v, 'modelInfo')).value;
      assertEqual(models[0].modelId, 'house', 'the file name without .ifc');
      const byId = (await read<ModelInfo[]>($v, 'modelInfo', 'house')).value;
      assertDeepEqual(byId, models);
      const png = (await read<string>($v, 'screenshot')).value;
      assert(png.startsWith('data:image/png;base64,'));
      host.style.width = '300px';
      $v.viewer('resize');
      const img = new Image();
      img.src = (await read<string>($v, 'screenshot')).value;
      await img.decode();
      assertEqual(img.width, 300 * devicePixelRatio);
      host.style.width = '400px';
      $v.viewer('resize');
    });

    it('loadModel, hideModel, showModel, unloadModel, loadModelsFromToken', async () => {
      await $v.viewer('loadModel', SAMPLES.cabin, { modelType: 'bim', modelId: 'small' });
      $v.viewer('hideModel', 'small');
      assertEqual((await read<ModelInfo[]>($v, 'modelInfo', 'small')).value[0].visible, false);
      $v.viewer('showModel', 'small');
      assertEqual((await read<ModelInfo[]>($v, 'modelInfo', 'small')).value[0].visible, true);
      $v.viewer('unloadModel', 'small');
      assertEqual((await read<ModelInfo[]>($v, 'modelInfo')).value.length, 1);
      const { url } = await (await fetch('/v2/projects/cabin/viewer3d/token', { method: 'POST' })).json();
      const [wall] = await element.getProducts([walls[0]]);
      assert(wall, 'the house still loaded');
      await $v.viewer('loadModelsFromToken', url, { query: {} });
      assertEqual((await read<ModelInfo[]>($v, 'modelInfo')).value.length, 2);
      // the cabin's ids are offset by the objectIdBase of its manifest
      const [{ objectIdBase }] = (await (await fetch(url)).json()).models;
      const [cabinWall] = productsOf(await truthOf(SAMPLES.cabin), 'IfcWall');
      assertEqual((await element.getProducts([objectIdOf(cabinWall.id, objectIdBase)]))[0]?.globalId, cabinWall.guid);
      // from the scene the manifest lists first, its property sets from the manifest's products URL
      assert(performance.getEntriesByType('resource').some((e) => e.name.endsWith('/scenes/samples/cabin.scene')), 'the cabin came from its scene');
      const [withSets] = await element.getProducts([objectIdOf(cabinWall.id, objectIdBase)], { definedBy: true });
      assert(withSets?.definedBy?.length, 'the cabin wall\'s property sets, through the products URL');
      $v.viewer('unloadModel', 'cabin');
      assertEqual((await read<ModelInfo[]>($v, 'modelInfo')).value.length, 1);
    });
  });
}
