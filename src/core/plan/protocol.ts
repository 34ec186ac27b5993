import type { SchemaUrls } from '../ifc/web-ifc-engine.js';

/**
 * Storey plans of one IFC model, as the plan worker hands them to the page, and the
 * messages between page (PlanClient) and worker (plan-worker.ts).
 *
 * Coordinates are IFC world coordinates in metres (x, y of the z-up IFC frame, after
 * the model's length unit), in double precision: a georeferenced model keeps its
 * precision until the renderer subtracts its own origin.
 */

/**
 * Polylines packed in typed arrays: polyline i has the points
 * `coords[2 * starts[i] .. 2 * starts[i + 1])` (x, y pairs). A closed polyline repeats
 * its first point at its end. `owners[i]` is the express id of the object it comes from.
 */
export interface PlanLines {
  coords: Float64Array;
  starts: Uint32Array;
  owners: Uint32Array;
}

/** What a cut line belongs to, which decides how it is drawn. */
export type CutKind = 'solid' | 'door' | 'window' | 'other';

export const CUT_KINDS: readonly CutKind[] = ['solid', 'door', 'window', 'other'];

export interface PlanStorey {
  expressId: number;
  objectId: string;
  guid: string;
  name: string;
  /** World z of the storey (its placement), metres. */
  elevation: number;
  /** Object id of the building the storey belongs to, or null. */
  buildingId: string | null;
  /** World z of the section plane. */
  cutZ: number;
  /** True for the storey made up for a model without storeys. */
  isDefault: boolean;
  /** Section lines by kind; `solid` loops are closed and filled per owner. */
  cut: Record<CutKind, PlanLines>;
  /** Edges of what lies between the storey's floor and the cut, seen from above. */
  below: PlanLines;
  /** Plan symbols of doors (leaf and swing) from their 2D 'Plan' representation. */
  symbols: PlanLines;
  /** Indexes into PlanModel.spaces. */
  spaces: number[];
  /** min x, min y, max x, max y of everything drawn, or NaN when nothing is. */
  bounds: Float64Array;
}

export interface PlanSpace {
  expressId: number;
  objectId: string;
  guid: string;
  name: string;
  longName: string;
  /** Index into PlanModel.storeys. */
  storey: number;
  /**
   * The footprint as rings (closed polylines): counter-clockwise rings are outlines,
   * clockwise ones holes. Filled with the non-zero rule, they are the space.
   */
  rings: PlanLines;
  /** Footprint area in m² (outlines minus holes). */
  area: number;
  /** min x, min y, max x, max y of the footprint. */
  bounds: Float64Array;
  /** A point well inside the footprint, for the label. */
  label: [number, number];
  /** World z of the space's bottom and top. */
  bottom: number;
  top: number;
}

export interface PlanModel {
  schema: string;
  storeys: PlanStorey[];
  spaces: PlanSpace[];
  /** Milliseconds spent in each phase, for benchmarks. */
  timings: Record<string, number>;
}

export interface PlanOptions {
  /** Height of the section plane above each storey's elevation, metres. */
  cutHeight: number;
  /** How far below the storey's elevation the "below the cut" view reaches, metres. */
  floorTolerance: number;
}

export const DEFAULT_PLAN_OPTIONS: PlanOptions = { cutHeight: 1.2, floorTolerance: 0.05 };

export type PlanRequest =
  | { kind: 'init'; wasmUrl: string; schemaUrls: SchemaUrls | null }
  | { kind: 'plan'; bytes: ArrayBuffer; objectIdBase: string; options: PlanOptions };

export type PlanRequestMessage = PlanRequest & { requestId: number };

export type PlanResponseMessage =
  | { requestId: number; kind: 'progress'; progress: number }
  | { requestId: number; kind: 'done'; value: unknown }
  | { requestId: number; kind: 'error'; message: string };
