import { ENUM, FromRawLineData, INTEGER, LABEL, REAL, REF, STRING } from 'web-ifc';

const QUOTE = 39, SEMICOLON = 59, HASH = 35, EQUALS = 61, OPEN = 40, CLOSE = 41, BACKSLASH = 92;

/** A byte of a name (a type or a typed value's): a letter, a digit or `_`. */
const isNameByte = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;

/** Fails on bytes that are not UTF-8: web-ifc's binding makes something else of those (its own decoder on short strings). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A line's arguments as web-ifc's GetRawLineData gives them (values, nested lists, typed values). */
type RawArguments = unknown[] | null;

/**
 * The entity lines of a STEP file, found and tokenized in JavaScript. web-ifc's GetLine
 * builds each line's raw arguments in wasm, one embind call per value, which is most of
 * the time of reading products (office-20k: 138k lines, 1.1 s of 2 s); tokenizing the same
 * bytes here takes a fifth of that. The arguments are exactly web-ifc's (`*` left out,
 * reals as their text, strings decoded, typed values as `{type: 2, typecode, value}`), so
 * web-ifc's own FromRawLineData makes the same line objects of them.
 */
export class StepLines {
  /** Where each express id's line begins (after `#id=`), or 0. */
  private readonly starts: Uint32Array;
  /** The express ids in the file's order. */
  readonly order: Uint32Array;
  /** The largest express id of a line. */
  readonly maxExpressId: number;
  private i = 0;
  /** Type codes by a hash of their names' bytes, with where the first such name is (name()). */
  private readonly names = new Map<number, { start: number; end: number; code: number }>();

  constructor(
    private readonly bytes: Uint8Array,
    /** web-ifc's GetMaxExpressID when known; without it the ids are found here. */
    maxExpressId: number | undefined,
    /** The type code of a typed value's name (IFCLABEL...). */
    private readonly typeCode: (name: string) => number,
    /** web-ifc's decoding of a string with escapes (\X2\, \S\, ''), for the rare strings that have them. */
    private readonly decode: (raw: string) => string,
  ) {
    ({ starts: this.starts, order: this.order, max: this.maxExpressId } = indexLines(bytes, maxExpressId));
  }

  /** Whether the file has a line of this express id. */
  has(expressId: number): boolean {
    return expressId < this.starts.length && this.starts[expressId] !== 0;
  }

  /** The type code of a line (web-ifc's, by its name: IFCWALL...), or 0 when the file has no such line. */
  lineType(expressId: number): number {
    if (!this.has(expressId)) return 0;
    this.i = this.starts[expressId];
    this.skipSpace();
    return this.name();
  }

  /** Each line's type code, in the file's order (`order`). */
  typeCodes(): Uint32Array {
    const { order, starts } = this;
    const codes = new Uint32Array(order.length);
    for (let k = 0; k < order.length; k++) {
      this.i = starts[order[k]];
      this.skipSpace();
      codes[k] = this.name();
    }
    return codes;
  }

  /** The line's type code and raw arguments, or null when the file has no such line. */
  read(expressId: number): { type: number; arguments: RawArguments } | null {
    const start = expressId < this.starts.length ? this.starts[expressId] : 0;
    if (start === 0) return null;
    this.i = start;
    this.skipSpace();
    const type = this.name();
    this.skipSpace();
    if (this.bytes[this.i] !== OPEN) return null;
    this.i++;
    return { type, arguments: this.list(false, false) as RawArguments };
  }

