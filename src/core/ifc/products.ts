import { ENUM, IFCPROJECT, IFCPRODUCT, INTEGER, InheritanceDef, LABEL, REAL, REF, STRING } from 'web-ifc';
import { IFCRELAGGREGATES, IFCRELCONTAINEDINSPATIALSTRUCTURE, IFCRELNESTS, IFCRELVOIDSELEMENT, IFCRELDEFINESBYPROPERTIES, IFCRELDEFINESBYTYPE } from 'web-ifc';
import type { AttributeValue, Product, ProductOptions, SpatialNode } from '../types.js';
import { objectId } from '../data/object-ids.js';
import { schemaNumber, type ModelLines } from './web-ifc-engine.js';

const TRISTATE_NAMES = new Set(['IFCBOOLEAN', 'IFCLOGICAL']);
const TRISTATE: Record<string, string> = { T: 'TRUE', F: 'FALSE', U: 'UNKNOWN' };
const SPATIAL_TYPES = new Set(['IFCPROJECT', 'IFCSITE', 'IFCBUILDING', 'IFCBUILDINGSTOREY', 'IFCSPACE']);

/**
 * Entities kept once read (owner histories, shared placements and types: many products
 * refer to them); past this many the reader starts again with none. Most entities a
 * product refers to are its own (its placement, its shape): kept all, they grew an
 * import's heap with the file, and its garbage collection's work (office-200k's products
 * 8.4-9.0 -> 7.8-8.1 s).
 */
export const ENTITY_CACHE_SIZE = 4096;

/** Reads one line of the open model as web-ifc's `GetLine(modelID, id, false)` does. */
export type LineReader = (expressId: number) => any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Lines through web-ifc's own GetLine. */
export const webIfcLines = (api: ModelLines, modelID: number): LineReader => (expressId) => api.GetLine(modelID, expressId, false);

export interface ProductReaderOptions {
  /** Entities kept once read (ENTITY_CACHE_SIZE). */
  entityCacheSize?: number;
  /**
   * Object ids in Entity values (attributes, definitions) as numbers, as the REST API
   * writes them (seed 000: int64), not the viewer's decimal strings: the import made
   * hundreds of thousands of strings only to turn them into numbers. Exact while base +
   * express id stays under 2^53.
   */
  numericEntityIds?: boolean;
}

/**
 * Product records (seed 000) of one open model, built from web-ifc lines on demand.
 * The relation indexes are made once, the first time they are needed.
 */
export class ProductReader {
  private parents?: Map<number, number>;
  private definitions?: Map<number, number[]>;
  private productTypes?: Set<number>;
  /** Every product's express id, once productIds() has listed them. */
  private products?: Set<number>;
  private readonly typeNames = new Map<number, string>();
  private readonly entities = new Map<number, AttributeValue>();
  private readonly entityCacheSize: number;
  /** The object id written in an Entity value. */
  private readonly entityId: (expressId: number) => string | number;

  constructor(
    private readonly api: ModelLines,
    private readonly modelID: number,
    readonly base: string,
    options: ProductReaderOptions = {},
  ) {
    this.entityCacheSize = options.entityCacheSize ?? ENTITY_CACHE_SIZE;
    const numeric = Number(base);
    this.entityId = options.numericEntityIds ? (expressId) => numeric + expressId : (expressId) => objectId(base, expressId);
  }

  /** A line of the model (a StepModel's come from the file's bytes: step-model.ts). */
  private line(expressId: number) {
    return this.api.GetLine(this.modelID, expressId, false);
  }

  /** Entities read and kept for the next product that refers to them. */
  get cachedEntities(): number {
    return this.entities.size;
  }

  /** Every IfcProduct and the IfcProject, by express id. */
  productIds(): number[] {
    const ids: number[] = [];
    for (const type of this.types()) {
      const vec = this.api.GetLineIDsWithType(this.modelID, type, false);
      for (let i = 0, n = vec.size(); i < n; i++) ids.push(vec.get(i));
    }
    this.products = new Set(ids);
    return ids.sort((a, b) => a - b);
  }

  isProduct(expressId: number): boolean {
    // Once listed, a look-up here instead of a call across the binding per product.
    if (this.products) return this.products.has(expressId);
    try {
      return this.types().has(this.api.GetLineType(this.modelID, expressId));
    } catch {
      return false;
    }
  }

