import type { ByteSource } from '../byte-source.js';
import { PointCloudError, type PointBatch, type PointCloudInfo, type PointReader } from '../point-reader.js';
import { parseE57Xml, type E57Scan } from './e57-xml.js';
import { PagedFile, toLogical } from './pages.js';
import { BatchArrays, planScan, poseMatrix, scanBatches, transform } from './scan-points.js';

/**
 * An E57 file (ASTM E2807) as a PointReader: the header and XML are read at open, the
 * scans' compressed vectors page by page as the batches are asked for.
 */
export async function openE57(source: ByteSource): Promise<PointReader> {
  const file = await PagedFile.open(source);
  const { xmlPhysicalOffset, xmlLogicalLength, physicalLength } = file.header;
  if (xmlLogicalLength === 0 || xmlLogicalLength > physicalLength) {
    throw new PointCloudError('malformed', `The E57 file's XML section length (${xmlLogicalLength} bytes) is impossible`);
  }
  const xmlBytes = await file.read(toLogical(xmlPhysicalOffset, 'XML offset'), xmlLogicalLength);
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(xmlBytes);
  } catch {
    throw new PointCloudError('malformed', "The E57 file's XML section is not UTF-8 text");
  }
  const scans = parseE57Xml(xml);
  if (scans.length === 0) throw new PointCloudError('empty', 'The E57 file holds no scans');
  const pointCount = scans.reduce((sum, s) => sum + s.recordCount, 0);
  if (pointCount === 0) throw new PointCloudError('empty', `The E57 file's ${scans.length === 1 ? 'scan has' : `${scans.length} scans have`} no points`);
  for (const scan of scans) {
    // A record count the file could not hold (damaged XML) would otherwise read on for ever.
    const bits = scan.fields.reduce((sum, f) => sum + f.bits, 0);
    if ((bits > 0 && (scan.recordCount * bits) / 8 > physicalLength) || (bits === 0 && scan.recordCount > 2 ** 32)) {
      throw new PointCloudError('malformed', `E57 scan "${scan.name}" claims ${scan.recordCount} records, more than the file holds`);
    }
  }
  const plans = scans.map((scan) => (scan.recordCount > 0 ? planScan(scan) : null));
  const info: PointCloudInfo = {
    format: 'e57',
    pointCount,
    bounds: bounds(scans),
    hasColor: plans.some((p) => p?.colors),
    hasIntensity: plans.some((p) => p && p.intensity >= 0),
    hasClassification: false,
    scale: scale(scans),
    projection: '',
  };
  return {
    info,
    async *batches(): AsyncGenerator<PointBatch> {
      const arrays = new BatchArrays(info.hasColor, info.hasIntensity);
      for (const scan of scans) yield* scanBatches(file, scan, arrays);
    },
    close: () => source.close(),
  };
}

/** The box of every scan's cartesianBounds, each through its pose (8 corners); null when one lacks them. */
function bounds(scans: E57Scan[]): PointCloudInfo['bounds'] {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const scan of scans) {
    if (scan.recordCount === 0) continue;
    if (!scan.bounds) return null;
    const m = poseMatrix(scan.pose);
    for (let corner = 0; corner < 8; corner++) {
      const p = transform(m, [0, 1, 2].map((k) => ((corner >> k) & 1 ? scan.bounds!.max[k] : scan.bounds!.min[k])) as [number, number, number]);
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k], p[k]);
        max[k] = Math.max(max[k], p[k]);
      }
    }
  }
  return min.every(Number.isFinite) && max.every(Number.isFinite) ? { min, max } : null;
}

/** The coarsest scaled-integer step of cartesian coordinates, per axis; null when any scan stores them otherwise. */
function scale(scans: E57Scan[]): [number, number, number] | null {
  const out: [number, number, number] = [0, 0, 0];
  for (const scan of scans) {
    if (scan.recordCount === 0) continue;
    for (const [k, name] of ['cartesianX', 'cartesianY', 'cartesianZ'].entries()) {
      const field = scan.fields.find((f) => f.name === name);
      if (!field || field.kind !== 'scaled') return null;
      out[k] = Math.max(out[k], Math.abs(field.scale));
    }
  }
  return out;
}
