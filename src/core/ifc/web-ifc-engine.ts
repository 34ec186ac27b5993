import { IfcAPI, LogLevel } from 'web-ifc';

/**
 * web-ifc as the workers start it: single-threaded (the multi-threaded build stalls,
 * TOOLCHAIN.md), its wasm fetched from the URL the page gives, logging off.
 */
export async function createIfcApi(wasmUrl: string): Promise<IfcAPI> {
  const api = new IfcAPI();
  // web-ifc asks for the wasm by file name; answer with the URL the page gave us.
  await api.Init((path: string) => (path.endsWith('.wasm') ? wasmUrl : path), true);
  api.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
  return api;
}

/** Rejects what is not a whole STEP file before web-ifc sees it, with a message a person can act on. */
function checkStep(bytes: Uint8Array) {
  if (bytes.length === 0) throw new Error('The IFC file is empty');
  const head = new TextDecoder().decode(bytes.subarray(0, 64)).replace(/^\uFEFF/, '').trimStart();
  if (!head.startsWith('ISO-10303-21')) throw new Error('Not an IFC file: it does not start with "ISO-10303-21;"');
  const tail = new TextDecoder().decode(bytes.subarray(Math.max(0, bytes.length - 256))).trimEnd();
  if (!tail.endsWith('END-ISO-10303-21;')) throw new Error('The IFC file is truncated: it does not end with "END-ISO-10303-21;"');
}

/**
 * Opens a model (STEP checked first). web-ifc reads the whole file while it opens, but the
 * binding keeps the read callback, and with it the file's bytes, for as long as the
 * module lives: OpenModel(bytes) would hold every file ever opened. The callback here lets
 * go of the bytes once the model is open.
 */
export function openModel(api: IfcAPI, bytes: Uint8Array): number {
  checkStep(bytes);
  let source: Uint8Array | null = bytes;
  const read = (offset: number, size: number) => source?.subarray(offset, offset + size) ?? new Uint8Array(0);
  const modelID = api.OpenModelFromCallback(read, { COORDINATE_TO_ORIGIN: false });
  source = null;
  if (modelID < 0) throw new Error('web-ifc could not open the IFC file');
  return modelID;
}

/**
 * web-ifc's StreamMeshes (the given objects only). Called on the wasm module itself:
 * in 0.0.78 the IfcAPI wrapper passes a fourth argument the binding refuses ("called with
 * 4 arguments, expected 3"). The geometry is the same as StreamAllMeshes gives.
 */
export function streamMeshes(api: IfcAPI, modelID: number, ids: number[], onMesh: (mesh: any, index: number) => void): void { // eslint-disable-line @typescript-eslint/no-explicit-any
  (api as unknown as { wasmModule: { StreamMeshes(modelID: number, ids: number[], cb: typeof onMesh): void } }).wasmModule.StreamMeshes(modelID, ids, onMesh);
}
