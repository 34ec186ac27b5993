import type { BimViewer3d } from '../elements/bim-viewer-3d.js';
import '../elements/bim-viewer-3d.js';
import { VIEWER3D_EVENT_ARGS, emit, type Viewer3dEventName } from '../elements/events.js';
import type { ViewerErrorType } from '../core/types.js';
import { isJQuery, type JQueryLike, type JQueryStaticLike } from './jquery-types.js';
import { coerceOption, coerceOptions, optionName } from './options.js';

/**
 * `$(el).viewer(...)`: the documented jQuery calling convention (seed 002, COMPAT.md)
 * translated onto <bim-viewer-3d>. No viewer logic lives here:
 *
 * - `viewer(options?)` creates (or adopts) the element and sets its options;
 * - `viewer('method', ...args)` calls the element method of that name in any case;
 * - calls chain, except reads without a callback, which return the element's promise;
 * - a trailing function is a callback called with the value, `this` = the page's element;
 * - the element's native `viewer.*` events are re-triggered as jQuery events
 *   (`fn(event, ...args)`), and `return false` cancels the native event.
 */

/** How a method answers when the page passes no callback. */
type Kind =
  | 'action' // chainable: returns the jQuery object
  | 'value' // yields a value: returns the element's promise
  | ((args: unknown[]) => boolean); // reads when this is true (e.g. first argument null), else sets

const readsWhenFirstIsNull = (args: unknown[]) => args[0] === null || args[0] === undefined;

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

const METHOD_NAMES = new Map(Object.keys(METHODS).map((name) => [name.toLowerCase(), name]));

/** jQuery data key under which the page's element keeps its <bim-viewer-3d>. */
export const DATA_KEY = 'bimViewer3d';

interface ViewerState {
  /** The page's element: the div (or the <bim-viewer-3d> itself). */
  host: HTMLElement;
  element: BimViewer3d;
}

const states = new WeakMap<Element, ViewerState>();
/** The state each viewer element belongs to: one relay per element, however it is addressed. */
const owners = new WeakMap<BimViewer3d, ViewerState>();
/** Every jQuery copy the plugin is installed on; events are re-triggered through each. */
const copies = new Set<JQueryStaticLike>();

const noop = () => undefined;

/** Reports an error thrown by a page callback without breaking the viewer's flow. */
function reportLater(error: unknown) {
  setTimeout(() => {
    throw error;
  });
}

function isViewerElement(element: Element): element is BimViewer3d {
  return element.localName === 'bim-viewer-3d';
}

/** The <bim-viewer-3d> behind a page element, if the plugin (or markup) made one. */
export function viewerElementOf(host: Element): BimViewer3d | undefined {
  const state = states.get(host);
  if (state) return state.element;
  if (isViewerElement(host)) return host;
  for (const child of Array.from(host.children)) if (isViewerElement(child)) return child;
  return undefined;
}

/** The jQuery copies the plugin is installed on (the widget plugin uses the same ones). */
export function installedJQueries(): JQueryStaticLike[] {
  return [...copies];
}

function fail(state: ViewerState, type: ViewerErrorType, message: string) {
  console.warn(`[viewer] ${message}`);
  emit(state.element, 'viewer.error', { type, message });
}

/** Re-dispatches a native viewer event as a jQuery event on the page's element. */
function relay(state: ViewerState, name: Viewer3dEventName, native: Event) {
  const detail = (native as CustomEvent).detail;
  const toArgs = VIEWER3D_EVENT_ARGS[name] as (d: unknown) => unknown[];
  for (const $ of copies) {
    // 'viewer.select' is type 'viewer' with namespace 'select' to jQuery, so handlers
    // bound with .bind('viewer.select') never see the native event: no double delivery.
    const event = $.Event(name, { detail });
    try {
      $(state.host).trigger(event, toArgs(detail));
    } catch (error) {
      reportLater(error);
    }
    if (event.isDefaultPrevented()) native.preventDefault();
  }
}

/** Creates (or adopts) the viewer element of a page element and wires its events. */
function ensureViewer(host: HTMLElement): ViewerState {
  let state = states.get(host) ?? (isViewerElement(host) ? owners.get(host) : undefined);
  if (state) return state; // (a <bim-viewer-3d> a div already owns answers for that div)
  let element = viewerElementOf(host);
  if (!element) {
    element = document.createElement('bim-viewer-3d');
    element.style.width = '100%';
    element.style.height = '100%';
    host.appendChild(element);
  }
  const owner = owners.get(element);
  if (owner) return owner;
  state = { host, element };
  states.set(host, state);
  owners.set(element, state);
  for (const name of Object.keys(VIEWER3D_EVENT_ARGS) as Viewer3dEventName[]) {
    const current = state;
    element.addEventListener(name, (event) => relay(current, name, event));
  }
  for (const $ of copies) $.data(host, DATA_KEY, element);
  return state;
}

/** `viewer(options)`: creates the viewer when needed and sets the given options. */
export function initViewer(host: HTMLElement, options: Record<string, unknown> = {}): BimViewer3d {
  const state = ensureViewer(host);
  const { values, problems } = coerceOptions(options);
  Object.assign(state.element, values);
  for (const problem of problems) fail(state, 'argument', `viewer(options): ${problem.message}`);
  return state.element;
}

export interface CallResult {
  /** True when the plugin should return `value` instead of the jQuery object. */
  returns: boolean;
  value?: Promise<unknown>;
}

