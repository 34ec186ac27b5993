// @ts-check
/**
 * A LAS 1.4 writer, point format 7 (x, y, z, intensity, returns, classification, scan
 * angle, user data, point source, GPS time, RGB: 36 bytes a point), written from the
 * ASPRS specification for the sample scans. Points stream to the file a batch at a time;
 * the header's counts (64-bit) and bounds are counted while writing and patched in at the
 * end. Coordinates are integers of `scale` (default 1 mm) from `offset`, which the
 * caller gives before the first point (the scan knows where its points can be).
 *
 *   const las = new LasWriter('scan.las', { offset: [x0, y0, z0] });
 *   for (const batch of batches) las.write(batch);
 *   const { points, min, max } = las.close();
 *
 * Same points and options, same bytes (the header's date is fixed).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

/** @typedef {import('./frame.js').Vec3} Vec3 */
/**
 * @typedef {object} LasPoints a batch: what PointBatch holds, and what LAS keeps besides
 * @property {number} count
 * @property {Float64Array | number[]} positions x, y, z per point
 * @property {Uint16Array | number[]} [colors] r, g, b per point, 16-bit
 * @property {Uint16Array | number[]} [intensity]
 * @property {Uint8Array | number[]} [classification]
 * @property {Uint8Array | number[]} [kind] kept as each point's user data
 * @property {number} [scan] the scan's index: point source id `scan + 1`, GPS time `scan`
 */
/**
 * @typedef {object} LasOptions
 * @property {Vec3} offset
 * @property {number} [scale] metres per unit (default 0.001)
 * @property {string} [wkt] the coordinate system (OGC WKT), as a LASF_Projection record
 * @property {string} [software] generating software (32 characters at most)
 */

export const HEADER_SIZE = 375;
export const RECORD_LENGTH = 36;
const VLR_HEADER = 54;
/** Global encoding: bit 4, the coordinate system is WKT (required for point formats 6-10). */
const WKT_BIT = 16;

export class LasWriter {
  /**
   * @param {string} path
   * @param {LasOptions} options
   */
  constructor(path, options) {
    this.scale = options.scale ?? 0.001;
    this.offset = options.offset;
    if (!this.offset.every(Number.isFinite) || !(this.scale > 0)) throw new RangeError('LAS writer: the offset and scale must be finite numbers');
    this.software = options.software ?? 'bim-viewers samples/las-writer.js';
    this.fd = openSync(path, 'w');
    this.points = 0;
    /** @type {Vec3} integers */
    this.lo = [Infinity, Infinity, Infinity];
    /** @type {Vec3} */
    this.hi = [-Infinity, -Infinity, -Infinity];
    const vlr = options.wkt ? projectionRecord(options.wkt) : new Uint8Array(0);
    this.vlrCount = vlr.length ? 1 : 0;
    this.pointOffset = HEADER_SIZE + vlr.length;
    writeSync(this.fd, new Uint8Array(HEADER_SIZE)); // the header, written at the end
    if (vlr.length) writeSync(this.fd, vlr);
  }

  /** Appends a batch of points. @param {LasPoints} batch */
  write(batch) {
    writeSync(this.fd, encodePoints(batch, this.offset, this.scale, this.lo, this.hi));
    this.points += batch.count;
  }

  /**
   * Room for `count` records that another writer fills (a worker, at the file position
   * answered); their integer bounds come back through `include`.
   * @param {number} count
   */
  reserve(count) {
    const position = this.pointOffset + this.points * RECORD_LENGTH;
    this.points += count;
    return position;
  }

  /** Widens the bounds by records written elsewhere. @param {number[]} lo @param {number[]} hi integers */
  include(lo, hi) {
    for (let k = 0; k < 3; k++) {
      this.lo[k] = Math.min(this.lo[k], lo[k]);
      this.hi[k] = Math.max(this.hi[k], hi[k]);
    }
  }

  /** Writes the header and closes the file; answers the count and the bounds as the header has them. */
  close() {
    // Legacy counts (107-130) stay 0, as formats 6-10 require; all the points are first returns.
    const { header, min, max } = lasHeader(this, { format: 7, recordLength: RECORD_LENGTH, byReturn: [0, this.points], legacy: false });
    writeSync(this.fd, header, 0, HEADER_SIZE, 0);
    closeSync(this.fd);
    return { points: this.points, min, max, bytes: this.pointOffset + this.points * RECORD_LENGTH };
  }
}

