// @ts-check
/**
 * A laser scan of a sample building, made from its truth: scanners stand in a few rooms
 * and around the building, each sweeping rays over the sphere in an even pattern (an R2
 * low-discrepancy sequence, azimuth all round, elevation from 60° down to straight up, or
 * outside to a little over the building's top);
 * a ray's point is where it first meets a solid of the building (samples/scan-solids.js)
 * or the ground, moved along the ray by a little range noise. Colour by element kind
 * with a little variation, intensity from the kind's reflectivity, the incidence angle
 * and the range, LAS class 6 (building) or 2 (ground). Same truth and options, same
 * points, to the bit; each scan is generated on its own (an E57 writer reads one at a
 * time, perhaps twice).
 *
 * Points come as a stream of batches (never all in memory):
 *
 *   const scan = createScan(truth, { points: 2e6, seed: 'house' });
 *   scan.plan.scans;                             // positions, poses, point counts
 *   for (const batch of scan.batches()) ...      // every scan in turn
 *   for (const batch of scan.scanBatches(2)) ... // one scan
 */
import { DIMENSIONS } from './building.js';
import { RayGrid } from './ray-grid.js';
import { KINDS, buildingSolids } from './scan-solids.js';

/** @typedef {import('./frame.js').Vec3} Vec3 */
/** @typedef {import('./scan-solids.js').ScanTruth} ScanTruth */
/** @typedef {import('./scan-solids.js').Solid} Solid */
/** @typedef {import('./scan-solids.js').Ground} Ground */
/**
 * @typedef {object} ScanOptions
 * @property {number} [points] points in all (default 1,000,000), split evenly between the scans
 * @property {string} [seed] (default 'scan')
 * @property {number} [noise] range noise, metres: a standard deviation (default 0.002); the noise never exceeds NOISE_LIMIT times it
 * @property {number} [insideScans] scanners in rooms (default 6, at most one per room)
 * @property {number} [outsideScans] scanners around the building (default 4: its corners; up to 8: the sides' middles too)
 * @property {number} [maxRange] farther hits are lost (default 150 m)
 * @property {number} [batchSize] points per batch (default 65,536)
 */
/**
 * @typedef {object} ScanPosition
 * @property {string} name
 * @property {Vec3} position the scanner's centre, world coordinates
 * @property {number} yaw the scanner's heading: its x axis turned this far (radians) about z from world x
 * @property {[number, number, number, number]} rotation the same as a unit quaternion w, x, y, z (the E57 pose)
 * @property {number} lowest the sweep's lowest elevation (radians, -60°)
 * @property {number} highest ... and its highest (90° in rooms; outside, a little over the building)
 * @property {number} count points it makes
 * @property {boolean} inside in a room, or around the building
 */
/**
 * @typedef {object} ScanBatch points of one scan, world coordinates (PointBatch's shape, and more)
 * @property {number} scan the scan's index in plan.scans
 * @property {number} count
 * @property {Float64Array} positions x, y, z per point
 * @property {Uint16Array} colors r, g, b per point, 16-bit (8-bit values times 257)
 * @property {Uint16Array} intensity
 * @property {Uint8Array} classification LAS classes: 6 building, 2 ground
 * @property {Uint8Array} kind the element kind (KINDS)
 */

/** Noise is triangular (the sum of two uniforms): at most this many standard deviations. */
export const NOISE_LIMIT = Math.sqrt(6);
/** Scanners stand this high over their floor or the ground. */
const INSTRUMENT = { room: 1.5, outside: 1.7 };
/** ... in a room, this far from its centre (clear of the table) ... */
const ROOM_OFFSET = [1.2, 1.0];
/** ... and outside, this far beyond the building's corners. */
const STANDOFF = 10;
/** The lowest elevation a scanner sweeps (its tripod hides the rest). */
const LOWEST = (-60 * Math.PI) / 180;
/** ... and outside, this far over the building's top. */
const HEADROOM = (5 * Math.PI) / 180;
/** Rays in a row that hit nothing before a scanner is declared blind. */
const BLIND = 1e6;

