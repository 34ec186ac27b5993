import { emit2d } from '../elements/events2d.js';
import { dataAttributes } from './option-coercion.js';
import { callMethod2d, initViewer2d } from './viewer2d-plugin.js';

/**
 * The data API of the 2D viewer (seed 002, COMPAT.md): on DOM ready each
 * `[data-viewer2d="svg"]` element gets `viewer2d(<its data-* attributes>)` then
 * `viewer2d('loadUrl', data-url)`. It needs no jQuery (it calls the same code the plugin
 * does), so markup-only pages work too. As documented, nothing is displayed until the
 * page shows a storey (e.g. in a `viewer2d.load` handler).
 */

/** Marks a started element; a symbol in the global registry so every bundle copy sees it. */
const STARTED = Symbol.for('bim-viewers.data-api2d.started');

type Marked = HTMLElement & { [STARTED]?: boolean };

function viewer2dHosts(root: ParentNode): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>('[data-viewer2d]'))
    .filter((el) => (el.getAttribute('data-viewer2d') ?? '').trim().toLowerCase() === 'svg');
}

/**
 * Starts every `[data-viewer2d="svg"]` element under `root` that has not been started
 * yet (running twice starts nothing twice). Returns the elements started now.
 */
export function startDataApi2d(root: ParentNode = document): HTMLElement[] {
  const started: HTMLElement[] = [];
  for (const host of viewer2dHosts(root) as Marked[]) {
    if (host[STARTED]) continue;
    host[STARTED] = true;
    const { viewer2d: _kind, url, ...options } = dataAttributes(host);
    const element = initViewer2d(host, options);
    if (url) {
      callMethod2d(host, 'loadUrl', [url]);
    } else {
      const message = 'data-viewer2d="svg" element has no data-url: nothing to load';
      console.warn(`[viewer2d] ${message}`);
      emit2d(element, 'viewer2d.error', { type: 'argument', message });
    }
    started.push(host);
  }
  return started;
}
