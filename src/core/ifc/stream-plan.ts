import * as WebIfc from 'web-ifc';
import { IFCOPENINGELEMENT, IFCOPENINGSTANDARDCASE, IFCSPACE, type IfcAPI } from 'web-ifc';

/**
 * Every type code web-ifc has a constant for (IFCWALL...), over all its schemas. Not
 * GetIfcEntityList, which lists the keys of the model's schema table and so builds that
 * schema's classes (scripts/web-ifc-lazy-schemas.mjs): ~100 ms on the way to the first
 * frame of a model in a schema the worker has not read yet. Codes are hashes of the names,
 * the same in every schema; a code the model's schema lacks has no lines.
 */
const TYPE_CODES = [...new Set(Object.entries(WebIfc).flatMap(([name, value]) => (name.startsWith('IFC') && typeof value === 'number' ? [value] : [])))];

/** Objects per unit of work, at most: units are what workers share out, so there are a few dozen of them. */
const MAX_UNITS = 48;
const MIN_UNIT_OBJECTS = 64;

/**
 * Which objects a model's geometry stream visits, in a fixed order, cut into units of
 * work. The objects are those web-ifc's StreamAllMeshes visits (every IfcElement type
 * but openings and spaces), then the spaces (hidden until asked for, so last, in units
 * of their own: the viewer shows a model before its spaces are in). The plan
 * depends on the file alone: every worker that opens the same file makes the same plan,
 * so a unit number means the same objects in each of them.
 */
export class StreamPlan {
  /** Express ids, type by type. */
  readonly ids: Uint32Array;
  /** The IFC type code of each id. */
  readonly types: Uint32Array;
  readonly unitSize: number;
  /** How many of the ids are not spaces (those come first). */
  private readonly elements: number;

  constructor(api: IfcAPI, modelID: number, only: Set<number> | null) {
    const ids: number[] = [];
    const types: number[] = [];
    const add = (type: number) => {
      const vector = api.GetLineIDsWithType(modelID, type, false);
      for (let i = 0, n = vector.size(); i < n; i++) {
        const id = vector.get(i);
        if (only && !only.has(id)) continue;
        ids.push(id);
        types.push(type);
      }
    };
    const elements = TYPE_CODES.filter((type) => api.IsIfcElement(type) && type !== IFCOPENINGELEMENT && type !== IFCOPENINGSTANDARDCASE && type !== IFCSPACE);
    for (const type of elements.sort((a, b) => a - b)) add(type);
    this.elements = ids.length;
    add(IFCSPACE);
    this.ids = new Uint32Array(ids);
    this.types = new Uint32Array(types);
    this.unitSize = Math.max(MIN_UNIT_OBJECTS, Math.ceil(ids.length / MAX_UNITS));
  }

  /** Units of the objects before the spaces: units from here on are the spaces'. */
  get elementUnits(): number {
    return Math.ceil(this.elements / this.unitSize);
  }

  get units(): number {
    return this.elementUnits + Math.ceil((this.ids.length - this.elements) / this.unitSize);
  }

  /** The first plan position of a unit and the position after its last object. */
  range(unit: number): [number, number] {
    const spaces = unit >= this.elementUnits;
    const start = spaces ? this.elements + (unit - this.elementUnits) * this.unitSize : unit * this.unitSize;
    return [start, Math.min(spaces ? this.ids.length : this.elements, start + this.unitSize)];
  }

  /** The type codes in the plan. */
  typeCodes(): number[] {
    return [...new Set(this.types)];
  }
}
