// @ts-check
/**
 * One LAZ chunk of LAS point format 3 records (34 bytes: x, y, z, intensity, returns,
 * classification, scan angle, user data, point source, GPS time, RGB), compressed
 * pointwise with LASzip's version-2 items POINT10, GPSTIME11 and RGB12, written from the
 * LAZ specification: the chunk's first record raw, then every later record coded against
 * the ones before it (samples/arithmetic-encoder.js). Each chunk starts afresh, so chunks
 * compress apart (in worker threads) into the same bytes as in one stream.
 *
 *   const chunk = new ChunkEncoder();
 *   chunk.add(records, 0, count);          // as many times as needed
 *   const bytes = chunk.finish();          // chunk.lo, chunk.hi: the integer bounds
 */
import { ArithmeticEncoder, IntegerCompressor, SymbolModel } from './arithmetic-encoder.js';

export const RECORD_LENGTH = 34;

/**
 * Records are coded in the contexts of their return: m for the intensity and the xy
 * medians (16 kinds of return r of n), l = |n - r| for the last height.
 */
const RETURN_MAP = [
  [15, 14, 13, 12, 11, 10, 9, 8],
  [14, 0, 1, 3, 6, 10, 10, 9],
  [13, 1, 2, 4, 7, 11, 11, 10],
  [12, 3, 4, 5, 8, 12, 12, 11],
  [11, 6, 7, 8, 9, 13, 13, 12],
  [10, 10, 11, 12, 13, 14, 14, 13],
  [9, 10, 11, 12, 13, 14, 15, 14],
  [8, 9, 10, 11, 12, 13, 14, 15],
].flat();
const RETURN_LEVEL = Array.from({ length: 64 }, (_, i) => Math.abs((i >> 3) - (i & 7)));

/** The median of the last five values added (cheaply kept sorted), the prediction of the next x or y step. */
class Median5 {
  constructor() {
    this.v = [0, 0, 0, 0, 0];
    this.high = true;
  }

  /** @param {number} x */
  add(x) {
    const v = this.v;
    if (this.high) {
      if (x < v[2]) {
        v[4] = v[3];
        v[3] = v[2];
        if (x < v[0]) {
          v[2] = v[1];
          v[1] = v[0];
          v[0] = x;
        } else if (x < v[1]) {
          v[2] = v[1];
          v[1] = x;
        } else v[2] = x;
      } else {
        if (x < v[3]) {
          v[4] = v[3];
          v[3] = x;
        } else v[4] = x;
        this.high = false;
      }
    } else if (v[2] < x) {
      v[0] = v[1];
      v[1] = v[2];
      if (v[4] < x) {
        v[2] = v[3];
        v[3] = v[4];
        v[4] = x;
      } else if (v[3] < x) {
        v[2] = v[3];
        v[3] = x;
      } else v[2] = x;
    } else {
      if (v[1] < x) {
        v[0] = v[1];
        v[1] = x;
      } else v[0] = x;
      this.high = true;
    }
  }

  get() {
    return this.v[2];
  }
}

