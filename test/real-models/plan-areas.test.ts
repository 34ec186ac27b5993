// Space footprints from the plan worker against what real exporters' files (BIM_MODELS)
// say about their spaces: the floor area quantities (Qto_SpaceBaseQuantities GrossFloorArea,
// Pset_SpaceCommon GrossPlannedArea) where a file has them, within 2 %. Read here with
// web-ifc on the page, independently of the plan code.
import { type IfcAPI, IFCPROJECT, IFCRELDEFINESBYPROPERTIES, IFCSPACE } from 'web-ifc';
import { PlanClient } from '../../src/core/plan/plan-client';
import type { PlanModel } from '../../src/core/plan/protocol';
import { assert, assertEqual } from '../support/assert';
import { REAL_MODELS } from '../support/real-models';
import { startWebIfc, val } from '../support/web-ifc';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Line = any;

let api: IfcAPI;
let client: PlanClient;

async function open(url: string): Promise<{ bytes: ArrayBuffer; modelID: number }> {
  const bytes = await (await fetch(url)).arrayBuffer();
  const modelID = api.OpenModel(new Uint8Array(bytes.slice(0)), { COORDINATE_TO_ORIGIN: false });
  return { bytes, modelID };
}

/** Square metres per area unit, and metres per length unit, from the project's units. */
function units(modelID: number): { area: number; length: number } {
  const PREFIX: Record<string, number> = { MILLI: 1e-3, CENTI: 1e-2, DECI: 1e-1, KILO: 1e3 };
  const out = { area: 1, length: 1 };
  const project = api.GetLine(modelID, api.GetLineIDsWithType(modelID, IFCPROJECT).get(0), true);
  for (const unit of project.UnitsInContext?.Units ?? []) {
    const type = val(unit.UnitType);
    const prefix = PREFIX[val(unit.Prefix) ?? ''] ?? 1;
    if (type === 'AREAUNIT' && 'Prefix' in unit) out.area = prefix * prefix;
    if (type === 'LENGTHUNIT' && 'Prefix' in unit) out.length = prefix;
  }
  return out;
}

/** Space express id -> its floor area quantity (m²) and where it came from. */
function floorAreas(modelID: number): Map<number, { area: number; source: string }> {
  const areaUnit = units(modelID).area;
  const out = new Map<number, { area: number; source: string }>();
  const rels = api.GetLineIDsWithType(modelID, IFCRELDEFINESBYPROPERTIES);
  for (let i = 0; i < rels.size(); i++) {
    const rel = api.GetLine(modelID, rels.get(i), false);
    const definition = api.GetLine(modelID, val(rel.RelatingPropertyDefinition), true);
    for (const object of rel.RelatedObjects ?? []) {
      for (const q of definition.Quantities ?? []) {
        if (val(q.Name) === 'GrossFloorArea' && q.AreaValue) out.set(val(object), { area: Number(val(q.AreaValue)) * areaUnit, source: `${val(definition.Name)}.GrossFloorArea` });
      }
      for (const p of definition.HasProperties ?? []) {
        if (val(p.Name) === 'GrossPlannedArea' && p.NominalValue && !out.has(val(object))) {
          out.set(val(object), { area: Number(val(p.NominalValue)) * areaUnit, source: `${val(definition.Name)}.GrossPlannedArea` });
        }
      }
    }
  }
  return out;
}

/** Area of a polygon of IFC points (x, y of their coordinates). */
function polygonArea(points: Line[]): number {
  const pts = points.map((p: Line) => p.Coordinates.map(val));
  let sum = 0;
  for (let k = 0; k < pts.length; k++) {
    const a = pts[k], b = pts[(k + 1) % pts.length];
    sum += a[0] * b[1] - b[0] * a[1];
  }
  return Math.abs(sum / 2);
}

/**
 * The floor area a space's own geometry states: the profile of a vertical extrusion, or
 * the lowest horizontal faces (outer bounds minus holes) of a face-based surface model.
 * Null for other geometry.
 */