  /** The values up to the closing parenthesis, as web-ifc's GetArgs shapes them. */
  private list(inObject: boolean, inList: boolean): unknown {
    const bytes = this.bytes;
    const out: unknown[] = [];
    for (;;) {
      const c = bytes[this.i];
      if (c === CLOSE || c === SEMICOLON) {
        this.i++;
        break;
      }
      if (c === undefined) throw new Error('a STEP line ends without its parenthesis');
      if (c === 36 /* $ */) {
        out.push(null);
        this.i++;
      } else if (c === OPEN) {
        this.i++;
        out.push(this.list(false, true));
      } else if (c === QUOTE) {
        const value = this.string();
        out.push(inObject ? value : { type: STRING, value });
      } else if (c === HASH) {
        this.i++;
        const value = this.digits();
        out.push(inObject ? value : { type: REF, value });
      } else if (c === 46 /* . */) {
        const value = this.enumeration();
        out.push(inObject ? value : { type: ENUM, value });
      } else if (c >= 48 && c <= 57) {
        const [kind, value] = this.number();
        out.push(inObject ? value : { type: kind, value });
      } else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
        const start = this.i;
        const typecode = this.name();
        this.skipSpace();
        if (bytes[this.i] !== OPEN) throw new Error(`a typed value ${ascii(bytes, start, this.i).trim()} without its parenthesis`);
        this.i++;
        out.push({ type: LABEL, typecode, value: this.list(true, false) });
      } else if (c === 34 /* " binary */) {
        throw new Error('binary values are left to web-ifc');
      } else {
        // `*`, commas, spaces and signs: web-ifc's tokenizer skips them too
        if (c === 47 /* / */ && bytes[this.i + 1] === 42) this.skipComment();
        else this.i++;
      }
    }
    if (out.length === 0 && !inList) return null;
    if (out.length === 1 && inObject) return out[0];
    return out;
  }

  private skipSpace() {
    const bytes = this.bytes;
    for (let c = bytes[this.i]; c === 32 || c === 10 || c === 13 || c === 9; c = bytes[++this.i]);
  }

  private skipComment() {
    const end = indexOfPair(this.bytes, 42, 47, this.i + 2);
    if (end < 0) throw new Error('a STEP comment without its end');
    this.i = end + 2;
  }

  /**
   * The type code of the name (a line's or a typed value's) at the cursor, which moves
   * past it. A name is made into text once per type, not per line: names are told apart
   * by a hash of their bytes, checked byte for byte against the first name of that hash
   * (another name of the same hash is looked up as text each time).
   */
  private name(): number {
    const bytes = this.bytes;
    const start = this.i;
    let hash = 0x811c9dc5;
    for (let c = bytes[this.i]; isNameByte(c); c = bytes[++this.i]) hash = Math.imul(hash ^ c, 0x01000193);
    const first = this.names.get(hash);
    if (first && sameBytes(bytes, first.start, first.end, start, this.i)) return first.code;
    const code = this.typeCode(ascii(bytes, start, this.i));
    if (!first) this.names.set(hash, { start, end: this.i, code });
    return code;
  }

  private digits(): number {
    const bytes = this.bytes;
    let value = 0;
    for (let c = bytes[this.i]; c >= 48 && c <= 57; c = bytes[++this.i]) value = value * 10 + c - 48;
    return value;
  }

  /** web-ifc's rules: a `-` just before the digits belongs to them; a `.` or an upper-case `E` makes a real, kept as text. */
  private number(): [number, string | number] {
    const bytes = this.bytes;
    const start = bytes[this.i - 1] === 45 ? this.i - 1 : this.i;
    let real = false;
    for (let c = bytes[this.i]; (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 45 || c === 43; c = bytes[++this.i]) {
      if (c === 46 || c === 69) real = true;
    }
    const text = ascii(bytes, start, this.i);
    // web-ifc reads an integer's leading digits only (`1e5` is 1: a lower-case e makes no real)
    return real ? [REAL, text] : [INTEGER, parseInt(text, 10)];
  }

  private enumeration(): boolean | string | undefined {
    const bytes = this.bytes;
    const start = ++this.i;
    const end = bytes.indexOf(46, start);
    if (end < 0) throw new Error('a STEP enumeration without its end');
    this.i = end + 1;
    const text = ascii(bytes, start, end);
    return text === 'T' ? true : text === 'F' ? false : text === 'U' ? undefined : text;
  }

  private string(): string {
    const bytes = this.bytes;
    const start = this.i + 1;
    const end = stringEnd(bytes, start);
    if (end < 0) throw new Error('a STEP string without its end');
    // web-ifc keeps a string's length in 16 bits: what it makes of a longer one is its own
    if (end - start > 0xffff) throw new Error('a string over 64 kB is left to web-ifc');
    this.i = end + 1;
    let escaped = false, wide = false;
    for (let k = start; k < end; k++) {
      const c = bytes[k];
      if (c === BACKSLASH || c === QUOTE) escaped = true;
      else if (c >= 128) wide = true;
    }
    if (!escaped && !wide) return ascii(bytes, start, end);
    let text: string;
    try {
      text = utf8.decode(bytes.subarray(start, end));
    } catch {
      throw new Error('a string that is not UTF-8 is left to web-ifc');
    }
    return escaped ? this.decode(text) : text;
  }
}

