import defaultWasmUrl from 'web-ifc/web-ifc.wasm?url';
import { workerName } from './worker-name.js';
import type { SchemaUrls } from './web-ifc-engine.js';

/**
 * Where the IFC and plan workers and web-ifc's wasm come from, when running from source or an
 * app's own bundler (vite). The script-tag and npm builds replace this module with
 * assets.dist.ts, which finds both beside the built file itself.
 */
let wasmOverride: string | null = null;

/** Points the viewer at another copy of web-ifc.wasm (absolute or page-relative URL). */
export function setWasmUrl(url: string | null): void {
  wasmOverride = url === null ? null : new URL(url, document.baseURI).href;
}

export function wasmUrl(): string {
  return wasmOverride ?? new URL(defaultWasmUrl, document.baseURI).href;
}

/** Where classic workers find web-ifc's schema tables: none here, the module workers import their own chunks. */
export function schemaUrls(): SchemaUrls | null {
  return null;
}

export function createIfcWorker(wasm: string): Worker {
  return new Worker(new URL('./ifc-worker.ts', import.meta.url), { type: 'module', name: workerName('bim-ifc', wasm) });
}

/** The plan worker of the 2D viewer (core/plan/plan-worker.ts). */
export function createPlanWorker(wasm: string): Worker {
  return new Worker(new URL('../plan/plan-worker.ts', import.meta.url), { type: 'module', name: workerName('bim-plan', wasm) });
}
