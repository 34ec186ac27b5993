import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { bimModelsFolder } from '../../scripts/bim-models.mjs';
import { processedOf } from '../../scripts/scene-cache.mjs';
import { sampleFile } from '../../samples/files.js';
import { sampleOptions } from '../../samples/variants.js';
import { expressIdOf, isValidBase } from '../../src/core/data/object-ids.js';
import { ApiError, badRequest, sendError, sendJson, type Middleware } from './http.js';
import { productRecords } from './product-records.js';
import { sendFile } from './static-files.js';

/** Viewers on other origins read product records, as they read the platform's. */
const CORS = { 'Access-Control-Allow-Origin': '*' };

/**
 * Scenes and plans of the demo's and the tests' IFC files (formats/scene.ts,
 * formats/plans.ts), converted on first use (scripts/scene-cache.mjs):
 *
 *   GET /scenes/samples/<name>.scene   the scene of /samples/<name>.ifc (.plans: its plans)
 *   GET /scenes/models/<name>.scene    the scene of /models/<name>.ifc (BIM_MODELS; .plans too)
 *   GET /scenes/<folder>/<name>.products?base=&ids=[&attributes=true][&definedBy=true]
 *       the product records of at most 100 object ids (on the model's objectIdBase `base`),
 *       as the platform's products route answers a viewer showing a scene
 */
export function sceneFiles(): Middleware {
  return (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/scenes\/(samples|models)\/([\w.-]+)\.(scene|plans|products)$/.exec(url.pathname);
    if (!match || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const [, folder, name, kind] = match as unknown as [string, string, string, 'scene' | 'plans' | 'products'];
    const ifc = ifcFile(folder, name);
    if (!ifc || !existsSync(ifc)) return sendError(res, new ApiError(404, 20, 'NOT_FOUND', `No IFC file /${folder}/${name}.ifc to make a scene of`));
    if (kind === 'products') {
      productsOf(ifc, url.searchParams).then(
        (records) => sendJson(res, 200, records, CORS),
        (error: Error) => sendError(res, error instanceof ApiError ? error : new ApiError(422, 30, 'UNPROCESSABLE', `Could not read /${folder}/${name}.ifc: ${error.message}`), CORS),
      );
      return;
    }
    processedOf(ifc).then(
      (files) => sendFile(req.method!, files[kind], res, next, `application/vnd.platform.${kind}`),
      (error: Error) => sendError(res, new ApiError(422, 30, 'UNPROCESSABLE', `Could not convert /${folder}/${name}.ifc: ${error.message}`)),
    );
  };
}

async function productsOf(ifc: string, query: URLSearchParams) {
  const base = query.get('base') ?? '';
  const ids = query.get('ids') ?? '';
  if (!isValidBase(base)) throw badRequest('"base" must be the model\'s objectIdBase, a decimal integer');
  if (!/^\d{1,20}(,\d{1,20}){0,99}$/.test(ids)) throw badRequest('"ids" must be 1 to 100 object ids, comma-separated');
  const expressIds = ids.split(',').map((id) => expressIdOf(base, id)).filter((e) => e !== null);
  const records = await productRecords(ifc, base, expressIds, { attributes: query.get('attributes') === 'true', definedBy: query.get('definedBy') === 'true' });
  return records.filter((p) => p !== null);
}

/** The IFC file the model-file routes serve as `/<folder>/<name>.ifc`, or null. */
function ifcFile(folder: string, name: string): string | null {
  if (folder === 'samples') return sampleOptions(name) ? sampleFile(name).ifc : null;
  const models = bimModelsFolder();
  const file = models && resolve(models, `${name}.ifc`);
  return file && file.startsWith(resolve(models) + sep) ? file : null;
}
