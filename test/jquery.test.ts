// The jQuery shim ($.fn.viewer, src/jquery) against a real <bim-viewer-3d> loading the
// sample cabin (a generated IFC), with the three jQuery majors pages use (1.12.4, 2.2.4, 4.0.0) in one page.
import jq4 from 'jquery';
import jq1 from 'jquery1';
import jq2 from 'jquery2';
import { installViewer3dPlugin } from '../src/jquery/viewer-plugin';
import { startDataApi, startWidgets, widgetRequests } from '../src/jquery/data-api';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import { assert, assertDeepEqual, assertEqual } from './support/assert';
import { nextJqueryEvent, type JQ } from './support/jquery';
import { clickAt, elementPoint, resetMouse, type Point } from './support/input';
import { SAMPLES, objectIdOf, truthOf } from './support/samples';

/* eslint-disable @typescript-eslint/no-explicit-any */

const MODEL = SAMPLES.cabin;
const LOAD_TIMEOUT = 90_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const frames = (n = 2) => new Promise<void>((resolve) => {
  const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
  requestAnimationFrame(step);
});

async function waitFor(condition: () => boolean, what: string, timeout = 10_000) {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeout) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await sleep(20);
  }
}

function makeHost(): HTMLDivElement {
  const host = document.createElement('div');
  host.style.cssText = 'width:480px;height:360px;position:relative;';
  document.body.append(host);
  return host;
}

const VERSIONS: Array<[string, JQ]> = [
  ['1.12.4', jq1],
  ['2.2.4', jq2],
  ['4.0.0', jq4],
];

