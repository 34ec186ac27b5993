// @ts-check
/**
 * An E57 writer (ASTM E2807) for the sample generator and the reader's tests, written
 * from the standard: a file of 1024-byte pages (the last 4 bytes of each the CRC-32C of
 * the other 1020, big-endian), a compressed vector section per scan (bit-packed data
 * packets of at most 64 KiB, so a field's values straddle packets), then the XML.
 * Points are streamed: a scan's `read()` yields batches of columns and nothing holds a
 * whole scan; when the scan does not state its bounds, `read()` is called twice (a
 * pre-pass for the bounds and the scaled-integer ranges, then the writing pass).
 *
 *   await writeE57('out.e57', [{
 *     name: 'A', coordinates: 'cartesian', points: 2,
 *     pose: { rotation: [w, x, y, z], translation: [x, y, z] },          // optional
 *     fields: { x: { type: 'scaled', scale: 0.001 }, y: ..., z: ...,     // or { type: 'float', precision: 'single' | 'double' }
 *               intensity: { min: 0, max: 4095 }, red: {}, green: {}, blue: {}, invalid: true },
 *     read: function* () { yield { x: [0, 1], y: [0, 0], z: [0, 0], intensity: [5, 9], red: [...], green: [...], blue: [...], invalid: [0, 0] }; },
 *   }]);
 *
 * Spherical scans have `range`, `azimuth`, `elevation` (radians) instead of x, y, z.
 * `invalid` is the E57 invalid state per point: 0 a point, 1 a direction only, 2 no point.
 * Intensity is an Integer field (default 0..65535) or, with `type: 'float'`, a single
 * float field; its limits are `min`/`max`. Colours are Integer fields (default 0..255).
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * @typedef {{ type?: 'scaled', scale: number, offset?: number } | { type: 'float', precision?: 'single' | 'double' }} E57CoordinateField
 * @typedef {{ type?: 'integer' | 'float', min?: number, max?: number }} E57IntensityField
 * @typedef {{ min?: number, max?: number }} E57ColorField
 * @typedef {object} E57Fields which fields the scan's records hold, and how they are stored
 * @property {E57CoordinateField} [x]
 * @property {E57CoordinateField} [y]
 * @property {E57CoordinateField} [z]
 * @property {E57CoordinateField} [range]
 * @property {E57CoordinateField} [azimuth]
 * @property {E57CoordinateField} [elevation]
 * @property {E57IntensityField} [intensity]
 * @property {E57ColorField} [red]
 * @property {E57ColorField} [green]
 * @property {E57ColorField} [blue]
 * @property {boolean} [invalid] a cartesianInvalidState / sphericalInvalidState field (0..2)
 *
 * @typedef {{ [field: string]: ArrayLike<number> }} E57Columns one batch: a column per field, all of one length
 *
 * @typedef {object} E57Scan
 * @property {string} name
 * @property {{ rotation: [number, number, number, number], translation: [number, number, number] }} [pose]
 * @property {'cartesian' | 'spherical'} coordinates
 * @property {number} points how many records `read()` yields in all
 * @property {E57Fields} fields
 * @property {() => Iterable<E57Columns> | AsyncIterable<E57Columns>} read the records, in batches
 * @property {{ min: [number, number, number], max: [number, number, number] } | null} [bounds]
 *   the cartesian box of the valid points, scan coordinates (no pose); null writes no cartesianBounds; missing: a pre-pass measures it
 * @property {{ range: [number, number], azimuth: [number, number], elevation: [number, number] }} [sphericalBounds]
 *   spherical scans: the ranges of their values; missing: a pre-pass measures them
 *
 * @typedef {object} E57WriteOptions
 * @property {number} [packetBytes] largest data packet (default and most 65536); tests make it small
 */

const PAGE = 1024;
const PAYLOAD = 1020;
const CRC_TABLE = crcTable();

/** CRC-32C (Castagnoli), the page checksum of E57. */
function crcTable() {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
}

