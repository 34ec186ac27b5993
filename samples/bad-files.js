// @ts-check
/**
 * The bad-file corpus (issue 22, part 1): files the viewers must refuse with a clear
 * error, never a crash or a hang. Written by this generator, not picked by hand, from the
 * generated sample house (building.js) and from a good scene or point cloud the caller
 * hands in (the tests make them: the demo backend's scene of the house, a generated cloud).
 * Plain ES module: the browser tests and node both run it.
 *
 *   for (const entry of badFiles({ full: true })) {
 *     const bytes = entry.make(goodBytesOf(entry.from));
 *     ... load it, expect an error of type entry.kind whose message matches entry.told
 *   }
 *
 * Each entry: `name`, `kind` (`ifc`, `scene` or `pointcloud`: the error type a user gets),
 * `from` (the good file it damages: `house` is made here, `scene` and `pointcloud` are
 * the caller's), `make(good)` (the bytes), `told` (what the user must be told: a pattern
 * the message matches) and `loads` (true where the file is odd but not wrong, so loading
 * it is right too: it must then load without a hang and leave the camera usable).
 * `full: false` gives a small corpus (every kind, small sizes) for `npm test`.
 */
import { writeBuilding } from './building.js';
import { sampleOptions } from './variants.js';

/** @typedef {'ifc' | 'scene' | 'pointcloud'} BadKind */
/** @typedef {{ name: string, kind: BadKind, from: 'house' | 'scene' | 'pointcloud' | null, make: (good: Uint8Array) => Uint8Array, told: RegExp, loads?: boolean }} BadFile */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The sample house's IFC text (generated once per call of badFiles). */
export function houseText() {
  let text = '';
  writeBuilding(/** @type {import('./building.js').BuildingOptions} */ (sampleOptions('house')), (piece) => {
    text += piece;
  });
  return text;
}