/** POINT10 v2: the first 20 bytes of a record (x, y, z, intensity, flags, class, angle, user data, source). */
class Point10 {
  /** @param {ArithmeticEncoder} encoder @param {DataView} view @param {number} at the first record */
  constructor(encoder, view, at) {
    this.encoder = encoder;
    this.changed = new SymbolModel(64);
    this.intensityCoder = new IntegerCompressor(encoder, 16, 4);
    this.scanAngle = [new SymbolModel(256), new SymbolModel(256)];
    this.sourceCoder = new IntegerCompressor(encoder, 16);
    /** Models by the previous value, made when first needed. @type {(SymbolModel | undefined)[]} */
    this.flagModels = [];
    /** @type {(SymbolModel | undefined)[]} */
    this.classModels = [];
    /** @type {(SymbolModel | undefined)[]} */
    this.userModels = [];
    this.dx = new IntegerCompressor(encoder, 32, 2);
    this.dy = new IntegerCompressor(encoder, 32, 22);
    this.dz = new IntegerCompressor(encoder, 32, 20);
    this.lastIntensity = new Uint16Array(16);
    this.xMedians = Array.from({ length: 16 }, () => new Median5());
    this.yMedians = Array.from({ length: 16 }, () => new Median5());
    this.lastHeight = new Int32Array(8);
    this.x = view.getInt32(at, true);
    this.y = view.getInt32(at + 4, true);
    this.z = view.getInt32(at + 8, true);
    this.intensity = view.getUint16(at + 12, true);
    this.flags = view.getUint8(at + 14);
    this.classification = view.getUint8(at + 15);
    this.angle = view.getUint8(at + 16);
    this.user = view.getUint8(at + 17);
    this.source = view.getUint16(at + 18, true);
  }

  /** @param {DataView} view @param {number} at */
  write(view, at) {
    const e = this.encoder;
    const x = view.getInt32(at, true), y = view.getInt32(at + 4, true), z = view.getInt32(at + 8, true);
    const intensity = view.getUint16(at + 12, true);
    const flags = view.getUint8(at + 14), classification = view.getUint8(at + 15), angle = view.getUint8(at + 16), user = view.getUint8(at + 17);
    const source = view.getUint16(at + 18, true);
    const r = flags & 7, n = (flags >> 3) & 7;
    const m = RETURN_MAP[n * 8 + r], l = RETURN_LEVEL[n * 8 + r];
    // Which fields changed since the previous record (intensity: since the last of this return kind).
    const changed =
      ((flags !== this.flags ? 1 : 0) << 5) |
      ((intensity !== this.lastIntensity[m] ? 1 : 0) << 4) |
      ((classification !== this.classification ? 1 : 0) << 3) |
      ((angle !== this.angle ? 1 : 0) << 2) |
      ((user !== this.user ? 1 : 0) << 1) |
      (source !== this.source ? 1 : 0);
    e.encodeSymbol(this.changed, changed);
    if (changed & 32) e.encodeSymbol((this.flagModels[this.flags] ??= new SymbolModel(256)), flags);
    if (changed & 16) {
      this.intensityCoder.compress(this.lastIntensity[m], intensity, m < 3 ? m : 3);
      this.lastIntensity[m] = intensity;
    }
    if (changed & 8) e.encodeSymbol((this.classModels[this.classification] ??= new SymbolModel(256)), classification);
    if (changed & 4) e.encodeSymbol(this.scanAngle[(flags >> 6) & 1], (angle - this.angle) & 0xff);
    if (changed & 2) e.encodeSymbol((this.userModels[this.user] ??= new SymbolModel(256)), user);
    if (changed & 1) this.sourceCoder.compress(this.source, source);

    // x and y: the step from the previous record, predicted by the median of the last five steps of this return kind.
    const single = n === 1 ? 1 : 0;
    const stepX = (x - this.x) | 0;
    this.dx.compress(this.xMedians[m].get(), stepX, single);
    this.xMedians[m].add(stepX);
    const kx = this.dx.k;
    const stepY = (y - this.y) | 0;
    this.dy.compress(this.yMedians[m].get(), stepY, single + (kx < 20 ? kx & ~1 : 20));
    this.yMedians[m].add(stepY);
    // z: predicted by the last height of the same return level, in the context of how far x and y moved.
    const kxy = (this.dx.k + this.dy.k) >>> 1;
    this.dz.compress(this.lastHeight[l], z, single + (kxy < 18 ? kxy & ~1 : 18));
    this.lastHeight[l] = z;

    this.x = x;
    this.y = y;
    this.z = z;
    this.intensity = intensity;
    this.flags = flags;
    this.classification = classification;
    this.angle = angle;
    this.user = user;
    this.source = source;
  }
}