/**
 * A LAS 1.4 header (375 bytes) for a writer's points: its counts, the bounds from its
 * integer extremes `lo` and `hi` (zeros when there are none), its VLRs; shared with
 * laz-writer.js. `byReturn[r]`: the points of return r (1-15); `legacy`: the 32-bit
 * counts of LAS 1.0-1.3 too (formats 0-5 only).
 * @param {{ software: string, pointOffset: number, vlrCount: number, scale: number, offset: Vec3, lo: number[], hi: number[], points: number }} writer
 * @param {{ format: number, recordLength: number, byReturn: number[], legacy: boolean }} kind
 * @returns {{ header: Uint8Array, min: Vec3, max: Vec3 }}
 */
export function lasHeader(writer, { format, recordLength, byReturn, legacy }) {
  const { software, pointOffset, vlrCount, scale, offset, lo, hi, points } = writer;
  const header = new Uint8Array(HEADER_SIZE);
  const view = new DataView(header.buffer);
  const ascii = (/** @type {string} */ text, /** @type {number} */ at, /** @type {number} */ length) => header.set(new TextEncoder().encode(text).subarray(0, length), at);
  ascii('LASF', 0, 4);
  view.setUint16(4, 0, true); // file source id
  view.setUint16(6, WKT_BIT, true);
  // GUID (8-23): zeros
  header[24] = 1;
  header[25] = 4;
  ascii('bim-viewers sample scan', 26, 32);
  ascii(software, 58, 32);
  view.setUint16(90, 1, true); // day of year: fixed, so the same points give the same bytes
  view.setUint16(92, 2025, true);
  view.setUint16(94, HEADER_SIZE, true);
  view.setUint32(96, pointOffset, true);
  view.setUint32(100, vlrCount, true);
  header[104] = format;
  view.setUint16(105, recordLength, true);
  if (legacy && points <= 0xffffffff) {
    view.setUint32(107, points, true);
    for (let r = 1; r <= 5; r++) view.setUint32(111 + 4 * (r - 1), byReturn[r] ?? 0, true);
  }
  /** @type {Vec3} */ const min = [0, 0, 0];
  /** @type {Vec3} */ const max = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    view.setFloat64(131 + 8 * k, scale, true);
    view.setFloat64(155 + 8 * k, offset[k], true);
    min[k] = points === 0 ? 0 : offset[k] + lo[k] * scale;
    max[k] = points === 0 ? 0 : offset[k] + hi[k] * scale;
    view.setFloat64(179 + 16 * k, max[k], true);
    view.setFloat64(187 + 16 * k, min[k], true);
  }
  // waveform data (227) and extended VLRs (235, 243): none
  view.setBigUint64(247, BigInt(points), true);
  for (let r = 1; r <= 15; r++) view.setBigUint64(255 + 8 * (r - 1), BigInt(byReturn[r] ?? 0), true);
  return { header, min, max };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * A batch as point records: integers of `scale` from `offset`; `lo` and `hi` (integers)
 * widen to hold them. Typed views where the machine is little-endian as LAS is, a DataView
 * elsewhere.
 * @param {LasPoints} batch
 * @param {number[]} offset
 * @param {number} scale
 * @param {number[]} lo
 * @param {number[]} hi
 */