  product(expressId: number, options: ProductOptions): Product | null {
    if (!this.isProduct(expressId)) return null;
    const line = this.line(expressId);
    const parent = this.parentMap().get(expressId);
    const product: Product = {
      objectId: objectId(this.base, expressId),
      parent: parent === undefined ? '0' : objectId(this.base, parent),
      globalId: ifcText(line.GlobalId) ?? '',
      type: this.typeNameOfCode(line.type),
      name: ifcText(line.Name) ?? '',
      description: ifcText(line.Description),
    };
    if (options.attributes) product.attributes = this.attributes(line, 1);
    if (options.definedBy) product.definedBy = this.definitionIds(expressId).map((id) => this.definition(id));
    return product;
  }

  /** The express ids of an object's property sets, quantity sets and type object (its `definedBy`). */
  definitionIds(expressId: number): number[] {
    return this.definitionMap().get(expressId) ?? [];
  }

  /** One element of `definedBy`: the definition's Entity value, its references expanded one level. */
  definition(expressId: number): AttributeValue {
    return this.entity(expressId, 2);
  }

  /** The spatial structure (project, sites, buildings, storeys, spaces) with names and elevations; object ids on `base`. */
  spatial(base = this.base): SpatialNode | null {
    const projects = this.api.GetLineIDsWithType(this.modelID, IFCPROJECT);
    if (projects.size() === 0) return null;
    const children = new Map<number, number[]>();
    for (const [child, parent] of this.parentMap()) {
      const list = children.get(parent);
      if (list) list.push(child);
      else children.set(parent, [child]);
    }
    // A file may aggregate an element into its own descendant (a project inside a storey): each element once.
    const seen = new Set<number>();
    const node = (id: number): SpatialNode => {
      seen.add(id);
      const line = this.line(id);
      const result: SpatialNode = { objectId: objectId(base, id), type: this.typeName(id), name: ifcText(line.Name) ?? '', children: [] };
      if (line.Elevation && typeof line.Elevation.value === 'number') result.elevation = line.Elevation.value;
      for (const child of (children.get(id) ?? []).sort((a, b) => a - b)) {
        if (!seen.has(child) && SPATIAL_TYPES.has(this.typeName(child).toUpperCase())) result.children.push(node(child));
      }
      return result;
    };
    return node(projects.get(0));
  }

  /** The IFC type name (IfcWall...) of an object. */
  typeName(expressId: number): string {
    return this.typeNameOfCode(this.api.GetLineType(this.modelID, expressId));
  }

  /** The IFC type name of a type code; looked up once per code. */
  typeNameOfCode(code: number): string {
    let name = this.typeNames.get(code);
    if (name === undefined) {
      name = this.api.GetNameFromTypeCode(code);
      this.typeNames.set(code, name);
    }
    return name;
  }

  private types(): Set<number> {
    if (!this.productTypes) {
      const subtypes: number[] = (InheritanceDef as Record<number, Record<number, number[]>>)[schemaNumber(this.api, this.modelID)]?.[IFCPRODUCT] ?? [];
      this.productTypes = new Set([IFCPROJECT, IFCPRODUCT, ...subtypes]);
    }
    return this.productTypes;
  }

  /** Child express id to parent: aggregation, containment, nesting, voids (openings under their element). */
  private parentMap(): Map<number, number> {
    if (this.parents) return this.parents;
    const parents = new Map<number, number>();
    const link = (type: number, parentField: string, childField: string) => linkParents(this.api, this.modelID, parents, type, parentField, childField);
    link(IFCRELAGGREGATES, 'RelatingObject', 'RelatedObjects');
    link(IFCRELCONTAINEDINSPATIALSTRUCTURE, 'RelatingStructure', 'RelatedElements');
    link(IFCRELNESTS, 'RelatingObject', 'RelatedObjects');
    link(IFCRELVOIDSELEMENT, 'RelatingBuildingElement', 'RelatedOpeningElement');
    this.parents = parents;
    return parents;
  }

  /** Object express id to its property sets, quantity sets and type object. */
  private definitionMap(): Map<number, number[]> {
    if (this.definitions) return this.definitions;
    const map = new Map<number, number[]>();
    const collect = (type: number, field: string) => {
      const rels = this.api.GetLineIDsWithType(this.modelID, type, true);
      for (let i = 0, n = rels.size(); i < n; i++) {
        const rel = this.line(rels.get(i));
        const def = rel[field]?.value;
        if (typeof def !== 'number') continue;
        for (const obj of rel.RelatedObjects ?? []) {
          const list = map.get(obj.value);
          if (list) list.push(def);
          else map.set(obj.value, [def]);
        }
      }
    };
    collect(IFCRELDEFINESBYPROPERTIES, 'RelatingPropertyDefinition');
    collect(IFCRELDEFINESBYTYPE, 'RelatingType');
    this.definitions = map;
    return map;
  }

