import type { IfcAPI } from 'web-ifc';
import { objectId } from '../data/object-ids.js';
import { belowPieces } from './below-cut.js';
import { LinesBuilder, SegmentBuffer, chainSegments, polyline } from './chain.js';
import { collectMeshes, type MeshCollector, type MeshPiece } from './meshes.js';
import { doorSymbols, type DoorSymbols } from './plan-symbols.js';
import { labelPoint, linesBounds, ringsArea } from './polygon.js';
import { CUT_KINDS, DEFAULT_PLAN_OPTIONS, type CutKind, type PlanLines, type PlanModel, type PlanOptions, type PlanSpace, type PlanStorey } from './protocol.js';
import { cutPieces } from './section-cut.js';
import { spaceFootprint } from './space-footprint.js';
import { spaceName, type SpaceName } from './space-names.js';
import { SpatialIndex } from './storeys.js';
import { piecesByStorey } from './storey-pieces.js';
import { readUnits } from '../ifc/units.js';

/**
 * The storey plans of one open model (runs in the plan worker; also usable in node):
 *
 * 1. units and the spatial structure (storeys, which storey each object is on);
 * 2. every mesh in world coordinates with its drawing edges; spaces separately;
 * 3. spaces: footprints from their meshes, storey from the structure (or their height);
 * 4. per storey: the section at `cutHeight` above its elevation (by kind), the edges
 *    between its floor and the cut, and the doors' plan symbols.
 *
 * A model without storeys gets one default storey holding its spaces. What `read`
 * brings is not read again: `meshes`, the pieces another pass over the geometry collected
 * (the platform's import collects them while it writes the scene: one pass instead of
 * two), and `symbols` and `spaceNames`, the doors' symbols and the spaces' names (read by
 * the import's other thread).
 */

const SOLID = new Set([
  'IFCWALL', 'IFCWALLSTANDARDCASE', 'IFCWALLELEMENTEDCASE', 'IFCCOLUMN', 'IFCCOLUMNSTANDARDCASE', 'IFCSLAB',
  'IFCSLABSTANDARDCASE', 'IFCSLABELEMENTEDCASE', 'IFCBEAM', 'IFCBEAMSTANDARDCASE', 'IFCFOOTING', 'IFCROOF',
  'IFCCHIMNEY', 'IFCPILE', 'IFCCURTAINWALL',
]);
const DOORS = new Set(['IFCDOOR', 'IFCDOORSTANDARDCASE']);
const WINDOWS = new Set(['IFCWINDOW', 'IFCWINDOWSTANDARDCASE', 'IFCPLATE', 'IFCPLATESTANDARDCASE']);
/** Never drawn in a plan: the volumes and helpers around real things. */
const SKIPPED = new Set(['IFCSPACE', 'IFCOPENINGELEMENT', 'IFCOPENINGSTANDARDCASE', 'IFCVIRTUALELEMENT', 'IFCANNOTATION', 'IFCSITE', 'IFCGRID']);

/** What another pass over the model read already (extractPlan's `read`). */
export interface PlanInputs {
  meshes?: MeshCollector;
  symbols?: DoorSymbols;
  /** The spaces' names by express id (space-names.ts). */
  spaceNames?: Map<number, SpaceName>;
}

