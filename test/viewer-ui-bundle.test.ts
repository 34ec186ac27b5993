// dist/viewer.js, the widget's bundle, on a page written for the documented API:
// jQuery 1.12 as a global, only dist/viewer3d.js included by the page, and a
// `data-viewer="webgl" data-ui` element with the widget's options as data attributes.
// The 3D bundle loads the widget from beside itself (COMPAT.md "Loading"). Nothing is
// imported from src/: the bundles bring it all.
import jq1 from 'jquery1';
import { assert, assertEqual } from './support/assert';
import { sleep, waitFor } from './support/page';
import { SAMPLES } from './support/samples';

/* eslint-disable @typescript-eslint/no-explicit-any */
const win = window as any;
const MODEL = SAMPLES.cabin;

describe('dist/viewer.js (the widget bundle) through the 3D bundle', function () {
  let host: HTMLDivElement;
  let other: HTMLDivElement;

  before(async () => {
    win.jQuery = win.$ = jq1;
    host = document.createElement('div');
    host.id = 'viewer';
    host.setAttribute('data-viewer', 'webgl');
    host.setAttribute('data-url', MODEL);
    host.setAttribute('data-ui', '');
    host.setAttribute('data-enable-keyboard', 'true');
    host.setAttribute('data-enable-context-menu', 'true');
    host.setAttribute('data-joystick-color', 'darkgreen');
    host.setAttribute('data-joystick-position', 'bottom-right');
    host.setAttribute('data-joystick-size', '80');
    host.setAttribute('data-joystick-hidden', 'false');
    host.setAttribute('data-translations', '{"noModelsLoaded": "<i>Leer</i>"}');
    host.style.cssText = 'width:400px;height:300px';
    document.body.append(host);
    other = document.createElement('div');
    other.style.cssText = 'width:300px;height:200px';
    document.body.append(other);
    await new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = '/dist/viewer3d.js';
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('could not load /dist/viewer3d.js'));
      document.head.append(script);
    });
  });

  it('loads viewer.js from beside viewer3d.js for a data-ui element and starts the widget with its data-* options', async () => {
    const ui = await waitFor(() => host.querySelector('bim-viewer-ui') as any, 'the widget in the data-ui element');
    const script = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).find((s) => s.src.endsWith('/dist/viewer.js'));
    assert(script, 'the widget bundle was loaded beside the 3D one');
    assertEqual(typeof jq1.fn.viewerUI, 'function', '$.fn.viewerUI on the page\'s jQuery');
    assertEqual(ui.enableKeyboard, true);
    assertEqual(ui.enableContextMenu, true);
    assertEqual(ui.joystickColor, 'darkgreen');
    assertEqual(ui.joystickPosition, 'bottom-right');
    assertEqual(ui.joystickSize, 80);
    assertEqual(ui.joystickHidden, false);
    assertEqual(ui.translations.noModelsLoaded, '<i>Leer</i>');
    assertEqual(ui.translations.hide, 'Hide');
    assert(ui.viewerElement === host.querySelector('bim-viewer-3d'), 'attached to the element\'s viewer');
    await ui.updateComplete;
    const stick = ui.shadowRoot.querySelector('.joystick') as HTMLElement;
    assert(!stick.hidden, 'joystickHidden false: shown');
    const box = stick.getBoundingClientRect();
    const hostBox = host.getBoundingClientRect();
    assert(Math.abs(hostBox.right - box.right - 20) < 1.5 && Math.abs(hostBox.bottom - box.bottom - 20) < 1.5, 'bottom-right of the viewer');
  });

  it('methods through jQuery in any case; joystickPosition is a method too', async () => {
    const ui = host.querySelector('bim-viewer-ui') as any;
    const $host = jq1(host);
    assert($host.viewerUI('hidejoystick') === $host, 'chains');
    await ui.updateComplete;
    assert(ui.shadowRoot.querySelector('.joystick').hidden, 'hideJoystick through jQuery');
    $host.viewerUI('showJoystick');
    $host.viewerUI('joystickPosition', 'middle-left');
    await sleep(20);
    await ui.updateComplete;
    assertEqual(ui.joystickPosition, 'middle-left');
    assert(!ui.shadowRoot.querySelector('.joystick').hidden, 'showJoystick through jQuery');
    $host.viewerUI('updateJoystickOptions', { joystickColor: 'red', joystickSize: 60 });
    await sleep(20);
    assertEqual(ui.joystickColor, 'red');
    assertEqual(ui.joystickSize, 60);
    $host.viewerUI('set2dLockedNavigationMode', true);
    $host.viewerUI('set2dlockstoreymode', true);
    assertEqual(ui.uiState.lockedNavigation, true);
    assertEqual(ui.uiState.lockStorey, true);
  });

  it('platform.load([\'viewer-ui\']) runs the callback with $.fn.viewerUI there; viewerUI on a fresh viewer shows the empty text as text', async () => {
    let ran = 0;
    win.platform.setOnLoadCallback(() => { ran++; });
    await win.platform.load(['viewer-ui']);
    assertEqual(ran, 1);
    jq1(other).viewer({});
    jq1(other).viewerUI({ translations: { noModelsLoaded: '<b>Nothing</b>' } });
    const ui = other.querySelector('bim-viewer-ui') as any;
    assert(ui, 'the widget made in the element');
    const overlay = await waitFor(() => {
      const o = ui.shadowRoot?.querySelector('.loading-overlay') as HTMLElement | null;
      return o && !o.hidden && o.dataset.state === 'empty' ? o : null;
    }, 'the empty text', 10_000);
    assertEqual(overlay.textContent?.trim(), '<b>Nothing</b>');
    assert(!overlay.querySelector('b'), 'text, not markup');
  });

  it('shows progress while a model streams, then hides the overlay', async () => {
    const ui = other.querySelector('bim-viewer-ui') as any;
    const overlay = ui.shadowRoot.querySelector('.loading-overlay') as HTMLElement;
    const states = new Set<string>();
    const watch = setInterval(() => states.add(`${overlay.dataset.state}:${overlay.hidden}`), 5);
    try {
      await jq1(other).viewer('loadUrl', SAMPLES.house);
      await waitFor(() => overlay.hidden || null, 'the overlay hidden after loading', 10_000);
    } finally {
      clearInterval(watch);
    }
    assert(states.has('loading:false'), `the loading state was shown: ${[...states].join(' ')}`);
    assert(overlay.hidden, 'hidden once loaded');
  });
});
