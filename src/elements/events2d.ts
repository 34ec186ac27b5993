import type { Location3, Marker, ViewpointChange } from '../core/viewer2d/types.js';
import type { ViewerErrorType } from '../core/types.js';
import type { ElementListeners } from './events.js';

/**
 * The events of <bim-viewer-2d>, named as documented (seed 002 "Events", COMPAT.md).
 * Each is a bubbling, composed, cancelable CustomEvent; `detail` holds the documented
 * callback parameters by name. VIEWER2D_EVENT_ARGS gives their positional order for
 * jQuery handlers. `viewer2d.markerdrag` and `viewer2d.error` are additions: a dragged
 * marker reports its new place, and wrong calls say what was wrong.
 */
export interface Viewer2dEventMap {
  'viewer2d.click': { location: Location3; id?: string };
  'viewer2d.dblclick': { location: Location3; id?: string };
  'viewer2d.contextmenu': { location: Location3; id?: string };
  'viewer2d.load': { modelId: string };
  'viewer2d.loadstart': { modelId: string };
  'viewer2d.loadfail': { modelId: string; message: string };
  'viewer2d.unload': { modelId: string };
  'viewer2d.markerclick': { marker: Marker };
  'viewer2d.markerhover': { marker: Marker };
  'viewer2d.markerdrag': { marker: Marker };
  'viewer2d.select': { selected: string[] };
  'viewer2d.viewpoint': { viewpoint: ViewpointChange };
  'viewer2d.error': { type: ViewerErrorType; message: string };
}

export type Viewer2dEventName = keyof Viewer2dEventMap;

export type Viewer2dListeners = ElementListeners<Viewer2dEventMap>;

/** Positional arguments of each event for `$(el).bind(name, (event, ...args) => ...)`. */
export const VIEWER2D_EVENT_ARGS: { [K in Viewer2dEventName]: (d: Viewer2dEventMap[K]) => unknown[] } = {
  'viewer2d.click': (d) => [d.location, d.id],
  'viewer2d.dblclick': (d) => [d.location, d.id],
  'viewer2d.contextmenu': (d) => [d.location, d.id],
  'viewer2d.load': (d) => [d.modelId],
  'viewer2d.loadstart': (d) => [d.modelId],
  'viewer2d.loadfail': (d) => [d.modelId, d.message],
  'viewer2d.unload': (d) => [d.modelId],
  'viewer2d.markerclick': (d) => [d.marker],
  'viewer2d.markerhover': (d) => [d.marker],
  'viewer2d.markerdrag': (d) => [d.marker],
  'viewer2d.select': (d) => [d.selected],
  'viewer2d.viewpoint': (d) => [d.viewpoint],
  'viewer2d.error': (d) => [d.type, d.message],
};

/** Dispatches a documented event; returns false when a listener cancelled it. */
export function emit2d<K extends Viewer2dEventName>(target: EventTarget, name: K, detail: Viewer2dEventMap[K]): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: true }));
}
