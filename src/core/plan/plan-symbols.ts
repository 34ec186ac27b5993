import { IFCDOOR, IFCDOORSTANDARDCASE } from 'web-ifc';
import type { ModelLines } from '../ifc/web-ifc-engine.js';
import type { Units } from '../ifc/units.js';
import { webIfcLines, type LineReader } from '../ifc/products.js';
import { rawValue as val, refOf } from '../ifc/raw-lines.js';
import { LinesBuilder } from './chain.js';
import type { PlanLines } from './protocol.js';
import { IDENTITY, apply, axisMatrix, invertRigid, multiply, type Matrix4 as Mat } from '../ifc/matrix4.js';

/**
 * Plan symbols of doors: the 2D curves of their 'Plan' (or 'Annotation') shape
 * representation, where door leaves and swing arcs are drawn (web-ifc meshes only the
 * 3D body). Reads polylines, trimmed circles and ellipses, full circles, composite and
 * indexed poly curves, in geometric (curve) sets and mapped items, and places them with
 * the mapping and the object's placement, in metres.
 */

/** One door's symbol, as read. */
interface PlacedSymbol {
  owner: number;
  /** World z of the door's placement, metres. */
  z: number;
  /** Polylines of flat x, y pairs in world metres. */
  lines: number[][];
}

/**
 * The doors' plan symbols, packed in typed arrays: the import's products thread sends them
 * to its scene thread, which received office-200k's 77k doors as objects in 0.9 s of its
 * time; these it takes over without a copy (symbolBuffers).
 */
export interface DoorSymbols {
  /** Per door: its express id, the world z of its placement (metres), and its first polyline in `lines` (one more at the end). */
  owners: Uint32Array;
  z: Float64Array;
  firstLine: Uint32Array;
  /** Every door's polylines, flat x, y pairs in world metres, each owned by its door. */
  lines: PlanLines;
}

/** The buffers of `symbols`, for postMessage's transfer list. */
export function symbolBuffers(symbols: DoorSymbols): ArrayBuffer[] {
  const { owners, z, firstLine, lines } = symbols;
  return [owners, z, firstLine, lines.coords, lines.starts, lines.owners].map((array) => array.buffer as ArrayBuffer);
}

const PLAN_IDENTIFIERS = new Set(['PLAN', 'ANNOTATION']);
const ARC_STEPS_PER_TURN = 48;
/** Lines kept while reading symbols (doorSymbols' default): enough for the door types' shared representations. */
const LINE_CACHE_SIZE = 4096;

const num = (field: unknown, fallback = 0): number => {
  const n = Number(val(field));
  return Number.isFinite(n) ? n : fallback;
};

type Line = Record<string, unknown> & { type?: number };

/** Type names by code, lines and world placements by express id (set per call; shared mapped symbols are read once). */
let nameOfType: (type: number) => string = () => '';
let lineOf: (id: number) => Line = () => ({});
let placements = new Map<number, Mat>();
let placementCacheSize = LINE_CACHE_SIZE;

/** A line behind a reference (web-ifc gives references as `{type: 5, value: id}`), or the value itself. */
function get(field: unknown): Line {
  if (field && typeof field === 'object' && (field as { type?: unknown }).type === 5 && typeof (field as { value?: unknown }).value === 'number') {
    return lineOf((field as { value: number }).value);
  }
  return field as Line;
}

const list = (field: unknown): Line[] => (Array.isArray(field) ? field.map(get) : []);

/**
 * The doors' plan symbols, their lines read through `read` (at most `lineCacheSize` of
 * them kept, and as many placements). Each door's placement is worked out from its lines
 * (worldPlacement), not by web-ifc's GetWorldTransformMatrix: web-ifc's cached placements
 * slowed a later geometry stream of the same open model a lot (office-200k's: 9 s -> 24
 * s), and the import's products thread reads without web-ifc opening the file
 * (core/ifc/step-model.ts).
 */
