import { IFCGRID, type IfcAPI } from 'web-ifc';
import { readUnits } from '../plan/units.js';
import { objectId } from '../data/object-ids.js';
import { decodeIfcString } from './products.js';

/** An IfcGrid read from the file: its axes as polylines in IFC coordinates (metres, z up). */
export interface GridData {
  objectId: string;
  name: string;
  /** The grid's PredefinedType (RECTANGULAR, RADIAL, ...), NOTDEFINED when the file has none. */
  type: string;
  axes: AxisData[];
}

export interface AxisData {
  objectId: string;
  tag: string;
  /** x, y, z per point. */
  points: number[];
}

type Line = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Matrix = number[]; // column-major 4x4

const val = (field: unknown): unknown => (field && typeof field === 'object' && 'value' in field ? (field as { value: unknown }).value : field);
const coords = (point: Line | undefined): number[] => ((point?.Coordinates ?? []) as unknown[]).map((c) => Number(val(c)));

/** Every grid of a model, placed (IfcLocalPlacement chains) and scaled to metres. */
export function readGrids(api: IfcAPI, modelID: number, base: string): GridData[] {
  const ids = api.GetLineIDsWithType(modelID, IFCGRID, true);
  if (ids.size() === 0) return [];
  const scale = readUnits(api, modelID).length;
  const grids: GridData[] = [];
  for (let i = 0; i < ids.size(); i++) {
    try {
      const grid: Line = api.GetLine(modelID, ids.get(i), true);
      const matrix = placement(grid.ObjectPlacement, scale);
      const axes: AxisData[] = [];
      for (const list of [grid.UAxes, grid.VAxes, grid.WAxes]) {
        for (const axis of (list ?? []) as Line[]) {
          const local = curvePoints(axis.AxisCurve);
          if (local.length < 2) continue;
          const points = local.flatMap(([x, y, z]) => apply(matrix, [x * scale, y * scale, (z ?? 0) * scale]));
          axes.push({ objectId: objectId(base, axis.expressID), tag: decodeIfcString(String(val(axis.AxisTag) ?? '')), points });
        }
      }
      grids.push({
        objectId: objectId(base, grid.expressID),
        name: decodeIfcString(String(val(grid.Name) ?? '')),
        type: String(val(grid.PredefinedType) ?? 'NOTDEFINED'),
        axes,
      });
    } catch {
      // A grid web-ifc cannot read whole is left out rather than failing the model.
    }
  }
  return grids;
}

/** The points of an axis curve (polyline, trimmed line, indexed polycurve), in the grid's frame. */
function curvePoints(curve: Line | undefined): number[][] {
  if (!curve) return [];
  if (curve.Points && Array.isArray(curve.Points)) return (curve.Points as Line[]).map(coords);
  if (curve.Points?.CoordList) return (curve.Points.CoordList as unknown[][]).map((p) => p.map((c) => Number(val(c))));
  if (curve.BasisCurve) {
    const basis = curve.BasisCurve as Line;
    const trims = [curve.Trim1, curve.Trim2].map((trim: Line[] | Line) => (Array.isArray(trim) ? trim : [trim]));
    if (basis.Pnt && basis.Dir) {
      const origin = coords(basis.Pnt);
      const dir = ((basis.Dir.Orientation?.DirectionRatios ?? []) as unknown[]).map((c) => Number(val(c)));
      const magnitude = Number(val(basis.Dir.Magnitude) ?? 1);
      return trims.map((trim) => {
        const point = trim.find((t) => t?.Coordinates);
        if (point) return coords(point);
        const t = Number(val(trim.find((x) => typeof val(x) === 'number')) ?? 0);
        return origin.map((o, k) => o + (dir[k] ?? 0) * magnitude * t);
      });
    }
  }
  return [];
}

/** The world matrix of an IfcLocalPlacement chain, translations in metres. */
function placement(local: Line | undefined, scale: number, depth = 0): Matrix {
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  if (!local || depth > 32) return identity;
  const relative = axisPlacement(local.RelativePlacement, scale);
  const parent = local.PlacementRelTo ? placement(local.PlacementRelTo, scale, depth + 1) : identity;
  return multiply(parent, relative);
}

function axisPlacement(p: Line | undefined, scale: number): Matrix {
  const location = coords(p?.Location);
  const dirs = (d: Line | undefined, fallback: number[]) => {
    const ratios = ((d?.DirectionRatios ?? []) as unknown[]).map((c) => Number(val(c)));
    return ratios.length ? [ratios[0], ratios[1], ratios[2] ?? 0] : fallback;
  };
  const z = normalize(dirs(p?.Axis, [0, 0, 1]));
  let x = dirs(p?.RefDirection, [1, 0, 0]);
  const along = x[0] * z[0] + x[1] * z[1] + x[2] * z[2];
  x = normalize([x[0] - along * z[0], x[1] - along * z[1], x[2] - along * z[2]]);
  const y = [z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]];
  return [...x, 0, ...y, 0, ...z, 0, (location[0] ?? 0) * scale, (location[1] ?? 0) * scale, (location[2] ?? 0) * scale, 1];
}

function normalize(v: number[]): number[] {
  const length = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / length, v[1] / length, v[2] / length];
}

function multiply(a: Matrix, b: Matrix): Matrix {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

function apply(m: Matrix, [x, y, z]: number[]): number[] {
  return [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
}
