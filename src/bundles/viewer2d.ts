/**
 * dist/viewer2d.js: the script-tag bundle of the 2D viewer (IIFE, everything inside).
 *
 *   <script src="jquery.js"></script>
 *   <script src=".../viewer2d.js"></script>
 *   <div data-viewer2d="svg" data-url="..."></div>                 (data API), or
 *   platform.setOnViewer2dLoadCallback(fn); platform.loadViewer2d(); (script API)
 *
 * Registers <bim-viewer-2d>, installs `$.fn.viewer2d` on the page's jQuery (now, at DOM
 * ready, at window load and at platform.loadViewer2d(), so a jQuery included after this
 * script is found), provides the `viewer2d` module to the shared `platform` (creating it
 * when this is the first bundle on the page) and starts the `data-viewer2d="svg"`
 * elements on DOM ready. The plan worker and web-ifc.wasm are loaded from beside this
 * file (src/core/ifc/assets.dist.ts).
 */
import '../elements/bim-viewer-2d.js';
import { installViewer2dPlugin } from '../jquery/viewer2d-plugin.js';
import { isJQuery } from '../jquery/jquery-types.js';
import { startDataApi2d } from '../jquery/data-api2d.js';
import { definePlatform, domReady } from '../jquery/platform.js';

/** This script's URL, read while it runs (document.currentScript is null afterwards). */
function ownUrl(): string {
  const script = document.currentScript as HTMLScriptElement | null;
  if (script?.src) return script.src;
  const found = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).reverse()
    .find((s) => /viewer2d(\.min)?(\.js)?(\?|#|$)/.test(s.src));
  return found?.src ?? document.baseURI;
}

/** Installs the plugin on every jQuery the page has right now (window.jQuery, window.$). */
function installOnPageJQuery(): void {
  const global = window as unknown as Record<string, unknown>;
  for (const candidate of [global.jQuery, global.$]) {
    if (isJQuery(candidate)) installViewer2dPlugin(candidate);
  }
}

installOnPageJQuery();

const registry = definePlatform(ownUrl());
registry.provide('viewer2d', { prepare: installOnPageJQuery });

void domReady().then(() => {
  installOnPageJQuery();
  startDataApi2d();
});

window.addEventListener('load', installOnPageJQuery, { once: true });