  /** `{type: 'Entity', value: {objectId, type, attributes}}`, references expanded `depth` levels. */
  private entity(expressId: number, depth: number): AttributeValue {
    // Entities many products refer to are read once while the cache holds them (ENTITY_CACHE_SIZE).
    const key = expressId * 4 + depth;
    let entity = this.entities.get(key);
    if (!entity) {
      entity = this.readEntity(expressId, depth);
      // After the read: it keeps the entities it refers to.
      if (this.entities.size >= this.entityCacheSize) this.entities.clear();
      this.entities.set(key, entity);
    }
    return entity;
  }

  private readEntity(expressId: number, depth: number): AttributeValue {
    const value: { objectId: string | number; type?: string; attributes?: Record<string, AttributeValue> } = { objectId: this.entityId(expressId) };
    if (depth > 0) {
      try {
        const line = this.line(expressId);
        value.type = this.typeNameOfCode(line.type);
        value.attributes = this.attributes(line, depth - 1);
      } catch {
        // a dangling reference: keep the id only
      }
    }
    return { type: 'Entity', value };
  }

  private attributes(line: Record<string, unknown>, depth: number): Record<string, AttributeValue> {
    const out: Record<string, AttributeValue> = {};
    // for...in, not Object.entries: no array per attribute (the import reads hundreds of thousands of lines)
    for (const key in line) {
      const raw = line[key];
      if (key === 'expressID' || key === 'type' || raw === null || raw === undefined) continue;
      const value = this.attribute(raw, depth);
      if (value) out[key] = value;
    }
    return out;
  }

  private attribute(raw: unknown, depth: number): AttributeValue | null {
    if (Array.isArray(raw)) {
      const list: AttributeValue[] = [];
      for (const item of raw) {
        const value = this.attribute(item, depth);
        if (value) list.push(value);
      }
      return { type: 'List', value: list };
    }
    if (typeof raw !== 'object' || raw === null) return null;
    const { type, value, name } = raw as { type?: number; value?: unknown; name?: string };
    if (type === REF && typeof value === 'number') return this.entity(value, depth);
    if (name && TRISTATE_NAMES.has(name)) return { type: 'Tristate', value: TRISTATE[String(value)] ?? String(value).toUpperCase() };
    if (type === REAL) return { type: 'Double', value: Number(value) };
    if (type === INTEGER) return { type: 'Integer', value: Number(value) };
    if (type === ENUM) return { type: 'Enum', value: String(value) };
    if (type === STRING || type === LABEL) return { type: 'String', value: decodeIfcString(String(value)) };
    if (value !== undefined) return { type: typeof value === 'number' ? 'Double' : 'String', value };
    return null;
  }
}

/**
 * Records child -> parent (express ids) for every relation of `type`, the parent in
 * `parentField`, the children in `childField`. A child keeps the first parent it gets.
 */
export function linkParents(
  api: ModelLines,
  modelID: number,
  parents: Map<number, number>,
  type: number,
  parentField: string,
  childField: string,
) {
  const rels = api.GetLineIDsWithType(modelID, type, true);
  for (let i = 0, n = rels.size(); i < n; i++) {
    const rel = api.GetLine(modelID, rels.get(i), false);
    const parent = rel[parentField]?.value;
    const kids = rel[childField];
    for (const kid of Array.isArray(kids) ? kids : [kids]) {
      if (typeof kid?.value === 'number' && typeof parent === 'number' && !parents.has(kid.value)) parents.set(kid.value, parent);
    }
  }
}

/** The decoded text of an IFC string attribute, or null when it is unset. */
export function ifcText(field: unknown): string | null {
  const value = (field as { value?: unknown } | null)?.value;
  return value === undefined || value === null ? null : decodeIfcString(String(value));
}

/** STEP strings escape non-ASCII as \X2\hhhh\X0\ (UTF-16) and \X\hh (ISO 8859-1). */
export function decodeIfcString(s: string): string {
  if (!s.includes('\\')) return s;
  return s
    .replace(/\\X2\\((?:[0-9A-F]{4})+)\\X0\\/gi, (_, hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16))))
    .replace(/\\X\\([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\S\\(.)/g, (_, c: string) => String.fromCharCode(c.charCodeAt(0) + 128));
}