/**
 * The scan of a building.
 * @param {ScanTruth & { storeys?: { elevation: number }[], parameters?: { roomsX?: number, roomsY?: number, storeys?: number, openings?: boolean } }} truth
 * @param {ScanOptions} [options]
 */
export function createScan(truth, options = {}) {
  const points = options.points ?? 1e6;
  if (!(Number.isInteger(points) && points >= 0)) throw new RangeError(`points must be a whole number from 0: ${points}`);
  const seed = options.seed ?? 'scan';
  const noise = options.noise ?? 0.002;
  const maxRange = options.maxRange ?? 150;
  const batchSize = Math.max(1, options.batchSize ?? 65536);
  const { solids, ground } = buildingSolids(truth);
  const positions = scanPositions(truth, ground, options.insideScans ?? 6, options.outsideScans ?? 4, seed);
  if (positions.length === 0) throw new RangeError('a scan needs at least one scanner');
  positions.forEach((p, i) => (p.count = Math.floor(points / positions.length) + (i < points % positions.length ? 1 : 0)));

  // Where points can be (the solids, the ground, and the noise), and the local origin.
  const reach = NOISE_LIMIT * noise;
  /** @type {Vec3} */ const min = [ground.min[0], ground.min[1], ground.z];
  /** @type {Vec3} */ const max = [ground.max[0], ground.max[1], ground.z];
  for (const s of solids) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], s.min[k]);
      max[k] = Math.max(max[k], s.max[k]);
    }
  }
  for (let k = 0; k < 3; k++) {
    min[k] -= reach;
    max[k] += reach;
  }
  /** @type {Vec3} */ const origin = [Math.floor(min[0]), Math.floor(min[1]), Math.floor(min[2])];
  /** @type {RayGrid | null} built on first use */
  let grid = null;

  const plan = { points, seed, noise, maxRange, scans: positions, bounds: { min, max }, origin, ground };

  /** @param {number} index */
  function* scanBatches(index) {
    const p = positions[index];
    if (!p) throw new RangeError(`no scan ${index}`);
    grid ??= new RayGrid(solids, origin);
    yield* sweep(grid, ground, origin, p, index, { seed, noise, maxRange, batchSize });
  }
  function* batches() {
    for (let i = 0; i < positions.length; i++) yield* scanBatches(i);
  }
  return { plan, solids, batches, scanBatches };
}

/**
 * Scanners in rooms spread over the storeys, then around the building.
 * @param {Parameters<typeof createScan>[0]} truth
 * @param {Ground} ground
 * @param {number} insideScans
 * @param {number} outsideScans
 * @param {string} seed
 * @returns {ScanPosition[]}
 */
function scanPositions(truth, ground, insideScans, outsideScans, seed) {
  const D = DIMENSIONS;
  const o = truth.site?.origin ?? [0, 0, 0];
  const nx = truth.parameters?.roomsX ?? 3, ny = truth.parameters?.roomsY ?? 2;
  const storeys = truth.storeys ?? [{ elevation: 0 }];
  const rooms = storeys.length * nx * ny;
  const random = generator(`${seed} positions`);
  /** @type {ScanPosition[]} */
  const out = [];
  const box = truth.box ?? { min: o, max: o };
  const add = (/** @type {string} */ name, /** @type {Vec3} */ position, /** @type {boolean} */ inside) => {
    const yaw = random() * 2 * Math.PI - Math.PI;
    // Outside, the sweep stops just over the building's top (above it there is only sky).
    const across = Math.hypot(Math.max(box.min[0] - position[0], 0, position[0] - box.max[0]), Math.max(box.min[1] - position[1], 0, position[1] - box.max[1]));
    const highest = inside ? Math.PI / 2 : Math.min(Math.PI / 2, Math.atan2(box.max[2] - position[2], across) + HEADROOM);
    out.push({ name, position, yaw, rotation: [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)], lowest: LOWEST, highest, count: 0, inside });
  };
  const inside = Math.min(Math.max(0, Math.floor(insideScans)), rooms);
  for (let q = 0; q < inside; q++) {
    const k = Math.floor((q * rooms) / inside);
    const s = Math.floor(k / (nx * ny)), i = (k % (nx * ny)) % nx, j = Math.floor((k % (nx * ny)) / nx);
    const position = /** @type {Vec3} */ ([o[0] + (i + 0.5) * D.CELL_X + ROOM_OFFSET[0], o[1] + (j + 0.5) * D.CELL_Y + ROOM_OFFSET[1], o[2] + storeys[s].elevation + INSTRUMENT.room]);
    add(`room ${s}${String(j * nx + i + 1).padStart(2, '0')}`, position, true);
  }
  const z = ground.z + INSTRUMENT.outside;
  const [x0, y0, x1, y1] = [box.min[0] - STANDOFF, box.min[1] - STANDOFF, box.max[0] + STANDOFF, box.max[1] + STANDOFF];
  /** @type {[string, number, number][]} */
  const around = [
    ['south-west', x0, y0], ['south-east', x1, y0], ['north-east', x1, y1], ['north-west', x0, y1],
    ['south', (x0 + x1) / 2, y0], ['east', x1, (y0 + y1) / 2], ['north', (x0 + x1) / 2, y1], ['west', x0, (y0 + y1) / 2],
  ];
  for (const [name, x, y] of around.slice(0, Math.min(8, Math.max(0, Math.floor(outsideScans))))) add(`outside ${name}`, [x, y, z], false);
  return out;
}