/** @param {Uint8Array} bytes @param {number} start @param {number} end */
export function crc32c(bytes, start = 0, end = bytes.length) {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** @param {number} logical */
const physical = (logical) => Math.floor(logical / PAYLOAD) * PAGE + (logical % PAYLOAD);

/** Logical bytes in, checksummed pages out to the file; a few bytes can be patched afterwards. */
class PagedFile {
  /** @param {string} path */
  constructor(path) {
    this.fd = openSync(path, 'w+');
    this.out = new Uint8Array(PAGE * 256); // pages waiting to be written
    this.outPages = 0;
    this.writtenPages = 0;
    this.page = new Uint8Array(PAGE);
    this.fill = 0; // bytes of the current page
  }

  get logical() {
    return (this.writtenPages + this.outPages) * PAYLOAD + this.fill;
  }

  /** @param {Uint8Array} bytes */
  write(bytes) {
    let at = 0;
    while (at < bytes.length) {
      const n = Math.min(PAYLOAD - this.fill, bytes.length - at);
      this.page.set(bytes.subarray(at, at + n), this.fill);
      this.fill += n;
      at += n;
      if (this.fill === PAYLOAD) this.endPage();
    }
  }

  /** @param {number} n */
  zeros(n) {
    this.write(new Uint8Array(n));
  }

  endPage() {
    this.page.fill(0, this.fill, PAYLOAD);
    new DataView(this.page.buffer).setUint32(PAYLOAD, crc32c(this.page, 0, PAYLOAD), false);
    this.out.set(this.page, this.outPages * PAGE);
    this.outPages++;
    this.fill = 0;
    if (this.outPages * PAGE === this.out.length) this.flush();
  }

  flush() {
    writeSync(this.fd, this.out, 0, this.outPages * PAGE, this.writtenPages * PAGE);
    this.writtenPages += this.outPages;
    this.outPages = 0;
  }

  /** Overwrite bytes already written (section and file headers), checksums recomputed. @param {number} logical @param {Uint8Array} bytes */
  patch(logical, bytes) {
    this.flush();
    let at = 0;
    while (at < bytes.length) {
      const index = Math.floor((logical + at) / PAYLOAD);
      const within = (logical + at) % PAYLOAD;
      const n = Math.min(PAYLOAD - within, bytes.length - at);
      if (index === this.writtenPages) {
        this.page.set(bytes.subarray(at, at + n), within);
      } else {
        const page = new Uint8Array(PAGE);
        readSync(this.fd, page, 0, PAGE, index * PAGE);
        page.set(bytes.subarray(at, at + n), within);
        new DataView(page.buffer).setUint32(PAYLOAD, crc32c(page, 0, PAYLOAD), false);
        writeSync(this.fd, page, 0, PAGE, index * PAGE);
      }
      at += n;
    }
  }

  /** Pads the last page and closes; answers the physical length. */
  close() {
    if (this.fill > 0) this.endPage();
    this.flush();
    closeSync(this.fd);
    return this.writtenPages * PAGE;
  }
}

/** One field's bytestream: values bit-packed (or IEEE floats) into a buffer the packets drain. */
class Bytestream {
  constructor() {
    this.bytes = new Uint8Array(1 << 16);
    this.start = 0;
    this.end = 0;
    this.acc = 0; // bits not yet a whole byte
    this.accBits = 0;
  }

  get available() {
    return this.end - this.start;
  }

  /** @param {number} n */
  reserve(n) {
    if (this.end + n <= this.bytes.length) return;
    const live = this.bytes.subarray(this.start, this.end);
    const next = this.end - this.start + n > this.bytes.length / 2 ? new Uint8Array(Math.max(this.bytes.length * 2, live.length + n)) : this.bytes;
    next.set(live, 0);
    this.bytes = next;
    this.end -= this.start;
    this.start = 0;
  }

  /** Writes `bits` low bits of a non-negative integer (up to 2^53), least significant first. @param {number} value @param {number} bits */
  bits(value, bits) {
    while (bits > 0) {
      const n = Math.min(bits, 24);
      const piece = value % 0x1000000;
      value = Math.floor(value / 0x1000000);
      this.acc |= (piece & ((1 << n) - 1)) << this.accBits;
      this.accBits += n;
      bits -= n;
      while (this.accBits >= 8) {
        this.bytes[this.end++] = this.acc & 255;
        this.acc >>>= 8;
        this.accBits -= 8;
      }
    }
  }

  /** The last partial byte, at the end of the scan. */
  finish() {
    this.reserve(1);
    if (this.accBits > 0) this.bytes[this.end++] = this.acc & 255;
    this.acc = 0;
    this.accBits = 0;
  }

  /** @param {number} n */
  take(n) {
    const out = this.bytes.subarray(this.start, this.start + n);
    this.start += n;
    return out;
  }
}

/**
 * How one field is stored: its XML element and how a value becomes bits.
 * @typedef {object} FieldCodec
 * @property {string} key the column in the batches
 * @property {string} name the E57 element name
 * @property {(stream: Bytestream, values: ArrayLike<number>, count: number) => void} encode
 * @property {() => string} xml the prototype element
 * @property {number} [bitsPerRecord]
 */

/** @param {number} min @param {number} max */
const bitsFor = (min, max) => (max > min ? Math.ceil(Math.log2(max - min + 1)) : 0);

/** @param {number} v */
const num = (v) => {
  if (!Number.isFinite(v)) throw new RangeError(`E57 writer: ${v} is not a finite number`);
  return String(v);
};

/** @param {string} key @param {string} name @param {number} min @param {number} max @returns {FieldCodec} */
function integerField(key, name, min, max) {
  const bits = bitsFor(min, max);
  return {
    key,
    name,
    bitsPerRecord: bits,
    xml: () => `<${name} type="Integer" minimum="${num(min)}" maximum="${num(max)}"/>`,
    encode(stream, values, count) {
      stream.reserve(Math.ceil((count * bits) / 8) + 8);
      for (let i = 0; i < count; i++) {
        const v = Math.round(values[i]);
        if (!(v >= min && v <= max)) throw new RangeError(`E57 writer: ${name} ${values[i]} is outside ${min}..${max}`);
        if (bits) stream.bits(v - min, bits);
      }
    },
  };
}

/** @param {string} key @param {string} name @param {'single' | 'double'} precision @returns {FieldCodec} */
function floatField(key, name, precision) {
  const size = precision === 'single' ? 4 : 8;
  return {
    key,
    name,
    xml: () => `<${name} type="Float" precision="${precision}"/>`,
    encode(stream, values, count) {
      stream.reserve(count * size);
      const view = new DataView(stream.bytes.buffer, stream.bytes.byteOffset);
      for (let i = 0; i < count; i++) {
        if (size === 4) view.setFloat32(stream.end, values[i], true);
        else view.setFloat64(stream.end, values[i], true);
        stream.end += size;
      }
    },
  };
}

/** @param {string} key @param {string} name @param {number} scale @param {number} offset @param {number} low @param {number} high value range @returns {FieldCodec} */
function scaledField(key, name, scale, offset, low, high) {
  const min = Math.round((low - offset) / scale);
  const max = Math.round((high - offset) / scale);
  const bits = bitsFor(min, max);
  if (bits > 53) throw new RangeError(`E57 writer: ${name} needs ${bits} bits at scale ${scale}`);
  return {
    key,
    name,
    bitsPerRecord: bits,
    xml: () => `<${name} type="ScaledInteger" minimum="${min}" maximum="${max}" scale="${num(scale)}" offset="${num(offset)}"/>`,
    encode(stream, values, count) {
      stream.reserve(Math.ceil((count * bits) / 8) + 8);
      for (let i = 0; i < count; i++) {
        const raw = Math.round((values[i] - offset) / scale);
        if (!(raw >= min && raw <= max)) throw new RangeError(`E57 writer: ${name} ${values[i]} is outside the stated ${low}..${high}`);
        if (bits) stream.bits(raw - min, bits);
      }
    },
  };
}

/**
 * The ranges the XML and the scaled integers need, from one pass over the records.
 * @param {E57Scan} scan
 */
async function measure(scan) {
  const keys = scan.coordinates === 'spherical' ? ['range', 'azimuth', 'elevation'] : ['x', 'y', 'z'];
  /** @type {Record<string, [number, number]>} every record, for the scaled ranges */
  const all = {};
  for (const key of keys) all[key] = [Infinity, -Infinity];
  const box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  for await (const batch of scan.read()) {
    const count = batch[keys[0]].length;
    const [a, b, c] = keys.map((key) => batch[key]);
    for (let i = 0; i < count; i++) {
      const values = [a[i], b[i], c[i]];
      for (let k = 0; k < 3; k++) {
        const range = all[keys[k]];
        if (values[k] < range[0]) range[0] = values[k];
        if (values[k] > range[1]) range[1] = values[k];
      }
      if (batch.invalid && batch.invalid[i] !== 0) continue;
      const p = scan.coordinates === 'spherical' ? cartesian(a[i], b[i], c[i]) : values;
      for (let k = 0; k < 3; k++) {
        if (p[k] < box.min[k]) box.min[k] = p[k];
        if (p[k] > box.max[k]) box.max[k] = p[k];
      }
    }
  }
  return { all, box };
}

/** @param {number} range @param {number} azimuth @param {number} elevation */
function cartesian(range, azimuth, elevation) {
  const flat = range * Math.cos(elevation);
  return [flat * Math.cos(azimuth), flat * Math.sin(azimuth), range * Math.sin(elevation)];
}

const NAMES = /** @type {Record<string, string>} */ ({
  x: 'cartesianX',
  y: 'cartesianY',
  z: 'cartesianZ',
  range: 'sphericalRange',
  azimuth: 'sphericalAzimuth',
  elevation: 'sphericalElevation',
});

/**
 * Writes scans into an E57 file.
 * @param {string} path
 * @param {E57Scan[]} scans
 * @param {E57WriteOptions} [options]
 * @returns {Promise<{ bytes: number, points: number }>}
 */
export async function writeE57(path, scans, options = {}) {
  const packetBytes = Math.min(65536, Math.max(64, options.packetBytes ?? 65536));
  const file = new PagedFile(path);
  file.zeros(48); // the file header, written last
  const xmlScans = [];
  let points = 0;
  for (const [index, scan] of scans.entries()) {
    xmlScans.push(await writeScan(file, scan, index, packetBytes));
    points += scan.points;
  }
  const xml = new TextEncoder().encode(documentXml(xmlScans));
  const xmlOffset = physical(file.logical);
  file.write(xml);
  const length = Math.ceil(file.logical / PAYLOAD) * PAGE;
  const head = new Uint8Array(48);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode('ASTM-E57'), 0);
  view.setUint32(8, 1, true);
  view.setUint32(12, 0, true);
  view.setBigUint64(16, BigInt(length), true);
  view.setBigUint64(24, BigInt(xmlOffset), true);
  view.setBigUint64(32, BigInt(xml.length), true);
  view.setBigUint64(40, BigInt(PAGE), true);
  file.patch(0, head);
  const bytes = file.close();
  return { bytes, points };
}

