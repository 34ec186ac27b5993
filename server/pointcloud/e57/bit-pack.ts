import type { E57Field } from './e57-xml.js';

/**
 * The bit-pack codec (ASTM E2807 §9.8.2) for one field: its bytestream is the bytes of
 * every data packet run together; Integer and ScaledInteger values are (value - minimum)
 * in a fixed number of bits, least significant first, and may straddle bytes and packets;
 * Float values are little-endian IEEE. Packets append bytes, `decode` takes values out.
 */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

export class BitPackDecoder {
  private bytes = new Uint8Array(1 << 16);
  private scratch = new ArrayBuffer(0);
  private bitPos = 0;
  private byteEnd = 0;

  constructor(readonly field: E57Field) {}

  /** A packet's share of this field's bytestream. */
  append(chunk: Uint8Array) {
    const keep = this.bitPos >>> 3;
    const live = this.byteEnd - keep;
    // 8 spare bytes so the bit reader can look a word ahead without a bounds check.
    const need = live + chunk.length + 8;
    if (need > this.bytes.length) {
      const grown = new Uint8Array(Math.max(need, this.bytes.length * 2));
      grown.set(this.bytes.subarray(keep, this.byteEnd));
      this.bytes = grown;
    } else if (keep > 0) {
      this.bytes.copyWithin(0, keep, this.byteEnd);
    }
    this.bitPos -= keep * 8;
    this.byteEnd = live;
    this.bytes.set(chunk, live);
    this.byteEnd += chunk.length;
    this.bytes.fill(0, this.byteEnd, this.byteEnd + 8);
  }

  /** How many whole values the bytes hold (a zero-bit field holds any number). */
  get available(): number {
    const bits = this.field.bits;
    return bits === 0 ? Infinity : Math.floor((this.byteEnd * 8 - this.bitPos) / bits);
  }

  /** Decodes `count` values into out[at...]: the field's value (scaled integers scaled). */
  decode(out: Float64Array, at: number, count: number) {
    const { kind, bits, scale, offset } = this.field;
    const end = at + count;
    if (kind === 'float') {
      const size = bits >>> 3;
      const pos = this.bitPos >>> 3;
      if (!LITTLE_ENDIAN) {
        const view = new DataView(this.bytes.buffer);
        for (let i = 0; i < count; i++) out[at + i] = size === 4 ? view.getFloat32(pos + i * 4, true) : view.getFloat64(pos + i * 8, true);
        this.bitPos = (pos + count * size) * 8;
        return;
      }
      // Copied to an aligned scratch array and read as floats: E57 and this machine are little-endian.
      if (this.scratch.byteLength < count * size) this.scratch = new ArrayBuffer(count * 8);
      new Uint8Array(this.scratch, 0, count * size).set(this.bytes.subarray(pos, pos + count * size));
      out.set(size === 4 ? new Float32Array(this.scratch, 0, count) : new Float64Array(this.scratch, 0, count), at);
      this.bitPos = (pos + count * size) * 8;
      return;
    }
    const min = this.field.minimum;
    const scaled = kind === 'scaled';
    if (bits === 0) {
      const v = scaled ? min * scale + offset : min;
      out.fill(v, at, end);
      return;
    }
    if (bits > 52) return this.decodeWide(out, at, count);
    const b = this.bytes;
    let pos = this.bitPos;
    if (bits <= 25) {
      // One 32-bit window holds the value and its shift (at most 7 bits).
      const mask = (1 << bits) - 1;
      for (let i = at; i < end; i++, pos += bits) {
        const k = pos >>> 3;
        const word = b[k] | (b[k + 1] << 8) | (b[k + 2] << 16) | (b[k + 3] << 24);
        const raw = ((word >>> (pos & 7)) & mask) + min;
        out[i] = scaled ? raw * scale + offset : raw;
      }
    } else {
      // 26 to 52 bits: a low 24-bit part and a high part, each from its own window.
      const highBits = bits - 24;
      const highMask = highBits >= 32 ? 0xffffffff : 2 ** highBits - 1;
      for (let i = at; i < end; i++, pos += bits) {
        const k = pos >>> 3;
        const s = pos & 7;
        const low = ((b[k] | (b[k + 1] << 8) | (b[k + 2] << 16) | (b[k + 3] << 24)) >>> s) & 0xffffff;
        const hp = pos + 24;
        const hk = hp >>> 3;
        const hs = hp & 7;
        // The high part is at most 28 bits plus a 7-bit shift: 5 bytes.
        const hw = (b[hk] | (b[hk + 1] << 8) | (b[hk + 2] << 16) | (b[hk + 3] << 24)) >>> 0;
        const high = (Math.floor(hw / 2 ** hs) + b[hk + 4] * 2 ** (32 - hs)) % (highMask + 1);
        const raw = high * 0x1000000 + low + min;
        out[i] = scaled ? raw * scale + offset : raw;
      }
    }
    this.bitPos = pos;
  }

  /** Fields of 53 to 64 bits (e.g. an Integer with the default int64 limits): exact, slow, rare. */
  private decodeWide(out: Float64Array, at: number, count: number) {
    const { bits, scale, offset, minimumBig, kind } = this.field;
    const b = this.bytes;
    let pos = this.bitPos;
    for (let i = at; i < at + count; i++, pos += bits) {
      let raw = 0n;
      for (let bit = 0; bit < bits; ) {
        const p = pos + bit;
        const take = Math.min(8 - (p & 7), bits - bit);
        const piece = (b[p >>> 3] >>> (p & 7)) & ((1 << take) - 1);
        raw |= BigInt(piece) << BigInt(bit);
        bit += take;
      }
      const v = Number(raw + minimumBig);
      out[i] = kind === 'scaled' ? v * scale + offset : v;
    }
    this.bitPos = pos;
  }
}
