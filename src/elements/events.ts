import type { LitElement } from 'lit';
import type { ClippingPlane, Intersection, StreamingProgress, Viewpoint, ViewerErrorType } from '../core/types.js';

/**
 * The events of <bim-viewer-3d>, named as documented (seed 002). Each is a bubbling,
 * composed, cancelable CustomEvent; `detail` holds the documented callback parameters
 * by name. VIEWER3D_EVENT_ARGS gives their positional order for jQuery handlers.
 */
export interface Viewer3dEventMap {
  'viewer.load': { modelIds: string[] };
  'viewer.error': { type: ViewerErrorType; message: string };
  'viewer.select': { selected: string[] };
  'viewer.viewpoint': { viewpoint: Viewpoint };
  'viewer.click': { objectId?: string; intersects?: Intersection };
  'viewer.doubleclick': { objectId?: string; intersects?: Intersection };
  'viewer.contextmenu': { objectId?: string; intersects?: Intersection };
  'viewer.streamingprogress': { progress: StreamingProgress };
  'viewer.clippingplanes': { planes: ClippingPlane[] };
}

export type Viewer3dEventName = keyof Viewer3dEventMap;

/** Positional arguments of each event for `$(el).bind(name, (event, ...args) => ...)`. */
export const VIEWER3D_EVENT_ARGS: { [K in Viewer3dEventName]: (d: Viewer3dEventMap[K]) => unknown[] } = {
  'viewer.load': () => [],
  'viewer.error': (d) => [d.type, d.message],
  'viewer.select': (d) => [d.selected],
  'viewer.viewpoint': (d) => [d.viewpoint],
  'viewer.click': (d) => [d.objectId, d.intersects],
  'viewer.doubleclick': (d) => [d.objectId, d.intersects],
  'viewer.contextmenu': (d) => [d.objectId, d.intersects],
  'viewer.streamingprogress': (d) => [d.progress],
  'viewer.clippingplanes': (d) => [d.planes],
};

/** An element's events as the CustomEvents listeners get, for `HTMLElementEventMap`. */
export type CustomEvents<M> = { [K in keyof M]: CustomEvent<M[K]> };

/**
 * Listeners by event name, each typed from an element's event map: for Vue's `v-on`
 * object (`v-on="{ 'viewer.select': onSelect }"`: a template cannot spell a dotted name
 * after `@`) and for code that adds several listeners at once.
 */
export type ElementListeners<M> = { [K in keyof M]?: (event: CustomEvent<M[K]>) => void };

export type Viewer3dListeners = ElementListeners<Viewer3dEventMap>;

/** An element's own settable fields, optional (not methods, not LitElement's or HTMLElement's): the framework typings' props. */
export type ElementProperties<E> = {
  [K in Exclude<keyof E, keyof LitElement> as E[K] extends (...args: never[]) => unknown ? never : K]?: E[K];
};

/** Dispatches a documented event; returns false when a listener cancelled it. */
export function emit<K extends Viewer3dEventName>(target: EventTarget, name: K, detail: Viewer3dEventMap[K]): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: true }));
}