/**
 * One scanner's points, in batches.
 * @param {RayGrid} grid
 * @param {Ground} ground
 * @param {Vec3} origin
 * @param {ScanPosition} p
 * @param {number} index
 * @param {{ seed: string, noise: number, maxRange: number, batchSize: number }} o
 * @returns {Generator<ScanBatch>}
 */
function* sweep(grid, ground, origin, p, index, o) {
  const scanner = new Scanner(grid, ground, origin, p, index, o);
  for (let left = p.count; left > 0; ) {
    const n = Math.min(o.batchSize, left);
    /** @type {ScanBatch} */
    const batch = { scan: index, count: n, positions: new Float64Array(3 * n), colors: new Uint16Array(3 * n), intensity: new Uint16Array(n), classification: new Uint8Array(n), kind: new Uint8Array(n) };
    scanner.fill(batch);
    left -= n;
    yield batch;
  }
}

/** A scanner's state between batches (the work is a plain method: V8 optimises it better than a generator's loop). */
class Scanner {
  /**
   * @param {RayGrid} grid
   * @param {Ground} ground
   * @param {Vec3} origin
   * @param {ScanPosition} p
   * @param {number} index
   * @param {{ seed: string, noise: number, maxRange: number }} o
   */
  constructor(grid, ground, origin, p, index, { seed, noise, maxRange }) {
    this.grid = grid;
    this.p = p;
    this.origin = origin;
    this.maxRange = maxRange;
    this.random = generator(`${seed} scan ${index}`);
    // The R2 sequence (Roberts 2018): even coverage without a grid's stripes; a random start per scan.
    const g = 1.324717957244746;
    this.stepV = 1 / (g * g);
    const u = this.random();
    this.v = this.random();
    // Azimuth turns by a fixed step (1/g of a turn) per ray: its cosine and sine follow by rotation, renormalised now and then.
    this.turnC = Math.cos((2 * Math.PI) / g);
    this.turnS = Math.sin((2 * Math.PI) / g);
    this.ac = Math.cos(2 * Math.PI * u);
    this.as = Math.sin(2 * Math.PI * u);
    this.rays = 0;
    this.lowest = Math.sin(p.lowest);
    this.highest = Math.sin(p.highest);
    this.cosYaw = Math.cos(p.yaw);
    this.sinYaw = Math.sin(p.yaw);
    this.ox = p.position[0] - origin[0];
    this.oy = p.position[1] - origin[1];
    this.oz = p.position[2] - origin[2];
    this.gz = ground.z - origin[2];
    this.gx0 = ground.min[0] - origin[0];
    this.gy0 = ground.min[1] - origin[1];
    this.gx1 = ground.max[0] - origin[0];
    this.gy1 = ground.max[1] - origin[1];
    this.spread = noise * Math.sqrt(6); // two uniforms' sum less one, times this: standard deviation `noise`
    // The kinds' properties as flat arrays.
    this.colour = Float64Array.from(KINDS.flatMap((k) => k.color));
    this.reflectivity = Float64Array.from(KINDS, (k) => 65534 * k.reflectivity);
    this.variation = Float64Array.from(KINDS, (k) => 2 * k.variation);
    this.classes = Uint8Array.from(KINDS, (k) => k.classification);
  }