export function doorSymbols(api: ModelLines, modelID: number, units: Units, read: LineReader = webIfcLines(api, modelID), lineCacheSize = LINE_CACHE_SIZE): DoorSymbols {
  const types = new Map<number, string>();
  nameOfType = (type) => {
    let name = types.get(type);
    if (name === undefined) {
      name = api.GetNameFromTypeCode(type).toUpperCase();
      types.set(type, name);
    }
    return name;
  };
  const lines = new Map<number, Line>();
  lineOf = (id) => {
    let line = lines.get(id);
    if (!line) {
      // Bounded, as ProductReader's entities: each door's own lines are read once, and a
      // cache of them all grew with the file (office-200k: 77k doors).
      if (lines.size >= lineCacheSize) lines.clear();
      line = read(id) as Line;
      lines.set(id, line);
    }
    return line;
  };
  placements = new Map();
  placementCacheSize = lineCacheSize;
  const mapped = new Map<number, number[][]>();
  const owners: number[] = [], zs: number[] = [], firstLine = [0];
  const out = new LinesBuilder();
  for (const type of [IFCDOOR, IFCDOORSTANDARDCASE]) {
    let ids;
    try {
      ids = api.GetLineIDsWithType(modelID, type, false);
    } catch {
      continue; // a type this schema does not have
    }
    for (let i = 0, n = ids.size(); i < n; i++) {
      const id = ids.get(i);
      try {
        const symbol = readSymbol(id, units, mapped);
        if (!symbol) continue;
        owners.push(symbol.owner);
        zs.push(symbol.z);
        for (const line of symbol.lines) out.add(line, symbol.owner);
        firstLine.push(out.size);
      } catch {
        // an unreadable symbol: the door still shows in the cut
      }
    }
  }
  return { owners: Uint32Array.from(owners), z: Float64Array.from(zs), firstLine: Uint32Array.from(firstLine), lines: out.build() };
}

function readSymbol(id: number, units: Units, mapped: Map<number, number[][]>): PlacedSymbol | null {
  const door = lineOf(id);
  const shape = get(door.Representation);
  if (!shape) return null;
  const local: number[][] = [];
  for (const rep of list(shape.Representations)) {
    if (!PLAN_IDENTIFIERS.has(String(val(rep.RepresentationIdentifier) ?? '').toUpperCase())) continue;
    for (const item of list(rep.Items)) readItem(item, IDENTITY, units, local, 0, mapped);
  }
  if (local.length === 0) return null;
  const world = worldPlacement(refOf(door.ObjectPlacement));
  const s = units.length;
  const polylines = local.map((pts) => {
    const flat: number[] = [];
    for (let k = 0; k < pts.length; k += 3) {
      const [x, y] = apply(world, pts[k], pts[k + 1], pts[k + 2]);
      flat.push(x * s, y * s);
    }
    return flat;
  });
  return { owner: id, z: world[14] * s, lines: polylines };
}

/** Appends the polylines of one representation item (x, y, z triples, in its representation's frame). */
function readItem(item: Line, m: Mat, units: Units, out: number[][], depth: number, mapped: Map<number, number[][]>) {
  if (!item || depth > 8) return;
  const kind = typeName(item);
  switch (kind) {
    case 'IFCGEOMETRICSET':
    case 'IFCGEOMETRICCURVESET':
      for (const element of list(item.Elements)) readItem(element, m, units, out, depth + 1, mapped);
      return;
    case 'IFCMAPPEDITEM': {
      const source = get(item.MappingSource);
      const key = typeof source?.expressID === 'number' ? source.expressID : -1;
      // The symbol of a door type, in its own frame: read once for all doors of the type.
      let shared = mapped.get(key);
      if (!shared) {
        shared = [];
        const rep = get(source?.MappedRepresentation);
        for (const inner of list(rep?.Items)) readItem(inner, IDENTITY, units, shared, depth + 1, mapped);
        if (key >= 0) mapped.set(key, shared);
      }
      const origin = placementMatrix(get(source?.MappingOrigin));
      const target = operatorMatrix(get(item.MappingTarget));
      const placed = multiply(m, multiply(target, origin));
      for (const pts of shared) {
        const moved: number[] = [];
        for (let k = 0; k < pts.length; k += 3) moved.push(...apply(placed, pts[k], pts[k + 1], pts[k + 2]));
        out.push(moved);
      }
      return;
    }
    default: {
      const pts = curvePoints(item, units, depth);
      if (pts && pts.length >= 6) {
        const placed: number[] = [];
        for (let k = 0; k < pts.length; k += 3) placed.push(...apply(m, pts[k], pts[k + 1], pts[k + 2]));
        out.push(placed);
      }
    }
  }
}

