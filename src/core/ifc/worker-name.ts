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
export function wasmUrlOfName(name: string): string | null {
  const space = name.indexOf(' ');
  return space < 0 ? null : name.slice(space + 1);
}
