import { IFCPROJECT, type IfcAPI } from 'web-ifc';

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

const value = (field: unknown): unknown => (field && typeof field === 'object' && 'value' in field ? (field as { value: unknown }).value : field);

export function readUnits(api: IfcAPI, modelID: number): Units {
  const units: Units = { length: 1, angle: 1 };
  const projects = api.GetLineIDsWithType(modelID, IFCPROJECT);
  if (projects.size() === 0) return units;
  try {
    const project = api.GetLine(modelID, projects.get(0), true);
    const assigned = project.UnitsInContext?.Units ?? [];
    for (const unit of assigned) {
      const type = String(value(unit?.UnitType) ?? '');
      if (type !== 'LENGTHUNIT' && type !== 'PLANEANGLEUNIT') continue;
      const factor = unitFactor(unit);
      if (!Number.isFinite(factor) || factor <= 0) continue;
      if (type === 'LENGTHUNIT') units.length = factor;
      else units.angle = factor;
    }
  } catch {
    // a broken unit assignment: keep SI units
  }
  return units;
}

/** SI units with their prefix; conversion-based units through their factor (recursively). */
function unitFactor(unit: Record<string, unknown>, depth = 0): number {
  if (!unit || depth > 4) return NaN;
  const name = String(value(unit.Name) ?? '').toUpperCase();
  if ('Prefix' in unit || name === 'METRE' || name === 'RADIAN') {
    const prefix = String(value(unit.Prefix) ?? '').toUpperCase();
    return prefix ? PREFIXES[prefix] ?? NaN : 1;
  }
  const conversion = unit.ConversionFactor as Record<string, unknown> | undefined;
  if (conversion) {
    const component = Number(value(conversion.ValueComponent));
    const base = unitFactor(conversion.UnitComponent as Record<string, unknown>, depth + 1);
    if (Number.isFinite(component) && Number.isFinite(base)) return component * base;
    if (name === 'DEGREE') return Math.PI / 180;
  }
  if (name === 'DEGREE') return Math.PI / 180;
  if (name === 'FOOT') return 0.3048;
  if (name === 'INCH') return 0.0254;
  return NaN;
}
