import { IfcClient } from './ifc/ifc-client.js';
import { wasmUrl } from './ifc/assets.js';
import { warmUpInWorker, type WarmUpModel } from './warm-up.js';

/**
 * A viewer's IFC engine: a worker with web-ifc starting, and the worker's half of the
 * warm-up (warm-up.ts) under way from the moment it exists. `preload()` starts one before
 * any viewer does, so a page that knows a viewer is coming does not pay the worker's
 * start (its script, web-ifc's wasm) after it asks for a model; the first viewer takes
 * it, later viewers start their own.
 */
export class Engine {
  readonly client = new IfcClient();
  /** The wasm URL it started with: a page that sets another afterwards gets a new engine. */
  readonly wasmUrl = wasmUrl();
  /** Whether a real model wants the worker (the warm-up then stops); set by the viewer that takes it. */
  busy: () => boolean = () => false;
  readonly warmUp: Promise<WarmUpModel | null>;
  private failed = false;

  constructor() {
    this.client.ready.catch((error: Error) => {
      this.failed = true;
      if (this.client.disposed) return;
      // Said at once: an app whose build left the worker or the wasm out would otherwise learn it only from its first IFC file.
      console.warn(`bim-viewers: the IFC engine did not start (${error.message}); IFC files will not load until ifc-worker.js and web-ifc.wasm are served beside the package's code (docs/frameworks/)`);
    });
    this.warmUp = warmUpInWorker(this.client, () => this.busy());
  }

  /** Whether a viewer may still take it: started with today's wasm URL, and not failed. */
  get usable(): boolean {
    return !this.failed && this.wasmUrl === wasmUrl();
  }
}

let spare: Engine | null = null;

/** When the page's IFC engines start: see setEngineLoading. */
export type EngineLoading = 'eager' | 'lazy';
let loading: EngineLoading = 'eager';

/**
 * `'eager'` (the default): the IFC engine starts as the package or bundle is evaluated,
 * and each viewer starts one as it is created, so an IFC file does not wait for it.
 * `'lazy'`: neither; a viewer starts its engine when an IFC file is first to be read, so a
 * page that shows the platform's scenes fetches no worker and no web-ifc (a scene that
 * falls back to its IFC then waits for the engine's start). The script-tag bundle reads it
 * from its tag (`data-engine-loading="lazy"`); the npm entry takes it right after the import.
 * `preload()` starts an engine either way: the page asked for one.
 */
export function setEngineLoading(mode: EngineLoading): void {
  loading = mode;
}

export const engineLoading = (): EngineLoading => loading;

/** preload() unless engines start lazily: what the bundle and the npm entry do as they are evaluated. */
export function preloadIfEager(): void {
  if (loading === 'eager') void preload();
}

/** Whether preload() has an engine waiting for the next viewer. */
export const engineWaiting = (): boolean => Boolean(spare?.usable);

/**
 * Starts the IFC engine for the next viewer unless one is waiting: the worker, web-ifc's
 * wasm and the warm-up. Resolves to whether it started. The 3D bundle calls it as it is
 * evaluated and on `platform.load()`, the npm entry after the task that imports it (so a
 * `setWasmUrl` right after the import still counts).
 */
export function preload(): Promise<boolean> {
  if (typeof Worker === 'undefined') return Promise.resolve(false); // no workers here (server-side rendering, tests without a DOM)
  if (!spare?.usable) {
    spare?.client.dispose();
    spare = new Engine();
  }
  return spare.client.ready.then(() => true, () => false);
}

/** The preloaded engine when it is usable, else a new one. */
export function takeEngine(): Engine {
  const engine = spare?.usable ? spare : new Engine();
  if (spare && spare !== engine) spare.client.dispose();
  spare = null;
  return engine;
}
