/**
 * A worker's name carries the wasm URL ("bim-ifc https://.../web-ifc.wasm"), so the worker
 * starts web-ifc as soon as its script has run. Its `init` message would come later: a
 * worker's first messages wait for the page's thread, which a page creating a viewer keeps
 * busy for a couple of hundred milliseconds (WebGL context, shaders).
 */
export function workerName(kind: string, wasmUrl: string): string {
  return `${kind} ${wasmUrl}`;
}

/** The wasm URL in a worker's name, or null (a URL's href has no spaces). */
function wasmUrlOfName(name: string): string | null {
  const space = name.indexOf(' ');
  return space < 0 ? null : name.slice(space + 1);
}

/** In a worker: starts `init` from the wasm URL in its name, if any; the `init` message joins it and reports a failure. */
export function initFromName(name: string, init: (wasmUrl: string) => Promise<unknown>): void {
  const wasm = wasmUrlOfName(name);
  if (wasm) init(wasm).catch(() => undefined);
}
