import { BimViewer2d } from '../elements/bim-viewer-2d.js';
import { VIEWER2D_EVENT_ARGS, emit2d } from '../elements/events2d.js';
import { createElementPlugin, type CallResult, type Kind } from './element-plugin.js';
import type { JQueryStaticLike } from './jquery-types.js';
import { optionTable } from './option-coercion.js';

/**
 * `$(el).viewer2d(...)`: the documented jQuery calling convention on <bim-viewer-2d>,
 * with the same machinery as `$.fn.viewer` (element-plugin.ts). Methods that give a
 * value (`getStoreys`, `getSpaces`, `getSelected`, `addMarker`, ...) return it through
 * the plugin instead of the jQuery object (COMPAT.md), at once, as the documented API
 * does; `screenshot` and `loadUrl` return promises, and take a callback too.
 */

/** The documented 2D methods (seed 002 "Viewer 2D options and methods", COMPAT.md) and extras. */
const METHODS: Record<string, Kind> = {
  // loading
  loadUrl: 'value',
  unloadModel: 'action',
  setTransformation: 'action',
  // storeys
  getStoreys: 'value',
  getStoreyByElevation: 'value',
  getStoreysByElevation: 'value',
  showStorey: 'action',
  hideStorey: 'action',
  hideStoreys: 'action',
  // spaces
  getSpaces: 'value',
  getBoundingBox: 'value',
  getOffset: 'value',
  select: 'action',
  unselect: 'action',
  getSelected: 'value',
  setColor: 'action',
  clearColors: 'action',
  setSpaceNames: 'action',
  setSpaceNameFormat: 'action',
  // markers and images
  addMarker: 'value',
  removeMarker: 'action',
  clearMarkers: 'action',
  getMarkers: 'value',
  addImage: 'value',
  clearImages: 'action',
  // viewpoint and view
  getViewpoint: 'value',
  setViewpoint: 'action',
  moveTo: 'action',
  showViewpoint: 'action',
  hideViewpoint: 'action',
  lookAt: 'action',
  lookAtBoundingBox: 'action',
  screenshot: 'value',
  resize: 'action',
  dispose: 'action',
};

/** jQuery data key under which the page's element keeps its <bim-viewer-2d>. */
export const DATA_KEY_2D = 'bimViewer2d';

const plugin = createElementPlugin<BimViewer2d>({
  name: 'viewer2d',
  tagName: 'bim-viewer-2d',
  dataKey: DATA_KEY_2D,
  methods: METHODS,
  eventArgs: VIEWER2D_EVENT_ARGS as Record<string, (detail: never) => unknown[]>,
  options: optionTable(() => BimViewer2d),
  reportError: (element, type, message) => { emit2d(element, 'viewer2d.error', { type, message }); },
  // `showViewpoint` is both the option and a method: as a method it shows the arrow.
  special: { showViewpoint: (element) => element.revealViewpoint() },
  methodsHint: 'the 2D viewer methods of the API',
  reportsThrownErrors: true,
});

export type { CallResult };

/** The <bim-viewer-2d> behind a page element, if the plugin (or markup) made one. */
export function viewer2dElementOf(host: Element): BimViewer2d | undefined {
  return plugin.elementOf(host);
}

/** The jQuery copies the 2D plugin is installed on. */
export function installed2dJQueries(): JQueryStaticLike[] {
  return plugin.jQueries();
}

/** `viewer2d(options)`: creates the 2D viewer when needed and sets the given options. */
export function initViewer2d(host: HTMLElement, options: Record<string, unknown> = {}): BimViewer2d {
  return plugin.init(host, options);
}

/** `viewer2d('method', ...args)` on one page element. */
export function callMethod2d(host: HTMLElement, name: string, input: unknown[]): CallResult {
  return plugin.call(host, name, input);
}

/**
 * Defines `$.fn.viewer2d` on a jQuery (1.12 to 4.x). Safe to call again and on several
 * copies of jQuery.
 */
export function installViewer2dPlugin(jQuery: { fn: object }): void {
  plugin.install(jQuery);
}
