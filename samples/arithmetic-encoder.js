// @ts-check
/**
 * LASzip's entropy coder, the writing side: an adaptive arithmetic coder after Amir Said's
 * FastAC (symbol models of up to 256 symbols and more, bit models, raw bits), and LASzip's
 * integer compressor on top of it. Written from the LAZ specification as the counterpart
 * of server/pointcloud/las/arithmetic-decoder.ts: a model must change exactly as the
 * decoder's does, or every symbol after the first difference decodes wrong.
 *
 * The coder's state is unsigned 32-bit, kept in JS numbers: `base` as a plain number below
 * 2^32 (an addition past it is the carry), lengths with `>>>`.
 */

const MIN_LENGTH = 0x01000000;
const MAX_LENGTH = 0xffffffff;
const TWO_32 = 4294967296;
/** Symbol models count in 15 bits, bit models in 13 (as the decoder). */
const DM_LENGTH_SHIFT = 15;
const DM_MAX_COUNT = 1 << DM_LENGTH_SHIFT;
const BM_LENGTH_SHIFT = 13;
const BM_MAX_COUNT = 1 << BM_LENGTH_SHIFT;

/** An adaptive model of `symbols` symbols; its distribution is rebuilt as counts grow, less often as it settles. */
export class SymbolModel {
  /** @param {number} symbols */
  constructor(symbols) {
    this.symbols = symbols;
    this.last = symbols - 1;
    this.distribution = new Uint32Array(symbols);
    this.counts = new Uint32Array(symbols).fill(1);
    this.totalCount = 0;
    this.updateCycle = symbols;
    this.untilUpdate = symbols;
    this.update();
    this.updateCycle = this.untilUpdate = (symbols + 6) >>> 1;
  }

  update() {
    this.totalCount += this.updateCycle;
    if (this.totalCount > DM_MAX_COUNT) {
      this.totalCount = 0;
      for (let n = 0; n < this.symbols; n++) this.totalCount += this.counts[n] = (this.counts[n] + 1) >>> 1;
    }
    const scale = Math.floor(0x80000000 / this.totalCount);
    let sum = 0;
    for (let k = 0; k < this.symbols; k++) {
      // scale * sum stays below 2^31: exact in a double, then the shift as a division.
      this.distribution[k] = Math.floor((scale * sum) / 2 ** (31 - DM_LENGTH_SHIFT));
      sum += this.counts[k];
    }
    this.updateCycle = (5 * this.updateCycle) >>> 2;
    const maxCycle = (this.symbols + 6) << 3;
    if (this.updateCycle > maxCycle) this.updateCycle = maxCycle;
    this.untilUpdate = this.updateCycle;
  }
}

/** An adaptive model of one bit. */
export class BitModel {
  constructor() {
    this.zeroCount = 1;
    this.bitCount = 2;
    this.zeroProbability = 1 << (BM_LENGTH_SHIFT - 1);
    this.updateCycle = 4;
    this.untilUpdate = 4;
  }

  update() {
    this.bitCount += this.updateCycle;
    if (this.bitCount > BM_MAX_COUNT) {
      this.bitCount = (this.bitCount + 1) >>> 1;
      this.zeroCount = (this.zeroCount + 1) >>> 1;
      if (this.zeroCount === this.bitCount) this.bitCount++;
    }
    const scale = Math.floor(0x80000000 / this.bitCount);
    this.zeroProbability = Math.floor((this.zeroCount * scale) / 2 ** (31 - BM_LENGTH_SHIFT));
    this.updateCycle = (5 * this.updateCycle) >>> 2;
    if (this.updateCycle > 64) this.updateCycle = 64;
    this.untilUpdate = this.updateCycle;
  }
}

