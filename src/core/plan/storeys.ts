import {
  IFCBUILDING,
  IFCBUILDINGSTOREY,
  IFCPROJECT,
  IFCRELAGGREGATES,
  IFCRELCONTAINEDINSPATIALSTRUCTURE,
  IFCRELFILLSELEMENT,
  IFCRELNESTS,
  IFCRELVOIDSELEMENT,
  type IfcAPI,
} from 'web-ifc';
import { ifcText, linkParents } from '../ifc/products.js';

/**
 * Storeys and which storey each object belongs to, from the spatial structure:
 * aggregation (storey > space), containment (storey > wall), nesting, and the
 * opening relations (door fills an opening that voids a wall), walked upwards until
 * a storey. Storey heights are their placements' world z in metres, so they agree
 * with the geometry the plan is cut from.
 */

export interface StoreyInfo {
  expressId: number;
  guid: string;
  name: string;
  /** World z, metres. */
  elevation: number;
  /** Express id of the building above it, or 0. */
  building: number;
  isDefault: boolean;
}

export class SpatialIndex {
  readonly storeys: StoreyInfo[] = [];
  private readonly parents = new Map<number, number>();
  private readonly storeyIndex = new Map<number, number>();
  private readonly types = new Map<number, number>();

  constructor(private readonly api: IfcAPI, private readonly modelID: number, lengthScale: number) {
    this.link(IFCRELAGGREGATES, 'RelatingObject', 'RelatedObjects');
    this.link(IFCRELCONTAINEDINSPATIALSTRUCTURE, 'RelatingStructure', 'RelatedElements');
    this.link(IFCRELNESTS, 'RelatingObject', 'RelatedObjects');
    this.link(IFCRELFILLSELEMENT, 'RelatingOpeningElement', 'RelatedBuildingElement');
    this.link(IFCRELVOIDSELEMENT, 'RelatingBuildingElement', 'RelatedOpeningElement');

    const ids = api.GetLineIDsWithType(modelID, IFCBUILDINGSTOREY);
    for (let i = 0, n = ids.size(); i < n; i++) {
      const id = ids.get(i);
      const line = api.GetLine(modelID, id, false);
      this.storeys.push({
        expressId: id,
        guid: ifcText(line.GlobalId) ?? '',
        name: ifcText(line.Name) ?? '',
        elevation: this.placementZ(line, lengthScale),
        building: this.ancestor(id, IFCBUILDING),
        isDefault: false,
      });
    }
    this.storeys.sort((a, b) => a.elevation - b.elevation || a.expressId - b.expressId);
    this.storeys.forEach((s, i) => this.storeyIndex.set(s.expressId, i));
  }

  /**
   * A storey for a model that has none (its spaces and elements hang from the
   * building): named "Default storey", with the id of the building (or project).
   */
  addDefaultStorey(elevation: number): StoreyInfo {
    const buildings = this.api.GetLineIDsWithType(this.modelID, IFCBUILDING);
    const projects = this.api.GetLineIDsWithType(this.modelID, IFCPROJECT);
    const owner = buildings.size() > 0 ? buildings.get(0) : projects.size() > 0 ? projects.get(0) : 0;
    const storey: StoreyInfo = {
      expressId: owner,
      guid: '',
      name: 'Default storey',
      elevation,
      building: buildings.size() > 0 ? owner : 0,
      isDefault: true,
    };
    this.storeys.push(storey);
    this.storeyIndex.set(owner, this.storeys.length - 1);
    return storey;
  }

  /** Index of the storey an object belongs to, or -1. */
  storeyOf(expressId: number): number {
    let id: number | undefined = expressId;
    for (let depth = 0; id !== undefined && depth < 64; depth++) {
      const index = this.storeyIndex.get(id);
      if (index !== undefined && !this.storeys[index].isDefault) return index;
      id = this.parents.get(id);
    }
    return -1;
  }

  /** Index of the storey whose height range holds `z` (the highest at or below it), or -1 when there are none. */
  storeyAt(z: number, tolerance = 0.1): number {
    let found = -1;
    for (let i = 0; i < this.storeys.length; i++) {
      if (this.storeys[i].isDefault) continue;
      if (this.storeys[i].elevation <= z + tolerance) found = i;
      else if (found < 0) found = i;
    }
    return found;
  }

  /** The nearest ancestor of one IFC type (express id), or 0. */
  ancestor(expressId: number, type: number): number {
    let id = this.parents.get(expressId);
    for (let depth = 0; id !== undefined && depth < 64; depth++) {
      if (this.typeOf(id) === type) return id;
      id = this.parents.get(id);
    }
    return 0;
  }

  private typeOf(id: number): number {
    let type = this.types.get(id);
    if (type === undefined) {
      type = this.api.GetLineType(this.modelID, id) as number;
      this.types.set(id, type);
    }
    return type;
  }

  private link(type: number, parentField: string, childField: string) {
    linkParents(this.api, this.modelID, this.parents, type, parentField, childField);
  }

  private placementZ(line: { ObjectPlacement?: { value?: number }; Elevation?: { value?: number } }, scale: number): number {
    const placement = line.ObjectPlacement?.value;
    if (typeof placement === 'number') {
      try {
        const m = this.api.GetWorldTransformMatrix(this.modelID, placement);
        if (m && Number.isFinite(m[14])) return m[14] * scale;
      } catch {
        // fall back to the attribute
      }
    }
    const elevation = line.Elevation?.value;
    return typeof elevation === 'number' ? elevation * scale : 0;
  }
}

