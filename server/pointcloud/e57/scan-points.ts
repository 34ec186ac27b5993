import { PointCloudError, type PointBatch } from '../point-reader.js';
import { BitPackDecoder } from './bit-pack.js';
import { PacketStream } from './compressed-vector.js';
import type { E57Field, E57Pose, E57Scan } from './e57-xml.js';
import type { PagedFile } from './pages.js';

/**
 * One scan's records as point batches: cartesian x y z (or spherical range, azimuth,
 * elevation turned into them), the pose applied, records whose invalid state is not 0
 * left out, intensity and colours mapped from their limits onto 0-65535.
 */
export const BATCH_SIZE = 65536;

/** Which prototype fields the points are made of (fields not named here are never decoded). */
export interface ScanPlan {
  spherical: boolean;
  coordinates: [number, number, number];
  invalid: number;
  intensity: number;
  intensityInvalid: number;
  colors: [number, number, number] | null;
  colorInvalid: number;
}

export function planScan(scan: E57Scan): ScanPlan {
  const at = (name: string) => scan.fields.findIndex((f) => f.name === name);
  const cartesian = [at('cartesianX'), at('cartesianY'), at('cartesianZ')] as [number, number, number];
  const spherical = [at('sphericalRange'), at('sphericalAzimuth'), at('sphericalElevation')] as [number, number, number];
  const useCartesian = cartesian.every((i) => i >= 0);
  if (!useCartesian && !spherical.every((i) => i >= 0)) {
    const names = scan.fields.map((f) => f.name).join(', ') || 'none';
    throw new PointCloudError('unsupported', `E57 scan "${scan.name}" has no complete coordinates (cartesianX/Y/Z or sphericalRange/Azimuth/Elevation); its fields are: ${names}`);
  }
  const colors = [at('colorRed'), at('colorGreen'), at('colorBlue')] as [number, number, number];
  return {
    spherical: !useCartesian,
    coordinates: useCartesian ? cartesian : spherical,
    invalid: at(useCartesian ? 'cartesianInvalidState' : 'sphericalInvalidState'),
    intensity: at('intensity'),
    intensityInvalid: at('isIntensityInvalid'),
    colors: colors.some((i) => i >= 0) ? colors : null,
    colorInvalid: at('isColorInvalid'),
  };
}

/** The arrays a reader's batches are written into (reused from batch to batch). */
export class BatchArrays {
  readonly positions = new Float64Array(BATCH_SIZE * 3);
  readonly colors: Uint16Array | undefined;
  readonly intensity: Uint16Array | undefined;

  constructor(hasColor: boolean, hasIntensity: boolean) {
    this.colors = hasColor ? new Uint16Array(BATCH_SIZE * 3) : undefined;
    this.intensity = hasIntensity ? new Uint16Array(BATCH_SIZE) : undefined;
  }

  batch(count: number): PointBatch {
    return {
      count,
      positions: this.positions.subarray(0, count * 3),
      colors: this.colors?.subarray(0, count * 3),
      intensity: this.intensity?.subarray(0, count),
    };
  }
}

/** One scan's points: packets are read as the decoders run dry, a batch goes out every BATCH_SIZE records. */
export async function* scanBatches(file: PagedFile, scan: E57Scan, out: BatchArrays): AsyncGenerator<PointBatch> {
  if (scan.recordCount === 0) return;
  const plan = planScan(scan);
  const used = [...plan.coordinates, plan.invalid, plan.intensity, plan.intensityInvalid, ...(plan.colors ?? []), plan.colorInvalid].filter((i) => i >= 0);
  const decoders = new Map<number, BitPackDecoder>();
  const columns = new Map<number, Float64Array>();
  for (const i of new Set(used)) {
    decoders.set(i, new BitPackDecoder(scan.fields[i]));
    columns.set(i, new Float64Array(BATCH_SIZE));
  }
  const packets = await PacketStream.open(file, scan.fileOffset, scan.fields.length, scan.name);
  const assemble = assembler(scan, plan, columns, out);
  let remaining = scan.recordCount;
  let filled = 0;
  while (remaining > 0) {
    let n = Math.min(BATCH_SIZE - filled, remaining);
    for (const decoder of decoders.values()) n = Math.min(n, decoder.available);
    if (n === 0) {
      const buffers = await packets.next();
      if (!buffers) throw new PointCloudError('malformed', `E57 scan "${scan.name}" ends after ${scan.recordCount - remaining} of its ${scan.recordCount} records`);
      for (const [i, decoder] of decoders) decoder.append(buffers[i]);
      continue;
    }
    for (const [i, decoder] of decoders) decoder.decode(columns.get(i)!, filled, n);
    filled += n;
    remaining -= n;
    if (filled === BATCH_SIZE || remaining === 0) {
      const count = assemble(filled);
      filled = 0;
      if (count > 0) yield out.batch(count);
    }
  }
}