/**
 * One scan's compressed vector section; answers its XML.
 * @param {PagedFile} file @param {E57Scan} scan @param {number} index @param {number} packetBytes
 */
async function writeScan(file, scan, index, packetBytes) {
  const spherical = scan.coordinates === 'spherical';
  const keys = spherical ? ['range', 'azimuth', 'elevation'] : ['x', 'y', 'z'];
  const fields = scan.fields;
  const coordinate = (/** @type {string} */ key) => /** @type {E57CoordinateField | undefined} */ (fields[/** @type {keyof E57Fields} */ (key)]);
  const needsScaledRange = keys.some((key) => coordinate(key)?.type !== 'float') && (spherical ? !scan.sphericalBounds : !scan.bounds);
  const measured = scan.bounds === undefined || (spherical && !scan.sphericalBounds) || needsScaledRange ? await measure(scan) : null;
  const box = scan.bounds === undefined ? measured?.box : scan.bounds;
  /** @type {Record<string, [number, number]>} */
  const ranges = spherical
    ? scan.sphericalBounds
      ? { range: scan.sphericalBounds.range, azimuth: scan.sphericalBounds.azimuth, elevation: scan.sphericalBounds.elevation }
      : /** @type {NonNullable<typeof measured>} */ (measured).all
    : scan.bounds
      ? { x: [scan.bounds.min[0], scan.bounds.max[0]], y: [scan.bounds.min[1], scan.bounds.max[1]], z: [scan.bounds.min[2], scan.bounds.max[2]] }
      : /** @type {NonNullable<typeof measured>} */ (measured).all;

  /** @type {FieldCodec[]} */
  const codecs = [];
  for (const key of keys) {
    const spec = coordinate(key);
    if (!spec) throw new TypeError(`E57 writer: scan ${scan.name} has no ${key}`);
    if (spec.type === 'float') codecs.push(floatField(key, NAMES[key], spec.precision ?? 'double'));
    else {
      const [low, high] = ranges[key];
      const empty = !(low <= high);
      codecs.push(scaledField(key, NAMES[key], spec.scale, spec.offset ?? 0, empty ? 0 : low, empty ? 0 : high));
    }
  }
  if (fields.invalid) codecs.push(integerField('invalid', spherical ? 'sphericalInvalidState' : 'cartesianInvalidState', 0, 2));
  const intensity = fields.intensity ? { type: fields.intensity.type ?? 'integer', min: fields.intensity.min ?? 0, max: fields.intensity.max ?? 65535 } : null;
  if (intensity) codecs.push(intensity.type === 'float' ? floatField('intensity', 'intensity', 'single') : integerField('intensity', 'intensity', intensity.min, intensity.max));
  /** @type {Record<string, [number, number]>} */
  const colors = {};
  for (const [key, name] of [['red', 'colorRed'], ['green', 'colorGreen'], ['blue', 'colorBlue']]) {
    const spec = fields[/** @type {'red'} */ (key)];
    if (!spec) continue;
    colors[key] = [spec.min ?? 0, spec.max ?? 255];
    codecs.push(integerField(key, name, colors[key][0], colors[key][1]));
  }

  // Section header (patched once the length is known), then data packets.
  while (file.logical % 4) file.zeros(1);
  const sectionStart = file.logical;
  file.zeros(32);
  const dataOffset = physical(file.logical);
  const streams = codecs.map(() => new Bytestream());
  const budget = packetBytes - 6 - 2 * streams.length - 3;
  if (budget < streams.length) throw new RangeError(`E57 writer: packets of ${packetBytes} bytes cannot hold ${streams.length} bytestreams`);
  let written = 0;

  /** Writes packets while the streams hold a packet's worth (all of it at the end). @param {boolean} last */
  const drain = (last) => {
    for (;;) {
      const total = streams.reduce((sum, s) => sum + s.available, 0);
      if (total === 0 || (!last && total < budget)) return;
      // Each stream gives a share of the packet by its bytes waiting: record boundaries fall anywhere.
      const share = total <= budget ? streams.map((s) => s.available) : streams.map((s) => Math.floor((s.available * budget) / total));
      const body = share.reduce((a, b) => a + b, 0);
      const length = Math.ceil((6 + 2 * streams.length + body) / 4) * 4;
      const packet = new Uint8Array(length);
      const view = new DataView(packet.buffer);
      packet[0] = 1; // data packet
      view.setUint16(2, length - 1, true);
      view.setUint16(4, streams.length, true);
      let at = 6 + 2 * streams.length;
      streams.forEach((s, i) => {
        view.setUint16(6 + 2 * i, share[i], true);
        packet.set(s.take(share[i]), at);
        at += share[i];
      });
      file.write(packet);
    }
  };

  for await (const batch of scan.read()) {
    const count = batch[keys[0]].length;
    if (written + count > scan.points) throw new RangeError(`E57 writer: scan ${scan.name} yields more than its ${scan.points} points`);
    codecs.forEach((codec, i) => {
      const values = batch[codec.key];
      if (!values || values.length !== count) throw new TypeError(`E57 writer: scan ${scan.name} batch lacks ${count} ${codec.key} values`);
      codec.encode(streams[i], values, count);
    });
    written += count;
    drain(false);
  }
  if (written !== scan.points) throw new RangeError(`E57 writer: scan ${scan.name} yields ${written} points, not ${scan.points}`);
  for (const s of streams) s.finish();
  drain(true);

  const header = new Uint8Array(32);
  const view = new DataView(header.buffer);
  header[0] = 1; // compressed vector section
  view.setBigUint64(8, BigInt(file.logical - sectionStart), true);
  view.setBigUint64(16, BigInt(dataOffset), true);
  view.setBigUint64(24, 0n, true); // no index packet
  file.patch(sectionStart, header);

  return scanXml(scan, index, physical(sectionStart), codecs, box ?? null, spherical ? ranges : null, intensity, colors);
}

