// @ts-check
/**
 * Sample files on disk (node only): `<name>.ifc` and its truth `<name>.json`, and scans of
 * them (`<name>.scan.las`, `<name>.scan-5m.laz`, `<name>.scan-20m.e57`...), written once
 * into a cache folder and rewritten when the generator's source changes.
 *
 *   const { ifc, truth } = sampleFile('office-20k');
 *   const las = await sampleScan('office-200k.scan-20m.las');
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBuilding } from './building.js';
import { parseScanName, writeScanE57, writeScanLas, writeScanLaz } from './scan-files.js';
import { sampleOptions } from './variants.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const CACHE = join(HERE, '..', 'node_modules', '.cache', 'bim-samples');

/** A hash of the generator's own source: a cached file made by other code is stale. */
function generatorHash() {
  const hash = createHash('sha256');
  // bad-files.js writes the bad-file corpus, not samples: editing it leaves the samples as they are.
  for (const file of readdirSync(HERE).filter((f) => f.endsWith('.js') && f !== 'bad-files.js').sort()) hash.update(file).update(readFileSync(join(HERE, file)));
  return hash.digest('hex').slice(0, 12);
}

/**
 * The paths of a named sample's IFC and truth, generating them when missing or stale.
 * @param {string} name e.g. `house`, `office-20k`
 * @param {{ dir?: string, log?: (line: string) => void }} [options]
 */
export function sampleFile(name, { dir = CACHE, log = () => {} } = {}) {
  const options = sampleOptions(name);
  if (!options) throw new Error(`no sample building called ${name}`);
  const hash = generatorHash();
  const folder = join(dir, hash);
  const ifc = join(folder, `${name}.ifc`);
  const truth = join(folder, `${name}.json`);
  if (!existsSync(ifc) || !existsSync(truth)) {
    if (!existsSync(folder) && existsSync(dir)) {
      // files of an older generator are stale for good
      for (const old of readdirSync(dir)) rmSync(join(dir, old), { recursive: true, force: true });
    }
    mkdirSync(folder, { recursive: true });
    const started = performance.now();
    const fd = openSync(`${ifc}.part`, 'w');
    let bytes = 0;
    let facts;
    try {
      facts = writeBuilding(options, (piece) => {
        bytes += writeSync(fd, piece);
      });
    } finally {
      closeSync(fd);
    }
    writeJson(truth, { ...facts, bytes });
    renameSync(`${ifc}.part`, ifc);
    log(`generated ${name}: ${facts.products.length} products, ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return { ifc, truth };
}

/**
 * The path of a named scan of a named sample (`house.scan.las`, `house-utm.scan.e57`,
 * `office-200k.scan-20m.las`, `house.scan-1m.laz`: samples/scan-files.js), generating
 * it, and its building, when missing or stale. It lines up with the building's cached IFC.
 * @param {string} name
 * @param {{ dir?: string, log?: (line: string) => void }} [options]
 */
export async function sampleScan(name, { dir = CACHE, log = () => {} } = {}) {
  const scan = parseScanName(name);
  if (!scan || !sampleOptions(scan.building)) throw new Error(`no sample scan called ${name} (<building>.scan[-<size>].las, .laz or .e57)`);
  const { truth } = sampleFile(scan.building, { dir, log });
  const file = join(dirname(truth), name);
  if (existsSync(file)) return file;
  // One making per file in this process (a server asked twice at once); other processes write their own part file.
  let making = MAKING.get(file);
  if (!making) {
    making = (async () => {
      const started = performance.now();
      const facts = readTruth(truth, scan.building);
      const part = `${file}.${process.pid}.part`;
      try {
        if (scan.format === 'las') await writeScanLas(part, facts, { points: scan.points });
        else if (scan.format === 'laz') await writeScanLaz(part, facts, { points: scan.points });
        else await writeScanE57(part, facts, { points: scan.points });
        renameSync(part, file);
      } finally {
        rmSync(part, { force: true });
      }
      log(`generated ${name}: ${scan.points} points in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return file;
    })().finally(() => MAKING.delete(file));
    MAKING.set(file, making);
  }
  return making;
}

/** Scans being made, by path. @type {Map<string, Promise<string>>} */
const MAKING = new Map();

/** A cached truth; made again when its file is longer than a string can be (offices of millions of products). */
function readTruth(/** @type {string} */ file, /** @type {string} */ building) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return writeBuilding(/** @type {import('./building.js').BuildingOptions} */ (sampleOptions(building)), () => {});
  }
}

/**
 * Writes `value` as JSON, its top-level arrays an item at a time: the truth of an office of
 * a million products is longer than the longest string V8 makes.
 * @param {string} file
 * @param {Record<string, unknown>} value
 */
function writeJson(file, value) {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, '{');
    Object.entries(value).forEach(([key, item], i) => {
      writeSync(fd, `${i ? ',' : ''}${JSON.stringify(key)}:`);
      if (!Array.isArray(item)) {
        writeSync(fd, JSON.stringify(item) ?? 'null');
        return;
      }
      writeSync(fd, '[');
      item.forEach((element, j) => writeSync(fd, (j ? ',' : '') + JSON.stringify(element)));
      writeSync(fd, ']');
    });
    writeSync(fd, '}');
  } finally {
    closeSync(fd);
  }
}
