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
    const n = batch.count;
    const bytes = new Uint8Array(n * RECORD_LENGTH);
    const view = new DataView(bytes.buffer);
    const { positions, colors, intensity, classification, kind } = batch;
    const source = (batch.scan ?? 0) + 1;
    const time = batch.scan ?? 0;
    const inv = 1 / this.scale;
    const [ox, oy, oz] = this.offset;
    const lo = this.lo, hi = this.hi;
    for (let i = 0; i < n; i++) {
      const at = i * RECORD_LENGTH;
      const x = Math.round((positions[3 * i] - ox) * inv);
      const y = Math.round((positions[3 * i + 1] - oy) * inv);
      const z = Math.round((positions[3 * i + 2] - oz) * inv);
      if (!(Math.abs(x) <= 0x7fffffff && Math.abs(y) <= 0x7fffffff && Math.abs(z) <= 0x7fffffff)) {
        throw new RangeError(`LAS writer: point ${this.points + i} (${positions[3 * i]}, ${positions[3 * i + 1]}, ${positions[3 * i + 2]}) is too far from the offset for 32-bit integers`);
      }
      if (x < lo[0]) lo[0] = x;
      if (x > hi[0]) hi[0] = x;
      if (y < lo[1]) lo[1] = y;
      if (y > hi[1]) hi[1] = y;
      if (z < lo[2]) lo[2] = z;
      if (z > hi[2]) hi[2] = z;
      view.setInt32(at, x, true);
      view.setInt32(at + 4, y, true);
      view.setInt32(at + 8, z, true);
      view.setUint16(at + 12, intensity ? intensity[i] : 0, true);
      bytes[at + 14] = 0x11; // return 1 of 1
      bytes[at + 15] = 0; // no classification flags, channel 0
      bytes[at + 16] = classification ? classification[i] : 1; // 1: unclassified
      bytes[at + 17] = kind ? kind[i] : 0;
      // scan angle (18-19) 0
      view.setUint16(at + 20, source, true);
      view.setFloat64(at + 22, time, true);
      if (colors) {
        view.setUint16(at + 30, colors[3 * i], true);
        view.setUint16(at + 32, colors[3 * i + 1], true);
        view.setUint16(at + 34, colors[3 * i + 2], true);
      }
    }
    writeSync(this.fd, bytes);
    this.points += n;
  }

  /** Writes the header and closes the file; answers the count and the bounds as the header has them. */
  close() {
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
    ascii(this.software, 58, 32);
    view.setUint16(90, 1, true); // day of year: fixed, so the same points give the same bytes
    view.setUint16(92, 2025, true);
    view.setUint16(94, HEADER_SIZE, true);
    view.setUint32(96, this.pointOffset, true);
    view.setUint32(100, this.vlrCount, true);
    header[104] = 7;
    view.setUint16(105, RECORD_LENGTH, true);
    // legacy counts (107-130): 0, as formats 6-10 require
    for (let k = 0; k < 3; k++) {
      view.setFloat64(131 + 8 * k, this.scale, true);
      view.setFloat64(155 + 8 * k, this.offset[k], true);
    }
    const empty = this.points === 0;
    /** @type {Vec3} */ const min = [0, 0, 0];
    /** @type {Vec3} */ const max = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      min[k] = empty ? 0 : this.offset[k] + this.lo[k] * this.scale;
      max[k] = empty ? 0 : this.offset[k] + this.hi[k] * this.scale;
      view.setFloat64(179 + 16 * k, max[k], true);
      view.setFloat64(187 + 16 * k, min[k], true);
    }
    // waveform data (227) and extended VLRs (235, 243): none
    view.setBigUint64(247, BigInt(this.points), true);
    view.setBigUint64(255, BigInt(this.points), true); // all of them first returns
    writeSync(this.fd, header, 0, HEADER_SIZE, 0);
    closeSync(this.fd);
    return { points: this.points, min, max, bytes: this.pointOffset + this.points * RECORD_LENGTH };
  }
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
function projectionRecord(wkt) {
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