/** Turns decoded columns into the batch arrays; answers how many points were kept. */
function assembler(scan: E57Scan, plan: ScanPlan, columns: Map<number, Float64Array>, out: BatchArrays) {
  const [a, b, c] = plan.coordinates.map((i) => columns.get(i)!);
  const invalid = plan.invalid >= 0 ? columns.get(plan.invalid)! : null;
  const pose = poseMatrix(scan.pose);
  const intensity = plan.intensity >= 0 ? columns.get(plan.intensity)! : null;
  const intensityInvalid = plan.intensityInvalid >= 0 ? columns.get(plan.intensityInvalid)! : null;
  const [iLow, iScale] = mapping(scan.intensityLimits, plan.intensity >= 0 ? scan.fields[plan.intensity] : null, [0, 1]);
  const colors = plan.colors ? plan.colors.map((i) => (i >= 0 ? columns.get(i)! : null)) : null;
  const limits = scan.colorLimits;
  const colorMaps = plan.colors
    ? plan.colors.map((i, k) => mapping(limits ? [limits.red, limits.green, limits.blue][k] : null, i >= 0 ? scan.fields[i] : null, [0, 255]))
    : null;
  const colorInvalid = plan.colorInvalid >= 0 ? columns.get(plan.colorInvalid)! : null;
  const { positions } = out;

  const keep = new Int32Array(BATCH_SIZE);

  // One plain loop per output: simpler loops run several times faster than one with branches.
  return (count: number): number => {
    let n = 0;
    if (invalid) {
      for (let i = 0; i < count; i++) if (invalid[i] === 0) keep[n++] = i;
    } else {
      for (let i = 0; i < count; i++) keep[i] = i;
      n = count;
    }
    if (plan.spherical) {
      for (let j = 0; j < n; j++) {
        const i = keep[j];
        const range = a[i];
        const flat = range * Math.cos(c[i]);
        positions[j * 3] = flat * Math.cos(b[i]);
        positions[j * 3 + 1] = flat * Math.sin(b[i]);
        positions[j * 3 + 2] = range * Math.sin(c[i]);
      }
    } else {
      for (let j = 0; j < n; j++) {
        const i = keep[j];
        positions[j * 3] = a[i];
        positions[j * 3 + 1] = b[i];
        positions[j * 3 + 2] = c[i];
      }
    }
    if (pose) {
      const [m0, m1, m2, m3, m4, m5, m6, m7, m8, tx, ty, tz] = pose;
      for (let p = 0; p < n * 3; p += 3) {
        const x = positions[p];
        const y = positions[p + 1];
        const z = positions[p + 2];
        positions[p] = m0 * x + m1 * y + m2 * z + tx;
        positions[p + 1] = m3 * x + m4 * y + m5 * z + ty;
        positions[p + 2] = m6 * x + m7 * y + m8 * z + tz;
      }
    }
    if (out.intensity) {
      const target = out.intensity;
      if (!intensity) target.fill(0, 0, n);
      else for (let j = 0; j < n; j++) target[j] = to16(intensity[keep[j]], iLow, iScale);
      if (intensity && intensityInvalid) for (let j = 0; j < n; j++) if (intensityInvalid[keep[j]] !== 0) target[j] = 0;
    }
    if (out.colors) {
      const target = out.colors;
      for (let k = 0; k < 3; k++) {
        const column = colors?.[k];
        if (!column) {
          for (let j = 0; j < n; j++) target[j * 3 + k] = 0;
          continue;
        }
        const [low, scale] = colorMaps![k];
        for (let j = 0; j < n; j++) target[j * 3 + k] = to16(column[keep[j]], low, scale);
      }
      if (colors && colorInvalid) for (let j = 0; j < n; j++) if (colorInvalid[keep[j]] !== 0) target.fill(0, j * 3, j * 3 + 3);
    }
    return n;
  };
}

function to16(v: number, low: number, scale: number): number {
  const m = Math.round((v - low) * scale);
  return m < 0 ? 0 : m > 65535 ? 65535 : m;
}

/**
 * [low, factor] mapping a value onto 0-65535: the scan's limits, else the field's own
 * integer range, else a usual range (floats 0-1, colours 0-255).
 */
function mapping(limits: [number, number] | null, field: E57Field | null, usual: [number, number]): [number, number] {
  let range = limits;
  if ((!range || !(range[1] > range[0])) && field && field.kind !== 'float' && field.bits <= 32 && field.bits > 0) {
    const f = field.kind === 'scaled' ? field.scale : 1;
    const o = field.kind === 'scaled' ? field.offset : 0;
    range = [field.minimum * f + o, field.maximum * f + o];
  }
  if (!range || !(range[1] > range[0])) range = usual;
  return [range[0], 65535 / (range[1] - range[0])];
}

/** The pose as a row-major rotation (9) and translation (3), or null for none. */
export function poseMatrix(pose: E57Pose | null): Float64Array | null {
  if (!pose) return null;
  let [w, x, y, z] = pose.rotation;
  const [tx, ty, tz] = pose.translation;
  const norm = Math.hypot(w, x, y, z);
  if (w === 1 && x === 0 && y === 0 && z === 0 && tx === 0 && ty === 0 && tz === 0) return null;
  if (!(norm > 0)) throw new PointCloudError('malformed', 'An E57 scan has a pose whose rotation is not a quaternion');
  w /= norm;
  x /= norm;
  y /= norm;
  z /= norm;
  return Float64Array.of(
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
    tx, ty, tz,
  );
}

/** A point through a pose matrix. */
export function transform(m: Float64Array | null, p: [number, number, number]): [number, number, number] {
  if (!m) return p;
  const [x, y, z] = p;
  return [m[0] * x + m[1] * y + m[2] * z + m[9], m[3] * x + m[4] * y + m[5] * z + m[10], m[6] * x + m[7] * y + m[8] * z + m[11]];
}
