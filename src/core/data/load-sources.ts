import { ViewerError } from '../types.js';
import { fetchBytes } from './fetch-bytes.js';
import { isValidBase } from './object-ids.js';

/** One model to load: where its IFC is, and what the manifest says about it. */
export interface ModelSource {
  url: string;
  id?: string;
  name?: string;
  revision?: number | string;
  objectIdBase?: string;
  /** Already fetched (a token URL that answered with IFC text). */
  bytes?: ArrayBuffer;
}

/** Media types of the formats this viewer reads, best first. */
const SUPPORTED_FORMATS = ['application/x-step', 'application/ifc', 'model/ifc', 'application/vnd.ifc'];

/**
 * Fetches a token URL and says what to load (DESIGN.md "Token URLs"): IFC text is one
 * model; a JSON answer must be a manifest whose models list formats with URLs, resolved
 * against the manifest's own URL.
 */
export async function loadSources(url: string): Promise<ModelSource[]> {
  const absolute = new URL(url, document.baseURI).href;
  const bytes = await fetchBytes(absolute);
  const head = new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 64))).replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('ISO-10303-21')) return [{ url: absolute, bytes }];
  if (head.startsWith('{') || head.startsWith('[')) return parseManifest(new TextDecoder().decode(bytes), absolute);
  if (bytes.byteLength === 0) throw new ViewerError('ifc', `${absolute} is empty: expected IFC text or a JSON manifest`);
  throw new ViewerError('ifc', `${absolute} is neither IFC (ISO-10303-21) nor a JSON manifest`);
}

export function parseManifest(text: string, baseUrl: string): ModelSource[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ViewerError('manifest', `The manifest at ${baseUrl} is not valid JSON: ${(e as Error).message}`);
  }
  const models = (json as { models?: unknown })?.models;
  if (!Array.isArray(models)) throw new ViewerError('manifest', `The JSON at ${baseUrl} is not a viewer manifest: it has no "models" array`);
  return models.map((model: Record<string, unknown>, i: number) => {
    const formats = Array.isArray(model?.formats) ? (model.formats as Record<string, unknown>[]) : [];
    const format = SUPPORTED_FORMATS.map((type) => formats.find((f) => f?.type === type && typeof f.url === 'string')).find(Boolean);
    if (!format) {
      throw new ViewerError('manifest', `Model ${i} of the manifest at ${baseUrl} offers no format this viewer reads (${SUPPORTED_FORMATS.join(', ')})`);
    }
    const base = model.objectIdBase === undefined ? undefined : String(model.objectIdBase);
    if (base !== undefined && !isValidBase(base)) {
      throw new ViewerError('manifest', `Model ${i} of the manifest at ${baseUrl} has an invalid objectIdBase "${base}"`);
    }
    return {
      url: new URL(String(format.url), baseUrl).href,
      id: model.id === undefined ? undefined : String(model.id),
      name: typeof model.name === 'string' ? model.name : undefined,
      revision: model.revision as number | string | undefined,
      objectIdBase: base,
    };
  });
}