/** A repeatable stream of bytes (xorshift32), so a corpus is the same on every run. */
export function randomBytes(/** @type {number} */ length, seed = 22) {
  const bytes = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** The IFC's lines, keyed by express id (`#12=IFC...;` -> 12). */
function linesById(/** @type {string} */ text) {
  /** @type {Map<number, string>} */
  const lines = new Map();
  for (const line of text.split('\n')) {
    const m = /^#(\d+)=/.exec(line);
    if (m) lines.set(Number(m[1]), line);
  }
  return lines;
}

/** The id of a line's argument `index` when it is a reference (`#n`). */
function argumentRef(/** @type {string} */ line, /** @type {number} */ index) {
  const args = line.slice(line.indexOf('(') + 1, line.lastIndexOf(')')).split(',');
  const m = /^#(\d+)$/.exec(args[index] ?? '');
  if (!m) throw new Error(`argument ${index} of ${line} is not a reference`);
  return Number(m[1]);
}

/** Text with one whole line replaced. */
const replaceLine = (/** @type {string} */ text, /** @type {string} */ line, /** @type {string} */ by) => text.replace(`${line}\n`, `${by}\n`);

/** Lines added at the end of the DATA section. */
const beforeEnd = (/** @type {string} */ text, /** @type {string} */ added) => text.replace(/ENDSEC;\s*END-ISO-10303-21;\s*$/, `${added}ENDSEC;\nEND-ISO-10303-21;\n`);

/** The highest express id of a file. */
const maxId = (/** @type {string} */ text) => Math.max(...linesById(text).keys());

/** The first wall's line and its placement's line. */
function firstWall(/** @type {string} */ text) {
  const lines = linesById(text);
  const wall = [...lines.values()].find((l) => /=IFCWALL\(/.test(l));
  if (!wall) throw new Error('the house has no IFCWALL');
  const placementId = argumentRef(wall, 5);
  return { lines, wall, placementId, placement: /** @type {string} */ (lines.get(placementId)) };
}

/** Every n-th three-dimensional cartesian point given coordinates `value` (a STEP real as text, or anything). */
function poisonPoints(/** @type {string} */ text, /** @type {string} */ value, every = 7) {
  let n = 0;
  return text.replace(/=IFCCARTESIANPOINT\(\(([^,()]+),([^,()]+),([^,()]+)\)\)/g, (whole) => (n++ % every === 3 ? `=IFCCARTESIANPOINT((${value},${value},${value}))` : whole));
}

/** A STEP file of `count` cartesian points and nothing else: no project, no product, no geometry. */
function entitiesOfNothing(/** @type {number} */ count) {
  const head = "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION(('ViewDefinition [ReferenceView_V1.2]'),'2;1');\nFILE_NAME('nothing.ifc','2025-01-01T00:00:00',(''),(''),'','','');\nFILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n";
  const parts = [head];
  for (let i = 1; i <= count; i++) parts.push(`#${i}=IFCCARTESIANPOINT((${i % 100}.,0.,0.));\n`);
  parts.push('ENDSEC;\nEND-ISO-10303-21;\n');
  return parts.join('');
}

/** Bytes with some places xor-ed with 0xff: `at` are fractions of the length. */
export function flipped(/** @type {Uint8Array} */ bytes, /** @type {number[]} */ at) {
  const copy = bytes.slice();
  for (const f of at) {
    const i = Math.min(copy.length - 1, Math.floor(copy.length * f));
    copy[i] ^= 0xff;
  }
  return copy;
}

/** Bytes with the bytes at `offsets` xor-ed with 0xff. */
export function flippedAt(/** @type {Uint8Array} */ bytes, /** @type {number[]} */ offsets) {
  const copy = bytes.slice();
  for (const i of offsets) if (i < copy.length) copy[i] ^= 0xff;
  return copy;
}

/** The first `fraction` of the bytes. */
export const cut = (/** @type {Uint8Array} */ bytes, /** @type {number} */ fraction) => bytes.slice(0, Math.floor(bytes.length * fraction));

/**
 * The corpus. `full` (under `npm run soak`): IFC cut at 20 points, a 10 MB string, 50,000
 * nested placements and lists, a million entities, scenes and point clouds cut and flipped
 * at many places. Otherwise a fast subset: every kind, small sizes.
 * @returns {BadFile[]}
 */
export function badFiles({ full = false } = {}) {
  /** @type {BadFile[]} */
  const files = [];
  /** @param {BadFile} file */
  const add = (file) => files.push(file);
  const ifc = (/** @type {string} */ text) => encoder.encode(text);
  const house = (/** @type {Uint8Array} */ good) => decoder.decode(good);

  // Not IFC at all.
  add({ name: 'empty', kind: 'ifc', from: null, make: () => new Uint8Array(0), told: /empty/i });
  add({ name: `random ${full ? '4 MB' : '64 kB'}`, kind: 'ifc', from: null, make: () => randomBytes(full ? 4 << 20 : 64 << 10), told: /not an IFC file|neither IFC/i });
  add({ name: 'random bytes behind an IFC header', kind: 'ifc', from: null, make: () => new Uint8Array([...encoder.encode('ISO-10303-21;\nHEADER;\n'), ...randomBytes(full ? 1 << 20 : 16 << 10, 7)]), told: /truncated|IFC/i });

  // Cut short: at 20 points of the house (fast: 3), each a file that ends in the middle.
  const cuts = full ? Array.from({ length: 20 }, (_, i) => (i + 1) / 21) : [0.05, 0.5, 0.95];
  for (const f of cuts) add({ name: `house cut at ${(f * 100).toFixed(0)} %`, kind: 'ifc', from: 'house', make: (good) => cut(good, f), told: /truncated/i });

  // The header.
  add({ name: 'schema IFC9X', kind: 'ifc', from: 'house', make: (good) => ifc(house(good).replace("FILE_SCHEMA(('IFC4'));", "FILE_SCHEMA(('IFC9X'));")), told: /schema.*IFC9X/i });
  add({ name: 'no FILE_SCHEMA', kind: 'ifc', from: 'house', make: (good) => ifc(house(good).replace(/FILE_SCHEMA\(\('IFC4'\)\);\n/, '')), told: /schema/i });
  add({ name: 'no header', kind: 'ifc', from: 'house', make: (good) => ifc(house(good).replace(/HEADER;[\s\S]*?ENDSEC;\n/, '')), told: /header|schema/i });

  // A 10 MB string: in a wall's name (a strange but valid file: it may load), and never closed.
  const long = full ? 10 << 20 : 1 << 20;
  const label = `${long >> 20} MB`;
  add({
    name: `a ${label} name`, kind: 'ifc', from: 'house', loads: true, told: /./,
    make: (good) => {
      const { wall } = firstWall(house(good));
      return ifc(replaceLine(house(good), wall, wall.replace(/'Wall [^']*'/, `'${'W'.repeat(long)}'`)));
    },
  });
  add({
    name: `a ${label} string never closed`, kind: 'ifc', from: 'house', told: /string that is never closed/i,
    make: (good) => {
      const { wall } = firstWall(house(good));
      return ifc(replaceLine(house(good), wall, wall.replace(/'Wall [^']*'/, `'${'W'.repeat(long)}`)));
    },
  });

  // Deep nesting: a wall placed through thousands of placements, and a point thousands of lists deep.
  const depth = full ? 50000 : 1000;
  add({
    name: `a wall ${depth} placements deep`, kind: 'ifc', from: 'house', loads: true, told: /./,
    make: (good) => {
      const text = house(good);
      const { wall, placementId, placement } = firstWall(text);
      const axis = argumentRef(placement, 1);
      let id = maxId(text);
      const chain = [];
      let previous = placementId;
      for (let i = 0; i < depth; i++) {
        chain.push(`#${++id}=IFCLOCALPLACEMENT(#${previous},#${axis});\n`);
        previous = id;
      }
      const rewired = wall.replace(`,#${placementId},`, `,#${previous},`);
      return ifc(beforeEnd(replaceLine(text, wall, rewired), chain.join('')));
    },
  });
  add({
    name: `a point ${depth} lists deep`, kind: 'ifc', from: 'house', loads: true, told: /./,
    make: (good) => {
      const text = house(good);
      const { placement } = firstWall(text);
      const axisLine = /** @type {string} */ (linesById(text).get(argumentRef(placement, 1)));
      const pointId = argumentRef(axisLine, 0);
      const point = /** @type {string} */ (linesById(text).get(pointId));
      return ifc(replaceLine(text, point, `#${pointId}=IFCCARTESIANPOINT(${'('.repeat(depth)}0.,0.,0.${')'.repeat(depth)});`));
    },
  });

  // Cycles: a wall's placement relative to itself, two placements relative to each other,
  // and a building inside its own storey.
  add({
    name: 'a placement relative to itself', kind: 'ifc', from: 'house', loads: true, told: /./,
    make: (good) => {
      const text = house(good);
      const { placementId, placement } = firstWall(text);
      return ifc(replaceLine(text, placement, placement.replace(/IFCLOCALPLACEMENT\([^,]+,/, `IFCLOCALPLACEMENT(#${placementId},`)));
    },
  });
  add({
    name: 'two placements relative to each other', kind: 'ifc', from: 'house', loads: true, told: /./,
    make: (good) => {
      const text = house(good);
      const { placementId, placement } = firstWall(text);
      const other = maxId(text) + 1;
      const axis = argumentRef(placement, 1);
      const looped = placement.replace(/IFCLOCALPLACEMENT\([^,]+,/, `IFCLOCALPLACEMENT(#${other},`);
      return ifc(beforeEnd(replaceLine(text, placement, looped), `#${other}=IFCLOCALPLACEMENT(#${placementId},#${axis});\n`));
    },
  });
  add({
    name: 'a building inside its own storey', kind: 'ifc', from: 'house', loads: true, told: /./,
    make: (good) => {
      const text = house(good);
      const building = /#(\d+)=IFCBUILDING\(/.exec(text);
      const storey = /#(\d+)=IFCBUILDINGSTOREY\(/.exec(text);
      if (!building || !storey) throw new Error('the house has no building or storey');
      const id = maxId(text) + 1;
      return ifc(beforeEnd(text, `#${id}=IFCRELAGGREGATES('3Cyc1eCyc1eCyc1eCyc1e0',#5,$,$,#${storey[1]},(#${building[1]}));\n`));
    },
  });

  add({
    name: 'a project inside its own storey', kind: 'ifc', from: 'house', loads: true, told: /./,
    make: (good) => {
      const text = house(good);
      const project = /#(\d+)=IFCPROJECT\(/.exec(text);
      const storey = /#(\d+)=IFCBUILDINGSTOREY\(/.exec(text);
      if (!project || !storey) throw new Error('the house has no project or storey');
      const id = maxId(text) + 1;
      return ifc(beforeEnd(text, `#${id}=IFCRELAGGREGATES('3Cyc1eCyc1eCyc1eCyc1e1',#5,$,$,#${storey[1]},(#${project[1]}));\n`));
    },
  });

  // Coordinates that are not numbers, or too big for any camera.
  add({ name: 'NaN coordinates', kind: 'ifc', from: 'house', loads: true, told: /./, make: (good) => ifc(poisonPoints(house(good), 'NaN')) });
  add({ name: '1e300 coordinates', kind: 'ifc', from: 'house', loads: true, told: /./, make: (good) => ifc(poisonPoints(house(good), '1.E300')) });
  add({ name: '1e400 coordinates (infinite)', kind: 'ifc', from: 'house', loads: true, told: /./, make: (good) => ifc(poisonPoints(house(good), '1.E400')) });

  // Many entities and nothing to show.
  const count = full ? 1_000_000 : 20_000;
  add({ name: `${count.toLocaleString('en')} entities of nothing`, kind: 'ifc', from: null, loads: true, told: /./, make: () => ifc(entitiesOfNothing(count)) });

  // Processed files, cut short and with bytes flipped.
  for (const kind of /** @type {const} */ (['scene', 'pointcloud'])) {
    const at = full ? [0.001, 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99] : [0.01, 0.9];
    for (const f of at) add({ name: `${kind} cut at ${(f * 100).toFixed(1)} %`, kind, from: kind, make: (good) => cut(good, f), told: /truncated|cut short|short|end/i });
    add({ name: `${kind} of no bytes`, kind, from: kind, make: () => new Uint8Array(0), told: /empty|short|truncated|not a/i });
    // (0.01 % of the generated cloud falls in its metadata's hierarchy numbers: a hierarchy without a root.)
    const flips = [...(kind === 'pointcloud' ? [[0.0001]] : []), ...(full ? [[0.001], [0.01], [0.1], [0.3], [0.5], [0.7], [0.9], [0.25, 0.5, 0.75]] : [[0.01], [0.25, 0.5, 0.75]])];
    // The head: the magic (byte 2), the version (byte 8), the first record's or the metadata's length (byte 17).
    for (const [what, at] of /** @type {const} */ ([['magic', 2], ['version', 8], ['first length', 17]])) {
      if (!full && what !== 'magic') continue;
      add({ name: `${kind} with its ${what} flipped`, kind, from: kind, make: (good) => flippedAt(good, [at]), told: /not a|version|damaged|checksum|truncated|metadata|JSON|cut short/i });
    }
    for (const places of flips) {
      add({
        name: `${kind} with bytes flipped at ${places.map((f) => `${f * 100} %`).join(', ')}`, kind, from: kind, make: (good) => flipped(good, places),
        told: /damaged|checksum|not a|version|CRC|truncated|JSON|invalid|hierarchy|root/i,
        // Point records carry no checksum: a flipped point is a point elsewhere, drawn (the format says so).
        loads: kind === 'pointcloud',
      });
    }
  }
  return files;
}
