import type { PointBatch, PointCloudInfo, PointReader } from '../point-reader.js';

/** Points held in arrays (generated clouds, tests): what a scan reader would give. */
export interface PointArrays {
  positions: Float64Array;
  colors?: Uint16Array;
  intensity?: Uint16Array;
  classification?: Uint8Array;
}

/**
 * A PointReader over arrays in memory, in batches like a file reader's (arrays reused from
 * batch to batch, as the contract allows). `info` fills in what the arrays say.
 */
export class ArrayPointReader implements PointReader {
  readonly info: PointCloudInfo;

  constructor(
    private readonly points: PointArrays,
    info: Partial<PointCloudInfo> = {},
    private readonly batchSize = 65536,
  ) {
    const count = points.positions.length / 3;
    this.info = {
      format: 'las',
      pointCount: count,
      bounds: boundsOf(points.positions),
      hasColor: !!points.colors,
      hasIntensity: !!points.intensity,
      hasClassification: !!points.classification,
      scale: null,
      projection: '',
      ...info,
    };
  }

  async *batches(): AsyncIterable<PointBatch> {
    const { positions, colors, intensity, classification } = this.points;
    const total = positions.length / 3;
    const batch: PointBatch = {
      count: 0,
      positions: new Float64Array(this.batchSize * 3),
      colors: colors && new Uint16Array(this.batchSize * 3),
      intensity: intensity && new Uint16Array(this.batchSize),
      classification: classification && new Uint8Array(this.batchSize),
    };
    for (let start = 0; start < total; start += this.batchSize) {
      const end = Math.min(total, start + this.batchSize);
      batch.count = end - start;
      batch.positions.set(positions.subarray(start * 3, end * 3));
      if (colors) batch.colors!.set(colors.subarray(start * 3, end * 3));
      if (intensity) batch.intensity!.set(intensity.subarray(start, end));
      if (classification) batch.classification!.set(classification.subarray(start, end));
      yield batch;
    }
  }

  async close(): Promise<void> {}
}

/** The bounds of x, y, z triples, or null when there are none. */
export function boundsOf(positions: Float64Array): PointCloudInfo['bounds'] {
  if (positions.length < 3) return null;
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = positions[i + a];
      if (v < min[a]) min[a] = v;
      if (v > max[a]) max[a] = v;
    }
  }
  return { min, max };
}

/**
 * Points on a sphere's surface (a scanned room's stand-in), with colour by position,
 * intensity and class: deterministic for a seed.
 */
export function spherePoints(count: number, options: { center?: [number, number, number]; radius?: number; seed?: number; eightBit?: boolean } = {}): PointArrays {
  const [cx, cy, cz] = options.center ?? [0, 0, 0];
  const radius = options.radius ?? 10;
  let seed = options.seed ?? 1;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const positions = new Float64Array(count * 3);
  const colors = new Uint16Array(count * 3);
  const intensity = new Uint16Array(count);
  const classification = new Uint8Array(count);
  const top = options.eightBit ? 255 : 65535;
  for (let i = 0; i < count; i++) {
    const z = 2 * random() - 1;
    const angle = 2 * Math.PI * random();
    const r = Math.sqrt(1 - z * z);
    const p = [r * Math.cos(angle), r * Math.sin(angle), z];
    positions[i * 3] = cx + radius * p[0];
    positions[i * 3 + 1] = cy + radius * p[1];
    positions[i * 3 + 2] = cz + radius * p[2];
    for (let c = 0; c < 3; c++) colors[i * 3 + c] = Math.round(((p[c] + 1) / 2) * top);
    intensity[i] = Math.floor(random() * 65536);
    classification[i] = z > 0 ? 2 : 6;
  }
  return { positions, colors, intensity, classification };
}