/** Calls back with the settled value (`this` = the page's element); errors stay quiet. */
function deliver(state: ViewerState, promise: Promise<unknown>, callback?: (...a: unknown[]) => unknown) {
  promise.then((value) => {
    if (!callback) return;
    try {
      callback.call(state.host, value);
    } catch (error) {
      reportLater(error);
    }
  }, noop); // the element already fired viewer.error
}

/** An option used as a method: `viewer('fieldOfView', 80)`, `viewer('fieldOfView', null, cb)`. */
function callOption(state: ViewerState, prop: string, args: unknown[], callback?: (...a: unknown[]) => unknown): CallResult {
  const element = state.element as unknown as Record<string, unknown>;
  if (args[0] === null || args[0] === undefined) {
    const value = Promise.resolve(element[prop]);
    if (callback) {
      deliver(state, value, callback);
      return { returns: false };
    }
    return { returns: true, value };
  }
  const { value, error } = coerceOption(prop, args[0]);
  if (error) fail(state, 'argument', `viewer('${prop}'): ${error}`);
  else element[prop] = value;
  if (callback) deliver(state, Promise.resolve(element[prop]), callback);
  return { returns: false };
}

/** `viewer('method', ...args)` on one page element. */
export function callMethod(host: HTMLElement, name: string, input: unknown[]): CallResult {
  const state = ensureViewer(host);
  const args = input.slice();
  const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as (...a: unknown[]) => unknown) : undefined;

  const canonical = METHOD_NAMES.get(name.toLowerCase());
  if (!canonical) {
    const prop = optionName(name);
    if (prop) return callOption(state, prop, args, callback);
    fail(state, 'method', `viewer('${name}'): unknown method (names are matched in any case; see the 3D viewer methods of the API)`);
    return { returns: false };
  }
  const element = state.element as unknown as Record<string, unknown>;
  const method = element[canonical];
  if (typeof method !== 'function') {
    fail(state, 'method', `viewer('${canonical}') is part of the documented API but not available in this version of the viewer`);
    return { returns: false };
  }

  let promise: Promise<unknown>;
  try {
    // each/eachSelected: the page's callback runs per id with `this` = the page's element.
    promise = Promise.resolve(canonical === 'each' || canonical === 'eachSelected'
      ? (method as () => unknown).call(element)
      : (method as (...a: unknown[]) => unknown).apply(element, args));
  } catch (error) {
    fail(state, 'method', `viewer('${canonical}'): ${(error as Error)?.message ?? String(error)}`);
    return { returns: false };
  }
  promise.catch(noop); // rejections are reported as viewer.error by the element

  if (callback) {
    if (canonical === 'each' || canonical === 'eachSelected') {
      promise.then((ids) => {
        for (const id of ids as string[]) {
          try {
            if (callback.call(state.host, id) === false) break;
          } catch (error) {
            reportLater(error);
          }
        }
      }, noop);
    } else {
      deliver(state, promise, callback);
    }
    return { returns: false };
  }
  const kind = METHODS[canonical];
  const reads = kind === 'value' || (typeof kind === 'function' && kind(args));
  return reads ? { returns: true, value: promise } : { returns: false };
}

function isPlainOptions(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Defines `$.fn.viewer` on a jQuery (1.12 to 4.x). Safe to call again and on several
 * copies of jQuery: each copy gets the plugin, and viewer events reach the handlers
 * bound through any of them, once.
 */
export function installViewer3dPlugin(jQuery: { fn: object }): void {
  // Typed loosely so that any jQuery typing (e.g. @types/jquery's JQueryStatic) is accepted.
  if (!isJQuery(jQuery)) throw new TypeError('installViewer3dPlugin: expected a jQuery function');
  const $ = jQuery;
  copies.add($);

  function viewer(this: JQueryLike, ...args: unknown[]): unknown {
    const first = args[0];
    const hosts: HTMLElement[] = [];
    for (let i = 0; i < this.length; i++) if (this[i] && this[i].nodeType === 1) hosts.push(this[i]);

    if (first === undefined || first === null || isPlainOptions(first)) {
      for (const host of hosts) {
        initViewer(host, (first as Record<string, unknown>) ?? {});
        $.data(host, DATA_KEY, viewerElementOf(host));
      }
      return this;
    }
    if (typeof first !== 'string') {
      for (const host of hosts) {
        fail(ensureViewer(host), 'method', `viewer(${String(first)}): expected a method name (string) or an options object`);
      }
      return this;
    }
    let result: CallResult | undefined;
    for (const host of hosts) {
      const r = callMethod(host, first, args.slice(1));
      $.data(host, DATA_KEY, viewerElementOf(host));
      result ??= r;
    }
    // Reads answer for the first element, like jQuery getters; undefined on an empty set.
    if (hosts.length === 0) return METHOD_NAMES.has(first.toLowerCase()) && readsWithoutCallback(first, args.slice(1)) ? undefined : this;
    return result?.returns ? result.value : this;
  }
  $.fn.viewer = viewer;
}

function readsWithoutCallback(name: string, args: unknown[]): boolean {
  if (typeof args[args.length - 1] === 'function') return false;
  const kind = METHODS[METHOD_NAMES.get(name.toLowerCase()) ?? ''];
  return kind === 'value' || (typeof kind === 'function' && kind(args));
}
