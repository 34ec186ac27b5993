// $.fn.viewer2d (src/jquery/viewer2d-plugin.ts) on jQuery 1.12.4, 2.2.4 and 4.0.0: every
// documented 2D method in its documented call form, values returned through the plugin,
// events as jQuery events with positional arguments, return false cancelling, and the
// data API (data-viewer2d="svg").
import jq4 from 'jquery';
import jq1 from 'jquery1';
import jq2 from 'jquery2';
import { installViewer2dPlugin } from '../src/jquery/viewer2d-plugin';
import { startDataApi2d } from '../src/jquery/data-api2d';
import type { BimViewer2d } from '../src/elements/bim-viewer-2d';
import { assert, assertDeepEqual, assertEqual } from './support/assert';
import { nextJqueryEvent, type JQ, type Seen } from './support/jquery';
import { sendMouse, releaseMouse, type Point } from './support/input';
import { PLAN_MODELS, planSvg } from './support/viewer2d';
import { truthOf, type Truth } from './support/samples';

/* eslint-disable @typescript-eslint/no-explicit-any */

function collect($: JQ, host: Element, name: string, result?: unknown): Seen[] {
  const seen: Seen[] = [];
  $(host).bind(name, function (this: unknown, event: any, ...args: unknown[]) {
    seen.push({ event, args, self: this });
    return result;
  });
  return seen;
}

