#!/usr/bin/env node
// @ts-check
/**
 * Writes sample buildings: an IFC file and its truth (JSON) beside it.
 *
 *   node samples/cli.js house office-20k --out samples-out     named samples (samples/variants.js)
 *   node samples/cli.js --schema IFC2X3 --units mm --storeys 5 --rooms-x 4 --rooms-y 3 --out x.ifc
 *   node samples/cli.js --products 50000 --out big.ifc          about that many products
 *   node samples/cli.js --list                                   the named samples
 *   node samples/cli.js house.scan.las house-utm.scan-200k.e57 office-200k.scan-20m.las --out scans
 *                                                                scans of named samples (samples/scan-files.js)
 *
 * Options: --schema IFC2X3|IFC4|IFC4X3, --units m|mm, --angles radian|degree, --storeys N,
 * --rooms-x N, --rooms-y N, --products N, --no-openings, --georeferenced, --name TEXT,
 * --seed TEXT, --out PATH (a folder for named samples, a file otherwise).
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { layoutFor, writeBuilding } from './building.js';
import { parseScanName, writeScanE57, writeScanLas, writeScanLaz } from './scan-files.js';
import { MORE_VARIANTS, VARIANTS, sampleOptions } from './variants.js';

/** @typedef {import('./building.js').BuildingOptions} BuildingOptions */

function fail(/** @type {string} */ message) {
  process.stderr.write(`samples: ${message}\n`);
  process.exit(2);
}

function parse(/** @type {string[]} */ argv) {
  /** @type {BuildingOptions & { [key: string]: unknown }} */
  const options = {};
  /** @type {string[]} */
  const names = [];
  let out = '';
  let list = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${arg} needs a value`);
      return v;
    };
    const number = () => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) fail(`${arg} needs a whole number from 1`);
      return n;
    };
    switch (arg) {
      case '--schema': options.schema = /** @type {BuildingOptions['schema']} */ (value().toUpperCase()); break;
      case '--units': options.units = /** @type {'m' | 'mm'} */ (value()); break;
      case '--angles': options.angles = /** @type {'radian' | 'degree'} */ (value()); break;
      case '--storeys': options.storeys = number(); break;
      case '--rooms-x': options.roomsX = number(); break;
      case '--rooms-y': options.roomsY = number(); break;
      case '--products': Object.assign(options, layoutFor(number())); break;
      case '--no-openings': options.openings = false; break;
      case '--georeferenced': options.georeferenced = true; break;
      case '--name': options.name = value(); break;
      case '--seed': options.seed = value(); break;
      case '--out': out = value(); break;
      case '--list': list = true; break;
      case '--help': case '-h':
        process.stdout.write('usage: node samples/cli.js [names...] [--schema S] [--units m|mm] [--storeys N] [--rooms-x N] [--rooms-y N] [--products N] [--no-openings] [--georeferenced] [--out PATH] [--list]\n');
        process.exit(0);
        break;
      default:
        if (arg.startsWith('-')) fail(`unknown option ${arg} (try --help)`);
        names.push(arg);
    }
  }
  return { options, names, out, list };
}

/** Writes one building to `file` and its truth to the same name with .json. */
function write(/** @type {BuildingOptions} */ options, /** @type {string} */ file) {
  mkdirSync(dirname(file) || '.', { recursive: true });
  const started = performance.now();
  const fd = openSync(file, 'w');
  let bytes = 0;
  let truth;
  try {
    truth = writeBuilding(options, (piece) => {
      bytes += writeSync(fd, piece);
    });
  } catch (e) {
    fail(/** @type {Error} */ (e).message);
    return;
  } finally {
    closeSync(fd);
  }
  writeFileSync(file.replace(/\.ifc$/i, '') + '.json', JSON.stringify({ ...truth, bytes }, null, 1));
  process.stdout.write(`${file}: ${truth.products.length} products, ${(bytes / 1e6).toFixed(2)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

/**
 * Writes a scan of a named sample (its IFC is not written: name the building too for that).
 * @param {string} name
 * @param {{ building: string, points: number, format: 'las' | 'laz' | 'e57' }} scan
 * @param {BuildingOptions} options
 * @param {string} out
 */
async function writeScan(name, scan, options, out) {
  const named = sampleOptions(scan.building);
  if (!named) fail(`no sample building called ${scan.building} (try --list)`);
  const file = join(out || '.', name);
  mkdirSync(dirname(file), { recursive: true });
  const started = performance.now();
  const truth = writeBuilding({ ...named, ...options }, () => {});
  const write = { las: writeScanLas, laz: writeScanLaz, e57: writeScanE57 }[scan.format];
  const result = await write(file, truth, { points: scan.points });
  process.stdout.write(`${file}: ${scan.points} points in ${result.plan.scans.length} scans, ${(result.bytes / 1e6).toFixed(2)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

const { options, names, out, list } = parse(process.argv.slice(2));
if (list) {
  for (const [name, v] of Object.entries({ ...VARIANTS, ...MORE_VARIANTS })) process.stdout.write(`${name.padEnd(22)}${v.description}\n`);
  process.stdout.write(`${'office-<size>'.padEnd(22)}about <size> products (2k, 20k, 200k...), walls not cut\n`);
  process.stdout.write(`${'<name>.scan.<ext>'.padEnd(22)}a scan of a named sample: .las (LAS 1.4), .laz or .e57 (default 1m points; e.g. house.scan-200k.e57)\n`);
} else if (names.length) {
  for (const name of names) {
    const scan = parseScanName(name);
    if (scan) {
      await writeScan(name, scan, options, out);
      continue;
    }
    const named = sampleOptions(name);
    if (!named) fail(`no sample building called ${name} (try --list)`);
    write({ ...named, ...options }, join(out || '.', `${name}.ifc`));
  }
} else {
  write(options, out || 'sample.ifc');
}
