import { callMethod, initViewer, installedJQueries, viewerElementOf } from './viewer-plugin.js';
import { dataAttributes } from './options.js';
import { emit } from '../elements/events.js';

/**
 * The data API (seed 002, COMPAT.md): on DOM ready each `[data-viewer="webgl"]` element
 * gets `viewer(<its data-* attributes>)` then `viewer('loadUrl', data-url)`. It needs no
 * jQuery (it calls the same code the plugin does), so markup-only pages work too.
 *
 * Elements that also carry `data-ui` want the widget (`viewerUI(<same options>)`). The
 * widget bundle (dist/viewer.js) is loaded by `platform` when such an element exists;
 * once it has defined `$.fn.viewerUI`, `startWidgets()` starts it on those elements.
 */

/** Marks a started element; a symbol in the global registry so every bundle copy sees it. */
const STARTED = Symbol.for('bim-viewers.data-api.started');
const UI_STARTED = Symbol.for('bim-viewers.data-api.ui-started');

type Marked = HTMLElement & { [STARTED]?: boolean; [UI_STARTED]?: boolean };

export interface UiRequest {
  host: HTMLElement;
  /** The element's data-* attributes, camelCased, as strings (the widget coerces them). */
  options: Record<string, string>;
}

const uiRequests: UiRequest[] = [];

function viewerHosts(root: ParentNode): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>('[data-viewer]'))
    .filter((el) => (el.getAttribute('data-viewer') ?? '').trim().toLowerCase() === 'webgl');
}

/** True when the page has a `data-ui` viewer, so the widget bundle is wanted. */
export function pageWantsWidget(root: ParentNode = document): boolean {
  return viewerHosts(root).some((el) => el.hasAttribute('data-ui'));
}

/**
 * Starts every `[data-viewer="webgl"]` element under `root` that has not been started
 * yet (running twice starts nothing twice). Returns the elements started now.
 */
export function startDataApi(root: ParentNode = document): HTMLElement[] {
  const started: HTMLElement[] = [];
  for (const host of viewerHosts(root) as Marked[]) {
    if (host[STARTED]) continue;
    host[STARTED] = true;
    const options = dataAttributes(host);
    const { viewer: _kind, url, ui: _ui, ...viewerOptions } = options;
    const element = initViewer(host, viewerOptions);
    if (url) {
      callMethod(host, 'loadUrl', [url]);
    } else {
      const message = 'data-viewer="webgl" element has no data-url: nothing to load';
      console.warn(`[viewer] ${message}`);
      emit(element, 'viewer.error', { type: 'argument', message });
    }
    if (host.hasAttribute('data-ui')) uiRequests.push({ host, options });
    started.push(host);
  }
  return started;
}

/** The `data-ui` elements started by the data API (for the widget). */
export function widgetRequests(): readonly UiRequest[] {
  return uiRequests;
}

/**
 * Hook for the widget: calls `$(host).viewerUI(options)` on each pending `data-ui`
 * element, through the first jQuery copy that has the widget plugin. Does nothing for
 * elements whose widget is already started, or when no `viewerUI` plugin exists yet
 * (the widget bundle is a later piece; platform.load reports when it is missing).
 * Returns the elements started now.
 */
export function startWidgets(): HTMLElement[] {
  const started: HTMLElement[] = [];
  const $ = installedJQueries().find((copy) => typeof copy.fn.viewerUI === 'function');
  if (!$) return started;
  for (const { host, options } of uiRequests) {
    const marked = host as Marked;
    if (marked[UI_STARTED] || !viewerElementOf(host)) continue;
    marked[UI_STARTED] = true;
    const wrapped = $(host) as unknown as { viewerUI(options: unknown): unknown };
    wrapped.viewerUI(options);
    started.push(host);
  }
  return started;
}