for (const [version, $] of VERSIONS) {
  describe(`$.fn.viewer with jQuery ${version}`, function () {
    let host: HTMLDivElement;
    let $v: JQ;
    let element: BimViewer3d;
    let ids: string[] = [];

    before(() => {
      assertEqual($.fn.jquery, version, 'jQuery version under test');
      installViewer3dPlugin($);
      host = makeHost();
      $v = $(host);
    });

    after(async () => {
      await resetMouse();
      await $v?.viewer('dispose');
      host?.remove();
    });

    it('initialises a plain div with options as data attributes give them (strings), and chains', () => {
      const ret = $v.viewer({
        defaultColor: '#ff0000',
        selectedColor: '#00ff00',
        translucentOpacity: '0.2',
        fieldOfView: '80',
        enableTouch: 'true',
        enableClippingPlaneWidget: 'false',
        navigationOrbitSphereColor: 'darkgreen',
        activeClippingPlaneBorderColor: '#123456',
        textRenderMode: 'dom',
        enableKeyboard: 'true', // a widget option: ignored by the viewer
      });
      assertEqual(ret, $v, 'viewer(options) returns the jQuery object');
      const children = host.querySelectorAll('bim-viewer-3d');
      assertEqual(children.length, 1, 'one <bim-viewer-3d> child');
      element = children[0] as BimViewer3d;
      assertEqual(element.parentElement, host);
      assertEqual(element.style.width, '100%');
      assertEqual(element.style.height, '100%');
      assertEqual($.data(host, 'bimViewer3d'), element, 'the element is kept in the div\'s data');
      assertEqual(element.defaultColor, '#ff0000');
      assertEqual(element.selectedColor, '#00ff00');
      assertEqual(element.translucentOpacity, 0.2);
      assertEqual(element.fieldOfView, 80);
      assertEqual(element.enableTouch, true);
      assertEqual(element.enableClippingPlaneWidget, false);
      assertEqual(element.navigationOrbitSphereColor, 'darkgreen');
      assertEqual(element.activeClippingPlaneBorderColor, '#123456');
      assertEqual(element.textRenderMode, 'dom');
      assert(!('viewer' in element) && !('viewer' in host), 'nothing named `viewer` on the elements (jQuery would call it on trigger)');
    });

    it('updates options when called again, in the same element; bad values give viewer.error', () => {
      const errors: unknown[][] = [];
      const onError = (_e: unknown, ...args: unknown[]) => { errors.push(args); };
      $v.on('viewer.error', onError);
      $v.viewer({ fieldOfView: 70, enableTouch: 'false', translucentOpacity: 'lots' });
      $v.off('viewer.error', onError);
      assertEqual(host.querySelectorAll('bim-viewer-3d').length, 1);
      assertEqual(element.fieldOfView, 70);
      assertEqual(element.enableTouch, false);
      assertEqual(element.translucentOpacity, 0.2, 'an unreadable value leaves the option as it was');
      assertEqual(errors.length, 1, 'one viewer.error');
      assertEqual(errors[0][0], 'argument');
      assert(String(errors[0][1]).includes('translucentOpacity'), `message names the option: ${errors[0][1]}`);
      $v.viewer('fieldofview', '60'); // an option used as a method, any case
      assertEqual(element.fieldOfView, 60);
    });

    it('loads with a lower-case method name, queues calls made before the model is there, fires viewer.load as (event)', async () => {
      const loaded = nextJqueryEvent($, host, 'viewer.load', LOAD_TIMEOUT);
      const progress: unknown[] = [];
      $v.bind('viewer.streamingprogress', (_e: unknown, p: unknown) => { progress.push(p); });
      const ret = $v.viewer('loadurl', MODEL);
      assert(ret && typeof ret.then === 'function', 'loadUrl without a callback returns the element\'s promise');

      // Called before the model is loaded: they run once it is.
      let queued: { self: unknown; info: any } | undefined;
      assertEqual($v.viewer('modelinfo', function (this: unknown, info: unknown) { queued = { self: this, info }; }), $v);
      const eachIds: string[] = [];
      let eachThis: unknown;
      assertEqual($v.viewer('EACH', function (this: unknown, id: string) { eachThis = this; eachIds.push(id); }), $v);
      assertEqual($v.viewer('select', []), $v, 'an empty id list does not throw');

      const { event, args, self } = await loaded;
      assertEqual(event.type, 'viewer');
      assertEqual(event.namespace, 'load');
      assertEqual(args.length, 0, 'viewer.load handlers get only the event');
      assertEqual(self, host, 'this in a handler is the page element');
      assertDeepEqual(Array.isArray(event.detail?.modelIds), true, 'event.detail carries the native detail');

      const infos = await ret;
      assertEqual(infos.length, 1);
      await $v.viewer('modelInfo'); // runs after everything queued before it
      assert(queued, 'the modelInfo callback queued before load ran');
      assertEqual(queued.self, host, 'callback this = page element');
      assertEqual(queued.info.length, 1);
      assertEqual(queued.info[0].modelId, infos[0].modelId);
      const drawn = (await truthOf(MODEL)).products.filter((p) => p.box).map((p) => objectIdOf(p.id));
      assert(drawn.every((id) => eachIds.includes(id)), `each (queued before load) saw the loaded objects: ${eachIds.length}`);
      assertEqual(eachThis, host);
      ids = eachIds;
      assert(progress.length > 0, 'viewer.streamingprogress reached the jQuery handler');
      $v.unbind('viewer.streamingprogress');
    });

    it('reads with null plus a callback (this = the page element) and chains', async () => {
      const seen: Record<string, { self: unknown; value: any }> = {};
      const cb = (key: string) => function (this: unknown, value: unknown) { seen[key] = { self: this, value }; };
      const ret = $v
        .viewer('viewpoint', null, cb('viewpoint'))
        .viewer('color', null, ids[0], cb('color'))
        .viewer('boundingBox', null, cb('box'))
        .viewer('boundingbox', [ids[0]], cb('box1'))
        .viewer('getProducts', ids[0], cb('products'))
        .viewer('objectInfo', [ids[0]], cb('info'))
        .viewer('modelInfo', cb('models'))
        .viewer('screenshot', cb('png'))
        .viewer('eachSelected', cb('selected'));
      assertEqual(ret, $v, 'callback forms return the jQuery object');
      await $v.viewer('modelInfo');
      await waitFor(() => 'png' in seen, 'the screenshot callback');
      for (const key of ['viewpoint', 'color', 'box', 'box1', 'products', 'info', 'models', 'png']) {
        assert(seen[key], `${key} callback ran`);
        assertEqual(seen[key].self, host, `this in the ${key} callback`);
      }
      assert(!seen.selected, 'eachSelected with nothing selected calls back for no id');
      assert(['perspective', 'orthogonal'].includes(seen.viewpoint.value.type), 'a viewpoint');
      assertDeepEqual(seen.color.value, {}, 'no custom colours yet');
      assert(seen.box.value.min.x <= seen.box.value.max.x, 'a bounding box');
      assertEqual(seen.products.value.length, 1);
      assertEqual(seen.products.value[0].objectId, ids[0]);
      assert(seen.info.value[0].attributes, 'objectInfo carries attributes');
      assertEqual(seen.models.value.length, 1);
      assert(String(seen.png.value).startsWith('data:image/png'), 'screenshot is a PNG data URL');

      let one: any;
      $v.viewer('modelInfo', seen.models.value[0].modelId, (info: unknown) => { one = info; });
      await $v.viewer('modelInfo');
      assertEqual(one.length, 1, 'modelInfo(modelId, cb)');
    });

    it('returns the element\'s promise for reads without a callback, the jQuery object otherwise', async () => {
      const products = await $v.viewer('getproducts', ids);
      assertEqual(products.length, ids.length);
      const viewpoint = await $v.viewer('viewpoint');
      assert(viewpoint.location && viewpoint.direction, 'viewpoint() resolves to a viewpoint');
      const box = await $v.viewer('boundingBox', ids[0]);
      assert(box.min && box.max, 'boundingBox(ids) resolves to a box');
      const all = await $v.viewer('each');
      assertDeepEqual([...all].sort(), [...ids].sort(), 'each() resolves to all ids');
      assertEqual($v.viewer('color', '#ff0000', ids[0]), $v, 'color(set) chains');
      const colors = await $v.viewer('color', null, ids[0]);
      assert(colors[ids[0]], `color(null, id) reads the colour just set: ${JSON.stringify(colors)}`);
      assertEqual($v.viewer('resetcolors'), $v);
      assertEqual($v.viewer('viewpoint', 'front'), $v, 'viewpoint(set) chains');
      assertEqual($v.viewer('showall').viewer('opaqueAll'), $v);
      const png = await $v.viewer('screenshot');
      assert(png.startsWith('data:image/png'));
    });

    it('takes ids as a string, a number, or arrays of either', async () => {
      const sorted = (list: string[]) => [...list].sort();
      const [a, b] = ids;
      assert(a && b, `the model has at least two objects: ${ids}`);
      $v.viewer('deselectAll').viewer('select', a);
      assertDeepEqual(await $v.viewer('eachSelected'), [a], 'one string');
      $v.viewer('deselectAll').viewer('select', Number(a));
      assertDeepEqual(await $v.viewer('eachSelected'), [a], 'one number');
      $v.viewer('deselectAll').viewer('select', [a, b]);
      assertDeepEqual(sorted(await $v.viewer('eachSelected')), sorted([a, b]), 'array of strings');
      $v.viewer('deselectAll').viewer('select', [Number(a), Number(b)]);
      assertDeepEqual(sorted(await $v.viewer('eachSelected')), sorted([a, b]), 'array of numbers');
      const selected: string[] = [];
      $v.viewer('eachselected', function (this: unknown, id: string) { assertEqual(this, host); selected.push(id); });
      await $v.viewer('modelInfo');
      assertDeepEqual(sorted(selected), sorted([a, b]), 'eachSelected(cb) per id');
      $v.viewer('deselectAll');
    });

    it('delivers click and select to jQuery handlers as (event, ...args); false from viewer.click cancels selecting', async () => {
      $v.viewer('deselectAll').viewer('showAll').viewer('viewpoint', 'front');
      await $v.viewer('modelInfo');
      await frames(3);

      // Find a point over an object, with a cancelling click handler (nothing gets selected).
      const clicks: Array<{ self: unknown; event: any; args: unknown[] }> = [];
      const selects: unknown[][] = [];
      const onSelect = (_e: unknown, ...args: unknown[]) => { selects.push(args); };
      const cancel = function (this: unknown, event: any, ...args: unknown[]) {
        clicks.push({ self: this, event, args });
        return false;
      };
      $v.on('viewer.select', onSelect);
      $v.on('viewer.click', cancel);
      let point: Point | undefined;
      for (const [fx, fy] of [[0.5, 0.5], [0.4, 0.5], [0.6, 0.5], [0.5, 0.4], [0.5, 0.6], [0.3, 0.5], [0.7, 0.5], [0.5, 0.3], [0.5, 0.7]]) {
        const before = clicks.length;
        const p = elementPoint(element, fx, fy);
        await clickAt(p);
        await waitFor(() => clicks.length > before, 'viewer.click');
        if (clicks[clicks.length - 1].args[0] !== undefined) {
          point = p;
          break;
        }
        await sleep(600); // never two clicks within the double-click interval
      }
      assert(point, 'some point of the view hits an object');
      const hit = clicks[clicks.length - 1];
      assertEqual(hit.self, host);
      assertEqual(hit.event.type, 'viewer');
      assertEqual(hit.event.namespace, 'click');
      assertEqual(hit.args.length, 2, 'viewer.click handlers get (event, objectId, intersects)');
      const [objectId, intersects] = hit.args as [string, any];
      assert(ids.includes(objectId), `clicked id ${objectId} is an object of the model`);
      assertEqual(intersects.objectId, objectId);
      assert(Number.isFinite(intersects.point.x) && Number.isFinite(intersects.normal.z), 'intersects has point and normal');
      assertDeepEqual(await $v.viewer('eachSelected'), [], 'return false cancelled the selection');
      assertEqual(selects.length, 0, 'no viewer.select after a cancelled click');

      // Without the cancelling handler the same click selects.
      $v.off('viewer.click', cancel);
      const clicked = nextJqueryEvent($, host, 'viewer.click', 10_000);
      const selected = nextJqueryEvent($, host, 'viewer.select', 10_000);
      await sleep(600);
      await clickAt(point);
      const c = await clicked;
      assertEqual(c.args[0], objectId);
      const s = await selected;
      assertDeepEqual(s.args, [[objectId]], 'viewer.select handlers get (event, objectIds[])');
      assertDeepEqual(await $v.viewer('eachSelected'), [objectId]);
      await waitFor(() => selects.length === 1, 'the other select handler');
      $v.off('viewer.select', onSelect);
      $v.viewer('deselectAll');
      await resetMouse();
    });

    it('an unknown method gives viewer.error of type "method", does not throw, and chains; .off/.unbind remove one handler', () => {
      const first: unknown[][] = [];
      const second: unknown[][] = [];
      const h1 = (_e: unknown, ...args: unknown[]) => { first.push(args); };
      const h2 = (_e: unknown, ...args: unknown[]) => { second.push(args); };
      $v.on('viewer.error', h1).bind('viewer.error', h2);
      assertEqual($v.viewer('noSuchMethod', 1, 2), $v);
      assertEqual(first.length, 1);
      assertEqual(second.length, 1);
      assertEqual(first[0][0], 'method');
      assert(String(first[0][1]).includes('noSuchMethod'), `the message names the method: ${first[0][1]}`);
      $v.off('viewer.error', h1);
      $v.viewer('alsoUnknown');
      assertEqual(first.length, 1, '.off removed h1');
      assertEqual(second.length, 2, 'and left h2');
      $v.unbind('viewer.error', h2);
      $v.viewer('stillUnknown');
      assertEqual(second.length, 2, '.unbind removed h2');
      assertEqual($v.viewer(42 as unknown as string), $v, 'a non-string method does not throw');
    });

    it('swallowed failures stay quiet (no unhandled rejection) and arrive as viewer.error', async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (e: PromiseRejectionEvent) => { unhandled.push(e.reason); e.preventDefault(); };
      window.addEventListener('unhandledrejection', onUnhandled);
      const errors: unknown[][] = [];
      const onError = (_e: unknown, ...args: unknown[]) => { errors.push(args); };
      $v.on('viewer.error', onError);
      try {
        $v.viewer('loadUrl', '/samples/no-such-model.ifc'); // a 404; the page ignores the promise
        $v.viewer('show', { not: 'an id' }); // chainable: the plugin swallows the rejection
        let called = false;
        $v.viewer('getProducts', { not: 'an id' }, () => { called = true; });
        await waitFor(() => errors.length >= 3, 'three viewer.error events', 30_000);
        await sleep(100);
        assertEqual(unhandled.length, 0, `unhandled rejections: ${unhandled}`);
        assert(!called, 'no callback for a failed read');
        assert(errors.some((e) => e[0] === 'network' || e[0] === 'ifc' || e[0] === 'manifest'), `a load error: ${JSON.stringify(errors)}`);
        assert(errors.some((e) => e[0] === 'argument'), `an argument error: ${JSON.stringify(errors)}`);
        assertEqual((await $v.viewer('modelInfo')).length, 1, 'what was loaded stays loaded');
      } finally {
        $v.off('viewer.error', onError);
        window.removeEventListener('unhandledrejection', onUnhandled);
      }
    });

    it('a method called before viewer(options) creates the viewer', async () => {
      const other = makeHost();
      try {
        const $o = $(other);
        assertEqual($o.viewer('showAll'), $o);
        const created = other.querySelector('bim-viewer-3d') as BimViewer3d;
        assert(created, 'a viewer was created');
        $o.viewer({ fieldOfView: '45' });
        assertEqual(other.querySelectorAll('bim-viewer-3d').length, 1);
        assertEqual(created.fieldOfView, 45);
        assertDeepEqual(await $o.viewer('modelInfo'), [], 'no models');
        await $o.viewer('dispose');
      } finally {
        other.remove();
      }
    });

    it('addressing the div\'s <bim-viewer-3d> directly still delivers events once, on the div', () => {
      let seen = 0;
      let self: unknown;
      const onError = function (this: unknown) { seen++; self = this; };
      $v.on('viewer.error', onError);
      $(element).viewer('unknownAgain');
      $v.off('viewer.error', onError);
      assertEqual(seen, 1);
      assertEqual(self, host);
    });

    it('uses a <bim-viewer-3d> given directly', async () => {
      const direct = document.createElement('bim-viewer-3d');
      direct.style.cssText = 'width:200px;height:150px;';
      document.body.append(direct);
      try {
        const $d = $(direct);
        $d.viewer({ fieldOfView: '50' });
        assertEqual(direct.fieldOfView, 50);
        assertEqual(direct.children.length, 0, 'no nested viewer');
        const errors: unknown[][] = [];
        $d.on('viewer.error', (_e: unknown, ...args: unknown[]) => { errors.push(args); });
        $d.viewer('bogus');
        assertEqual(errors.length, 1, 'delivered once');
        await $d.viewer('dispose');
      } finally {
        direct.remove();
      }
    });
  });
}