/** GPSTIME11 v2's symbols: multipliers of the last time step up to 500, down to -10, and escapes. */
const MULTI = 500;
const MULTI_MINUS = -10;
const MULTI_UNCHANGED = MULTI - MULTI_MINUS + 1;
const MULTI_CODE_FULL = MULTI - MULTI_MINUS + 2;
const MULTI_TOTAL = MULTI - MULTI_MINUS + 6;

/**
 * GPSTIME11 v2: a time is coded by its 64-bit pattern (the double's bits as an integer):
 * the change from the previous time as a multiple of the last change, or a jump to one of
 * four sequences of times, or a new sequence (the high 32 bits coded, the low raw).
 * Patterns are kept as two 32-bit halves: `hi` signed, `lo` unsigned.
 */
class GpsTime11 {
  /** @param {ArithmeticEncoder} encoder @param {DataView} view @param {number} at the time's bytes in the first record */
  constructor(encoder, view, at) {
    this.encoder = encoder;
    this.multi = new SymbolModel(MULTI_TOTAL);
    this.zeroDiff = new SymbolModel(6);
    this.coder = new IntegerCompressor(encoder, 32, 9);
    this.last = 0;
    this.next = 0;
    this.hi = new Int32Array(4);
    this.lo = new Uint32Array(4);
    this.lastDiff = new Int32Array(4);
    this.extremes = new Int32Array(4);
    this.hi[0] = view.getInt32(at + 4, true);
    this.lo[0] = view.getUint32(at, true);
  }

  /**
   * this - sequence s's time as an int32, or null when the 64-bit difference does not fit.
   * @param {number} hi @param {number} lo @param {number} s
   */
  diff(hi, lo, s) {
    let low = lo - this.lo[s];
    let high = hi - this.hi[s];
    if (low < 0) {
      low += 4294967296;
      high -= 1;
    }
    if (high === 0 && low < 0x80000000) return low;
    if (high === -1 && low >= 0x80000000) return low - 4294967296;
    return null;
  }

  /** @param {DataView} view @param {number} at */
  write(view, at) {
    const lo = view.getUint32(at, true), hi = view.getInt32(at + 4, true);
    this.code(hi, lo);
  }

  /** @param {number} hi @param {number} lo */
  code(hi, lo) {
    const e = this.encoder;
    const last = this.last;
    const same = hi === this.hi[last] && lo === this.lo[last];
    if (this.lastDiff[last] === 0) {
      if (same) {
        e.encodeSymbol(this.zeroDiff, 0);
        return;
      }
      const d = this.diff(hi, lo, last);
      if (d !== null) {
        e.encodeSymbol(this.zeroDiff, 1);
        this.coder.compress(0, d, 0);
        this.lastDiff[last] = d;
        this.extremes[last] = 0;
      } else {
        for (let i = 1; i < 4; i++) {
          if (this.diff(hi, lo, (last + i) & 3) !== null) {
            e.encodeSymbol(this.zeroDiff, i + 2); // another sequence's: code it there
            this.last = (last + i) & 3;
            this.code(hi, lo);
            return;
          }
        }
        e.encodeSymbol(this.zeroDiff, 2);
        this.newSequence(hi, lo);
      }
    } else {
      if (same) {
        e.encodeSymbol(this.multi, MULTI_UNCHANGED);
        return;
      }
      const d = this.diff(hi, lo, last);
      if (d !== null) {
        const lastDiff = this.lastDiff[last];
        // The multiplier as LASzip rounds it: a float quotient, rounded half away from zero in float.
        const f = Math.fround(Math.fround(d) / Math.fround(lastDiff));
        const multi = f >= 0 ? Math.trunc(Math.fround(f + 0.5)) : Math.trunc(Math.fround(f - 0.5));
        if (multi === 1) {
          e.encodeSymbol(this.multi, 1);
          this.coder.compress(lastDiff, d, 1);
          this.extremes[last] = 0;
        } else if (multi > 0) {
          if (multi < MULTI) {
            e.encodeSymbol(this.multi, multi);
            this.coder.compress(Math.imul(multi, lastDiff), d, multi < 10 ? 2 : 3);
          } else {
            e.encodeSymbol(this.multi, MULTI);
            this.coder.compress(Math.imul(MULTI, lastDiff), d, 4);
            this.extreme(last, d);
          }
        } else if (multi < 0) {
          if (multi > MULTI_MINUS) {
            e.encodeSymbol(this.multi, MULTI - multi);
            this.coder.compress(Math.imul(multi, lastDiff), d, 5);
          } else {
            e.encodeSymbol(this.multi, MULTI - MULTI_MINUS);
            this.coder.compress(Math.imul(MULTI_MINUS, lastDiff), d, 6);
            this.extreme(last, d);
          }
        } else {
          e.encodeSymbol(this.multi, 0);
          this.coder.compress(0, d, 7);
          this.extreme(last, d);
        }
      } else {
        for (let i = 1; i < 4; i++) {
          if (this.diff(hi, lo, (last + i) & 3) !== null) {
            e.encodeSymbol(this.multi, MULTI_CODE_FULL + i);
            this.last = (last + i) & 3;
            this.code(hi, lo);
            return;
          }
        }
        e.encodeSymbol(this.multi, MULTI_CODE_FULL);
        this.newSequence(hi, lo);
      }
    }
    this.hi[this.last] = hi;
    this.lo[this.last] = lo;
  }

