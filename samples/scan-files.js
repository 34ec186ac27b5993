// @ts-check
/**
 * A sample building's scan as files (node only): LAS 1.4 (every scan's points in world
 * coordinates, 1 mm), the same points as LAZ (LASzip-compressed, point format 3), and E57
 * (each scan on its own, with its pose, its points in the scanner's frame: scans alternate
 * cartesian (0.1 mm integers or doubles) and spherical (range in 0.1 mm integers, angles as
 * doubles, an invalid record now and then), so all files hold the same points once poses
 * are applied, within a millimetre.
 *
 *   parseScanName('office-200k.scan-20m.las') // { building: 'office-200k', points: 20e6, format: 'las' }
 *   await writeScanLas('house.scan.las', truth, { points: 1e6 }); // in worker threads from a million points
 *   await writeScanLaz('house.scan.laz', truth, { points: 1e6 }); // likewise
 *   await writeScanE57('house.scan.e57', truth, { points: 1e6 });
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { LasWriter, utmWkt } from './las-writer.js';
import { LazWriter } from './laz-writer.js';
import { writeE57 } from './e57-writer.js';
import { createScan } from './scan.js';

/** @typedef {import('./scan.js').ScanOptions} ScanOptions */
/** @typedef {Parameters<typeof createScan>[0] & { georeference?: { crs?: string } | null }} Truth */

/** Points in a scan whose name gives no size. */
export const DEFAULT_POINTS = 1e6;
/** `<building>.scan.las`, `<building>.scan-<size>.laz`, `.e57` (size: 500k, 20m, 250000...). */
const SCAN_NAME = /^(.+)\.scan(?:-(\d+(?:\.\d+)?)([km])?)?\.(las|laz|e57)$/i;
/** LAS and LAZ scans of this many points and more are made in worker threads. */
const PARALLEL_FROM = 1e6;
/** E57 spherical scans carry one invalid record (no point) after this many points. */
const INVALID_EVERY = 1000;

/**
 * The building, point count and format a scan's file name asks for, or null.
 * @param {string} name
 * @returns {{ building: string, points: number, format: 'las' | 'laz' | 'e57' } | null}
 */
export function parseScanName(name) {
  const m = SCAN_NAME.exec(name);
  if (!m) return null;
  const points = m[2] === undefined ? DEFAULT_POINTS : Math.round(Number(m[2]) * (m[3] ? (m[3].toLowerCase() === 'k' ? 1e3 : 1e6) : 1));
  if (!(points >= 1 && points <= 2e9)) return null;
  return { building: m[1], points, format: /** @type {'las' | 'laz' | 'e57'} */ (m[4].toLowerCase()) };
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
  const { scan, scanOptions, workers } = prepare(truth, options);
  const las = new LasWriter(path, { offset: scan.plan.origin, wkt: utmWkt(truth.georeference?.crs ?? '') || undefined });
  try {
    if (workers <= 1) for (const batch of scan.batches()) las.write(batch);
    else {
      const positions = scan.plan.scans.map((s) => las.reserve(s.count));
      await inWorkers(new URL('./scan-worker.js', import.meta.url), { truth: workerTruth(truth), options: scanOptions, path, offset: las.offset, scale: las.scale }, scan.plan.scans.length, workers,
        (index) => ({ index, position: positions[index] }),
        (/** @type {{ lo: number[], hi: number[] }} */ m) => {
          las.include(m.lo, m.hi);
          return true;
        });
    }
  } catch (error) {
    las.close();
    throw error;
  }
  return { ...las.close(), plan: scan.plan };
}

/**
 * Writes the scan of a building as LAZ (samples/laz-writer.js: point format 3, chunks of
 * 50,000 points): the LAS file's points, values and order. Big scans are made by worker
 * threads (scan-laz-worker.js): a chunk's compressed size is only known once it is made,
 * so threads compress the chunks inside their scans and send them here, where they are
 * written in the file's order (a later scan's chunks wait for the scans before it); the
 * few points of chunks that span two scans come here as records and are compressed with
 * their neighbours'. The same bytes as one thread writes.
 * @param {string} path
 * @param {Truth} truth
 * @param {ScanOptions & { workers?: number, chunkSize?: number }} [options] as writeScanLas; chunkSize: points per LAZ chunk
 */
