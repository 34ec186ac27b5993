import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PointCloudError } from '../point-reader.js';

/**
 * What the reader needs of E57's XML section (ASTM E2807 §8, §9): the data3D scans,
 * their pose, bounds and limits, and the prototype of their compressed vector: one field
 * per bytestream, in document order.
 */
export interface E57Field {
  name: string;
  kind: 'float' | 'integer' | 'scaled';
  /** Bits per value in its bytestream (floats: 32 or 64). */
  bits: number;
  /** The smallest stored integer (integer and scaled); values are packed as value - minimum. */
  minimum: number;
  /** The same, exact, for fields wider than 52 bits. */
  minimumBig: bigint;
  maximum: number;
  scale: number;
  offset: number;
}

export interface E57Pose {
  rotation: [number, number, number, number];
  translation: [number, number, number];
}

export interface E57Scan {
  name: string;
  pose: E57Pose | null;
  /** cartesianBounds, in the scan's own coordinates. */
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
  intensityLimits: [number, number] | null;
  colorLimits: { red: [number, number] | null; green: [number, number] | null; blue: [number, number] | null } | null;
  recordCount: number;
  /** Physical offset of the compressed vector section. */
  fileOffset: number;
  fields: E57Field[];
}

type Node = Record<string, unknown>;

const RESERVED = new Set(['prototype', 'constructor', '__proto__', 'hasOwnProperty', 'toString', 'valueOf']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  isArray: (name) => name === 'vectorChild',
  // The parser refuses names like "prototype" (E57's own element) as object keys: they get a "$", which no XML name has.
  transformTagName: (name) => (RESERVED.has(name) ? `${name}$` : name),
});

export function parseE57Xml(text: string): E57Scan[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new PointCloudError('malformed', `The E57 file's XML is malformed: ${valid.err.msg} (line ${valid.err.line})`);
  const doc = parser.parse(text) as Node;
  const root = child(doc, 'e57Root');
  if (!root) throw new PointCloudError('malformed', "The E57 file's XML has no e57Root");
  const data3D = child(root, 'data3D');
  const scans = data3D ? data3D.vectorChild : undefined;
  if (!Array.isArray(scans)) return [];
  return scans.map((scan, index) => readScan(asNode(scan, `data3D ${index}`), index));
}

function readScan(scan: Node, index: number): E57Scan {
  const name = text(scan.name) || `scan ${index + 1}`;
  const points = child(scan, 'points');
  if (!points || attr(points, 'type') !== 'CompressedVector') throw new PointCloudError('malformed', `E57 scan "${name}" has no points`);
  const prototype = child(points, 'prototype$');
  if (!prototype) throw new PointCloudError('malformed', `E57 scan "${name}" has no prototype`);
  const codecs = child(points, 'codecs');
  for (const codec of codecs && Array.isArray(codecs.vectorChild) ? codecs.vectorChild : []) {
    const kinds = Object.keys(asNode(codec, 'codec')).filter((k) => k !== '@' && k !== 'inputs');
    if (kinds.some((k) => k !== 'bitPackCodec')) throw new PointCloudError('unsupported', `E57 scan "${name}" uses the codec ${kinds.join(', ')}; only bitPackCodec is supported`);
  }
  const fields: E57Field[] = [];
  leaves(prototype, '', fields, name);
  return {
    name,
    pose: readPose(child(scan, 'pose')),
    bounds: readBounds(child(scan, 'cartesianBounds')),
    intensityLimits: pair(child(scan, 'intensityLimits'), 'intensityMinimum', 'intensityMaximum'),
    colorLimits: readColorLimits(child(scan, 'colorLimits')),
    recordCount: count(attr(points, 'recordCount'), `scan "${name}" record count`),
    fileOffset: count(attr(points, 'fileOffset'), `scan "${name}" file offset`),
    fields,
  };
}