export function extractPlan(api: IfcAPI, modelID: number, base: string, options: PlanOptions = DEFAULT_PLAN_OPTIONS, read: PlanInputs = {}): PlanModel {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = now - mark;
    mark = now;
  };

  const units = readUnits(api, modelID);
  const spatial = new SpatialIndex(api, modelID, units.length);
  lap('structure');

  const pieces = read.meshes ?? collectMeshes(api, modelID);
  lap('meshes');
  timings.meshesOwn = pieces.ownTime;
  const elements = pieces.elements;
  // An object's type as the stream gave it with its pieces (office-200k: 200k objects, two calls across the binding each).
  const typeNames = new Map<number, string>();
  const typeOf = (id: number) => {
    const code = pieces.typeCode(id) ?? api.GetLineType(modelID, id);
    let name = typeNames.get(code);
    if (name === undefined) typeNames.set(code, (name = api.GetNameFromTypeCode(code).toUpperCase()));
    return name;
  };

  // Spaces.
  const bySpace = new Map<number, MeshPiece[]>();
  for (const piece of pieces.spaces) {
    const list = bySpace.get(piece.owner);
    if (list) list.push(piece);
    else bySpace.set(piece.owner, [piece]);
  }
  const footprints: Array<{ id: number; rings: PlanLines; bottom: number; top: number }> = [];
  for (const [id, pieces] of bySpace) {
    const rings = spaceFootprint(pieces);
    if (rings.owners.length === 0) continue;
    footprints.push({ id, rings, bottom: Math.min(...pieces.map((p) => p.minZ)), top: Math.max(...pieces.map((p) => p.maxZ)) });
  }
  footprints.sort((a, b) => a.id - b.id);
  if (spatial.storeys.length === 0) {
    const bottoms = footprints.map((f) => f.bottom);
    const lowest = elements.reduce((z, p) => Math.min(z, p.minZ), Infinity);
    spatial.addDefaultStorey(bottoms.length ? Math.min(...bottoms) : Number.isFinite(lowest) ? lowest : 0);
  }
  const defaultIndex = spatial.storeys.findIndex((s) => s.isDefault);
  const spaces: PlanSpace[] = footprints.map(({ id, rings, bottom, top }) => {
    const { guid, name, longName } = read.spaceNames?.get(id) ?? spaceName(api.GetLine(modelID, id, false));
    let storey = spatial.storeyOf(id);
    if (storey < 0) storey = defaultIndex >= 0 ? defaultIndex : spatial.storeyAt(bottom);
    const bounds = linesBounds(rings);
    return {
      expressId: id,
      objectId: objectId(base, id),
      guid,
      name,
      longName,
      storey,
      rings,
      area: ringsArea(rings),
      bounds,
      label: labelPoint(rings, bounds),
      bottom,
      top,
    };
  });
  lap('spaces');

  // Sections, below-cut edges and symbols per storey.
  const kindIndex = (owner: number) => {
    const name = typeOf(owner);
    if (SKIPPED.has(name)) return -1;
    if (SOLID.has(name)) return 0;
    if (DOORS.has(name)) return 1;
    if (WINDOWS.has(name)) return 2;
    return 3;
  };
  const kindCache = new Map<number, number>();
  const kindOf = (owner: number) => {
    let k = kindCache.get(owner);
    if (k === undefined) {
      k = kindIndex(owner);
      kindCache.set(owner, k);
    }
    return k;
  };
  const symbols = read.symbols ?? doorSymbols(api, modelID, units);
  lap('symbols');

  const near = piecesByStorey(elements, spatial.storeys.map((s) => s.elevation), options.floorTolerance, options.cutHeight);
  // Each symbol to its storey in one pass, not a pass over all of them per storey.
  const symbolLines = spatial.storeys.map(() => new LinesBuilder());
  for (let door = 0; door < symbols.owners.length; door++) {
    const owner = symbols.owners[door];
    let storey = spatial.storeyOf(owner);
    if (storey < 0) storey = defaultIndex >= 0 ? defaultIndex : spatial.storeyAt(symbols.z[door]);
    const lines = symbolLines[storey];
    if (lines) for (let i = symbols.firstLine[door]; i < symbols.firstLine[door + 1]; i++) lines.add(polyline(symbols.lines, i), owner);
  }
  const storeys: PlanStorey[] = spatial.storeys.map((info, index) => {
    const cutZ = info.elevation + options.cutHeight;
    const buffers = CUT_KINDS.map(() => new SegmentBuffer());
    cutPieces(near[index], cutZ, kindOf, buffers);
    const cut = {} as Record<CutKind, PlanLines>;
    CUT_KINDS.forEach((kind, k) => {
      cut[kind] = chainSegments(buffers[k].segments, buffers[k].owners).build();
    });
    const below = new SegmentBuffer();
    belowPieces(near[index], info.elevation - options.floorTolerance, cutZ, (owner) => kindOf(owner) >= 0, below);
    const belowLines = chainSegments(below.segments, below.owners, 1e-4).build();
    const storeySpaces = spaces.map((s, i) => (s.storey === index ? i : -1)).filter((i) => i >= 0);
    const bounds = new Float64Array(4).fill(NaN);
    for (const kind of CUT_KINDS) linesBounds(cut[kind], bounds);
    for (const i of storeySpaces) linesBounds(spaces[i].rings, bounds);
    const symbolsBuilt = symbolLines[index].build();
    linesBounds(symbolsBuilt, bounds);
    if (!Number.isFinite(bounds[0])) linesBounds(belowLines, bounds);
    return {
      expressId: info.expressId,
      objectId: objectId(base, info.expressId),
      guid: info.guid,
      name: info.name,
      elevation: info.elevation,
      buildingId: info.building ? objectId(base, info.building) : null,
      cutZ,
      isDefault: info.isDefault,
      cut,
      below: belowLines,
      symbols: symbolsBuilt,
      spaces: storeySpaces,
      bounds,
    };
  });
  lap('storeys');
  return { schema: api.GetModelSchema(modelID), storeys, spaces, timings };
}