/** Points (x, y, z triples) along a curve, or null for what is not a bounded curve. */
function curvePoints(curve: Line, units: Units, depth: number): number[] | null {
  if (!curve || depth > 12) return null;
  switch (typeName(curve)) {
    case 'IFCPOLYLINE':
      return list(curve.Points).flatMap(point3);
    case 'IFCINDEXEDPOLYCURVE': {
      const coords = (get(curve.Points)?.CoordList as unknown[][]) ?? [];
      return coords.flatMap((c) => [num(c[0]), num(c[1]), num(c[2])]);
    }
    case 'IFCCIRCLE':
    case 'IFCELLIPSE':
      return conicPoints(curve, 0, 2 * Math.PI);
    case 'IFCTRIMMEDCURVE':
      return trimmedPoints(curve, units, depth);
    case 'IFCCOMPOSITECURVE': {
      const pts: number[] = [];
      for (const segment of list(curve.Segments)) {
        let part = curvePoints(get(segment.ParentCurve), units, depth + 1);
        if (!part) continue;
        if (String(val(segment.SameSense)) === 'F' || val(segment.SameSense) === false) part = reverse(part);
        pts.push(...part);
      }
      return pts;
    }
    default:
      return null;
  }
}

function trimmedPoints(curve: Line, units: Units, depth: number): number[] | null {
  const basis = get(curve.BasisCurve);
  const sense = !(String(val(curve.SenseAgreement)) === 'F' || val(curve.SenseAgreement) === false);
  const kind = typeName(basis);
  const trim = (trims: unknown): { param?: number; point?: number[] } => {
    const items = (Array.isArray(trims) ? trims : [trims]).map(get);
    const out: { param?: number; point?: number[] } = {};
    for (const t of items) {
      if (t && typeof t === 'object' && 'Coordinates' in t) out.point = point3(t);
      else if (val(t) !== undefined) out.param = num(t);
    }
    return out;
  };
  const t1 = trim(curve.Trim1), t2 = trim(curve.Trim2);
  const preferCartesian = String(val(curve.MasterRepresentation)).toUpperCase() === 'CARTESIAN';
  if (kind === 'IFCLINE') {
    const start = (preferCartesian || t1.param === undefined) && t1.point ? t1.point : linePoint(basis, t1.param ?? 0);
    const end = (preferCartesian || t2.param === undefined) && t2.point ? t2.point : linePoint(basis, t2.param ?? 0);
    return [...start, ...end];
  }
  if (kind !== 'IFCCIRCLE' && kind !== 'IFCELLIPSE') return curvePoints(basis, units, depth + 1);
  const m = placementMatrix(get(basis.Position));
  const angleOf = (t: { param?: number; point?: number[] }): number => {
    if ((preferCartesian || t.param === undefined) && t.point) {
      const inv = invertRigid(m);
      const [x, y] = apply(inv, t.point[0], t.point[1], t.point[2]);
      const a = num(basis.SemiAxis1, num(basis.Radius, 1)), b = num(basis.SemiAxis2, num(basis.Radius, 1));
      return Math.atan2(y / b, x / a);
    }
    return (t.param ?? 0) * units.angle;
  };
  let from = angleOf(t1), to = angleOf(t2);
  if (!sense) [from, to] = [to, from];
  while (to <= from) to += 2 * Math.PI;
  const pts = conicPoints(basis, from, to);
  return sense ? pts : reverse(pts);
}

