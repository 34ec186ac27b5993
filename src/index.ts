/**
 * npm entry (ESM). Importing it registers <bim-viewer-3d>.
 *
 *   import { BimViewer3d } from 'bim-viewers';
 *   const viewer = document.createElement('bim-viewer-3d');
 *   await viewer.loadUrl('/models/hello-wall.ifc');
 *
 * SPA pages that keep jQuery code: `installViewer3dPlugin($)` adds `$(el).viewer(...)`.
 */
export { BimViewer3d } from './elements/bim-viewer-3d.js';
export { VIEWER3D_EVENT_ARGS, type Viewer3dEventMap, type Viewer3dEventName } from './elements/events.js';
export * from './core/types.js';
export { installViewer3dPlugin } from './jquery/viewer-plugin.js';
export { setWasmUrl } from './core/ifc/assets.js';

import { VIEWER3D_EVENT_ARGS, type Viewer3dEventName } from './elements/events.js';

/** The names of the events <bim-viewer-3d> dispatches (`viewer.load`, `viewer.select`, ...). */
export const VIEWER3D_EVENTS = Object.freeze(Object.keys(VIEWER3D_EVENT_ARGS) as Viewer3dEventName[]);