for (const [version, $] of [['1.12.4', jq1], ['2.2.4', jq2], ['4.0.0', jq4]] as [string, JQ][]) {
  describe(`$.fn.viewer2d with jQuery ${version}`, function () {
    let host: HTMLDivElement;
    let $v: JQ;
    let element: BimViewer2d;
    let truth: Truth;
    /** Level 1 of the house, 3 m up (so locations' z says which storey). */
    let level1: string;
    let z: number;

    const page = (x: number, y: number): Point => {
      const [sx, sy] = (element as any).core.toScreen(x, y);
      const r = planSvg(element).getBoundingClientRect();
      return [Math.round(r.left + sx), Math.round(r.top + sy)];
    };

    before(async () => {
      assertEqual($.fn.jquery, version);
      truth = await truthOf(PLAN_MODELS.house);
      z = truth.storeys[1].elevation;
      installViewer2dPlugin($);
      host = document.createElement('div');
      host.style.cssText = 'position:fixed;left:0;top:0;width:480px;height:400px';
      document.body.append(host);
      $v = $(host);
    });
    after(async () => {
      $v.viewer2d('dispose');
      $v.unbind();
      host.remove();
      await releaseMouse();
    });

    it('viewer2d(options) creates <bim-viewer-2d> with coerced options; loadUrl returns a promise; viewer2d.loadstart and load arrive with (event, modelId)', async () => {
      assert($v.viewer2d({ showViewpoint: 'false', selectColor: '#ff00ff' }) === $v, 'chains');
      element = host.querySelector('bim-viewer-2d')!;
      assert(element, 'the element');
      assertEqual(element.showViewpoint, false);
      assertEqual(element.selectColor, '#ff00ff');
      assertEqual($.data(host, 'bimViewer2d'), element);
      const starts = collect($, host, 'viewer2d.loadstart');
      const loaded = nextJqueryEvent($, host, 'viewer2d.load', 60_000);
      const answer = $v.viewer2d('loadUrl', PLAN_MODELS.house, { modelId: 'house', modelName: 'House' });
      assert(typeof answer?.then === 'function', 'loadUrl returns a promise');
      assertDeepEqual(await answer, ['house']);
      const load = await loaded;
      assertDeepEqual(load.args, ['house']);
      assertEqual(load.self, host, 'this = the page element');
      assertEqual(load.event.type, 'viewer2d');
      assertDeepEqual(starts.map((s) => s.args), [['house']]);
    });

    it('reads return their values through the plugin, in any case', () => {
      const storeys = $v.viewer2d('getStoreys');
      assert(Array.isArray(storeys), 'getStoreys gives an array, not the jQuery object');
      assertDeepEqual(storeys.map((s: any) => s.name), truth.storeys.map((s) => s.name));
      assertDeepEqual($v.viewer2d('getstoreys', { all: true }).length, truth.storeys.length);
      level1 = storeys[1].id;
      // Storeys at 0, 3 and 6 m.
      assertEqual($v.viewer2d('getStoreyByElevation', 1).name, 'Ground floor');
      assertEqual($v.viewer2d('GETSTOREYSBYELEVATION', 4)[0].name, 'Level 1');
      assertEqual($v.viewer2d('getSpaces').length, truth.spaces.length);
      assertEqual($v.viewer2d('getSpaces', { storeyId: level1 }).length, truth.spaces.filter((s) => s.storey === truth.storeys[1].id).length);
      assertDeepEqual($v.viewer2d('getOffset'), { z: 0 });
      assertDeepEqual($v.viewer2d('getSelected'), []);
      const box = $v.viewer2d('getBoundingBox', $v.viewer2d('getSpaces')[0].id);
      assert(box.width > 0 && box.height > 0, 'getBoundingBox');
      assert('location' in $v.viewer2d('getViewpoint'), 'getViewpoint');
      assertEqual($(document.createElement('div')).filter('.none').viewer2d('getStoreys'), undefined, 'an empty set reads undefined');
    });

    it('actions chain: showStorey, select, setColor, names, storeys, viewpoint, markers, images, lookAt, transformation', async () => {
      assert($v.viewer2d('showStorey', level1) === $v, 'showStorey chains');
      const spaces = $v.viewer2d('getSpaces', { visible: true });
      assertEqual(spaces.length, 6, 'Level 1\'s 3 x 2 rooms');
      const [a, b] = spaces;
      assert($v.viewer2d('select', a.id).viewer2d('setColor', b.id, 'rgba(0,0,255,0.5)') === $v, 'select and setColor chain');
      assertDeepEqual($v.viewer2d('getSelected'), [a.id]);
      assertEqual(planSvg(element).querySelector(`path[data-id="${a.id}"]`)!.getAttribute('fill'), '#ff00ff', 'selectColor from the options');
      $v.viewer2d('unselect', a.id).viewer2d('clearColors');
      assertDeepEqual($v.viewer2d('getSelected'), []);
      $v.viewer2d('setSpaceNames', { [a.id]: { name: 'Renamed', longName: 'Long renamed' } }).viewer2d('setSpaceNameFormat', 'long');
      assertEqual($v.viewer2d('getSpaces').find((s: any) => s.id === a.id).longName, 'Long renamed');
      $v.viewer2d('setSpaceNameFormat', 'regular').viewer2d('setSpaceNames', { [a.id]: { name: a.name, longName: a.longName } });
      $v.viewer2d('moveTo', 3, -4).viewer2d('setViewpoint', { direction: 180 });
      const vp = $v.viewer2d('getViewpoint');
      assertDeepEqual(vp.location, { x: 3, y: -4, z });
      assertEqual(vp.direction.x, -1);
      $v.viewer2d('showViewpoint');
      assertEqual(element.showViewpoint, true, 'showViewpoint as a method shows the arrow');
      $v.viewer2d('hideViewpoint');
      assertEqual(element.showViewpoint, false);
      const id = $v.viewer2d('addMarker', { x: 1, y: -2, text: 'M' });
      assertEqual(typeof id, 'string', 'addMarker gives the id');
      assertEqual($v.viewer2d('addImage', { id: 'img', url: 'data:image/png;base64,iVBORw0KGgo=', x: 0, y: 0, width: 1, height: 1 }), 'img');
      assert($v.viewer2d('removeMarker', id).viewer2d('clearMarkers').viewer2d('clearImages') === $v);
      $v.viewer2d('lookAt', [b.id], { expand: 1 }).viewer2d('lookAtBoundingBox', { min: { x: 0, y: -10 }, max: { x: 5, y: 0 } });
      $v.viewer2d('setTransformation', 'house', { rotation: { angle: 0.1 } }).viewer2d('setTransformation', 'house', {});
      $v.viewer2d('hideStorey', level1).viewer2d('showStorey', level1).viewer2d('hideStoreys').viewer2d('showStorey', level1);
      assertDeepEqual($v.viewer2d('getStoreys', { visible: true }).map((s: any) => s.id), [level1]);
    });

    it('screenshot: a PNG to the callback with this = the page element, and as a promise', async () => {
      const { value, self } = await new Promise<{ value: string; self: unknown }>((resolve) => {
        assert($v.viewer2d('screenshot', { width: 120, height: 90 }, function (this: unknown, image: string) { resolve({ value: image, self: this }); }) === $v, 'with a callback it chains');
      });
      assert(value.startsWith('data:image/png;base64,'));
      assertEqual(self, host);
      assert((await $v.viewer2d('screenshot', { width: 10, height: 10 })).startsWith('data:image/png'));
    });

    it('mouse events reach jQuery handlers with positional arguments; return false cancels; .off removes one handler', async () => {
      $v.viewer2d('lookAt', level1);
      const space = $v.viewer2d('getSpaces', { visible: true }).find((s: any) => s.name === '102');
      const box = $v.viewer2d('getBoundingBox', space.id);
      const at = page(box.x + box.width / 2, box.y + box.height * 0.2);
      const clicks = collect($, host, 'viewer2d.click');
      const selects = collect($, host, 'viewer2d.select');
      await sendMouse({ type: 'click', position: at });
      assertEqual(clicks.length, 1);
      const [location, id] = clicks[0].args as [any, string];
      assertEqual(id, space.id);
      assertEqual(location.z, z);
      assertEqual(clicks[0].self, host);
      assertDeepEqual(selects[0].args, [[space.id]]);
      // return false cancels the selection; a second handler still runs; .off removes only one.
      const other = collect($, host, 'viewer2d.click');
      function cancel() { return false; }
      $v.bind('viewer2d.click', cancel);
      await sendMouse({ type: 'click', position: [3, 3] });
      assertDeepEqual($v.viewer2d('getSelected'), [space.id], 'cancelled: the selection stays');
      assertEqual(other.length, 1);
      $v.off('viewer2d.click', cancel);
      await sendMouse({ type: 'click', position: [3, 3] });
      assertDeepEqual($v.viewer2d('getSelected'), [], 'handler removed: the click deselects');
      assertEqual(other.length, 2, 'the other handler stays');
      assertEqual(clicks[1].args[1], undefined, 'id undefined on empty space');
      // dblclick (sendMouse cannot double click: the event the browser would send), cancelled by return false
      const doubles = collect($, host, 'viewer2d.dblclick', false);
      const k = (element as any).core.zoomState().k;
      planSvg(element).dispatchEvent(new MouseEvent('dblclick', { clientX: at[0], clientY: at[1], detail: 2, bubbles: true, cancelable: true, composed: true }));
      assertEqual(doubles.length, 1);
      assertEqual(doubles[0].args[1], space.id);
      assertEqual((doubles[0].args[0] as any).z, z);
      assertEqual((element as any).core.zoomState().k, k, 'return false: no zoom');
      // contextmenu
      const menus = collect($, host, 'viewer2d.contextmenu');
      await sendMouse({ type: 'click', position: at, button: 'right' });
      assertEqual(menus[0].args[1], space.id);
      $v.unbind('viewer2d.click').unbind('viewer2d.select').unbind('viewer2d.contextmenu').unbind('viewer2d.dblclick');
    });

    it('markerclick, markerhover and markerdrag with (event, marker); the viewpoint event when the arrow is dragged', async () => {
      $v.viewer2d('showViewpoint');
      // Places inside the house (Level 1 spans 0..18 x 0..10 m), so they are on screen.
      const id = $v.viewer2d('addMarker', { x: 3, y: 8, clickable: true, color: 'red', text: 'T', data: 42 });
      const hovers = collect($, host, 'viewer2d.markerhover');
      const clicks = collect($, host, 'viewer2d.markerclick', false);
      const planClicks = collect($, host, 'viewer2d.click');
      const at = page(3, 8);
      await sendMouse({ type: 'move', position: [at[0] + 40, at[1] + 40] });
      await sendMouse({ type: 'move', position: at });
      await sendMouse({ type: 'click', position: at });
      assertDeepEqual(hovers[0].args, [{ id, x: 3, y: 8, color: 'red', text: 'T', data: 42 }]);
      assertDeepEqual(clicks[0].args, [{ id, x: 3, y: 8, color: 'red', text: 'T', data: 42 }]);
      assertEqual(planClicks.length, 0, 'return false from markerclick kept the click from the plan');
      $v.viewer2d('clearMarkers').viewer2d('lookAt', level1);
      const dragId = $v.viewer2d('addMarker', { x: 9, y: 7, draggable: true });
      const drags = collect($, host, 'viewer2d.markerdrag');
      const grab = page(9, 7);
      await sendMouse({ type: 'move', position: grab });
      await sendMouse({ type: 'down' });
      await sendMouse({ type: 'move', position: [grab[0] - 20, grab[1] + 10] });
      await sendMouse({ type: 'move', position: [grab[0] - 40, grab[1] + 20] });
      await sendMouse({ type: 'up' });
      assertEqual(drags.length, 1);
      assertEqual((drags[0].args[0] as any).id, dragId);
      assert((drags[0].args[0] as any).x < 9, 'moved left');
      $v.viewer2d('removeMarker', dragId);
      $v.viewer2d('setViewpoint', { location: { x: 14, y: 3 }, direction: 0 });
      const viewpoints = collect($, host, 'viewer2d.viewpoint');
      const from = page(14, 3);
      await sendMouse({ type: 'move', position: from });
      await sendMouse({ type: 'down' });
      await sendMouse({ type: 'move', position: [from[0] + 20, from[1]] });
      await sendMouse({ type: 'move', position: [from[0] + 40, from[1]] });
      await sendMouse({ type: 'up' });
      assert(viewpoints.length >= 1, 'viewer2d.viewpoint');
      const vp = viewpoints.at(-1)!.args[0] as any;
      assert(vp.location.x > 14.5, `moved right: ${JSON.stringify(vp.location)}`);
      assertEqual(vp.rotation, 0);
      $v.unbind('viewer2d.markerhover').unbind('viewer2d.markerclick').unbind('viewer2d.markerdrag').unbind('viewer2d.click').unbind('viewer2d.viewpoint');
    });

    it('unloadModel gives viewer2d.unload (event, modelId); a failing loadUrl gives viewer2d.loadfail; unknown methods viewer2d.error', async () => {
      const unloads = collect($, host, 'viewer2d.unload');
      $v.viewer2d('unloadModel', 'house');
      assertDeepEqual(unloads.map((u) => u.args), [['house']]);
      assertDeepEqual($v.viewer2d('getStoreys'), []);
      const fails = collect($, host, 'viewer2d.loadfail');
      await $v.viewer2d('loadUrl', '/samples/missing.ifc', { modelId: 'gone' }).catch(() => undefined);
      assertEqual(fails[0].args[0], 'gone');
      assert(/404/.test(String(fails[0].args[1])), 'the reason as second argument');
      const errors = collect($, host, 'viewer2d.error');
      const warn = console.warn;
      console.warn = () => undefined;
      try {
        assert($v.viewer2d('noSuchMethod') === $v);
      } finally {
        console.warn = warn;
      }
      assertEqual(errors[0].args[0], 'method');
      assert(String(errors[0].args[1]).includes('noSuchMethod'));
      $v.unbind('viewer2d.unload').unbind('viewer2d.loadfail').unbind('viewer2d.error');
    });
  });
}

describe('data-viewer2d="svg" (data API)', function () {
  it('starts the element with its data attributes as options and loads data-url; once only', async () => {
    installViewer2dPlugin(jq1);
    const host = document.createElement('div');
    host.setAttribute('data-viewer2d', 'svg');
    host.setAttribute('data-url', PLAN_MODELS.cabin);
    host.setAttribute('data-show-viewpoint', 'false');
    host.setAttribute('data-select-color', '#123456');
    host.style.cssText = 'width:300px;height:200px';
    document.body.append(host);
    try {
      const loaded = nextJqueryEvent(jq1, host, 'viewer2d.load', 60_000);
      assertEqual(startDataApi2d().length, 1);
      assertEqual(startDataApi2d().length, 0, 'not twice');
      const element = host.querySelector('bim-viewer-2d')!;
      assertEqual(element.showViewpoint, false);
      assertEqual(element.selectColor, '#123456');
      await loaded;
      assertEqual(jq1(host).viewer2d('getStoreys').length, (await truthOf(PLAN_MODELS.cabin)).storeys.length);
      await jq1(host).viewer2d('dispose');
    } finally {
      host.remove();
    }
  });
});
