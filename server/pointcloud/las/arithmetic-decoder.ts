/**
 * LASzip's entropy decoder (an adaptive arithmetic coder after Amir Said's FastAC), only as
 * far as reading a LAZ chunk table needs it: laz-perf decodes the points themselves but
 * does not expose its table reader, and streaming chunk by chunk needs the table.
 *
 * All state is unsigned 32-bit, kept in JS numbers with `>>> 0` where a shift could carry
 * into the sign bit.
 */

const MIN_LENGTH = 0x01000000;
const MAX_LENGTH = 0xffffffff;
/** Symbol models count in 15 bits, bit models in 13. */
const DM_LENGTH_SHIFT = 15;
const DM_MAX_COUNT = 1 << DM_LENGTH_SHIFT;
const BM_LENGTH_SHIFT = 13;
const BM_MAX_COUNT = 1 << BM_LENGTH_SHIFT;

/** An adaptive model of `symbols` symbols, its distribution rebuilt as counts grow. */
export class SymbolModel {
  readonly distribution: Uint32Array;
  readonly counts: Uint32Array;
  /** Speeds up the search for a symbol when there are many (more than 16). */
  readonly table: Uint32Array | null;
  readonly tableShift: number;
  private readonly tableSize: number;
  private totalCount = 0;
  private updateCycle: number;
  untilUpdate: number;
  readonly last: number;

  constructor(readonly symbols: number) {
    this.distribution = new Uint32Array(symbols);
    this.counts = new Uint32Array(symbols).fill(1);
    this.last = symbols - 1;
    if (symbols > 16) {
      let bits = 3;
      while (symbols > 1 << (bits + 2)) bits++;
      this.tableSize = 1 << bits;
      this.tableShift = DM_LENGTH_SHIFT - bits;
      this.table = new Uint32Array(this.tableSize + 2);
    } else {
      this.tableSize = 0;
      this.tableShift = 0;
      this.table = null;
    }
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
    let s = 0;
    for (let k = 0; k < this.symbols; k++) {
      // scale * sum stays below 2^31, so the product is exact in a double.
      this.distribution[k] = Math.floor((scale * sum) / 2 ** (31 - DM_LENGTH_SHIFT));
      sum += this.counts[k];
      if (this.table) {
        const w = this.distribution[k] >>> this.tableShift;
        while (s < w) this.table[++s] = k - 1;
      }
    }
    if (this.table) {
      this.table[0] = 0;
      while (s <= this.tableSize) this.table[++s] = this.symbols - 1;
    }
    this.updateCycle = (5 * this.updateCycle) >>> 2;
    const maxCycle = (this.symbols + 6) << 3;
    if (this.updateCycle > maxCycle) this.updateCycle = maxCycle;
    this.untilUpdate = this.updateCycle;
  }
}

/** An adaptive model of one bit. */
export class BitModel {
  zeroCount = 1;
  bitCount = 2;
  zeroProbability = 1 << (BM_LENGTH_SHIFT - 1);
  private updateCycle = 4;
  untilUpdate = 4;

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

/** Reads symbols from `bytes`; past their end it reads zeros and counts them in `overrun`. */
export class ArithmeticDecoder {
  private value = 0;
  private length = MAX_LENGTH;
  private position: number;
  overrun = 0;

  constructor(private readonly bytes: Uint8Array, start = 0) {
    this.position = start;
    for (let i = 0; i < 4; i++) this.value = ((this.value << 8) | this.byte()) >>> 0;
  }

  private byte(): number {
    if (this.position < this.bytes.length) return this.bytes[this.position++];
    this.overrun++;
    return 0;
  }

  private renormalise() {
    do {
      this.value = ((this.value << 8) | this.byte()) >>> 0;
      this.length = (this.length << 8) >>> 0;
    } while (this.length < MIN_LENGTH);
  }

