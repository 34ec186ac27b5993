/**
 * dist/viewer.js: the widget's script-tag bundle (seed 002 "Browser library loading":
 * `{script_url}/1.0/js/viewer.js`). Pages do not include it themselves: the 3D bundle
 * loads it from beside itself on `platform.load(['viewer-ui'])` or when a `data-ui`
 * element is on the page (src/jquery/platform.ts). Including it by hand works too.
 *
 * Registers <bim-viewer-ui>, installs `$.fn.viewerUI` on the page's jQuery copies and
 * provides the `viewer-ui` module to the shared `platform`; the 3D bundle then starts
 * the widget on `[data-viewer="webgl"][data-ui]` elements (data-api.ts startWidgets).
 * The viewers themselves are not in this file.
 */
import '../elements/bim-viewer-ui.js';
import { installViewerUiPlugin } from '../jquery/viewer-ui-plugin.js';
import { isJQuery } from '../jquery/jquery-types.js';
import { definePlatform } from '../jquery/platform.js';

function ownUrl(): string {
  const script = document.currentScript as HTMLScriptElement | null;
  if (script?.src) return script.src;
  const found = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).reverse()
    .find((s) => /viewer(\.min)?\.js(\?|#|$)/.test(s.src));
  return found?.src ?? document.baseURI;
}

function installOnPageJQuery(): void {
  const global = window as unknown as Record<string, unknown>;
  for (const candidate of [global.jQuery, global.$]) {
    if (isJQuery(candidate)) installViewerUiPlugin(candidate);
  }
}

installOnPageJQuery();

const registry = definePlatform(ownUrl());
registry.provide('viewer-ui', { prepare: installOnPageJQuery });

window.addEventListener('load', installOnPageJQuery, { once: true });
