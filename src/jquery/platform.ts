/**
 * The `platform` loader global of the script-tag bundles (seed 002 "Browser library
 * loading", COMPAT.md "Loading"):
 *
 *   platform.setOnLoadCallback(fn); platform.load(['viewer-ui']);
 *   platform.setOnViewer2dLoadCallback(fn); platform.loadViewer2d();
 *
 * Every bundle (3D, 2D, widget) shares one platform object: the first bundle on the
 * page creates it and the others `provide` their module to it (through a registry under
 * a global symbol, so separately built bundles find each other). A module that is asked
 * for but not on the page is loaded with a script tag from beside the first bundle's
 * own URL. The functions are closures: a page may alias the object
 * (`window.bimsync = platform`) or call them detached.
 */

export type LoadCallback = () => void;

export interface Platform {
  /** Loads the 3D viewer and the optional `modules` (`'viewer-ui'`), then calls the load callback. */
  load(modules?: string[] | string): Promise<void>;
  /** Keeps one callback (a later call replaces it); runs it at once when loading already finished. */
  setOnLoadCallback(callback: LoadCallback): void;
  /** Loads the 2D viewer, then calls the 2D load callback. */
  loadViewer2d(): Promise<void>;
  /** As setOnLoadCallback, for loadViewer2d. */
  setOnViewer2dLoadCallback(callback: LoadCallback): void;
}

/** What a bundle contributes to the platform. */
export interface PlatformModule {
  /** Runs (after DOM ready) each time a load asks for this module; e.g. installs jQuery plugins. */
  prepare?(): void;
  /** Runs after all modules of a load() are there, before the callback; e.g. starts widgets. */
  afterLoad?(): void;
}

/** Module names pages use, and the file each lives in (beside the 3D bundle). */
export const MODULE_FILES: Record<string, string> = {
  viewer3d: 'viewer3d.js',
  viewer2d: 'viewer2d.js',
  'viewer-ui': 'viewer.js',
};

export interface PlatformRegistry {
  readonly platform: Platform;
  /** URL of the bundle that created the platform; modules are loaded beside it. */
  readonly baseUrl: string;
  /** A bundle announces its module (`'viewer3d'`, `'viewer2d'`, `'viewer-ui'`). */
  provide(name: string, module?: PlatformModule): void;
  has(name: string): boolean;
  /** Makes sure a module is there (loading its file when not); false when it cannot be. */
  ensure(name: string): Promise<boolean>;
}

const REGISTRY = Symbol.for('bim-viewers.platform');

type Global = Record<string | symbol, unknown>;

/** Resolves when the DOM is parsed (at once when it already is). */
export function domReady(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}

/** Runs a page callback; an exception is reported as uncaught but breaks nothing here. */
function runCallback(callback: LoadCallback) {
  try {
    callback();
  } catch (error) {
    setTimeout(() => {
      throw error;
    });
  }
}

const scripts = new Map<string, Promise<boolean>>();

/** Adds a classic script once; resolves true when it ran, false when it failed to load. */
function loadScript(url: string): Promise<boolean> {
  let loading = scripts.get(url);
  if (!loading) {
    loading = new Promise<boolean>((resolve) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = false;
      script.onload = () => resolve(true);
      script.onerror = () => resolve(false);
      (document.head ?? document.documentElement).appendChild(script);
    });
    scripts.set(url, loading);
  }
  return loading;
}

function normaliseModules(modules: unknown): string[] {
  if (modules === undefined || modules === null) return [];
  const list = Array.isArray(modules) ? modules : [modules];
  return list.filter((m): m is string => typeof m === 'string' && m !== '');
}

