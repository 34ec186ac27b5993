// @ts-check
/**
 * A sample building's scan as files (node only): LAS 1.4 (every scan's points in world
 * coordinates, 1 mm) and E57 (each scan on its own, with its pose, its points in the
 * scanner's frame: scans alternate cartesian (0.1 mm integers or doubles) and spherical
 * (range in 0.1 mm integers, angles as doubles, an invalid record now and then), so both
 * files hold the same points once poses are applied, within a millimetre.
 *
 *   parseScanName('office-200k.scan-20m.las') // { building: 'office-200k', points: 20e6, format: 'las' }
 *   await writeScanLas('house.scan.las', truth, { points: 1e6 }); // in worker threads from a million points
 *   await writeScanE57('house.scan.e57', truth, { points: 1e6 });
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { LasWriter, utmWkt } from './las-writer.js';
import { writeE57 } from './e57-writer.js';
import { createScan } from './scan.js';

/** @typedef {import('./scan.js').ScanOptions} ScanOptions */
/** @typedef {Parameters<typeof createScan>[0] & { georeference?: { crs?: string } | null }} Truth */

/** Points in a scan whose name gives no size. */
export const DEFAULT_POINTS = 1e6;
/** `<building>.scan.las`, `<building>.scan-<size>.e57` (size: 500k, 20m, 250000...). */
const SCAN_NAME = /^(.+)\.scan(?:-(\d+(?:\.\d+)?)([km])?)?\.(las|e57)$/i;
/** LAS scans of this many points and more are made in worker threads. */
const PARALLEL_FROM = 1e6;
/** E57 spherical scans carry one invalid record (no point) after this many points. */
const INVALID_EVERY = 1000;

/**
 * The building, point count and format a scan's file name asks for, or null.
 * @param {string} name
 * @returns {{ building: string, points: number, format: 'las' | 'e57' } | null}
 */
export function parseScanName(name) {
  const m = SCAN_NAME.exec(name);
  if (!m) return null;
  const points = m[2] === undefined ? DEFAULT_POINTS : Math.round(Number(m[2]) * (m[3] ? (m[3].toLowerCase() === 'k' ? 1e3 : 1e6) : 1));
  if (!(points >= 1 && points <= 2e9)) return null;
  return { building: m[1], points, format: /** @type {'las' | 'e57'} */ (m[4].toLowerCase()) };
}

/** The scan's seed when none is given: the building's name, so each building scans its own way. */
const seedOf = (/** @type {Truth} */ truth, /** @type {ScanOptions} */ options) => options.seed ?? `scan of ${/** @type {{ project?: { name?: string } }} */ (truth).project?.name ?? 'a building'}`;

/**
 * Writes the scan of a building as LAS 1.4, point format 7; answers the header's count and
 * bounds. Big scans are made by worker threads side by side, each writing its scans'
 * records into the file at their place: the same bytes as one thread writes.
 * @param {string} path
 * @param {Truth} truth
 * @param {ScanOptions & { workers?: number }} [options] workers: threads (default one per core from a million points, at most one per scan)
 */
export async function writeScanLas(path, truth, options = {}) {
  const { workers: asked, ...rest } = options;
  const scanOptions = { ...rest, seed: seedOf(truth, options) };
  const scan = createScan(truth, scanOptions);
  const las = new LasWriter(path, { offset: scan.plan.origin, wkt: utmWkt(truth.georeference?.crs ?? '') || undefined });
  const workers = Math.min(asked ?? (scan.plan.points >= PARALLEL_FROM ? availableParallelism() : 1), scan.plan.scans.length);
  try {
    if (workers <= 1) for (const batch of scan.batches()) las.write(batch);
    else await inWorkers(las, path, truth, scanOptions, scan.plan.scans, workers);
  } catch (error) {
    las.close();
    throw error;
  }
  return { ...las.close(), plan: scan.plan };
}

/**
 * The scans made and written by `count` worker threads (scan-worker.js), a scan at a time each.
 * @param {LasWriter} las
 * @param {string} path
 * @param {Truth} truth
 * @param {ScanOptions} options
 * @param {import('./scan.js').ScanPosition[]} scans
 * @param {number} count
 */
