// $.fn.viewerUI (src/jquery/viewer-ui-plugin.ts) with the three jQuery majors pages use
// (1.12.4, 2.2.4, 4.0.0) in one page, and the data API's `data-ui` hook (startWidgets).
import jq4 from 'jquery';
import jq1 from 'jquery1';
import jq2 from 'jquery2';
import { installViewer3dPlugin } from '../src/jquery/viewer-plugin';
import { installViewerUiPlugin } from '../src/jquery/viewer-ui-plugin';
import { startDataApi, startWidgets } from '../src/jquery/data-api';
import { TRANSLATION_KEYS } from '../src/elements/ui/translations';
import type { BimViewerUi } from '../src/elements/bim-viewer-ui';
import { assert, assertEqual } from './support/assert';
import { SAMPLES } from './support/samples';

/* eslint-disable @typescript-eslint/no-explicit-any */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const VERSIONS: Array<[string, any]> = [
  ['1.12.4', jq1],
  ['2.2.4', jq2],
  ['4.0.0', jq4],
];

for (const [version, $] of VERSIONS) {
  describe(`$.fn.viewerUI with jQuery ${version}`, function () {
    let host: HTMLDivElement;

    before(() => {
      assertEqual($.fn.jquery, version);
      installViewer3dPlugin($);
      installViewerUiPlugin($);
      host = document.createElement('div');
      host.style.cssText = 'width:320px;height:240px';
      document.body.append(host);
    });

    after(async () => {
      await $(host).viewer('dispose');
      host.remove();
    });

    it('viewerUI(options) puts the widget over the element\'s viewer, options coerced from strings', async () => {
      $(host).viewer({});
      assert($(host).viewerUI({ enableKeyboard: 'true', joystickSize: '70', joystickHidden: 'false', enableContextMenu: true, translations: { hide: 'Weg' } }) !== undefined, 'returns');
      const ui = host.querySelector('bim-viewer-ui') as BimViewerUi;
      assert(ui, 'the widget in the element');
      await ui.updateComplete;
      assert(ui.viewerElement === host.querySelector('bim-viewer-3d'), 'attached to the viewer beside it');
      assert(ui.hasAttribute('overlay'), 'lies over the viewer');
      assertEqual(ui.enableKeyboard, true);
      assertEqual(ui.joystickSize, 70);
      assertEqual(ui.joystickHidden, false);
      assertEqual(ui.enableContextMenu, true);
      assertEqual(ui.translations.hide, 'Weg');
      for (const key of TRANSLATION_KEYS) assert(typeof ui.translations[key] === 'string' && ui.translations[key].length > 0, `text ${key}`);
      assertEqual(getComputedStyle(host).position, 'relative', 'the element positions the overlay');
      const box = ui.getBoundingClientRect();
      const hostBox = host.getBoundingClientRect();
      assert(Math.abs(box.width - hostBox.width) < 1 && Math.abs(box.height - hostBox.height) < 1, 'covers the viewer');
    });

    it('methods in any case chain; unknown methods report viewer.error', async () => {
      const ui = host.querySelector('bim-viewer-ui') as BimViewerUi;
      const $h = $(host);
      assert($h.viewerUI('HIDEJOYSTICK') === $h, 'chains');
      await sleep(10);
      assertEqual(ui.uiState.joystickVisible, false);
      $h.viewerUI('showjoystick');
      await sleep(10);
      assertEqual(ui.uiState.joystickVisible, true);
      $h.viewerUI('joystickposition', 'middle-right');
      await sleep(10);
      assertEqual(ui.joystickPosition, 'middle-right');
      $h.viewerUI('setSpacesVisible', true);
      await sleep(10);
      assertEqual(ui.spacesVisible, true);
      const errors: unknown[][] = [];
      $h.on('viewer.error', (_e: unknown, ...args: unknown[]) => { errors.push(args); });
      const warn = console.warn;
      console.warn = () => undefined;
      try {
        $h.viewerUI('noSuchThing');
      } finally {
        console.warn = warn;
      }
      await sleep(10);
      assert(errors.some((a) => a[0] === 'method'), `viewer.error method: ${JSON.stringify(errors)}`);
      $h.off('viewer.error');
    });
  });
}

describe('data-ui through the data API', function () {
  it('startWidgets() calls viewerUI(<data-* options>) on data-ui viewers once', async () => {
    const host = document.createElement('div');
    host.setAttribute('data-viewer', 'webgl');
    host.setAttribute('data-url', SAMPLES.cabin);
    host.setAttribute('data-ui', '');
    host.setAttribute('data-enable-context-menu', 'true');
    host.setAttribute('data-joystick-position', 'middle-left');
    host.setAttribute('data-viewer2d-id', 'somewhere');
    host.style.cssText = 'width:320px;height:240px';
    document.body.append(host);
    try {
      startDataApi();
      startWidgets();
      startWidgets();
      const widgets = host.querySelectorAll('bim-viewer-ui');
      assertEqual(widgets.length, 1, 'one widget');
      const ui = widgets[0] as BimViewerUi;
      assertEqual(ui.enableContextMenu, true);
      assertEqual(ui.joystickPosition, 'middle-left');
      assertEqual(ui.viewer2dId, 'somewhere');
      const viewer = host.querySelector('bim-viewer-3d') as any;
      await viewer.modelInfo();
      await viewer.dispose();
    } finally {
      host.remove();
    }
  });
});

describe('<bim-viewer-ui> finds its viewer', function () {
  it('by wrapping it, by the for attribute (an id of the viewer or of its element) and by the viewer property', async () => {
    const box = document.createElement('div');
    box.innerHTML = '<bim-viewer-ui id="w1"><bim-viewer-3d id="v1"></bim-viewer-3d></bim-viewer-ui>'
      + '<div id="holder"><bim-viewer-3d id="v2"></bim-viewer-3d></div>'
      + '<bim-viewer-ui id="w2" for="v1"></bim-viewer-ui><bim-viewer-ui id="w3" for="holder"></bim-viewer-ui><bim-viewer-ui id="w4"></bim-viewer-ui>';
    document.body.append(box);
    try {
      const get = (id: string) => box.querySelector('#' + id) as any;
      const w4 = get('w4') as BimViewerUi;
      w4.viewer = get('v2');
      await Promise.all(['w1', 'w2', 'w3', 'w4'].map((id) => get(id).updateComplete));
      assert(get('w1').viewerElement === get('v1'), 'wrapping');
      assert(!get('w1').hasAttribute('overlay'), 'a wrapper is no overlay');
      assert(get('w2').viewerElement === get('v1'), 'for = the viewer\'s id');
      assert(get('w3').viewerElement === get('v2'), 'for = the id of the element holding it');
      assert(w4.viewerElement === get('v2'), 'the viewer property');
      assert(!get('w2').hasAttribute('overlay'), 'elsewhere on the page: its own box');
    } finally {
      for (const v of Array.from(box.querySelectorAll('bim-viewer-3d'))) await (v as any).dispose();
      box.remove();
    }
  });
});