/** web-ifc's FromRawLineData of a schema (its number in SchemaNames): line objects of raw arguments, by type code. */
export const lineClasses = (schema: number): Record<number, (args: unknown) => Record<string, unknown>> | undefined =>
  (FromRawLineData as unknown as Record<number, Record<number, (args: unknown) => Record<string, unknown>>>)[schema];

/**
 * Where each `#id=` line's arguments begin, and the ids in the file's order, skipping
 * strings (a `;` inside one ends nothing). With `maxExpressId`, ids above it are left out.
 */
function indexLines(bytes: Uint8Array, maxExpressId?: number): { starts: Uint32Array; order: Uint32Array; max: number } {
  let starts: Uint32Array = new Uint32Array((maxExpressId ?? Math.max(1024, bytes.length >> 6)) + 1);
  let order: Uint32Array = new Uint32Array(1024);
  let count = 0, max = 0;
  const done = () => ({ starts, order: order.subarray(0, count), max });
  const n = bytes.length;
  let i = 0;
  let nextQuote = bytes.indexOf(QUOTE);
  while (i < n) {
    // the start of a statement: spaces and comments, then maybe `#id=`
    let c = bytes[i];
    while (c === 32 || c === 10 || c === 13 || c === 9 || (c === 47 && bytes[i + 1] === 42)) {
      if (c === 47) {
        const end = indexOfPair(bytes, 42, 47, i + 2);
        if (end < 0) return done();
        i = end + 2;
      } else i++;
      c = bytes[i];
    }
    if (c === HASH) {
      let id = 0, j = i + 1;
      for (c = bytes[j]; c >= 48 && c <= 57; c = bytes[++j]) id = id * 10 + c - 48;
      while (c === 32 || c === 10 || c === 13 || c === 9) c = bytes[++j];
      if (c === EQUALS && id > 0 && (maxExpressId === undefined || id <= maxExpressId)) {
        if (id >= starts.length) starts = grown(starts, id + 1);
        if (count === order.length) order = grown(order, count + 1);
        if (starts[id] === 0) order[count++] = id;
        starts[id] = j + 1;
        if (id > max) max = id;
      }
    }
    // on to the statement's `;`, over any strings on the way
    for (;;) {
      const semi = bytes.indexOf(SEMICOLON, i);
      if (semi < 0) return done();
      if (nextQuote >= 0 && nextQuote < i) nextQuote = bytes.indexOf(QUOTE, i);
      if (nextQuote < 0 || nextQuote > semi) {
        i = semi + 1;
        break;
      }
      const end = stringEnd(bytes, nextQuote + 1);
      if (end < 0) return done();
      i = end + 1;
      nextQuote = bytes.indexOf(QUOTE, i);
    }
  }
  return done();
}

/** A copy of `array` with room for at least `length` values. */
function grown(array: Uint32Array, length: number): Uint32Array {
  const bigger = new Uint32Array(Math.max(length, array.length * 2));
  bigger.set(array);
  return bigger;
}

/** The quote that ends a string whose text begins at `start`: the first that is not one of a doubled pair. */
function stringEnd(bytes: Uint8Array, start: number): number {
  let j = start;
  for (;;) {
    const k = bytes.indexOf(QUOTE, j);
    if (k < 0 || bytes[k + 1] !== QUOTE) return k;
    j = k + 2;
  }
}

function sameBytes(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let k = 0; k < aEnd - a; k++) if (bytes[a + k] !== bytes[b + k]) return false;
  return true;
}

function indexOfPair(bytes: Uint8Array, a: number, b: number, from: number): number {
  for (let k = bytes.indexOf(a, from); k >= 0; k = bytes.indexOf(a, k + 1)) if (bytes[k + 1] === b) return k;
  return -1;
}

/** Text of bytes known to be ASCII. */
function ascii(bytes: Uint8Array, start: number, end: number): string {
  return end - start < 64 ? String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]) : utf8.decode(bytes.subarray(start, end));
}
