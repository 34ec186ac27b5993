// @ts-check
/**
 * What the sample building writes differently in IFC2X3, IFC4 and IFC4X3: entity names
 * and the attributes a schema adds or drops at the end of a line. Everything else about
 * an entity is the same in the three.
 */
import { enumeration, text } from './step-file.js';

/** @typedef {'IFC2X3' | 'IFC4' | 'IFC4X3'} SchemaName */

export const SCHEMAS = /** @type {const} */ (['IFC2X3', 'IFC4', 'IFC4X3']);

/**
 * The occurrence entities of the sample, per schema: the entity written and the
 * attributes after `Tag` (IFC4 added a PredefinedType to most).
 * @type {Record<string, Record<SchemaName, [string, string[]]>>}
 */
const OCCURRENCES = {
  exteriorWall: { IFC2X3: ['IFCWALLSTANDARDCASE', []], IFC4: ['IFCWALL', ['.SOLIDWALL.']], IFC4X3: ['IFCWALL', ['.SOLIDWALL.']] },
  interiorWall: { IFC2X3: ['IFCWALLSTANDARDCASE', []], IFC4: ['IFCWALLSTANDARDCASE', ['.PARTITIONING.']], IFC4X3: ['IFCWALL', ['.PARTITIONING.']] },
  opening: { IFC2X3: ['IFCOPENINGELEMENT', []], IFC4: ['IFCOPENINGELEMENT', ['.OPENING.']], IFC4X3: ['IFCOPENINGELEMENT', ['.OPENING.']] },
  column: { IFC2X3: ['IFCCOLUMN', []], IFC4: ['IFCCOLUMN', ['.COLUMN.']], IFC4X3: ['IFCCOLUMN', ['.COLUMN.']] },
  beam: { IFC2X3: ['IFCBEAM', []], IFC4: ['IFCBEAM', ['.BEAM.']], IFC4X3: ['IFCBEAM', ['.BEAM.']] },
  furniture: { IFC2X3: ['IFCFURNISHINGELEMENT', []], IFC4: ['IFCFURNITURE', ['.TABLE.']], IFC4X3: ['IFCFURNITURE', ['.TABLE.']] },
  proxy: { IFC2X3: ['IFCBUILDINGELEMENTPROXY', ['.ELEMENT.']], IFC4: ['IFCBUILDINGELEMENTPROXY', ['.NOTDEFINED.']], IFC4X3: ['IFCBUILDINGELEMENTPROXY', ['.NOTDEFINED.']] },
};

/** Type objects: entity, and the attributes after `Tag`. */
const TYPES = {
  /** @param {SchemaName} s @param {string} predefined */
  wall: (s, predefined) => ['IFCWALLTYPE', [text(predefined), enumeration(s === 'IFC2X3' ? 'STANDARD' : predefined === 'Partition' ? 'PARTITIONING' : 'SOLIDWALL')]],
  /** @param {SchemaName} s */
  door: (s) => (s === 'IFC2X3' ? ['IFCDOORSTYLE', ['.SINGLE_SWING_LEFT.', '.WOOD.', '.F.', '.F.']] : ['IFCDOORTYPE', ["'Door'", '.DOOR.', '.SINGLE_SWING_LEFT.', '.F.', '$']]),
  /** @param {SchemaName} s */
  window: (s) => (s === 'IFC2X3' ? ['IFCWINDOWSTYLE', ['.ALUMINIUM.', '.SINGLE_PANEL.', '.F.', '.F.']] : ['IFCWINDOWTYPE', ["'Window'", '.WINDOW.', '.SINGLE_PANEL.', '.F.', '$']]),
  column: () => ['IFCCOLUMNTYPE', ["'Column'", '.COLUMN.']],
  beam: () => ['IFCBEAMTYPE', ["'Beam'", '.BEAM.']],
  /** @param {SchemaName} s */
  furniture: (s) => ['IFCFURNITURETYPE', s === 'IFC2X3' ? ["'Table'", '.FACTORY.'] : ["'Table'", '.FACTORY.', '.TABLE.']],
};

/** The entity writers of one schema. */
export class SchemaWriter {
  /** @param {SchemaName} name */
  constructor(name) {
    if (!SCHEMAS.includes(name)) throw new Error(`Unknown schema ${name}: use one of ${SCHEMAS.join(', ')}`);
    this.name = name;
    this.ifc2x3 = name === 'IFC2X3';
  }

  /**
   * An element occurrence: the entity and the attributes after its eight common ones.
   * @param {keyof typeof OCCURRENCES} kind
   * @returns {[string, string[]]}
   */
  occurrence(kind) {
    return OCCURRENCES[kind][this.name];
  }

  /**
   * A type object's entity and the attributes after `Tag`.
   * @param {keyof typeof TYPES} kind
   * @param {string} [predefined]
   * @returns {[string, string[]]}
   */
  type(kind, predefined = '') {
    return /** @type {[string, string[]]} */ (TYPES[kind](this.name, predefined));
  }

  /** IfcDoor/IfcWindow's attributes after OverallWidth. */
  doorTail() {
    return this.ifc2x3 ? [] : ['.DOOR.', '.SINGLE_SWING_LEFT.', '$'];
  }

  windowTail() {
    return this.ifc2x3 ? [] : ['.WINDOW.', '.SINGLE_PANEL.', '$'];
  }

  /** IfcStairFlight after its four counts and sizes: IFC4 added a PredefinedType. */
  stairFlightTail() {
    return this.ifc2x3 ? [] : ['.STRAIGHT.'];
  }

  gridTail() {
    return this.ifc2x3 ? [] : ['.RECTANGULAR.'];
  }

  /** IfcSpace after LongName: CompositionType, then InteriorOrExteriorSpace (2X3) or PredefinedType (4). */
  spaceTail() {
    return ['.ELEMENT.', '.INTERNAL.', '$'];
  }

  /** @param {string} name */
  material(name) {
    return this.ifc2x3 ? [text(name)] : [text(name), '$', '$'];
  }

  /** IfcMaterialLayer's attributes after Material, LayerThickness, IsVentilated. */
  materialLayerTail() {
    return this.ifc2x3 ? [] : ['$', '$', '$', '$'];
  }

  /** IfcMaterialLayerSet after its layers and name. */
  materialLayerSetTail() {
    return this.ifc2x3 ? [] : ['$'];
  }

  /** IfcMaterialLayerSetUsage after its four common attributes. */
  materialUsageTail() {
    return this.ifc2x3 ? [] : ['$'];
  }

  /** IfcQuantityArea/Length/Volume after Name, Description, Unit, value. */
  quantityTail() {
    return this.ifc2x3 ? [] : ['$'];
  }

  /** IFC2X3 wraps an IfcStyledItem's styles in an IfcPresentationStyleAssignment (IFC4 need not, IFC4X3 has none). */
  usesStyleAssignment() {
    return this.ifc2x3;
  }

  /** IfcMapConversion came with IFC4. */
  hasMapConversion() {
    return !this.ifc2x3;
  }
}
