// @ts-check
/**
 * Writing an IFC file in STEP's text form (ISO 10303-21): numbered entity lines, and the
 * literals that go into them. Values are formatted by the helpers below and passed to
 * `add` as strings (or arrays of them, written as STEP lists), so a line reads as the
 * entity it is: `file.add('IFCWALL', [guid, owner, text(name), ...])`.
 */

/**
 * A STEP list: `(a,b,c)`. Nested arrays are nested lists.
 * @param {unknown[]} items
 * @returns {string}
 */
export function list(items) {
  return `(${items.map((item) => (Array.isArray(item) ? list(item) : String(item))).join(',')})`;
}

/**
 * A real: always with a decimal point, at most nine decimals, never in exponent form
 * (so coordinates millions of metres from the origin keep their millimetres).
 */
export function real(/** @type {number} */ x) {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  const rounded = Math.round(x * 1e9) / 1e9;
  if (Number.isInteger(rounded)) return `${rounded}.`;
  return rounded.toFixed(9).replace(/0+$/, '');
}

/** An integer. */
export function int(/** @type {number} */ n) {
  return String(Math.round(n));
}

/** An enumeration value: `.NAME.`. */
export function enumeration(/** @type {string} */ name) {
  return `.${name}.`;
}

/** A boolean: `.T.` or `.F.`. */
export function bool(/** @type {boolean} */ b) {
  return b ? '.T.' : '.F.';
}

/**
 * A string: quotes and backslashes escaped, and every character outside printable
 * ASCII in STEP's `\X2\...\X0\` form (UTF-16 code units as hex), as exporters write them.
 */
export function text(/** @type {string} */ s) {
  let out = '';
  let wide = '';
  for (const ch of s) {
    const code = /** @type {number} */ (ch.codePointAt(0));
    if (code >= 0x20 && code <= 0x7e) {
      if (wide) {
        out += `\\X2\\${wide}\\X0\\`;
        wide = '';
      }
      out += ch === "'" ? "''" : ch === '\\' ? '\\\\' : ch;
    } else {
      for (let k = 0; k < ch.length; k++) wide += ch.charCodeAt(k).toString(16).toUpperCase().padStart(4, '0');
    }
  }
  if (wide) out += `\\X2\\${wide}\\X0\\`;
  return `'${out}'`;
}

/** A typed value in a select: `IFCLABEL('x')`. */
export function typed(/** @type {string} */ type, /** @type {string} */ value) {
  return `${type}(${value})`;
}

const GUID_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$';

/**
 * IFC GlobalIds from a seed: the same seed gives the same sequence. Each is 128 random
 * bits in IFC's 22-character base-64 form (the first character carries two bits).
 */
export class GlobalIds {
  constructor(/** @type {string} */ seed) {
    // sfc32, seeded from a 32-bit FNV-1a hash of the seed
    let h = 0x811c9dc5;
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
    this.state = [h, h ^ 0x9e3779b9, (h * 7) >>> 0, 1];
    /** @type {string | undefined} the GlobalId `next` gave last */
    this.last = undefined;
    for (let i = 0; i < 12; i++) this.next32();
  }

  next32() {
    const s = this.state;
    const t = (((s[0] + s[1]) >>> 0) + s[3]) >>> 0;
    s[3] = (s[3] + 1) >>> 0;
    s[0] = s[1] ^ (s[1] >>> 9);
    s[1] = (s[2] + (s[2] << 3)) >>> 0;
    s[2] = ((s[2] << 21) | (s[2] >>> 11)) >>> 0;
    s[2] = (s[2] + t) >>> 0;
    return t;
  }

  /** The next GlobalId, unquoted. */
  next() {
    // 128 bits as four 32-bit words, read six bits at a time from the low end.
    const words = [this.next32(), this.next32(), this.next32(), this.next32()];
    let out = '';
    for (let i = 0; i < 21; i++) {
      const bit = i * 6;
      const w = bit >>> 5, offset = bit & 31;
      let v = words[3 - w] >>> offset;
      if (offset > 26 && w < 3) v |= words[2 - w] << (32 - offset);
      out = GUID_CHARS[v & 63] + out;
    }
    this.last = GUID_CHARS[words[0] >>> 30] + out;
    return this.last;
  }
}

/**
 * The lines of one STEP file. `add` numbers entities from #1 and hands the text to
 * `sink` in pieces of about `chunk` characters, so files of hundreds of megabytes are
 * written without being held in memory.
 */
export class StepFile {
  /**
   * @param {(piece: string) => void} sink
   * @param {{ chunk?: number }} [options]
   */
  constructor(sink, { chunk = 1 << 20 } = {}) {
    this.sink = sink;
    this.chunk = chunk;
    this.buffer = '';
    this.lines = 0;
  }

  /** Writes raw text (the header, the trailer). */
  write(/** @type {string} */ s) {
    this.buffer += s;
    if (this.buffer.length >= this.chunk) this.flush();
  }

  /**
   * Adds `#n=ENTITY(args);` and returns `#n`.
   * @param {string} entity
   * @param {unknown[]} args
   */
  add(entity, args) {
    const id = `#${++this.lines}`;
    this.write(`${id}=${entity}${list(args)};\n`);
    return id;
  }

  flush() {
    if (this.buffer) this.sink(this.buffer);
    this.buffer = '';
  }
}

/** The express id of a reference written by `add` (`#12` -> 12). */
export function expressId(/** @type {string} */ ref) {
  return Number(ref.slice(1));
}
