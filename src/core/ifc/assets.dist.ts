/**
 * Where the IFC and plan workers and web-ifc's wasm come from in the built files
 * (dist/viewer3d.js, dist/viewer2d.js and dist/npm/index.js). scripts/build.mjs puts this
 * module in place of assets.ts: it has the same exports, and finds `ifc-worker.js`,
 * `plan-worker.js` and `web-ifc.wasm` beside the built file itself, so nothing is
 * inlined and a page may load the bundle from another origin.
 *
 * `__BIM_IIFE__` is defined by the build: true for the script-tag bundle, false for ESM.
 */
import { workerName } from './worker-name.js';
import type { SchemaUrls } from './web-ifc-engine.js';

declare const __BIM_IIFE__: boolean | undefined;

const IIFE = typeof __BIM_IIFE__ !== 'undefined' && __BIM_IIFE__;

/**
 * The script-tag bundle's own URL, read while the bundle runs (at module evaluation:
 * `document.currentScript` is null later). Empty in the ESM build, which uses
 * `import.meta.url` in the form bundlers recognise (`new URL('./file', import.meta.url)`),
 * so an app bundling the npm package gets both files emitted beside its own chunks.
 */
const SCRIPT_URL: string = IIFE ? currentScriptUrl() : '';

function currentScriptUrl(): string {
  if (typeof document === 'undefined') return typeof location !== 'undefined' ? location.href : '';
  const script = document.currentScript as HTMLScriptElement | null;
  if (script?.src) return script.src;
  const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).reverse();
  return scripts.find((s) => /viewer(3d|2d)(\.min)?(\.js)?(\?|#|$)/.test(s.src))?.src ?? document.baseURI;
}

const FILES = { worker: 'ifc-worker.js', plan: 'plan-worker.js', wasm: 'web-ifc.wasm', ifc2x3: 'web-ifc-ifc2x3.js', ifc4: 'web-ifc-ifc4.js', ifc4x3: 'web-ifc-ifc4x3.js' } as const;

function besideBundle(kind: keyof typeof FILES): string {
  if (IIFE) return new URL(FILES[kind], SCRIPT_URL).href;
  // The comment keeps our own build (vite) from resolving these against src/ (where
  // ./ifc-worker.js would find the .ts source and inline it); it is dropped from the
  // output, so an app's bundler sees the plain `new URL('./file', import.meta.url)`.
  if (kind === 'worker') return new URL(/* @vite-ignore */ './ifc-worker.js', import.meta.url).href;
  if (kind === 'plan') return new URL(/* @vite-ignore */ './plan-worker.js', import.meta.url).href;
  if (kind === 'ifc2x3') return new URL(/* @vite-ignore */ './web-ifc-ifc2x3.js', import.meta.url).href;
  if (kind === 'ifc4') return new URL(/* @vite-ignore */ './web-ifc-ifc4.js', import.meta.url).href;
  if (kind === 'ifc4x3') return new URL(/* @vite-ignore */ './web-ifc-ifc4x3.js', import.meta.url).href;
  return new URL(/* @vite-ignore */ './web-ifc.wasm', import.meta.url).href;
}

let wasmOverride: string | null = null;

/** Points the viewer at another copy of web-ifc.wasm (absolute or page-relative URL). */
export function setWasmUrl(url: string | null): void {
  wasmOverride = url === null ? null : new URL(url, document.baseURI).href;
}

export function wasmUrl(): string {
  return wasmOverride ?? besideBundle('wasm');
}

/** web-ifc's tables of each schema, which the classic workers load with importScripts when they open a model of it (scripts/web-ifc-lazy-schemas.mjs). */
export function schemaUrls(): SchemaUrls {
  return { 1: besideBundle('ifc2x3'), 2: besideBundle('ifc4'), 3: besideBundle('ifc4x3') };
}

/**
 * Starts the IFC worker (a classic script built as dist/ifc-worker.js). A Worker cannot
 * be constructed from a cross-origin URL, but a same-origin Blob worker may
 * importScripts one, so the bundle works from a CDN too. Served from the page's own
 * origin, the worker is started from its URL: a page whose Content Security Policy
 * allows `worker-src 'self'` but not `blob:` works (test/csp.test.ts).
 */
export function createIfcWorker(wasm: string): Worker {
  return classicWorker(besideBundle('worker'), workerName('bim-ifc', wasm));
}

/** Starts the 2D viewer's plan worker (dist/plan-worker.js), the same way. */
export function createPlanWorker(wasm: string): Worker {
  return classicWorker(besideBundle('plan'), workerName('bim-plan', wasm));
}

function classicWorker(url: string, name: string): Worker {
  if (new URL(url).origin === location.origin) return new Worker(url, { name });
  const bootstrap = `importScripts(${JSON.stringify(url)});`;
  const blobUrl = URL.createObjectURL(new Blob([bootstrap], { type: 'text/javascript' }));
  try {
    return new Worker(blobUrl, { name });
  } finally {
    // The worker holds its own reference to the blob once constructed; free ours later
    // rather than at once, for browsers that fetch the worker script lazily.
    setTimeout(() => URL.revokeObjectURL(blobUrl), 60_000);
  }
}
