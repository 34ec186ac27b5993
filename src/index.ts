/**
 * npm entry (ESM). Importing it registers <bim-viewer-3d>, <bim-viewer-2d> and <bim-viewer-ui>.
 *
 *   import { BimViewer3d } from 'bim-viewers';
 *   const viewer = document.createElement('bim-viewer-3d');
 *   await viewer.loadUrl('/models/hello-wall.ifc');
 *
 * SPA pages that keep jQuery code: `installViewer3dPlugin($)` adds `$(el).viewer(...)`,
 * `installViewer2dPlugin($)` adds `$(el).viewer2d(...)`, `installViewerUiPlugin($)` adds
 * `$(el).viewerUI(...)` (the widget).
 *
 * React, Vue and Angular: `bim-viewers/react` (components and JSX types), `bim-viewers/vue`
 * (typed global components), Angular needs nothing more (docs/frameworks/).
 *
 * Importing it also starts the IFC engine (a worker with web-ifc, warmed up) for the first
 * viewer; `preload()` says when it is ready. `setEngineLoading('lazy')` right after the
 * import: no engine until an IFC file is to be read (pages of the platform's scenes).
 */
export { BimViewer3d } from './elements/bim-viewer-3d.js';
export { VIEWER3D_EVENT_ARGS, type CustomEvents, type ElementListeners, type ElementProperties, type Viewer3dEventMap, type Viewer3dEventName, type Viewer3dListeners } from './elements/events.js';
export * from './core/types.js';
export type * from './core/bcf/viewpoint-types.js';
export { installViewer3dPlugin } from './jquery/viewer-plugin.js';
export { BimViewer2d } from './elements/bim-viewer-2d.js';
export { VIEWER2D_EVENT_ARGS, type Viewer2dEventMap, type Viewer2dEventName, type Viewer2dListeners } from './elements/events2d.js';
export type * from './core/viewer2d/types.js';
export { installViewer2dPlugin } from './jquery/viewer2d-plugin.js';
export { setWasmUrl } from './core/ifc/assets.js';
export { preload, setEngineLoading, type EngineLoading } from './core/engine.js';
export { BimViewerUi } from './elements/bim-viewer-ui.js';
export { DEFAULT_TRANSLATIONS, type Translations } from './elements/ui/translations.js';
export { installViewerUiPlugin } from './jquery/viewer-ui-plugin.js';

import { VIEWER3D_EVENT_ARGS, type Viewer3dEventName } from './elements/events.js';
import { preloadIfEager } from './core/engine.js';
import { VIEWER2D_EVENT_ARGS as ARGS_2D, type Viewer2dEventName as Name2d } from './elements/events2d.js';

/** The names of the events <bim-viewer-3d> dispatches (`viewer.load`, `viewer.select`, ...). */
export const VIEWER3D_EVENTS = Object.freeze(Object.keys(VIEWER3D_EVENT_ARGS) as Viewer3dEventName[]);

/** The names of the events <bim-viewer-2d> dispatches (`viewer2d.click`, `viewer2d.load`, ...). */
export const VIEWER2D_EVENTS = Object.freeze(Object.keys(ARGS_2D) as Name2d[]);

// The IFC engine starts as the package is evaluated (after this task, so a setWasmUrl or
// setEngineLoading call right after the import still counts): the first viewer's model
// does not wait for it.
if (typeof window !== 'undefined') setTimeout(preloadIfEager, 0);
