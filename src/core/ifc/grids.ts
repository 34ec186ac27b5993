import { IFCCARTESIANPOINT, IFCGRID, IFCINDEXEDPOLYCURVE, IFCLINE, IFCPOLYLINE, IFCTRIMMEDCURVE, LABEL, type IfcAPI } from 'web-ifc';
import { readUnits } from './units.js';
import { objectId } from '../data/object-ids.js';
import { decodeIfcString } from './products.js';
import { IDENTITY, apply } from './matrix4.js';
import { rawLine, rawList, rawValue, referenced, type RawLine } from './raw-lines.js';

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

const numbers = (list: unknown): number[] => rawList(list).map((c) => Number(rawValue(c)));

// IfcGrid has no subtypes; asking for inherited ones would need the model's schema in web-ifc (stream-plan.ts).
const gridIds = (api: IfcAPI, modelID: number) => api.GetLineIDsWithType(modelID, IFCGRID, false);

/**
 * Every grid of a model, placed (web-ifc's world matrix of its placement) and scaled to
 * metres. Read from raw lines (raw-lines.ts), so a model's grids show with its first
 * frame without web-ifc's schema tables. IfcGrid's attributes by position: Name 2,
 * ObjectPlacement 5, UAxes 7, VAxes 8, WAxes 9, PredefinedType 10 (IFC4 on);
 * IfcGridAxis's: AxisTag 0, AxisCurve 1.
 */
export function readGrids(api: IfcAPI, modelID: number, base: string): GridData[] {
  const ids = gridIds(api, modelID);
  if (ids.size() === 0) return [];
  const scale = readUnits(api, modelID).length;
  const grids: GridData[] = [];
  for (let i = 0, n = ids.size(); i < n; i++) {
    try {
      const id = ids.get(i);
      const grid = rawLine(api, modelID, id)!.args;
      const placement = rawValue(grid[5]);
      const world = typeof placement === 'number' ? api.GetWorldTransformMatrix(modelID, placement) : IDENTITY;
      const axes: AxisData[] = [];
      for (const list of [grid[7], grid[8], grid[9]]) {
        for (const item of rawList(list)) {
          const axis = referenced(api, modelID, item);
          if (!axis) continue;
          const local = curvePoints(api, modelID, referenced(api, modelID, axis.args[1]));
          if (local.length < 2) continue;
          const points = local.flatMap(([x, y, z]) => apply(world, x, y, z ?? 0).map((c) => c * scale));
          axes.push({ objectId: objectId(base, rawValue(item) as number), tag: decodeIfcString(String(rawValue(axis.args[0]) ?? '')), points });
        }
      }
      grids.push({
        objectId: objectId(base, id),
        name: decodeIfcString(String(rawValue(grid[2]) ?? '')),
        type: String(rawValue(grid[10]) ?? 'NOTDEFINED'),
        axes,
      });
    } catch {
      // A grid web-ifc cannot read whole is left out rather than failing the model.
    }
  }
  return grids;
}

/** The points of an axis curve (polyline, indexed polycurve, line trimmed by points or parameters), in the grid's frame. */
function curvePoints(api: IfcAPI, modelID: number, curve: RawLine | null): number[][] {
  const point = (field: unknown) => numbers(referenced(api, modelID, field)?.args[0]);
  switch (curve?.type) {
    case IFCPOLYLINE:
      return rawList(curve.args[0]).map(point);
    case IFCINDEXEDPOLYCURVE:
      // Points: an IfcCartesianPointList2D/3D, whose CoordList is its first attribute
      return rawList(referenced(api, modelID, curve.args[0])?.args[0]).map(numbers);
    case IFCTRIMMEDCURVE: {
      // BasisCurve, Trim1, Trim2: an IfcLine (Pnt, Dir: an IfcVector of Orientation and Magnitude) trimmed at each end
      const basis = referenced(api, modelID, curve.args[0]);
      if (basis?.type !== IFCLINE) return [];
      const origin = point(basis.args[0]);
      const vector = referenced(api, modelID, basis.args[1]);
      const dir = numbers(referenced(api, modelID, vector?.args[0])?.args[0]);
      const magnitude = Number(rawValue(vector?.args[1]) ?? 1);
      return [curve.args[1], curve.args[2]].map((trim) => {
        const items = rawList(trim);
        const at = items.find((t) => referenced(api, modelID, t)?.type === IFCCARTESIANPOINT);
        if (at) return point(at);
        // else a parameter: a typed value (IFCPARAMETERVALUE(...)), along the line's vector
        const t = Number(rawValue(items.find((x) => (x as { type?: number } | null)?.type === LABEL)) ?? 0);
        return origin.map((o, k) => o + (dir[k] ?? 0) * magnitude * t);
      });
    }
    default:
      return [];
  }
}
