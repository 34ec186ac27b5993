import { FileSource, type ByteSource } from './byte-source.js';

/**
 * What every scan reader (LAS/LAZ in las/, E57 in e57/) gives the converter: what the
 * file says of itself, then its points in batches, read as a stream (a 2 GB file is
 * never whole in memory).
 */
export interface PointCloudInfo {
  /** `las`, `laz` (COPC included) or `e57`. */
  format: 'las' | 'laz' | 'e57';
  /** Points the file says it holds, counted past 2^32 (exact up to 2^53); invalid points the batches drop are still in it. */
  pointCount: number;
  /** Bounds of the points (poses applied), when the file states them; null when only reading all points tells. */
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
  /** The points carry colour, intensity, classification. */
  hasColor: boolean;
  hasIntensity: boolean;
  hasClassification: boolean;
  /** The file's own resolution (LAS scale, E57 scaled-integer scale), or null (floats). */
  scale: [number, number, number] | null;
  /** The coordinate system (WKT or `EPSG:n`), or ''. */
  projection: string;
}

/** Points in a batch: positions in the file's coordinates (metres, poses applied), z up. */
export interface PointBatch {
  count: number;
  /** x, y, z per point. */
  positions: Float64Array;
  /** r, g, b per point, as stored (LAS: 16-bit, often 8-bit values; E57 scaled to 0-65535 by its colour limits). */
  colors?: Uint16Array;
  /** 0-65535 (E57's intensity limits mapped onto it). */
  intensity?: Uint16Array;
  /** LAS classification (0-255). */
  classification?: Uint8Array;
}

export interface PointReader {
  readonly info: PointCloudInfo;
  /**
   * The points in file order, in batches of up to about 64k; points the file marks invalid
   * are left out. Each call reads from the start again (a converter that needs the bounds
   * first makes two passes); a batch's arrays may be reused once the next is asked for.
   */
  batches(): AsyncIterable<PointBatch>;
  close(): Promise<void>;
}

/** Why a scan cannot be read; the import's status shows the message. */
export class PointCloudError extends Error {
  constructor(
    readonly reason: 'checksum' | 'truncated' | 'empty' | 'unsupported' | 'malformed',
    message: string,
  ) {
    super(message);
  }
}

/** The first bytes of each format. */
export const LAS_SIGNATURE = 'LASF';
export const E57_SIGNATURE = 'ASTM-E57';

/** The reader for a scan file, chosen by its first bytes. */
export async function openPointFile(path: string): Promise<PointReader> {
  const source = await FileSource.open(path);
  try {
    return await openPointSource(source);
  } catch (error) {
    await source.close();
    throw error;
  }
}

export async function openPointSource(source: ByteSource): Promise<PointReader> {
  if (source.size === 0) throw new PointCloudError('empty', 'The file is empty');
  const head = new TextDecoder().decode(await source.read(0, Math.min(8, source.size)));
  if (head.startsWith(LAS_SIGNATURE)) return (await import('./las/las-reader.js')).openLas(source);
  if (head === E57_SIGNATURE) return (await import('./e57/e57-reader.js')).openE57(source);
  throw new PointCloudError('unsupported', 'Not a point cloud this platform reads: LAS and LAZ files start with "LASF", E57 files with "ASTM-E57"');
}