  /** A step far off the multiples: after four in a row it becomes the new step. @param {number} s @param {number} d */
  extreme(s, d) {
    if (++this.extremes[s] > 3) {
      this.lastDiff[s] = d;
      this.extremes[s] = 0;
    }
  }

  /** A time no sequence is near: it starts the next sequence. @param {number} hi @param {number} lo */
  newSequence(hi, lo) {
    this.coder.compress(this.hi[this.last], hi, 8);
    this.encoder.writeInt(lo);
    this.next = (this.next + 1) & 3;
    this.last = this.next;
    this.lastDiff[this.last] = 0;
    this.extremes[this.last] = 0;
  }
}

/** RGB12 v2: which bytes of the three channels changed, then red's change, green's and blue's predicted from it. */
class Rgb12 {
  /** @param {ArithmeticEncoder} encoder @param {DataView} view @param {number} at the colour's bytes in the first record */
  constructor(encoder, view, at) {
    this.encoder = encoder;
    this.used = new SymbolModel(128);
    this.diffs = Array.from({ length: 6 }, () => new SymbolModel(256));
    this.r = view.getUint16(at, true);
    this.g = view.getUint16(at + 2, true);
    this.b = view.getUint16(at + 4, true);
  }

  /** @param {DataView} view @param {number} at */
  write(view, at) {
    const e = this.encoder;
    const r = view.getUint16(at, true), g = view.getUint16(at + 2, true), b = view.getUint16(at + 4, true);
    const { r: lr, g: lg, b: lb } = this;
    const grey = (r & 0xff) === (g & 0xff) && (r & 0xff) === (b & 0xff) && (r & 0xff00) === (g & 0xff00) && (r & 0xff00) === (b & 0xff00);
    const used =
      ((lr & 0xff) !== (r & 0xff) ? 1 : 0) |
      ((lr & 0xff00) !== (r & 0xff00) ? 2 : 0) |
      ((lg & 0xff) !== (g & 0xff) ? 4 : 0) |
      ((lg & 0xff00) !== (g & 0xff00) ? 8 : 0) |
      ((lb & 0xff) !== (b & 0xff) ? 16 : 0) |
      ((lb & 0xff00) !== (b & 0xff00) ? 32 : 0) |
      (grey ? 0 : 64);
    e.encodeSymbol(this.used, used);
    let low = 0, high = 0;
    if (used & 1) {
      low = (r & 0xff) - (lr & 0xff);
      e.encodeSymbol(this.diffs[0], low & 0xff);
    }
    if (used & 2) {
      high = (r >> 8) - (lr >> 8);
      e.encodeSymbol(this.diffs[1], high & 0xff);
    }
    // A grey colour is red's alone: green and blue are not coded.
    if (used & 64) {
      if (used & 4) e.encodeSymbol(this.diffs[2], ((g & 0xff) - clamp(low + (lg & 0xff))) & 0xff);
      if (used & 16) {
        low = Math.trunc((low + (g & 0xff) - (lg & 0xff)) / 2);
        e.encodeSymbol(this.diffs[4], ((b & 0xff) - clamp(low + (lb & 0xff))) & 0xff);
      }
      if (used & 8) e.encodeSymbol(this.diffs[3], ((g >> 8) - clamp(high + (lg >> 8))) & 0xff);
      if (used & 32) {
        high = Math.trunc((high + (g >> 8) - (lg >> 8)) / 2);
        e.encodeSymbol(this.diffs[5], ((b >> 8) - clamp(high + (lb >> 8))) & 0xff);
      }
    }
    this.r = r;
    this.g = g;
    this.b = b;
  }
}