/** @param {string} text */
const cdata = (text) => `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
/** @param {string} name @param {number} v */
const float = (name, v) => `<${name} type="Float">${num(v)}</${name}>`;
/** @param {string} name @param {number} v */
const integer = (name, v) => `<${name} type="Integer">${num(v)}</${name}>`;

/** @param {string} seed a stable GUID from a name (files of the same input are the same bytes) */
function guid(seed) {
  const h = createHash('sha256').update(seed).digest('hex');
  return `{${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}}`;
}

/**
 * @param {E57Scan} scan @param {number} index @param {number} offset @param {FieldCodec[]} codecs
 * @param {{ min: number[], max: number[] } | null} box @param {Record<string, [number, number]> | null} spherical
 * @param {{ type: string, min: number, max: number } | null} intensity @param {Record<string, [number, number]>} colors
 */
function scanXml(scan, index, offset, codecs, box, spherical, intensity, colors) {
  const parts = [`<guid type="String">${cdata(guid(`${index}:${scan.name}`))}</guid>`, `<name type="String">${cdata(scan.name)}</name>`];
  if (scan.pose) {
    const [w, x, y, z] = scan.pose.rotation;
    const [tx, ty, tz] = scan.pose.translation;
    parts.push(
      `<pose type="Structure"><rotation type="Structure">${float('w', w)}${float('x', x)}${float('y', y)}${float('z', z)}</rotation>` +
        `<translation type="Structure">${float('x', tx)}${float('y', ty)}${float('z', tz)}</translation></pose>`,
    );
  }
  if (box && box.min.every((v, k) => v <= box.max[k])) {
    parts.push(
      `<cartesianBounds type="Structure">${float('xMinimum', box.min[0])}${float('xMaximum', box.max[0])}${float('yMinimum', box.min[1])}` +
        `${float('yMaximum', box.max[1])}${float('zMinimum', box.min[2])}${float('zMaximum', box.max[2])}</cartesianBounds>`,
    );
  }
  if (spherical && spherical.range[0] <= spherical.range[1]) {
    parts.push(
      `<sphericalBounds type="Structure">${float('rangeMinimum', spherical.range[0])}${float('rangeMaximum', spherical.range[1])}` +
        `${float('elevationMinimum', spherical.elevation[0])}${float('elevationMaximum', spherical.elevation[1])}` +
        `${float('azimuthStart', spherical.azimuth[0])}${float('azimuthEnd', spherical.azimuth[1])}</sphericalBounds>`,
    );
  }
  if (intensity) {
    const limit = intensity.type === 'float' ? float : integer;
    parts.push(`<intensityLimits type="Structure">${limit('intensityMinimum', intensity.min)}${limit('intensityMaximum', intensity.max)}</intensityLimits>`);
  }
  if (Object.keys(colors).length) {
    const limits = [['red', 'Red'], ['green', 'Green'], ['blue', 'Blue']]
      .filter(([key]) => colors[key])
      .map(([key, name]) => integer(`color${name}Minimum`, colors[key][0]) + integer(`color${name}Maximum`, colors[key][1]));
    parts.push(`<colorLimits type="Structure">${limits.join('')}</colorLimits>`);
  }
  parts.push(
    `<points type="CompressedVector" fileOffset="${offset}" recordCount="${scan.points}">` +
      `<prototype type="Structure">${codecs.map((c) => c.xml()).join('')}</prototype>` +
      `<codecs type="Vector" allowHeterogeneousChildren="1"/></points>`,
  );
  return `<vectorChild type="Structure">${parts.join('\n')}</vectorChild>`;
}

/** @param {string[]} scans */
function documentXml(scans) {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<e57Root type="Structure" xmlns="http://www.astm.org/COMMIT/E57/2010-e57-v1.0">\n` +
    `<formatName type="String">${cdata('ASTM E57 3D Imaging Data File')}</formatName>\n` +
    `<guid type="String">${cdata(guid(scans.join('')))}</guid>\n` +
    `<versionMajor type="Integer">1</versionMajor>\n<versionMinor type="Integer">0</versionMinor>\n` +
    `<coordinateMetadata type="String"/>\n` +
    `<data3D type="Vector" allowHeterogeneousChildren="1">\n${scans.join('\n')}\n</data3D>\n` +
    `<images2D type="Vector" allowHeterogeneousChildren="1"/>\n</e57Root>\n`
  );
}
