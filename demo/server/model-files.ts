import { bimBcfFolder, bimBcfSetting, bimModelsFolder, bimModelsSetting } from '../../scripts/bim-models.mjs';
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
 *   GET /bcf/<path>            buildingSMART's BCF material from the BIM_BCF folder (default ../shared/bcf)
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
  return sharedFolder('/models/', bimModelsFolder(), bimModelsSetting(), 'BIM_MODELS', 'real models');
}

/** buildingSMART's BCF schemas and test cases (and their IFC models) from the BIM_BCF folder, at /bcf/<path>. */
export function bcfFiles(): Middleware {
  return sharedFolder('/bcf/', bimBcfFolder(), bimBcfSetting(), 'BIM_BCF', 'BCF test cases');
}

/** A folder of files written by others under `prefix`; when it is missing, a 404 that names the setting. */
function sharedFolder(prefix: string, folder: string | null, setting: string, variable: string, what: string): Middleware {
  if (folder) return serveDirectory(prefix, folder, `not in the ${variable} folder (${folder})`);
  return (req, res, next) => {
    if (!new URL(req.url ?? '/', 'http://localhost').pathname.startsWith(prefix)) return next();
    sendError(res, new ApiError(404, 20, 'NOT_FOUND', `No ${what} here: the ${variable} folder (${setting}) does not exist`));
  };
}
