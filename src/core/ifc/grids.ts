import { IFCGRID, type IfcAPI } from 'web-ifc';
import { readUnits } from './units.js';
import { objectId } from '../data/object-ids.js';
import { decodeIfcString } from './products.js';
import { IDENTITY, apply } from './matrix4.js';

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

const val = (field: unknown): unknown => (field && typeof field === 'object' && 'value' in field ? (field as { value: unknown }).value : field);
const coords = (point: Line | undefined): number[] => ((point?.Coordinates ?? []) as unknown[]).map((c) => Number(val(c)));

// IfcGrid has no subtypes; asking for inherited ones would need the model's schema in web-ifc (stream-plan.ts).
const gridIds = (api: IfcAPI, modelID: number) => api.GetLineIDsWithType(modelID, IFCGRID, false);

/** Whether a model has grids (so reading them needs web-ifc's tables of its schema). */
export const hasGrids = (api: IfcAPI, modelID: number): boolean => gridIds(api, modelID).size() > 0;

/** Every grid of a model, placed (web-ifc's world matrix of its placement) and scaled to metres. */
export function readGrids(api: IfcAPI, modelID: number, base: string): GridData[] {
  const ids = gridIds(api, modelID);
  if (ids.size() === 0) return [];
  const scale = readUnits(api, modelID).length;
  const grids: GridData[] = [];
  for (let i = 0; i < ids.size(); i++) {
    try {
      const grid: Line = api.GetLine(modelID, ids.get(i), true);
      const placement = grid.ObjectPlacement?.expressID;
      const world = typeof placement === 'number' ? api.GetWorldTransformMatrix(modelID, placement) : IDENTITY;
      const axes: AxisData[] = [];
      for (const list of [grid.UAxes, grid.VAxes, grid.WAxes]) {
        for (const axis of (list ?? []) as Line[]) {
          const local = curvePoints(axis.AxisCurve);
          if (local.length < 2) continue;
          const points = local.flatMap(([x, y, z]) => apply(world, x, y, z ?? 0).map((c) => c * scale));
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
