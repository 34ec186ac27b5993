import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { bimModelsFolder } from '../../scripts/bim-models.mjs';
import { processedOf } from '../../scripts/scene-cache.mjs';
import { sampleFile } from '../../samples/files.js';
import { sampleOptions } from '../../samples/variants.js';
import { ApiError, sendError, type Middleware } from './http.js';
import { sendFile } from './static-files.js';

/**
 * Scenes and plans of the demo's and the tests' IFC files (formats/scene.ts,
 * formats/plans.ts), converted on first use (scripts/scene-cache.mjs):
 *
 *   GET /scenes/samples/<name>.scene   the scene of /samples/<name>.ifc (.plans: its plans)
 *   GET /scenes/models/<name>.scene    the scene of /models/<name>.ifc (BIM_MODELS; .plans too)
 */
export function sceneFiles(): Middleware {
  return (req, res, next) => {
    const match = /^\/scenes\/(samples|models)\/([\w.-]+)\.(scene|plans)$/.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (!match || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const [, folder, name, kind] = match as unknown as [string, string, string, 'scene' | 'plans'];
    const ifc = ifcFile(folder, name);
    if (!ifc || !existsSync(ifc)) return sendError(res, new ApiError(404, 20, 'NOT_FOUND', `No IFC file /${folder}/${name}.ifc to make a scene of`));
    processedOf(ifc).then(
      (files) => sendFile(req.method!, files[kind], res, next, `application/vnd.platform.${kind}`),
      (error: Error) => sendError(res, new ApiError(422, 30, 'UNPROCESSABLE', `Could not convert /${folder}/${name}.ifc: ${error.message}`)),
    );
  };
}

/** The IFC file the model-file routes serve as `/<folder>/<name>.ifc`, or null. */
function ifcFile(folder: string, name: string): string | null {
  if (folder === 'samples') return sampleOptions(name) ? sampleFile(name).ifc : null;
  const models = bimModelsFolder();
  const file = models && resolve(models, `${name}.ifc`);
  return file && file.startsWith(resolve(models) + sep) ? file : null;
}
