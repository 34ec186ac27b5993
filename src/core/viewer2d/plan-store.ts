import type { PlanModel, PlanSpace, PlanStorey } from '../plan/protocol.js';
import { contains } from '../plan/polygon.js';
import { Affine } from './affine.js';
import type { Rect2, Space2d, SpaceQuery, Storey2d, StoreyQuery } from './types.js';

/**
 * The loaded plans and what the API asks of them: storeys and spaces by id, the
 * storeys shown, queries (getStoreys, getSpaces, by elevation), and hit tests. Knows
 * nothing of SVG. Coordinates handed out are view coordinates: model coordinates after
 * the model's transformation (setTransformation).
 */
export interface LoadedModel {
  id: string;
  name: string;
  objectIdBase: string;
  plan: PlanModel;
  /** Model -> view coordinates. */
  transform: Affine;
  storeyIndex: Map<string, number>;
  spaceIndex: Map<string, number>;
}

export class PlanStore {
  readonly models: LoadedModel[] = [];
  /** Object ids of the storeys shown, in the order they were shown. */
  readonly shown = new Set<string>();
  /** Per space id: the names set with setSpaceNames. */
  readonly names = new Map<string, { name?: string; longName?: string }>();

  add(id: string, name: string, objectIdBase: string, plan: PlanModel): LoadedModel {
    const model: LoadedModel = {
      id,
      name,
      objectIdBase,
      plan,
      transform: Affine.identity,
      storeyIndex: new Map(plan.storeys.map((s, i) => [s.objectId, i])),
      spaceIndex: new Map(plan.spaces.map((s, i) => [s.objectId, i])),
    };
    this.models.push(model);
    return model;
  }

  remove(id: string): LoadedModel | undefined {
    const index = this.models.findIndex((m) => m.id === id);
    if (index < 0) return undefined;
    const [model] = this.models.splice(index, 1);
    for (const storey of model.plan.storeys) this.shown.delete(storey.objectId);
    return model;
  }

  model(id: string): LoadedModel | undefined {
    return this.models.find((m) => m.id === id);
  }

  findStorey(id: string): { model: LoadedModel; storey: PlanStorey; index: number } | undefined {
    for (const model of this.models) {
      const index = model.storeyIndex.get(id);
      if (index !== undefined) return { model, storey: model.plan.storeys[index], index };
    }
    return undefined;
  }

  findSpace(id: string): { model: LoadedModel; space: PlanSpace; index: number } | undefined {
    for (const model of this.models) {
      const index = model.spaceIndex.get(id);
      if (index !== undefined) return { model, space: model.plan.spaces[index], index };
    }
    return undefined;
  }

  isShown(storey: PlanStorey): boolean {
    return this.shown.has(storey.objectId);
  }

  isSpaceVisible(id: string): boolean {
    const found = this.findSpace(id);
    return !!found && this.isShown(found.model.plan.storeys[found.space.storey]);
  }

  storeyInfo(storey: PlanStorey): Storey2d {
    return { id: storey.objectId, guid: storey.guid, name: storey.name, elevation: round(storey.elevation) };
  }

  /** getStoreys: the first model's storeys (all models with `all`), lowest first. */
  storeys(query: StoreyQuery = {}): Storey2d[] {
    const models = query.all ? this.models : this.models.slice(0, 1);
    const out: Storey2d[] = [];
    for (const model of models) {
      for (const storey of model.plan.storeys) {
        if (query.buildingId !== undefined && query.buildingId !== null && storey.buildingId !== String(query.buildingId)) continue;
        if (query.visible && !this.isShown(storey)) continue;
        out.push(this.storeyInfo(storey));
      }
    }
    return out;
  }

  /** The storey of `model` whose height range holds `elevation`: the highest at or below it, else the lowest. */
  storeyAt(model: LoadedModel, elevation: number): PlanStorey | undefined {
    const storeys = model.plan.storeys;
    let found: PlanStorey | undefined;
    for (const storey of storeys) if (storey.elevation <= elevation + 1e-6) found = storey;
    return found ?? storeys[0];
  }

  /** getSpaces: the first model's spaces (all models with `all`). */
  spaces(query: SpaceQuery = {}): Space2d[] {
    const models = query.all ? this.models : this.models.slice(0, 1);
    const out: Space2d[] = [];
    for (const model of models) {
      for (const space of model.plan.spaces) {
        const storey = model.plan.storeys[space.storey];
        if (query.storeyId !== undefined && query.storeyId !== null && storey.objectId !== String(query.storeyId)) continue;
        if (query.buildingId !== undefined && query.buildingId !== null && storey.buildingId !== String(query.buildingId)) continue;
        if (query.visible && !this.isShown(storey)) continue;
        const names = this.spaceNames(space);
        const info: Space2d = { id: space.objectId, guid: space.guid, name: names.name, longName: names.longName, storey: storey.name, storeyId: storey.objectId };
        if (query.visible) info.boundingBox = this.rect(model, space.bounds);
        out.push(info);
      }
    }
    return out;
  }

  spaceNames(space: PlanSpace): { name: string; longName: string } {
    const custom = this.names.get(space.objectId);
    return { name: custom?.name ?? space.name, longName: custom?.longName ?? space.longName };
  }

  /** A model-space box (min x, min y, max x, max y) as a view rectangle (the box of its turned corners). */
  rect(model: LoadedModel, bounds: ArrayLike<number>): Rect2 {
    const [minX, minY, maxX, maxY] = this.viewBounds(model, bounds);
    return { x: round(minX), y: round(minY), width: round(maxX - minX), height: round(maxY - minY) };
  }

  viewBounds(model: LoadedModel, b: ArrayLike<number>): [number, number, number, number] {
    if (model.transform.isIdentity) return [b[0], b[1], b[2], b[3]];
    const corners = [model.transform.apply(b[0], b[1]), model.transform.apply(b[2], b[1]), model.transform.apply(b[2], b[3]), model.transform.apply(b[0], b[3])];
    const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }

  /** The topmost space on a shown storey at a view point (later models and storeys draw on top). */
  spaceAt(x: number, y: number): { model: LoadedModel; space: PlanSpace } | undefined {
    for (let m = this.models.length - 1; m >= 0; m--) {
      const model = this.models[m];
      const [mx, my] = model.transform.isIdentity ? [x, y] : model.transform.invert().apply(x, y);
      for (let i = model.plan.spaces.length - 1; i >= 0; i--) {
        const space = model.plan.spaces[i];
        if (!this.isShown(model.plan.storeys[space.storey])) continue;
        const b = space.bounds;
        if (mx < b[0] || mx > b[2] || my < b[1] || my > b[3]) continue;
        if (contains(space.rings, mx, my)) return { model, space };
      }
    }
    return undefined;
  }

  /** The storeys shown now, in showing order, with their models. */
  shownStoreys(): Array<{ model: LoadedModel; storey: PlanStorey }> {
    const out: Array<{ model: LoadedModel; storey: PlanStorey }> = [];
    for (const id of this.shown) {
      const found = this.findStorey(id);
      if (found) out.push({ model: found.model, storey: found.storey });
    }
    return out;
  }

  /** The height of the plan shown: the lowest shown storey of the first model showing one, else 0. */
  activeElevation(): number {
    for (const model of this.models) {
      const shown = model.plan.storeys.filter((s) => this.isShown(s));
      if (shown.length) return round(Math.min(...shown.map((s) => s.elevation)));
    }
    return 0;
  }
}

/** Micrometre precision for numbers handed to pages (3.1, not 3.100000000000378). */
export function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