/** The prototype's leaves in document order: each is one bytestream. */
function leaves(node: Node, prefix: string, out: E57Field[], scan: string) {
  for (const [key, value] of Object.entries(node)) {
    if (key === '@' || key === '#text') continue;
    const name = prefix + (key.endsWith('$') ? key.slice(0, -1) : key);
    if (Array.isArray(value)) throw new PointCloudError('malformed', `E57 scan "${scan}" has two prototype fields named ${name}`);
    const field = asNode(value, name);
    const type = attr(field, 'type');
    if (type === 'Structure') leaves(field, `${name}.`, out, scan);
    else if (type === 'Float' || type === 'Integer' || type === 'ScaledInteger') out.push(readField(field, name, type));
    else throw new PointCloudError('unsupported', `E57 scan "${scan}" has a field ${name} of type ${type ?? 'none'}, which compressed vectors cannot hold`);
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function readField(field: Node, name: string, type: 'Float' | 'Integer' | 'ScaledInteger'): E57Field {
  if (type === 'Float') {
    const precision = attr(field, 'precision') ?? 'double';
    if (precision !== 'single' && precision !== 'double') throw new PointCloudError('malformed', `E57 field ${name} has precision "${precision}"`);
    return { name, kind: 'float', bits: precision === 'single' ? 32 : 64, minimum: 0, minimumBig: 0n, maximum: 0, scale: 1, offset: 0 };
  }
  const min = bigint(attr(field, 'minimum'), INT64_MIN, name);
  const max = bigint(attr(field, 'maximum'), INT64_MAX, name);
  if (max < min) throw new PointCloudError('malformed', `E57 field ${name} has minimum ${min} above maximum ${max}`);
  const span = max - min;
  const bits = span === 0n ? 0 : span.toString(2).length;
  const scale = type === 'ScaledInteger' ? number(attr(field, 'scale') ?? '1', `${name} scale`) : 1;
  const offset = type === 'ScaledInteger' ? number(attr(field, 'offset') ?? '0', `${name} offset`) : 0;
  return { name, kind: type === 'ScaledInteger' ? 'scaled' : 'integer', bits, minimum: Number(min), minimumBig: min, maximum: Number(max), scale, offset };
}

function readPose(pose: Node | undefined): E57Pose | null {
  if (!pose) return null;
  const r = child(pose, 'rotation');
  const t = child(pose, 'translation');
  return {
    rotation: r ? [value(r, 'w', 1), value(r, 'x', 0), value(r, 'y', 0), value(r, 'z', 0)] : [1, 0, 0, 0],
    translation: t ? [value(t, 'x', 0), value(t, 'y', 0), value(t, 'z', 0)] : [0, 0, 0],
  };
}

function readBounds(node: Node | undefined): E57Scan['bounds'] {
  if (!node) return null;
  const axes = ['x', 'y', 'z'].map((a) => pair(node, `${a}Minimum`, `${a}Maximum`));
  if (axes.some((a) => !a)) return null;
  const [x, y, z] = axes as [number, number][];
  return { min: [x[0], y[0], z[0]], max: [x[1], y[1], z[1]] };
}

function readColorLimits(node: Node | undefined): E57Scan['colorLimits'] {
  if (!node) return null;
  return {
    red: pair(node, 'colorRedMinimum', 'colorRedMaximum'),
    green: pair(node, 'colorGreenMinimum', 'colorGreenMaximum'),
    blue: pair(node, 'colorBlueMinimum', 'colorBlueMaximum'),
  };
}

function pair(node: Node | undefined, low: string, high: string): [number, number] | null {
  if (!node || !(low in node) || !(high in node)) return null;
  return [value(node, low, 0), value(node, high, 0)];
}

/** A Float or Integer element's number; an empty element is 0 (the standard's default). */
function value(node: Node, key: string, fallback: number): number {
  if (!(key in node)) return fallback;
  const t = text(node[key]);
  return t === '' ? 0 : number(t, key);
}

function child(node: Node, key: string): Node | undefined {
  const value = node[key];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new PointCloudError('malformed', `The E57 file's XML has two ${key} elements`);
  return asNode(value, key);
}

/** An element as an object ('' for an empty element without attributes). */
function asNode(value: unknown, what: string): Node {
  if (value && typeof value === 'object') return value as Node;
  if (value === '' || typeof value === 'string') return { '#text': value };
  throw new PointCloudError('malformed', `The E57 file's XML element ${what} is not an element`);
}

function attr(node: Node, name: string): string | undefined {
  const attrs = node['@'] as Record<string, string> | undefined;
  return attrs?.[name];
}

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return String((value as Node)['#text']).trim();
  return '';
}

function number(t: string, what: string): number {
  const n = Number(t.trim());
  if (t.trim() === '' || !Number.isFinite(n)) throw new PointCloudError('malformed', `The E57 file's ${what} is not a number: "${t}"`);
  return n;
}

function bigint(t: string | undefined, fallback: bigint, what: string): bigint {
  if (t === undefined) return fallback;
  try {
    return BigInt(t.trim());
  } catch {
    // Some writers put integers as "0.0" or "1e3".
    const n = Number(t.trim());
    if (Number.isSafeInteger(n)) return BigInt(n);
    throw new PointCloudError('malformed', `E57 field ${what} has a limit that is not an integer: "${t}"`);
  }
}

function count(t: string | undefined, what: string): number {
  const n = t === undefined ? NaN : Number(t.trim());
  if (!Number.isSafeInteger(n) || n < 0) throw new PointCloudError('malformed', `The E57 file's ${what} is not a count: "${t ?? ''}"`);
  return n;
}