/** @param {number} v */
const clamp = (v) => (v < 0 ? 0 : v > 255 ? 255 : v);

/** A chunk being compressed: records go in with `add`, its bytes come out of `finish`. */
export class ChunkEncoder {
  /** @param {ArithmeticEncoder} [encoder] a coder to reuse (its buffer) */
  constructor(encoder = new ArithmeticEncoder(1 << 20)) {
    this.encoder = encoder;
    encoder.reset();
    this.count = 0;
    this.first = new Uint8Array(RECORD_LENGTH);
    /** @type {Point10 | null} */
    this.point = null;
    /** @type {GpsTime11 | null} */
    this.time = null;
    /** @type {Rgb12 | null} */
    this.rgb = null;
    /** Integer bounds of the records, and counts by return number (0-7). */
    this.lo = [Infinity, Infinity, Infinity];
    this.hi = [-Infinity, -Infinity, -Infinity];
    this.byReturn = new Array(8).fill(0);
  }

  /**
   * Compresses `count` records of `records` from record `from`.
   * @param {Uint8Array} records
   * @param {number} from
   * @param {number} count
   */
  add(records, from, count) {
    const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
    const { lo, hi, byReturn } = this;
    let x0 = lo[0], y0 = lo[1], z0 = lo[2], x1 = hi[0], y1 = hi[1], z1 = hi[2];
    for (let i = from, at = from * RECORD_LENGTH; i < from + count; i++, at += RECORD_LENGTH) {
      const x = view.getInt32(at, true), y = view.getInt32(at + 4, true), z = view.getInt32(at + 8, true);
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
      byReturn[records[at + 14] & 7]++;
      if (this.point && this.time && this.rgb) {
        this.point.write(view, at);
        this.time.write(view, at + 20);
        this.rgb.write(view, at + 28);
      } else {
        // The first record: raw, and every item's starting state.
        this.first.set(records.subarray(at, at + RECORD_LENGTH));
        this.point = new Point10(this.encoder, view, at);
        this.time = new GpsTime11(this.encoder, view, at + 20);
        this.rgb = new Rgb12(this.encoder, view, at + 28);
      }
      this.count++;
    }
    lo[0] = x0; lo[1] = y0; lo[2] = z0;
    hi[0] = x1; hi[1] = y1; hi[2] = z1;
  }

  /** The chunk's bytes: the first record raw, then the code of the rest (a new array). */
  finish() {
    if (this.count === 0) throw new Error('LAZ writer: a chunk needs at least one point');
    const code = this.encoder.done();
    const bytes = new Uint8Array(RECORD_LENGTH + code.length);
    bytes.set(this.first);
    bytes.set(code, RECORD_LENGTH);
    return bytes;
  }
}