function conicPoints(conic: Line, from: number, to: number): number[] {
  const radius = num(conic.Radius, NaN);
  const a = Number.isFinite(radius) ? radius : num(conic.SemiAxis1, 1);
  const b = Number.isFinite(radius) ? radius : num(conic.SemiAxis2, 1);
  const m = placementMatrix(get(conic.Position));
  const steps = Math.max(2, Math.ceil(((to - from) / (2 * Math.PI)) * ARC_STEPS_PER_TURN));
  const pts: number[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = from + ((to - from) * i) / steps;
    pts.push(...apply(m, a * Math.cos(t), b * Math.sin(t), 0));
  }
  return pts;
}

function linePoint(line: Line, t: number): number[] {
  const p = point3(get(line.Pnt));
  const dir = get(line.Dir);
  const d = direction3(get(dir?.Orientation) ?? null);
  const magnitude = num(dir?.Magnitude, 1);
  return [p[0] + d[0] * magnitude * t, p[1] + d[1] * magnitude * t, p[2] + d[2] * magnitude * t];
}

function reverse(pts: number[]): number[] {
  const out: number[] = [];
  for (let k = pts.length - 3; k >= 0; k -= 3) out.push(pts[k], pts[k + 1], pts[k + 2]);
  return out;
}

function typeName(line: Line): string {
  return typeof line?.type === 'number' ? nameOfType(line.type) : '';
}

function point3(point: Line | null): number[] {
  const c = (point?.Coordinates as unknown[]) ?? [];
  return [num(c[0]), num(c[1]), num(c[2])];
}

function direction3(direction: Line | null, fallback: number[] = [1, 0, 0]): number[] {
  const r = (direction?.DirectionRatios as unknown[]) ?? null;
  if (!r) return fallback;
  const v = [num(r[0]), num(r[1]), num(r[2])];
  const len = Math.hypot(v[0], v[1], v[2]);
  return len > 0 ? v.map((x) => x / len) : fallback;
}

/**
 * An object placement's world matrix, in the file's units: an IfcLocalPlacement is its
 * RelativePlacement within its PlacementRelTo's, as web-ifc's GetWorldTransformMatrix has
 * it (to within rounding); any other kind (IfcGridPlacement), and none, the identity, as
 * there too.
 */
function worldPlacement(id: number, depth = 0): Mat {
  if (!id) return IDENTITY;
  let m = placements.get(id);
  if (m) return m;
  const line = lineOf(id);
  m = IDENTITY;
  if (typeName(line) === 'IFCLOCALPLACEMENT' && depth < 64) {
    m = multiply(worldPlacement(refOf(line.PlacementRelTo), depth + 1), placementMatrix(get(line.RelativePlacement)));
  }
  if (placements.size >= placementCacheSize) placements.clear();
  placements.set(id, m);
  return m;
}

/** IfcAxis2Placement2D/3D -> matrix. */
function placementMatrix(placement: Line | null): Mat {
  if (!placement) return IDENTITY;
  return axisMatrix(point3(get(placement.Location)), direction3(get(placement.Axis) ?? null, [0, 0, 1]), direction3(get(placement.RefDirection) ?? null, [1, 0, 0]));
}

/** IfcCartesianTransformationOperator2D/3D (and their non-uniform kinds) -> matrix. */
function operatorMatrix(op: Line | null): Mat {
  if (!op) return IDENTITY;
  const m = axisMatrix(point3(get(op.LocalOrigin)), direction3(get(op.Axis3) ?? null, [0, 0, 1]), direction3(get(op.Axis1) ?? null, [1, 0, 0]));
  if (op.Axis2) m.splice(4, 3, ...direction3(get(op.Axis2)));
  const s = num(op.Scale, 1) || 1;
  const scales = [s, num(op.Scale2, s) || s, num(op.Scale3, s) || s];
  for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) m[c * 4 + r] *= scales[c];
  return m;
}