  /** Fills a batch with the next points. @param {ScanBatch} batch */
  fill(batch) {
    const { grid, random, origin, maxRange, stepV, turnC, turnS, lowest, highest, cosYaw, sinYaw, ox, oy, oz, gz, gx0, gy0, gx1, gy1, spread, colour, reflectivity, variation, classes } = this;
    const { positions, colors, intensity, classification, kind: kinds, count: n } = batch;
    const [x0, y0, z0] = origin;
    let { ac, as, v, rays } = this;
    let blind = 0;
    for (let i = 0; i < n; ) {
      const c0 = ac;
      ac = c0 * turnC - as * turnS;
      as = as * turnC + c0 * turnS;
      if ((++rays & 1023) === 0) {
        const length = Math.sqrt(ac * ac + as * as);
        ac /= length;
        as /= length;
      }
      v += stepV;
      if (v >= 1) v -= 1;
      const sinE = lowest + (highest - lowest) * v;
      const cosE = Math.sqrt(1 - sinE * sinE);
      const lx = cosE * ac, ly = cosE * as;
      const dx = cosYaw * lx - sinYaw * ly, dy = sinYaw * lx + cosYaw * ly, dz = sinE;
      let t = grid.cast(ox, oy, oz, dx, dy, dz, maxRange);
      let kind = 0, nx = 0, ny = 0, nz = 1;
      if (t < Infinity) {
        kind = grid.kinds[grid.solid];
        nx = grid.nx;
        ny = grid.ny;
        nz = grid.nz;
      }
      if (dz < 0) {
        const tg = (gz - oz) / dz;
        if (tg < t && tg <= maxRange) {
          const hx = ox + dx * tg, hy = oy + dy * tg;
          if (hx >= gx0 && hx <= gx1 && hy >= gy0 && hy <= gy1) {
            t = tg;
            kind = 0;
            nx = 0;
            ny = 0;
            nz = 1;
          }
        }
      }
      if (t === Infinity) {
        if (++blind > BLIND) throw new Error(`scanner ${this.p.name} sees nothing within ${maxRange} m`);
        continue;
      }
      blind = 0;
      // One 32-bit draw: its two halves make the triangular noise.
      const bits = random() * 4294967296;
      const range = t + spread * ((bits & 0xffff) / 65536 + (bits >>> 16) / 65536 - 1);
      positions[3 * i] = x0 + (ox + dx * range);
      positions[3 * i + 1] = y0 + (oy + dy * range);
      positions[3 * i + 2] = z0 + (oz + dz * range);
      const cosI = Math.abs(dx * nx + dy * ny + dz * nz);
      const falloff = 1 / (1 + (range / 60) * (range / 60));
      intensity[i] = 1 + ((reflectivity[kind] * (0.25 + 0.75 * cosI) * falloff + 0.5) | 0); // 1..65535
      const shade = 1 + variation[kind] * (random() - 0.5);
      colors[3 * i] = 257 * Math.min(255, (colour[3 * kind] * shade + 0.5) | 0);
      colors[3 * i + 1] = 257 * Math.min(255, (colour[3 * kind + 1] * shade + 0.5) | 0);
      colors[3 * i + 2] = 257 * Math.min(255, (colour[3 * kind + 2] * shade + 0.5) | 0);
      classification[i] = classes[kind];
      kinds[i] = kind;
      i++;
    }
    Object.assign(this, { ac, as, v, rays });
  }
}

/**
 * A seeded generator of numbers in [0, 1): sfc32 seeded from the text by a 128-bit FNV-style mix.
 * @param {string} text
 */
export function generator(text) {
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = 0x85a308d3;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 0x01000193);
    b = Math.imul(b ^ a, 0x5bd1e995);
    c = Math.imul(c ^ b, 0x27d4eb2d);
    d = Math.imul(d ^ c, 0x165667b1);
  }
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return (r >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}