function createRegistry(baseUrl: string): PlatformRegistry {
  const modules = new Map<string, PlatformModule>();
  const waiting = new Map<string, Promise<boolean>>();

  function has(name: string) {
    return modules.has(name);
  }

  function provide(name: string, module: PlatformModule = {}) {
    modules.set(name, module);
  }

  function ensure(name: string): Promise<boolean> {
    if (modules.has(name)) return Promise.resolve(true);
    let pending = waiting.get(name);
    if (!pending) {
      const file = MODULE_FILES[name];
      if (!file) {
        console.error(`[platform] unknown module "${name}"; known modules: ${Object.keys(MODULE_FILES).join(', ')}`);
        return Promise.resolve(false);
      }
      const url = new URL(file, baseUrl).href;
      pending = loadScript(url).then((ran) => {
        if (modules.has(name)) return true;
        console.error(ran
          ? `[platform] ${url} was loaded but did not provide the "${name}" module (is it the right file?)`
          : `[platform] could not load the "${name}" module from ${url} (is ${file} deployed beside the viewer script?)`);
        waiting.delete(name); // a later load() may try again
        return false;
      });
      waiting.set(name, pending);
    }
    return pending;
  }

  /** One load channel (3D or 2D): one kept callback, fired when a load has finished. */
  function channel(main: string, extra: (requested: string[]) => string[]) {
    let done = false;
    let callback: LoadCallback | undefined;

    function setCallback(fn: LoadCallback) {
      if (typeof fn !== 'function') {
        console.error('[platform] the load callback must be a function');
        return;
      }
      if (done) runCallback(fn);
      else callback = fn;
    }

    async function load(requested?: unknown): Promise<void> {
      await domReady();
      const names = [main, ...extra(normaliseModules(requested))].filter((n, i, all) => all.indexOf(n) === i);
      const ok = await Promise.all(names.map((name) => ensure(name)));
      for (const name of names) {
        if (!modules.has(name)) continue;
        try {
          modules.get(name)?.prepare?.();
        } catch (error) {
          console.error(`[platform] preparing "${name}" failed`, error);
        }
      }
      for (const name of names) {
        try {
          modules.get(name)?.afterLoad?.();
        } catch (error) {
          console.error(`[platform] starting "${name}" failed`, error);
        }
      }
      // Without its main module a channel has nothing to offer: say so, call nothing.
      if (!ok[0]) return;
      done = true;
      const fn = callback;
      callback = undefined;
      if (fn) runCallback(fn);
    }

    return {
      setCallback,
      load: (requested?: unknown) => load(requested).catch((error) => console.error('[platform] load failed', error)),
    };
  }

  const viewer3d = channel('viewer3d', (requested) => {
    const wanted = requested.slice();
    if (document.querySelector('[data-ui]') && !wanted.includes('viewer-ui')) wanted.push('viewer-ui');
    return wanted;
  });
  const viewer2d = channel('viewer2d', () => []);

  const platform: Platform = {
    load: (modules?: string[] | string) => viewer3d.load(modules),
    setOnLoadCallback: (callback: LoadCallback) => viewer3d.setCallback(callback),
    loadViewer2d: () => viewer2d.load(),
    setOnViewer2dLoadCallback: (callback: LoadCallback) => viewer2d.setCallback(callback),
  };

  return { platform, baseUrl, provide, has, ensure };
}

/**
 * The page's platform registry: the existing one (another bundle made it) or a new one
 * whose modules load from beside `baseUrl`. Defines `window.platform` when absent.
 */
export function definePlatform(baseUrl: string): PlatformRegistry {
  const global = window as unknown as Global;
  let registry = global[REGISTRY] as PlatformRegistry | undefined;
  if (!registry) {
    registry = createRegistry(baseUrl);
    Object.defineProperty(window, REGISTRY, { value: registry, configurable: true });
  }
  const existing = global.platform;
  if (existing !== registry.platform) {
    if (existing && typeof existing === 'object') {
      // Another library's `platform` (e.g. platform.js): add our functions to it.
      Object.assign(existing, registry.platform);
    } else {
      global.platform = registry.platform;
    }
  }
  return registry;
}
