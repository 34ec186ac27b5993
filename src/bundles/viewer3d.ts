/**
 * dist/viewer3d.js: the script-tag bundle of the 3D viewer (IIFE, everything inside).
 *
 *   <script src="jquery.js"></script>
 *   <script src=".../viewer3d.js"></script>
 *   <div data-viewer="webgl" data-url="..."></div>          (data API), or
 *   platform.setOnLoadCallback(fn); platform.load();         (script API)
 *
 * Registers <bim-viewer-3d>, installs `$.fn.viewer` on the page's jQuery (now, at DOM
 * ready, at window load and at platform.load(), so a jQuery included after this script,
 * or several copies of jQuery, are found), defines `window.platform` and starts the
 * `data-viewer="webgl"` elements on DOM ready. The IFC worker and web-ifc.wasm are
 * loaded from beside this file (src/core/ifc/assets.dist.ts), and start at once
 * (core/engine.ts preload), so the first viewer's model does not wait for them; with
 * `data-engine-loading="lazy"` on the tag, only when an IFC file is first to be read.
 */
import '../elements/bim-viewer-3d.js';
import { installViewer3dPlugin } from '../jquery/viewer-plugin.js';
import { isJQuery } from '../jquery/jquery-types.js';
import { pageWantsWidget, startDataApi, startWidgets } from '../jquery/data-api.js';
import { definePlatform, domReady } from '../jquery/platform.js';
import { preloadIfEager, setEngineLoading } from '../core/engine.js';

/** This script's tag, found while it runs (document.currentScript is null afterwards). */
function ownScript(): HTMLScriptElement | undefined {
  const script = document.currentScript as HTMLScriptElement | null;
  if (script?.src) return script;
  return Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).reverse()
    .find((s) => /viewer3d(\.min)?(\.js)?(\?|#|$)/.test(s.src));
}

const script = ownScript();
const baseUrl = script?.src ?? document.baseURI;
// `<script src=".../viewer3d.js" data-engine-loading="lazy">`: a page of scenes fetches no web-ifc (core/engine.ts).
if (script?.dataset.engineLoading === 'lazy') setEngineLoading('lazy');

/** Installs the plugin on every jQuery the page has right now (window.jQuery, window.$). */
function installOnPageJQuery(): void {
  const global = window as unknown as Record<string, unknown>;
  for (const candidate of [global.jQuery, global.$]) {
    if (isJQuery(candidate)) installViewer3dPlugin(candidate);
  }
}

installOnPageJQuery();

const registry = definePlatform(baseUrl);
// The IFC engine (worker, web-ifc, warm-up) starts now, for the first viewer of the page.
preloadIfEager();

registry.provide('viewer3d', {
  prepare: () => {
    installOnPageJQuery();
    preloadIfEager(); // platform.load(): a viewer is coming (a no-op while one is waiting)
  },
  afterLoad: () => { startWidgets(); },
});

void domReady().then(() => {
  installOnPageJQuery();
  startDataApi();
  if (pageWantsWidget()) {
    void registry.ensure('viewer-ui').then((ok) => {
      if (!ok) return;
      installOnPageJQuery();
      startWidgets();
    });
  }
});

window.addEventListener('load', installOnPageJQuery, { once: true });
