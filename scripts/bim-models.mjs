// @ts-check
/**
 * Where real IFC models written by others are read from: the folder `BIM_MODELS` names,
 * else `../shared/models` beside the project. The project carries none of them; tests,
 * benchmarks and the demo read them there at run time (with MANIFEST.tsv: each file's
 * source and licence).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The folder setting (absolute), whether or not it exists. */
export function bimModelsSetting() {
  return path.resolve(ROOT, process.env.BIM_MODELS || '../shared/models');
}

/** The models folder, or null when it does not exist. */
export function bimModelsFolder() {
  return existingFolder(bimModelsSetting());
}

/**
 * buildingSMART's BCF material (schemas, and test cases with the IFC models their
 * viewpoints name): the folder `BIM_BCF` names, else `../shared/bcf` beside the project.
 * Read at run time like the models, never copied.
 */
export function bimBcfSetting() {
  return path.resolve(ROOT, process.env.BIM_BCF || '../shared/bcf');
}

/** The BCF folder, or null when it does not exist. */
export function bimBcfFolder() {
  return existingFolder(bimBcfSetting());
}

/**
 * Real scans written by others (LAS, LAZ, COPC, E57; MANIFEST.tsv gives each one's source,
 * licence and contents): the folder `BIM_POINTCLOUDS` names, else `../shared/pointclouds`.
 */
export function bimPointcloudsSetting() {
  return path.resolve(ROOT, process.env.BIM_POINTCLOUDS || '../shared/pointclouds');
}

/** The point clouds folder, or null when it does not exist. */
export function bimPointcloudsFolder() {
  return existingFolder(bimPointcloudsSetting());
}

/** @param {string} folder */
function existingFolder(folder) {
  return existsSync(folder) && statSync(folder).isDirectory() ? folder : null;
}

/**
 * @typedef {object} RealModel
 * @property {string} file file name in the folder
 * @property {string} source where the file comes from
 * @property {string} licence
 */

/**
 * The IFC files of the folder, with what MANIFEST.tsv (tab-separated, a header row with
 * filename, source_repo:path@commit, license) says of them. Files the manifest
 * does not list are still models, of unknown source.
 * @param {string} folder
 * @returns {RealModel[]}
 */
export function readModelFolder(folder) {
  /** @type {Map<string, Record<string, string>>} */
  const rows = new Map();
  const manifest = path.join(folder, 'MANIFEST.tsv');
  if (existsSync(manifest)) {
    const [header, ...lines] = readFileSync(manifest, 'utf8').split(/\r?\n/).filter((l) => l.trim());
    const columns = header.split('\t');
    for (const line of lines) {
      const cells = line.split('\t');
      const row = Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
      if (row.filename) rows.set(row.filename, row);
    }
  }
  return readdirSync(folder)
    .filter((f) => f.toLowerCase().endsWith('.ifc'))
    .sort()
    .map((file) => {
      const row = rows.get(file) ?? {};
      const sourceKey = Object.keys(row).find((k) => k.startsWith('source'));
      return { file, source: (sourceKey && row[sourceKey]) || 'unknown source', licence: row.license || row.licence || 'licence unknown' };
    });
}
