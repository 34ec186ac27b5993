import { ViewerError } from '../types.js';
import { fetchBytes } from './fetch-bytes.js';
import { isValidBase } from './object-ids.js';
import { SCENE_MAGIC, SCENE_MEDIA_TYPE } from '../formats/scene.js';
import { PLANS_MAGIC, PLANS_MEDIA_TYPE } from '../formats/plans.js';
import { POINTCLOUD_MAGIC, POINTCLOUD_MEDIA_TYPE } from '../formats/pointcloud.js';

/** One model to load: where its file is, and what the manifest says about it. */
export interface ModelSource {
  url: string;
  /** The file's format when the manifest says it; otherwise its first bytes tell. */
  format?: 'ifc' | 'scene' | 'plans' | 'pointcloud';
  /** A scene's size unpacked (the manifest's `size`), for progress. */
  size?: number;
  /** Product records with attributes and property sets, by object ids (the manifest's `products`; a scene has none of its own). */
  productsUrl?: string;
  /** The same revision in another format, loaded instead when this one fails (a scene that 404s). */
  fallback?: ModelSource;
  id?: string;
  name?: string;
  revision?: number | string;
  objectIdBase?: string;
  /** Already fetched (a token URL that answered with IFC text). */
  bytes?: ArrayBuffer;
}

/** Media types of IFC text. */
export const IFC_FORMATS = ['application/x-step', 'application/ifc', 'model/ifc', 'application/vnd.ifc'];
/** What the 3D viewer reads, best first (a model offering a point cloud is a point cloud). */
export const SCENE_OR_IFC = [POINTCLOUD_MEDIA_TYPE, SCENE_MEDIA_TYPE, ...IFC_FORMATS];
/** What the 2D viewer reads, best first. */
export const PLANS_OR_IFC = [PLANS_MEDIA_TYPE, ...IFC_FORMATS];

/**
 * Fetches a token URL and says what to load (DESIGN.md "Token URLs"): IFC text is one
 * model; a JSON answer must be a manifest whose models list formats with URLs, resolved
 * against the manifest's own URL.
 */
export async function loadSources(url: string, formats: readonly string[] = IFC_FORMATS): Promise<ModelSource[]> {
  const absolute = new URL(url, document.baseURI).href;
  const bytes = await fetchBytes(absolute);
  const head = new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 64))).replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('ISO-10303-21')) return [{ url: absolute, bytes, format: 'ifc' }];
  if (head.startsWith(SCENE_MAGIC)) return [{ url: absolute, bytes, format: 'scene' }];
  if (head.startsWith(PLANS_MAGIC)) return [{ url: absolute, bytes, format: 'plans' }];
  if (head.startsWith(POINTCLOUD_MAGIC)) return [{ url: absolute, format: 'pointcloud' }];
  if (head.startsWith('{') || head.startsWith('[')) return parseManifest(new TextDecoder().decode(bytes), absolute, formats);
  if (bytes.byteLength === 0) throw new ViewerError('ifc', `${absolute} is empty: expected IFC text or a JSON manifest`);
  throw new ViewerError('ifc', `${absolute} is neither IFC (ISO-10303-21), a scene (BIMSCENE), plans (BIMPLANS) nor a JSON manifest`);
}

/**
 * Loads a source with `load`; when that fails and the manifest offered the same revision
 * in another format (`fallback`), loads that instead and says why on the console, as
 * `who`. A wrong argument is the caller's mistake in any format: it is not retried.
 */
export async function withFallback<T>(who: string, source: ModelSource, load: (source: ModelSource) => Promise<T>): Promise<T> {
  try {
    return await load(source);
  } catch (e) {
    if (!source.fallback || (e instanceof ViewerError && e.type === 'argument')) throw e;
    console.warn(`${who}: loading the ${source.fallback.format} format instead, because ${(e as Error).message}`);
    return load(source.fallback);
  }
}

/** The models of a manifest, each in the first of `supported` it offers (with an IFC to fall back on). */
export function parseManifest(text: string, baseUrl: string, supported: readonly string[] = IFC_FORMATS): ModelSource[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ViewerError('manifest', `The manifest at ${baseUrl} is not valid JSON: ${(e as Error).message}`);
  }
  const models = (json as { models?: unknown })?.models;
  if (!Array.isArray(models)) throw new ViewerError('manifest', `The JSON at ${baseUrl} is not a viewer manifest: it has no "models" array`);
  const sources: ModelSource[] = [];
  models.forEach((model: Record<string, unknown>, i: number) => {
    const formats = (Array.isArray(model?.formats) ? (model.formats as Record<string, unknown>[]) : []).filter((f) => typeof f?.url === 'string');
    const offered = (types: readonly string[]) => types.map((type) => formats.find((f) => f.type === type)).find(Boolean);
    const format = offered(supported);
    // A point cloud in a viewer that draws none (the 2D viewer has no plans of it): left out.
    const cloud = model?.modelType === 'point-cloud' || formats.some((f) => f.type === POINTCLOUD_MEDIA_TYPE);
    if (cloud && !supported.includes(POINTCLOUD_MEDIA_TYPE) && (!format || model?.modelType === 'point-cloud')) return;
    if (!format) {
      throw new ViewerError('manifest', `Model ${i} of the manifest at ${baseUrl} offers no format this viewer reads (${supported.join(', ')})`);
    }
    const base = model.objectIdBase === undefined ? undefined : String(model.objectIdBase);
    if (base !== undefined && !isValidBase(base)) {
      throw new ViewerError('manifest', `Model ${i} of the manifest at ${baseUrl} has an invalid objectIdBase "${base}"`);
    }
    const ifc = offered(IFC_FORMATS);
    const source = (f: Record<string, unknown>): ModelSource => ({
      url: new URL(String(f.url), baseUrl).href,
      format: f.type === SCENE_MEDIA_TYPE ? 'scene' : f.type === PLANS_MEDIA_TYPE ? 'plans' : f.type === POINTCLOUD_MEDIA_TYPE ? 'pointcloud' : 'ifc',
      size: typeof f.size === 'number' ? f.size : undefined,
      productsUrl: typeof model.products === 'string' ? new URL(model.products, baseUrl).href : undefined,
      id: model.id === undefined ? undefined : String(model.id),
      name: typeof model.name === 'string' ? model.name : undefined,
      revision: model.revision as number | string | undefined,
      objectIdBase: base,
    });
    sources.push({ ...source(format), fallback: ifc && ifc !== format ? source(ifc) : undefined });
  });
  return sources;
}