export function encodePoints(batch, offset, scale, lo, hi) {
  const n = batch.count;
  const buffer = new ArrayBuffer(n * RECORD_LENGTH);
  const bytes = new Uint8Array(buffer);
  const { positions, colors, intensity, classification, kind } = batch;
  const source = (batch.scan ?? 0) + 1;
  const time = new Uint16Array(new Float64Array([batch.scan ?? 0]).buffer); // GPS time: the scan, as four 16-bit words
  const inv = 1 / scale;
  const [ox, oy, oz] = offset;
  let x0 = lo[0], y0 = lo[1], z0 = lo[2], x1 = hi[0], y1 = hi[1], z1 = hi[2];
  const view = LITTLE_ENDIAN ? null : new DataView(buffer);
  const words = new Uint16Array(buffer);
  const ints = new Int32Array(buffer);
  for (let i = 0; i < n; i++) {
    const x = Math.round((positions[3 * i] - ox) * inv);
    const y = Math.round((positions[3 * i + 1] - oy) * inv);
    const z = Math.round((positions[3 * i + 2] - oz) * inv);
    if (!(x >= -0x80000000 && x <= 0x7fffffff && y >= -0x80000000 && y <= 0x7fffffff && z >= -0x80000000 && z <= 0x7fffffff)) {
      throw new RangeError(`LAS writer: a point (${positions[3 * i]}, ${positions[3 * i + 1]}, ${positions[3 * i + 2]}) is too far from the offset for 32-bit integers`);
    }
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
    const at = i * RECORD_LENGTH;
    bytes[at + 14] = 0x11; // return 1 of 1
    // 15: no classification flags, channel 0
    bytes[at + 16] = classification ? classification[i] : 1; // 1: unclassified
    bytes[at + 17] = kind ? kind[i] : 0; // user data
    // 18-19: scan angle 0
    if (view) {
      view.setInt32(at, x, true);
      view.setInt32(at + 4, y, true);
      view.setInt32(at + 8, z, true);
      view.setUint16(at + 12, intensity ? intensity[i] : 0, true);
      view.setUint16(at + 20, source, true);
      view.setFloat64(at + 22, batch.scan ?? 0, true);
      if (colors) for (let c = 0; c < 3; c++) view.setUint16(at + 30 + 2 * c, colors[3 * i + c], true);
      continue;
    }
    const w = at >> 1, q = at >> 2; // records are 36 bytes: every field on its own alignment
    ints[q] = x;
    ints[q + 1] = y;
    ints[q + 2] = z;
    words[w + 6] = intensity ? intensity[i] : 0;
    words[w + 10] = source;
    words[w + 11] = time[0];
    words[w + 12] = time[1];
    words[w + 13] = time[2];
    words[w + 14] = time[3];
    if (colors) {
      words[w + 15] = colors[3 * i];
      words[w + 16] = colors[3 * i + 1];
      words[w + 17] = colors[3 * i + 2];
    }
  }
  lo[0] = x0; lo[1] = y0; lo[2] = z0;
  hi[0] = x1; hi[1] = y1; hi[2] = z1;
  return bytes;
}

/**
 * Writes batches (an iterable or async iterable) into a LAS file.
 * @param {string} path
 * @param {Iterable<LasPoints> | AsyncIterable<LasPoints>} batches
 * @param {LasOptions} options
 */
export async function writeLas(path, batches, options) {
  const las = new LasWriter(path, options);
  try {
    for await (const batch of batches) las.write(batch);
  } catch (error) {
    las.close();
    throw error;
  }
  return las.close();
}

/** A LASF_Projection variable length record (id 2112) holding the WKT, null-terminated. @param {string} wkt */
export function projectionRecord(wkt) {
  const text = new TextEncoder().encode(wkt);
  const record = new Uint8Array(VLR_HEADER + text.length + 1);
  const view = new DataView(record.buffer);
  record.set(new TextEncoder().encode('LASF_Projection'), 2);
  view.setUint16(18, 2112, true);
  view.setUint16(20, text.length + 1, true);
  record.set(new TextEncoder().encode('OGC coordinate system WKT').subarray(0, 32), 22);
  record.set(text, VLR_HEADER);
  return record;
}

/**
 * The WKT of a UTM zone on WGS 84 (`EPSG:326zz` north, `EPSG:327zz` south), or '' for other systems.
 * @param {string} crs
 */
export function utmWkt(crs) {
  const m = /^EPSG:32([67])(\d\d)$/.exec(crs);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 60) return '';
  const zone = Number(m[2]);
  const north = m[1] === '6';
  return (
    `PROJCS["WGS 84 / UTM zone ${zone}${north ? 'N' : 'S'}",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],` +
    `PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",${zone * 6 - 183}],PARAMETER["scale_factor",0.9996],` +
    `PARAMETER["false_easting",500000],PARAMETER["false_northing",${north ? 0 : 10000000}],UNIT["metre",1],AXIS["Easting",EAST],AXIS["Northing",NORTH],AUTHORITY["EPSG","${crs.slice(5)}"]]`
  );
}
