import { bimModelsFolder, bimModelsSetting } from '../../scripts/bim-models.mjs';
import { sampleFile } from '../../samples/files.js';
import { sampleOptions } from '../../samples/variants.js';
import { ApiError, sendError, type Middleware } from './http.js';
import { sendFile, serveDirectory } from './static-files.js';

/**
 * The model files of the demo and the tests:
 *
 *   GET /samples/<name>.ifc    a sample building (samples/variants.js), generated on first use
 *   GET /samples/<name>.json   its truth: counts, GlobalIds, names, storeys, spaces, boxes
 *   GET /models/<file>         a real model from the BIM_MODELS folder (default ../shared/models)
 *
 * A name the generator does not know, or a file the folder lacks, is a 404 with a JSON
 * error that says why.
 */
export function sampleFiles(): Middleware {
  return (req, res, next) => {
    const match = /^\/samples\/([\w.-]+)\.(ifc|json)$/.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (!match || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const [, name, extension] = match;
    if (!sampleOptions(name)) return sendError(res, new ApiError(404, 20, 'NOT_FOUND', `No sample building called ${name} (samples/variants.js lists them)`));
    const { ifc, truth } = sampleFile(name);
    sendFile(req.method, extension === 'ifc' ? ifc : truth, res, next);
  };
}

export function realModelFiles(): Middleware {
  const folder = bimModelsFolder();
  if (folder) return serveDirectory('/models/', folder, `not in the BIM_MODELS folder (${folder})`);
  return (req, res, next) => {
    if (!new URL(req.url ?? '/', 'http://localhost').pathname.startsWith('/models/')) return next();
    sendError(res, new ApiError(404, 20, 'NOT_FOUND', `No real models here: the BIM_MODELS folder (${bimModelsSetting()}) does not exist`));
  };
}