/** Codes symbols into bytes that grow as needed; `done()` answers them. */
export class ArithmeticEncoder {
  /** @param {number} [capacity] bytes to start with */
  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(capacity);
    this.end = 0;
    this.base = 0;
    this.length = MAX_LENGTH;
  }

  /** @param {SymbolModel} m @param {number} symbol */
  encodeSymbol(m, symbol) {
    const d = m.distribution;
    let base = this.base, length = this.length;
    if (symbol === m.last) {
      // The last symbol takes the rest of the interval: no second product.
      const x = d[symbol] * (length >>> DM_LENGTH_SHIFT);
      base += x;
      length -= x;
    } else {
      length = length >>> DM_LENGTH_SHIFT;
      const x = d[symbol] * length;
      base += x;
      length = d[symbol + 1] * length - x;
    }
    this.base = base;
    this.length = length;
    if (base >= TWO_32) this.carry();
    if (length < MIN_LENGTH) this.renormalise();
    m.counts[symbol]++;
    if (--m.untilUpdate === 0) m.update();
  }

  /** @param {BitModel} m @param {number} bit 0 or 1 */
  encodeBit(m, bit) {
    const x = m.zeroProbability * (this.length >>> BM_LENGTH_SHIFT);
    if (bit === 0) {
      this.length = x;
      m.zeroCount++;
    } else {
      this.base += x;
      this.length -= x;
      if (this.base >= TWO_32) this.carry();
    }
    if (this.length < MIN_LENGTH) this.renormalise();
    if (--m.untilUpdate === 0) m.update();
  }

  /** `bits` raw bits of `value` (up to 32): above 19, the low 16 first. @param {number} bits @param {number} value */
  writeBits(bits, value) {
    if (bits > 19) {
      this.writeShort(value & 0xffff);
      value = value >>> 16;
      bits -= 16;
    }
    this.length = this.length >>> bits;
    this.base += value * this.length;
    if (this.base >= TWO_32) this.carry();
    if (this.length < MIN_LENGTH) this.renormalise();
  }

  /** @param {number} value 16 bits */
  writeShort(value) {
    this.length = this.length >>> 16;
    this.base += value * this.length;
    if (this.base >= TWO_32) this.carry();
    if (this.length < MIN_LENGTH) this.renormalise();
  }

  /** A 32-bit value raw, low 16 bits first. @param {number} value */
  writeInt(value) {
    this.writeShort(value & 0xffff);
    this.writeShort(value >>> 16);
  }

  /**
   * Ends the code: enough of `base` to pin a value inside the last interval, then zeros so
   * the decoder's reads ahead (it starts with four bytes) stay within the code. Answers the
   * bytes (a view of the encoder's buffer, valid until it is used again).
   */
  done() {
    let another = true;
    if (this.length > 2 * MIN_LENGTH) {
      this.base += MIN_LENGTH;
      this.length = MIN_LENGTH >>> 1; // one more byte
    } else {
      this.base += MIN_LENGTH >>> 1;
      this.length = MIN_LENGTH >>> 9; // two more bytes
      another = false;
    }
    if (this.base >= TWO_32) this.carry();
    this.renormalise();
    this.put(0);
    this.put(0);
    if (another) this.put(0);
    return this.bytes.subarray(0, this.end);
  }

  /** Starts a new code in the same buffer. */
  reset() {
    this.end = 0;
    this.base = 0;
    this.length = MAX_LENGTH;
  }

  /** `base` went past 2^32: add the carry to the bytes already out (a run of 0xff becomes zeros). */
  carry() {
    this.base -= TWO_32;
    let p = this.end - 1;
    while (this.bytes[p] === 0xff) this.bytes[p--] = 0;
    this.bytes[p]++;
  }

  renormalise() {
    do {
      this.put(this.base >>> 24);
      this.base = (this.base << 8) >>> 0;
      this.length = (this.length << 8) >>> 0;
    } while (this.length < MIN_LENGTH);
  }

  /** @param {number} byte */
  put(byte) {
    if (this.end === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.end++] = byte;
  }
}

/** The high bits of a corrector a model codes; the rest go raw. */
const BITS_HIGH = 8;

/**
 * LASzip's integer compressor: a value is coded as its difference from a prediction, the
 * corrector c: first k, the number of bits of the interval [-(2^k - 1), 2^k] that holds it
 * (a model per context), then c's place in that interval, by a model per k (its high 8 bits
 * when k > 8, the rest raw). `k` stays readable: the point compressor picks later contexts
 * by it.
 */
export class IntegerCompressor {
  /**
   * @param {ArithmeticEncoder} encoder
   * @param {number} [bits] of the values (16 or 32); correctors wrap into this many bits
   * @param {number} [contexts]
   */
  constructor(encoder, bits = 16, contexts = 1) {
    this.encoder = encoder;
    if (bits < 32) {
      this.corrBits = bits;
      this.corrRange = 2 ** bits;
      this.corrMin = -(this.corrRange / 2);
      this.corrMax = this.corrMin + this.corrRange - 1;
    } else {
      // 32 bits: the difference wraps as an int32 does (`| 0`), nothing more to fold.
      this.corrBits = 32;
      this.corrRange = 0;
      this.corrMin = -0x80000000;
      this.corrMax = 0x7fffffff;
    }
    this.kModels = Array.from({ length: contexts }, () => new SymbolModel(this.corrBits + 1));
    this.zeroOrOne = new BitModel();
    /** @type {SymbolModel[]} index k (0 unused) */
    this.correctors = [new SymbolModel(2)];
    for (let i = 1; i <= this.corrBits; i++) this.correctors.push(new SymbolModel(1 << Math.min(i, BITS_HIGH)));
    this.k = 0;
  }

  /** @param {number} prediction @param {number} real @param {number} [context] */
  compress(prediction, real, context = 0) {
    let c = (real - prediction) | 0;
    if (c < this.corrMin) c += this.corrRange;
    else if (c > this.corrMax) c -= this.corrRange;
    const encoder = this.encoder;
    // k: the bits of |c| (c - 1 when positive: the interval reaches up to 2^k); -2^31 gives 32.
    const magnitude = c <= 0 ? -c : c - 1;
    const k = magnitude === 0 ? 0 : 32 - Math.clz32(magnitude);
    this.k = k;
    encoder.encodeSymbol(this.kModels[context], k);
    if (k === 0) {
      encoder.encodeBit(this.zeroOrOne, c); // c is 0 or 1
      return;
    }
    if (k === 32) return; // the one value of that interval
    // Into [0, 2^k - 1]: negatives [-(2^k - 1), -2^(k-1)] to the lower half, positives [2^(k-1) + 1, 2^k] to the upper.
    const v = c < 0 ? c + (0xffffffff >>> (32 - k)) : c - 1;
    if (k <= BITS_HIGH) {
      encoder.encodeSymbol(this.correctors[k], v);
    } else {
      const low = k - BITS_HIGH;
      encoder.encodeSymbol(this.correctors[k], v >>> low);
      encoder.writeBits(low, v & ((1 << low) - 1));
    }
  }
}