export async function writeScanLaz(path, truth, options = {}) {
  const { chunkSize, ...rest } = options;
  const { scan, scanOptions, workers } = prepare(truth, rest);
  const laz = new LazWriter(path, { offset: scan.plan.origin, wkt: utmWkt(truth.georeference?.crs ?? '') || undefined, chunkSize });
  try {
    if (workers <= 1) for (const batch of scan.batches()) laz.write(batch);
    else await lazInWorkers(laz, truth, scanOptions, scan.plan.scans, workers);
  } catch (error) {
    laz.close();
    throw error;
  }
  return { ...laz.close(), plan: scan.plan };
}

/**
 * The scan, its options with the seed, and how many threads make it.
 * @param {Truth} truth
 * @param {ScanOptions & { workers?: number }} options
 */
function prepare(truth, options) {
  const { workers: asked, ...rest } = options;
  const scanOptions = { ...rest, seed: seedOf(truth, options) };
  const scan = createScan(truth, scanOptions);
  const workers = Math.min(asked ?? (scan.plan.points >= PARALLEL_FROM ? availableParallelism() : 1), scan.plan.scans.length);
  return { scan, scanOptions, workers };
}

/** What a scan reads of the truth: workers get a copy each. @param {Truth} truth */
function workerTruth(truth) {
  const t = /** @type {Truth & { storeys?: unknown, project?: unknown }} */ (truth);
  return {
    products: t.products.filter((p) => p.box).map(({ id, type, name, storey, box, material }) => ({ id, type, name, storey, box, material })),
    site: t.site, parameters: t.parameters, storeys: t.storeys, box: t.box, project: t.project, georeference: t.georeference,
  };
}

/**
 * The LAZ scan's parts from the workers, written in scan order: a scan's parts as they
 * come while it is the first not yet written, later scans' kept until then.
 * @param {LazWriter} laz
 * @param {Truth} truth
 * @param {ScanOptions} options
 * @param {import('./scan.js').ScanPosition[]} scans
 * @param {number} count
 */
async function lazInWorkers(laz, truth, options, scans, count) {
  /** @typedef {{ index: number, records?: Uint8Array, chunk?: Uint8Array, count: number, lo: number[], hi: number[], byReturn: number[], done?: boolean }} Part */
  const starts = [];
  for (let i = 0, at = 0; i < scans.length; at += scans[i++].count) starts.push(at);
  /** @type {Part[][]} */
  const waiting = scans.map(() => []);
  let next = 0; // the first scan not wholly written
  const write = (/** @type {Part} */ part) => {
    if (part.done) next++;
    else if (part.records) laz.writeRecords(part.records);
    else if (part.chunk) laz.writeChunk(part.chunk, part);
  };
  await inWorkers(new URL('./scan-laz-worker.js', import.meta.url), { truth: workerTruth(truth), options, offset: laz.offset, scale: laz.scale, chunkSize: laz.chunkSize, starts }, scans.length, count,
    (index) => ({ index }),
    (/** @type {Part} */ part) => {
      if (part.index === next) write(part);
      else waiting[part.index].push(part);
      while (next < scans.length && waiting[next].length) write(/** @type {Part} */ (waiting[next].shift()));
      return part.done === true;
    });
  if (next < scans.length) throw new Error(`LAZ scan: scan ${next + 1} of ${scans.length} was never written whole`);
}

/**
 * Scans made by `count` worker threads (`script`), a scan at a time each: a thread is
 * given the next scan when `take` says its last message finished the one it had.
 * @param {URL} script
 * @param {unknown} workerData
 * @param {number} jobs scans
 * @param {number} count threads
 * @param {(index: number) => unknown} job the message that hands a scan out
 * @param {(message: any) => boolean} take
 */
async function inWorkers(script, workerData, jobs, count, job, take) {
  /** @type {Worker[]} */
  const threads = [];
  let next = 0;
  let done = 0;
  try {
    await new Promise((resolve, reject) => {
      for (let w = 0; w < count; w++) {
        const worker = new Worker(script, { workerData });
        threads.push(worker);
        const give = () => {
          if (next < jobs) worker.postMessage(job(next++));
        };
        worker.on('message', (/** @type {{ error?: string }} */ m) => {
          if (m.error) return reject(new Error(m.error));
          try {
            if (!take(m)) return;
          } catch (error) {
            return reject(error);
          }
          if (++done === jobs) resolve(undefined);
          else give();
        });
        worker.on('error', reject);
        worker.on('exit', (code) => code !== 0 && done < jobs && reject(new Error(`a scan worker stopped (exit code ${code})`)));
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