async function inWorkers(las, path, truth, options, scans, count) {
  const positions = scans.map((s) => las.reserve(s.count));
  // Workers get what a scan reads of the truth (a copy each).
  const t = /** @type {Truth & { storeys?: unknown, project?: unknown }} */ (truth);
  const slim = {
    products: t.products.filter((p) => p.box).map(({ id, type, name, storey, box, material }) => ({ id, type, name, storey, box, material })),
    site: t.site, parameters: t.parameters, storeys: t.storeys, box: t.box, project: t.project, georeference: t.georeference,
  };
  /** @type {Worker[]} */
  const threads = [];
  let next = 0;
  let done = 0;
  try {
    await new Promise((resolve, reject) => {
      for (let w = 0; w < count; w++) {
        const worker = new Worker(new URL('./scan-worker.js', import.meta.url), { workerData: { truth: slim, options, path, offset: las.offset, scale: las.scale } });
        threads.push(worker);
        const give = () => {
          if (next < scans.length) {
            const index = next++;
            worker.postMessage({ index, position: positions[index] });
          }
        };
        worker.on('message', (/** @type {{ lo: number[], hi: number[], error?: string }} */ m) => {
          if (m.error) return reject(new Error(m.error));
          las.include(m.lo, m.hi);
          if (++done === scans.length) resolve(undefined);
          else give();
        });
        worker.on('error', reject);
        worker.on('exit', (code) => code !== 0 && done < scans.length && reject(new Error(`a scan worker stopped (exit code ${code})`)));
        give();
      }
    });
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
}

/**
 * Writes the scan of a building as E57: one E57 scan per scanner, with its pose.
 * @param {string} path
 * @param {Truth} truth
 * @param {ScanOptions} [options]
 */
export async function writeScanE57(path, truth, options = {}) {
  const scan = createScan(truth, { ...options, seed: seedOf(truth, options) });
  const colour = { min: 0, max: 255 };
  const scans = scan.plan.scans.map((p, index) => {
    const spherical = index % 2 === 1;
    const invalid = spherical ? Math.floor(p.count / INVALID_EVERY) : 0;
    /** @type {import('./e57-writer.js').E57Fields} */
    const fields = spherical
      ? { range: { scale: 1e-4 }, azimuth: { type: 'float', precision: 'double' }, elevation: { type: 'float', precision: 'double' }, invalid: true }
      : index % 4 === 0
        ? { x: { scale: 1e-4 }, y: { scale: 1e-4 }, z: { scale: 1e-4 } }
        : { x: { type: 'float', precision: 'double' }, y: { type: 'float', precision: 'double' }, z: { type: 'float', precision: 'double' } };
    Object.assign(fields, { intensity: { min: 0, max: 65535 }, red: colour, green: colour, blue: colour });
    return {
      name: `Scan ${index + 1} (${p.name})`,
      coordinates: /** @type {'cartesian' | 'spherical'} */ (spherical ? 'spherical' : 'cartesian'),
      points: p.count + invalid,
      pose: { rotation: p.rotation, translation: p.position },
      fields,
      read: () => scannerFrame(scan.scanBatches(index), p, spherical),
    };
  });
  const written = await writeE57(path, scans);
  return { ...written, plan: scan.plan };
}

/**
 * A scan's batches in the scanner's frame (the pose undone), as E57 columns.
 * @param {Iterable<import('./scan.js').ScanBatch>} batches
 * @param {import('./scan.js').ScanPosition} p
 * @param {boolean} spherical
 * @returns {Generator<import('./e57-writer.js').E57Columns>}
 */
function* scannerFrame(batches, p, spherical) {
  const c = Math.cos(p.yaw), s = Math.sin(p.yaw);
  const [tx, ty, tz] = p.position;
  let seen = 0;
  for (const b of batches) {
    // Spherical scans: an invalid record after every INVALID_EVERY points.
    const extra = spherical ? Math.floor((seen + b.count) / INVALID_EVERY) - Math.floor(seen / INVALID_EVERY) : 0;
    const n = b.count + extra;
    const a = new Float64Array(n), bb = new Float64Array(n), cc = new Float64Array(n);
    const intensity = new Uint16Array(n), red = new Uint8Array(n), green = new Uint8Array(n), blue = new Uint8Array(n);
    const invalid = new Uint8Array(n);
    let j = 0;
    for (let i = 0; i < b.count; i++, j++) {
      const wx = b.positions[3 * i] - tx, wy = b.positions[3 * i + 1] - ty, wz = b.positions[3 * i + 2] - tz;
      const x = c * wx + s * wy, y = -s * wx + c * wy, z = wz; // the inverse of the yaw
      if (spherical) {
        const range = Math.sqrt(x * x + y * y + z * z);
        a[j] = range;
        bb[j] = Math.atan2(y, x);
        cc[j] = Math.asin(z / range);
      } else {
        a[j] = x;
        bb[j] = y;
        cc[j] = z;
      }
      intensity[j] = b.intensity[i];
      red[j] = b.colors[3 * i] / 257;
      green[j] = b.colors[3 * i + 1] / 257;
      blue[j] = b.colors[3 * i + 2] / 257;
      seen++;
      if (spherical && seen % INVALID_EVERY === 0) {
        j++;
        invalid[j] = 2; // no point: all zeros
      }
    }
    yield spherical
      ? { range: a, azimuth: bb, elevation: cc, invalid, intensity, red, green, blue }
      : { x: a, y: bb, z: cc, intensity, red, green, blue };
  }
}
