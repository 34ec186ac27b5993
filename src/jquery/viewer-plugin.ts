import type { BimViewer3d } from '../elements/bim-viewer-3d.js';
import '../elements/bim-viewer-3d.js';
import { VIEWER3D_EVENT_ARGS, emit } from '../elements/events.js';
import { createElementPlugin, readsWhenFirstIsNull, type CallResult, type Kind } from './element-plugin.js';
import type { JQueryStaticLike } from './jquery-types.js';
import { viewer3dOptions } from './options.js';

/**
 * `$(el).viewer(...)`: the documented jQuery calling convention (seed 002, COMPAT.md)
 * translated onto <bim-viewer-3d> by the shared machinery of element-plugin.ts. No
 * viewer logic lives here:
 *
 * - `viewer(options?)` creates (or adopts) the element and sets its options;
 * - `viewer('method', ...args)` calls the element method of that name in any case;
 * - calls chain, except reads without a callback, which return the element's promise;
 * - a trailing function is a callback called with the value, `this` = the page's element;
 * - the element's native `viewer.*` events are re-triggered as jQuery events
 *   (`fn(event, ...args)`), and `return false` cancels the native event.
 */

/**
 * The documented 3D methods (seed 002) plus the element's own public extras. A name
 * here that the element does not implement yet gives a viewer.error of type 'method'
 * saying so. To add a method: implement it on the element, then list it here with its
 * kind (only needed once; the call is forwarded by name).
 */
const METHODS: Record<string, Kind> = {
  // loading
  loadUrl: 'value',
  loadModelsFromToken: 'value',
  loadModel: 'value',
  showModel: 'action',
  hideModel: 'action',
  unloadModel: 'action',
  transformModel: 'action',
  modelInfo: 'value',
  // object state
  show: 'action',
  hide: 'action',
  translucent: 'action',
  opaque: 'action',
  select: 'action',
  deselect: 'action',
  showAll: 'action',
  hideAll: 'action',
  translucentAll: 'action',
  opaqueAll: 'action',
  deselectAll: 'action',
  color: readsWhenFirstIsNull,
  resetColors: 'action',
  each: 'value',
  eachSelected: 'value',
  // camera
  viewpoint: readsWhenFirstIsNull,
  lookAt: 'action',
  boundingBox: 'value',
  lookAtBoundingBox: 'action',
  transitionSettings: 'action',
  setCameraSettings: 'action',
  getCameraSettings: 'value',
  setNavigationMode: 'action',
  keyDown: 'action',
  resetKeyDown: 'action',
  navigate: 'action',
  stopNavigation: 'action',
  walkSpeed: readsWhenFirstIsNull,
  elevationSpeed: readsWhenFirstIsNull,
  rotationSpeed: readsWhenFirstIsNull,
  // clipping, grids, measuring, images
  clippingPlanes: readsWhenFirstIsNull,
  clippingPlaneWidgetViewport: 'action',
  section: 'action',
  getGrids: 'value',
  getGridAxisState: 'value',
  setGridAxisState: 'action',
  calculatePointOnAxis: 'value',
  enableMeasure: 'action',
  disableMeasure: 'action',
  clearMeasure: 'action',
  images: 'action',
  // BCF viewpoints
  getBcfViewpoint: 'value',
  showBcfViewpoint: 'action',
  // point clouds
  setPointCloudOptions: 'action',
  getPointCloudOptions: 'value',
  // data
  getProducts: 'value',
  objectInfo: 'value',
  // page
  screenshot: 'value',
  setRenderSettings: 'action',
  getRenderSettings: 'value',
  resize: 'action',
  renderInfo: 'value',
  dispose: 'action',
};

/** jQuery data key under which the page's element keeps its <bim-viewer-3d>. */
export const DATA_KEY = 'bimViewer3d';

const plugin = createElementPlugin<BimViewer3d>({
  name: 'viewer',
  tagName: 'bim-viewer-3d',
  dataKey: DATA_KEY,
  methods: METHODS,
  eventArgs: VIEWER3D_EVENT_ARGS as Record<string, (detail: never) => unknown[]>,
  options: viewer3dOptions,
  reportError: (element, type, message) => { emit(element, 'viewer.error', { type, message }); },
  perItem: ['each', 'eachSelected'],
  methodsHint: 'the 3D viewer methods of the API',
  promiseAnswers: true,
});

export type { CallResult };

/** The <bim-viewer-3d> behind a page element, if the plugin (or markup) made one. */
export function viewerElementOf(host: Element): BimViewer3d | undefined {
  return plugin.elementOf(host);
}

/** The jQuery copies the plugin is installed on (the widget plugin uses the same ones). */
export function installedJQueries(): JQueryStaticLike[] {
  return plugin.jQueries();
}

/** `viewer(options)`: creates the viewer when needed and sets the given options. */
export function initViewer(host: HTMLElement, options: Record<string, unknown> = {}): BimViewer3d {
  return plugin.init(host, options);
}

/** `viewer('method', ...args)` on one page element. */
export function callMethod(host: HTMLElement, name: string, input: unknown[]): CallResult {
  return plugin.call(host, name, input);
}

/**
 * Defines `$.fn.viewer` on a jQuery (1.12 to 4.x). Safe to call again and on several
 * copies of jQuery: each copy gets the plugin, and viewer events reach the handlers
 * bound through any of them, once.
 */
export function installViewer3dPlugin(jQuery: { fn: object }): void {
  plugin.install(jQuery);
}
