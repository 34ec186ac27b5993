// The benchmarks' models: the project's own generated buildings (samples/: the house, and
// offices of 2k, 20k and 200k products for the sizes), and the real files written by
// others in the BIM_MODELS folder (default ../shared/models), when it exists.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { bimModelsFolder } from '../scripts/bim-models.mjs';
import { sampleFile } from '../samples/files.js';
import { sampleOptions } from '../samples/variants.js';

export const GENERATED = ['house', 'office-2k', 'office-20k', 'office-200k'];

/**
 * @typedef {object} BenchModel
 * @property {string} name
 * @property {'generated' | 'real'} kind
 * @property {string} url where the bench's server serves it
 * @property {string} [file] its path (generated models get one from `prepare`)
 */

/** Every model: the generated ones first, then the real ones, smallest first. */
export function allModels() {
  const generated = GENERATED.map((name) => ({ name, kind: 'generated', url: `/samples/${name}.ifc` }));
  const folder = bimModelsFolder();
  const real = folder
    ? readdirSync(folder)
        .filter((f) => f.toLowerCase().endsWith('.ifc'))
        .map((f) => ({ name: f.replace(/\.ifc$/i, ''), kind: 'real', file: path.join(folder, f), url: `/models/${encodeURIComponent(f)}` }))
        .sort((a, b) => statSync(a.file).size - statSync(b.file).size)
    : [];
  return [...generated, ...real];
}

/** A model by name: any listed one, or any sample name the generator knows (office-50k...). */
export function findModel(name) {
  const bare = name.replace(/\.ifc$/i, '');
  const found = allModels().find((m) => m.name === bare);
  if (found) return found;
  if (sampleOptions(bare)) return { name: bare, kind: 'generated', url: `/samples/${bare}.ifc` };
  const folder = bimModelsFolder();
  throw new Error(`Unknown model ${name}; models: ${allModels().map((m) => m.name).join(', ')}${folder ? '' : ' (no BIM_MODELS folder: real models are not available)'}`);
}

/** Generates a generated model's file when needed; sets `file`. */
export function prepare(model, log = () => {}) {
  if (model.kind === 'generated' && !model.file) model.file = sampleFile(model.name, { log }).ifc;
  return model;
}

/** The file behind a bench URL (/samples/<name>.ifc or /models/<file>), or null. */
export function fileOfUrl(pathname) {
  const sample = /^\/samples\/([\w.-]+)\.ifc$/.exec(pathname);
  if (sample) return sampleOptions(sample[1]) ? sampleFile(sample[1]).ifc : null;
  const folder = bimModelsFolder();
  if (folder && pathname.startsWith('/models/')) {
    const file = path.join(folder, pathname.slice('/models/'.length));
    return file.startsWith(folder + path.sep) && existsSync(file) ? file : null;
  }
  return null;
}