function profileArea(modelID: number, spaceId: number, lengthUnit: number): number | null {
  const space = api.GetLine(modelID, spaceId, true);
  for (const rep of space.Representation?.Representations ?? []) {
    if (val(rep.RepresentationIdentifier) !== 'Body') continue;
    for (const item of rep.Items ?? []) {
      if (item.FbsmFaces) {
        const faces = item.FbsmFaces.flatMap((set: Line) => set.CfsFaces ?? []);
        const zOf = (face: Line) => face.Bounds.flatMap((b: Line) => b.Bound.Polygon.map((p: Line) => val(p.Coordinates[2])));
        const flat = faces.filter((f: Line) => { const z = zOf(f); return Math.max(...z) - Math.min(...z) < 1e-6; });
        const lowest = Math.min(...flat.map((f: Line) => zOf(f)[0]));
        let area = 0;
        for (const face of flat.filter((f: Line) => Math.abs(zOf(f)[0] - lowest) < 1e-6)) {
          for (const bound of face.Bounds) area += (bound.constructor.name === 'IfcFaceOuterBound' ? 1 : -1) * polygonArea(bound.Bound.Polygon);
        }
        return area * lengthUnit * lengthUnit;
      }
      // Only extrusions straight up from a horizontal profile (some Duplex spaces are extruded sideways).
      const direction = item.ExtrudedDirection?.DirectionRatios?.map(val);
      const axis = item.Position?.Axis?.DirectionRatios?.map(val) ?? [0, 0, 1];
      if (!item.SweptArea || !direction || Math.abs(direction[2]) < 0.999 || Math.abs(axis[2]) < 0.999) continue;
      const polygon = (curve: Line) => {
        const pts = (curve?.Points ?? []).map((p: Line) => p.Coordinates.map(val));
        let sum = 0;
        for (let k = 0; k + 1 < pts.length; k++) sum += pts[k][0] * pts[k + 1][1] - pts[k + 1][0] * pts[k][1];
        return Math.abs(sum / 2);
      };
      const profile = item.SweptArea;
      if (profile.XDim && profile.YDim) return Number(val(profile.XDim)) * Number(val(profile.YDim)) * lengthUnit * lengthUnit;
      if (!profile.OuterCurve?.Points) return null;
      let area = polygon(profile.OuterCurve);
      for (const inner of profile.InnerCurves ?? []) area -= polygon(inner);
      return area * lengthUnit * lengthUnit;
    }
  }
  return null;
}

async function planOf(bytes: ArrayBuffer): Promise<PlanModel> {
  return client.plan(bytes, '0');
}

describe('space areas: plan footprints against the files\' own floor areas', function () {
  before(async () => {
    api = await startWebIfc();
    client = new PlanClient();
  });
  after(() => client.dispose());

  const cases: Array<[string, keyof typeof REAL_MODELS, number]> = [
    ['AC20-FZK-Haus (Qto GrossFloorArea)', 'fzk', 7],
    ['Gymzaal Amersfoort (BaseQuantities GrossFloorArea)', 'location', 48],
    ['PCERT Building-Architecture (Pset_SpaceCommon GrossPlannedArea)', 'pcert', 2],
  ];
  for (const [name, key, expected] of cases) {
    it(`${name}: every space within 2 %`, async () => {
      const { bytes, modelID } = await open(REAL_MODELS[key]);
      const quantities = floorAreas(modelID);
      api.CloseModel(modelID);
      const plan = await planOf(bytes);
      let checked = 0;
      const rows: string[] = [];
      for (const space of plan.spaces) {
        const q = quantities.get(space.expressId);
        if (!q) continue;
        const error = Math.abs(space.area - q.area) / q.area;
        rows.push(`${space.name} ${space.longName}: plan ${space.area.toFixed(3)} m², ${q.source} ${q.area.toFixed(3)} m² (${(error * 100).toFixed(2)} %)`);
        assert(error <= 0.02, `${space.name} (${space.longName}): plan ${space.area.toFixed(3)} m² vs ${q.source} ${q.area.toFixed(3)} m²`);
        checked++;
      }
      console.log(`${name}:\n  ${rows.join('\n  ')}`);
      assertEqual(checked, expected, 'spaces with a floor area quantity');
    });
  }

  it('Duplex: its spaces carry only "GSA BIM Area" (not their footprint); the footprints match the floors their geometry states within 0.5 %', async () => {
    const { bytes, modelID } = await open(REAL_MODELS.duplex);
    const lengthUnit = units(modelID).length;
    const spaceIds = api.GetLineIDsWithType(modelID, IFCSPACE);
    const profiles = new Map<number, number | null>();
    for (let i = 0; i < spaceIds.size(); i++) profiles.set(spaceIds.get(i), profileArea(modelID, spaceIds.get(i), lengthUnit));
    assertEqual(floorAreas(modelID).size, 0, 'no GrossFloorArea / GrossPlannedArea in Duplex');
    api.CloseModel(modelID);
    const plan = await planOf(bytes);
    let checked = 0;
    for (const space of plan.spaces) {
      const profile = profiles.get(space.expressId);
      if (profile === null || profile === undefined) continue;
      const error = Math.abs(space.area - profile) / profile;
      assert(error <= 0.005, `${space.name}: plan ${space.area.toFixed(3)} m² vs profile ${profile.toFixed(3)} m²`);
      checked++;
    }
    console.log(`Duplex: the footprints of ${checked} of ${plan.spaces.length} spaces match their extruded profile or lowest faces`);
    assert(checked >= 15, `most Duplex spaces checked (${checked})`);
  });
});
