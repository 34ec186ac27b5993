// web-ifc on the test page: the reference the viewer's reading is checked against,
// independently of the workers.
import * as published from 'web-ifc';
import wasmUrl from 'web-ifc/web-ifc.wasm?url';

/** An initialised IfcAPI (web-ifc as published, or another build of it), quiet. */
export async function startWebIfc(IfcAPI: typeof published.IfcAPI = published.IfcAPI): Promise<published.IfcAPI> {
  const api = new IfcAPI();
  await api.Init((path: string) => (path.endsWith('.wasm') ? wasmUrl : path), true);
  api.SetLogLevel(published.LogLevel.LOG_LEVEL_OFF);
  return api;
}

/** A line's field without its wrapper ({ value }). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const val = (field: any) => (field && typeof field === 'object' && 'value' in field ? field.value : field);

/**
 * The express ids a stream plan visits, in its order: the elements of each type
 * GetIfcEntityList lists (by type number; openings and spaces left out), then the spaces.
 */
export function elementsInStreamOrder(api: published.IfcAPI, modelID: number): number[] {
  const skip = new Set([published.IFCOPENINGELEMENT, published.IFCOPENINGSTANDARDCASE, published.IFCSPACE]);
  const out: number[] = [];
  const add = (type: number) => {
    const ids = api.GetLineIDsWithType(modelID, type, false);
    for (let i = 0; i < ids.size(); i++) out.push(ids.get(i));
  };
  for (const type of api.GetIfcEntityList(modelID).filter((t) => api.IsIfcElement(t) && !skip.has(t)).sort((x, y) => x - y)) add(type);
  add(published.IFCSPACE);
  return out;
}