describe('several jQuery copies in one page', () => {
  it('each copy\'s handlers get a viewer event once', async () => {
    for (const [, $] of VERSIONS) installViewer3dPlugin($);
    const host = makeHost();
    try {
      const counts = VERSIONS.map(() => 0);
      VERSIONS.forEach(([, $], i) => $(host).on('viewer.error', () => { counts[i]++; }));
      jq1(host).viewer('unknownMethod');
      assertDeepEqual(counts, [1, 1, 1]);
      let prevented = 0;
      jq2(host).on('viewer.error', () => { prevented++; return false; });
      const native = new CustomEvent('viewer.error', { detail: { type: 'ifc', message: 'm' }, cancelable: true, bubbles: true });
      (host.querySelector('bim-viewer-3d') as HTMLElement).dispatchEvent(native);
      assertEqual(prevented, 1);
      assert(native.defaultPrevented, 'false from any copy\'s handler cancels the native event');
      assertDeepEqual(counts, [2, 2, 2]);
      await jq4(host).viewer('dispose');
    } finally {
      host.remove();
    }
  });
});

describe('data API', () => {
  it('starts each data-viewer="webgl" element once, options coerced from data attributes', async () => {
    installViewer3dPlugin(jq4);
    const root = document.createElement('div');
    root.innerHTML = `<div data-viewer="webgl" data-url="${MODEL}" data-field-of-view="75" data-enable-touch="true"
      data-translucent-opacity="0.3" data-default-color="#22ff22" data-ui data-enable-keyboard="true"
      style="width:320px;height:240px"></div>`;
    document.body.append(root);
    const host = root.firstElementChild as HTMLElement;
    try {
      const loaded = nextJqueryEvent(jq4, host, 'viewer.load', LOAD_TIMEOUT);
      assertEqual(startDataApi(root).length, 1, 'first run starts the element');
      assertEqual(startDataApi(root).length, 0, 'second run starts nothing');
      assertEqual(host.querySelectorAll('bim-viewer-3d').length, 1);
      const element = host.querySelector('bim-viewer-3d') as BimViewer3d;
      assertEqual(element.fieldOfView, 75);
      assertEqual(element.enableTouch, true);
      assertEqual(element.translucentOpacity, 0.3);
      assertEqual(element.defaultColor, '#22ff22');
      await loaded;
      assertEqual((await jq4(host).viewer('modelInfo')).length, 1, 'data-url was loaded');

      // data-ui: noted for the widget; started once the widget plugin exists.
      const request = widgetRequests().find((r) => r.host === host);
      assert(request, 'the data-ui element is noted for the widget');
      assertEqual(request.options.enableKeyboard, 'true');
      assertEqual(startWidgets().length, 0, 'no widget plugin yet: nothing started');
      const calls: unknown[] = [];
      jq4.fn.viewerUI = function (this: any, options: unknown) { calls.push([this[0], options]); return this; };
      try {
        assertEqual(startWidgets().length, 1);
        assertEqual(startWidgets().length, 0, 'a widget is started once');
        assertEqual(calls.length, 1);
        assertEqual((calls[0] as unknown[])[0], host);
      } finally {
        delete jq4.fn.viewerUI;
      }
      await jq4(host).viewer('dispose');
    } finally {
      root.remove();
    }
  });
});