  decodeSymbol(m: SymbolModel): number {
    let sym: number;
    let x: number;
    let y = this.length;
    if (m.table) {
      this.length >>>= DM_LENGTH_SHIFT;
      const dv = Math.floor(this.value / this.length);
      const t = dv >>> m.tableShift;
      sym = m.table[t];
      let n = m.table[t + 1] + 1;
      while (n > sym + 1) {
        const k = (sym + n) >>> 1;
        if (m.distribution[k] > dv) n = k;
        else sym = k;
      }
      x = m.distribution[sym] * this.length;
      if (sym !== m.last) y = m.distribution[sym + 1] * this.length;
    } else {
      x = sym = 0;
      this.length >>>= DM_LENGTH_SHIFT;
      let n = m.symbols;
      let k = n >>> 1;
      do {
        const z = this.length * m.distribution[k];
        if (z > this.value) {
          n = k;
          y = z;
        } else {
          sym = k;
          x = z;
        }
      } while ((k = (sym + n) >>> 1) !== sym);
    }
    this.value -= x;
    this.length = y - x;
    if (this.length < MIN_LENGTH) this.renormalise();
    m.counts[sym]++;
    if (--m.untilUpdate === 0) m.update();
    return sym;
  }

  decodeBit(m: BitModel): number {
    const x = m.zeroProbability * (this.length >>> BM_LENGTH_SHIFT);
    const bit = this.value >= x ? 1 : 0;
    if (bit === 0) {
      this.length = x;
      m.zeroCount++;
    } else {
      this.value -= x;
      this.length -= x;
    }
    if (this.length < MIN_LENGTH) this.renormalise();
    if (--m.untilUpdate === 0) m.update();
    return bit;
  }

  /** `bits` raw bits (up to 32). */
  readBits(bits: number): number {
    if (bits > 19) {
      const low = this.readShort();
      return (this.readBits(bits - 16) * 0x10000 + low) >>> 0;
    }
    this.length >>>= bits;
    const sym = Math.floor(this.value / this.length);
    this.value -= this.length * sym;
    if (this.length < MIN_LENGTH) this.renormalise();
    return sym;
  }

  private readShort(): number {
    this.length >>>= 16;
    const sym = Math.floor(this.value / this.length);
    this.value -= this.length * sym;
    if (this.length < MIN_LENGTH) this.renormalise();
    return sym;
  }
}

/**
 * LASzip's integer decompressor for 32-bit values: each value is a prediction plus a
 * corrector coded as its bit count k (one model per context) then k bits (the high 8 by
 * a model per k, the rest raw).
 */
export class IntegerDecompressor {
  private readonly kModels: SymbolModel[];
  private readonly oneBit = new BitModel();
  private readonly correctors: (SymbolModel | null)[];
  private static readonly BITS = 32;
  private static readonly BITS_HIGH = 8;

  constructor(private readonly decoder: ArithmeticDecoder, contexts: number) {
    const { BITS, BITS_HIGH } = IntegerDecompressor;
    this.kModels = Array.from({ length: contexts }, () => new SymbolModel(BITS + 1));
    this.correctors = [null];
    for (let i = 1; i <= BITS; i++) this.correctors.push(new SymbolModel(1 << Math.min(i, BITS_HIGH)));
  }

  /** The value predicted as `prediction`, wrapped to 32 bits as LASzip does. */
  decompress(prediction: number, context: number): number {
    return (prediction + this.corrector(context)) | 0;
  }

  private corrector(context: number): number {
    const { BITS_HIGH } = IntegerDecompressor;
    const k = this.decoder.decodeSymbol(this.kModels[context]);
    if (k === 0) return this.decoder.decodeBit(this.oneBit);
    // k === 32: the smallest 32-bit integer.
    if (k >= 32) return -0x80000000;
    let c = this.decoder.decodeSymbol(this.correctors[k]!);
    if (k > BITS_HIGH) {
      const rest = k - BITS_HIGH;
      c = c * 2 ** rest + this.decoder.readBits(rest);
    }
    // Corrector values of k bits are [-(2^k - 1), -2^(k-1)] and [2^(k-1), 2^k].
    return c >= 2 ** (k - 1) ? c + 1 : c - (2 ** k - 1);
  }
}
