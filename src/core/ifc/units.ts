import { IFCCONVERSIONBASEDUNIT, IFCCONVERSIONBASEDUNITWITHOFFSET, IFCPROJECT, IFCSIUNIT } from 'web-ifc';
import type { ModelLines } from './web-ifc-engine.js';
import { rawLine, rawList, rawValue, referenced, type RawLine } from './raw-lines.js';

/**
 * The project's units (IfcProject.UnitsInContext): metres per length unit and radians
 * per plane angle unit. web-ifc scales mesh geometry to metres itself; attribute values,
 * placements and 2D curves read from lines need these factors.
 */
export interface Units {
  length: number;
  angle: number;
}

const PREFIXES: Record<string, number> = {
  EXA: 1e18, PETA: 1e15, TERA: 1e12, GIGA: 1e9, MEGA: 1e6, KILO: 1e3, HECTO: 1e2, DECA: 1e1,
  DECI: 1e-1, CENTI: 1e-2, MILLI: 1e-3, MICRO: 1e-6, NANO: 1e-9, PICO: 1e-12, FEMTO: 1e-15, ATTO: 1e-18,
};

/** Read from raw lines (raw-lines.ts): the grids read them before a model's first frame. */
export function readUnits(api: ModelLines, modelID: number): Units {
  const units: Units = { length: 1, angle: 1 };
  const projects = api.GetLineIDsWithType(modelID, IFCPROJECT);
  if (projects.size() === 0) return units;
  try {
    const project = rawLine(api, modelID, projects.get(0));
    // IfcProject (IfcContext): UnitsInContext is its ninth attribute; IfcUnitAssignment's Units its first.
    const assignment = referenced(api, modelID, project?.args[8]);
    for (const item of rawList(assignment?.args[0])) {
      const unit = referenced(api, modelID, item);
      if (!unit) continue;
      const type = String(rawValue(unit.args[unit.type === IFCSIUNIT ? 0 : 1]) ?? '');
      if (type !== 'LENGTHUNIT' && type !== 'PLANEANGLEUNIT') continue;
      const factor = unitFactor(api, modelID, unit);
      if (!Number.isFinite(factor) || factor <= 0) continue;
      if (type === 'LENGTHUNIT') units.length = factor;
      else units.angle = factor;
    }
  } catch {
    // a broken unit assignment: keep SI units
  }
  return units;
}

/**
 * SI units with their prefix (IfcSIUnit: UnitType, Prefix, Name); conversion-based units
 * through their factor, recursively (Dimensions, UnitType, Name, ConversionFactor: an
 * IfcMeasureWithUnit of ValueComponent and UnitComponent); other units by name.
 */
function unitFactor(api: ModelLines, modelID: number, unit: RawLine | null, depth = 0): number {
  if (!unit || depth > 4) return NaN;
  if (unit.type === IFCSIUNIT) {
    const prefix = String(rawValue(unit.args[1]) ?? '').toUpperCase();
    return prefix ? PREFIXES[prefix] ?? NaN : 1;
  }
  const name = String(rawValue(unit.args[2]) ?? '').toUpperCase();
  if (unit.type === IFCCONVERSIONBASEDUNIT || unit.type === IFCCONVERSIONBASEDUNITWITHOFFSET) {
    const conversion = referenced(api, modelID, unit.args[3]);
    const component = Number(rawValue(conversion?.args[0]));
    const base = unitFactor(api, modelID, referenced(api, modelID, conversion?.args[1]), depth + 1);
    if (Number.isFinite(component) && Number.isFinite(base)) return component * base;
  }
  if (name === 'DEGREE') return Math.PI / 180;
  if (name === 'FOOT') return 0.3048;
  if (name === 'INCH') return 0.0254;
  return NaN;
}
