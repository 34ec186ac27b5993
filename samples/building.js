// @ts-check
/**
 * The sample building: an IFC file of the project's own, written from a few parameters,
 * and beside it the truth (what the file holds, computed as it is written) that tests
 * compare against.
 *
 * A building of `storeys` floors, each a grid of `roomsX` x `roomsY` rooms of 6 x 5 m:
 * exterior walls with windows, partitions with doors (openings voided in the walls and
 * filled by the doors and windows; doors draw their swing in a Plan representation), a
 * floor slab per storey, a stair from each floor to the next through an opening in the
 * slab above (the space above runs around it), a space per room (names, long names, area
 * quantities; one shaped by a Brep), a table in each room, a canopy on columns and beams
 * along the south front (mapped items of shared types), a gable roof, an IfcGrid on the
 * walls' axes, property and quantity sets on occurrences and on type objects, materials,
 * and two oddities real exporters write: a proxy without geometry and one with an empty
 * shape. Same parameters, same bytes.
 */
import { GlobalIds, StepFile, bool, expressId, int, real, text, typed } from './step-file.js';
import { SchemaWriter } from './ifc-schema.js';
import { Frame, boxOf, extrusionCorners, polygonArea, rectangle, unionOf } from './frame.js';

/** @typedef {import('./frame.js').Vec3} Vec3 */
/** @typedef {import('./frame.js').Box} Box */
/** @typedef {import('./ifc-schema.js').SchemaName} SchemaName */

/**
 * @typedef {object} BuildingOptions
 * @property {string} [name] project name; also seeds the GlobalIds
 * @property {SchemaName} [schema] IFC2X3, IFC4 (default) or IFC4X3
 * @property {'m' | 'mm'} [units] length unit of the file (truth is always in metres)
 * @property {'radian' | 'degree'} [angles] plane angle unit (door swings are trimmed in it)
 * @property {number} [storeys] floors, at least 1 (default 3)
 * @property {number} [roomsX] rooms along x per floor (default 3)
 * @property {number} [roomsY] rooms along y per floor (default 2)
 * @property {boolean} [openings] cut openings for doors and windows (default true); without, they sit in uncut walls
 * @property {boolean | Georeference} [georeferenced] site placed millions of metres from the origin, with an IfcMapConversion (IFC4 and later); `true` is EPSG:2056's 2,683,000 / 1,247,000
 * @property {string} [seed] GlobalId seed (default: the name and the other parameters)
 */

/**
 * @typedef {object} Georeference where the site is: the survey coordinates of its origin, metres
 * @property {number} eastings
 * @property {number} northings
 * @property {number} height
 * @property {string} crs e.g. `EPSG:32632`
 * @property {string} crsName e.g. `WGS 84 / UTM zone 32N`
 */

/**
 * @typedef {object} ProductTruth
 * @property {number} id express id
 * @property {string} guid
 * @property {string} type IFC entity name as web-ifc spells it (IfcWall...)
 * @property {string} name
 * @property {number} parent express id of the spatial or element parent (0 for the project)
 * @property {number | null} storey the storey it is on (contained in, or part of)
 * @property {Box | null} box where its body geometry is, in metres, world coordinates (null: none drawn)
 * @property {string[]} psets names of its own property and quantity sets
 * @property {number | null} typeObject express id of its type object
 * @property {string | null} material
 */

/**
 * @typedef {object} SpaceTruth
 * @property {number} id
 * @property {string} guid
 * @property {string} name
 * @property {string} longName
 * @property {number} storey
 * @property {number} area floor area, m² (what its quantity set says)
 * @property {Box} box
 * @property {'extrusion' | 'extrusion with hole' | 'brep'} shape
 */

export const DEFAULTS = /** @type {const} */ ({
  name: 'Sample building',
  schema: 'IFC4',
  units: 'm',
  angles: 'radian',
  storeys: 3,
  roomsX: 3,
  roomsY: 2,
  openings: true,
  georeferenced: false,
});

/** Dimensions, metres. */
const CELL_X = 6, CELL_Y = 5, STOREY = 3, SLAB = 0.2, WALL = 0.2, WALL_H = STOREY - SLAB;
const DOOR = { width: 0.9, height: 2.1, leaf: 0.05 }, ENTRANCE = { width: 1.0, height: 2.2, leaf: 0.06 };
const WINDOW = { width: 1.2, height: 1.4, sill: 0.9, depth: 0.08, frame: 0.06 };
const STAIR = { x: 0.4, y: 0.6, width: 1, risers: 16, tread: 0.25 };
/** The opening in the slab above a stair, storey coordinates. */
const STAIR_HOLE = { x0: 0.3, y0: 1.6, x1: 1.5, y1: 4.5 };
const CANOPY = { depth: 2.5, column: 0.3, columnHeight: 2.6, beamWidth: 0.2, beamHeight: 0.3, slab: 0.15 };
/** A gable roof over buildings up to `gableDepth` deep, a flat one over deeper ones. */
const ROOF = { overhang: 0.6, flat: 0.3, gableDepth: 30 };
const TABLE = { width: 1.6, depth: 0.8, height: 0.7, top: 0.04, leg: 0.05, legX: 0.75, legY: 0.35 };
/** @type {Georeference} */
const GEOREFERENCE = { eastings: 2683000, northings: 1247000, height: 400, crs: 'EPSG:2056', crsName: 'CH1903+ / LV95' };

/** The building's dimensions, metres (samples/scan.js rebuilds its surfaces from them and the truth's boxes). */
export const DIMENSIONS = Object.freeze({ CELL_X, CELL_Y, STOREY, SLAB, WALL, WALL_H, DOOR, ENTRANCE, WINDOW, STAIR, STAIR_HOLE, CANOPY, TABLE, ROOF });

/** The site's georeference for the `georeferenced` option, or null. @param {boolean | Georeference | undefined} option */
function georeferenceOf(option) {
  return option === true ? GEOREFERENCE : option || null;
}
const LONG_NAMES = ['Office', 'Küche', 'Meeting room', "Manager's office", 'Café', '会议室', 'Storage', 'Lounge'];

/**
 * Writes the building through `sink` (pieces of STEP text) and returns its truth.
 * @param {BuildingOptions} options
 * @param {(piece: string) => void} sink
 */
export function writeBuilding(options, sink) {
  return new BuildingWriter(options, sink).write();
}

/**
 * The whole file as one string, and its truth (for houses and tests; big buildings go
 * through `writeBuilding` to a file).
 * @param {BuildingOptions} [options]
 */
export function buildingText(options = {}) {
  /** @type {string[]} */
  const pieces = [];
  const truth = writeBuilding(options, (piece) => pieces.push(piece));
  return { text: pieces.join(''), truth };
}

/** Rooms per floor and floors for about `products` products (rooms hold about five each). */
export function layoutFor(/** @type {number} */ products) {
  const rooms = Math.max(1, Math.round(products / 5));
  const storeys = Math.max(3, Math.round(Math.sqrt(rooms) / 4));
  const perStorey = Math.ceil(rooms / storeys);
  const roomsX = Math.ceil(Math.sqrt(perStorey * 1.5));
  const roomsY = Math.max(1, Math.round(perStorey / roomsX));
  return { storeys, roomsX, roomsY };
}

class BuildingWriter {
  /**
   * @param {BuildingOptions} options
   * @param {(piece: string) => void} sink
   */
  constructor(options, sink) {
    const o = { ...DEFAULTS, ...options };
    if (!(Number.isInteger(o.storeys) && o.storeys >= 1)) throw new Error(`storeys must be a whole number from 1: ${o.storeys}`);
    if (!(Number.isInteger(o.roomsX) && o.roomsX >= 1 && Number.isInteger(o.roomsY) && o.roomsY >= 1)) throw new Error(`roomsX and roomsY must be whole numbers from 1: ${o.roomsX} x ${o.roomsY}`);
    if (o.units !== 'm' && o.units !== 'mm') throw new Error(`units must be m or mm: ${o.units}`);
    if (o.angles !== 'radian' && o.angles !== 'degree') throw new Error(`angles must be radian or degree: ${o.angles}`);
    this.o = o;
    this.schema = new SchemaWriter(o.schema);
    if (o.georeferenced && !this.schema.hasMapConversion()) throw new Error(`${o.schema} has no IfcMapConversion: georeferenced needs IFC4 or IFC4X3`);
    this.file = new StepFile(sink);
    this.guids = new GlobalIds(o.seed ?? JSON.stringify([o.name, o.schema, o.units, o.angles, o.storeys, o.roomsX, o.roomsY, o.openings, o.georeferenced]));
    this.scale = o.units === 'mm' ? 1000 : 1;
    this.width = o.roomsX * CELL_X;
    this.depth = o.roomsY * CELL_Y;
    /** @type {Map<string, string>} shared lines (directions, styles...) by key */
    this.shared = new Map();
    /** @type {ProductTruth[]} */
    this.products = [];
    /** @type {SpaceTruth[]} */
    this.spaces = [];
    /** @type {Map<string, string[]>} relation lists: key -> related refs */
    this.relations = new Map();
    /** @type {{ kind: 'voids' | 'fills', element: number, opening: number }[]} express ids */
    this.openingRelations = [];
    /** @type {{ id: number, guid: string, type: string, name: string, occurrences: number[], psets: string[] }[]} */
    this.typeObjects = [];
    /** @type {{ id: number, name: string, axes: { id: number, tag: string, kind: 'U' | 'V', start: Vec3, end: Vec3 }[] } | null} */
    this.gridTruth = null;

    this.file.write(
      'ISO-10303-21;\nHEADER;\n' +
        `FILE_DESCRIPTION((${text(o.schema === 'IFC2X3' ? 'ViewDefinition [CoordinationView_V2.0]' : 'ViewDefinition [ReferenceView_V1.2]')}),'2;1');\n` +
        `FILE_NAME(${text(`${o.name}.ifc`)},'2025-01-01T00:00:00',('bim-viewers'),('bim-viewers'),'bim-viewers samples','bim-viewers samples/building.js','');\n` +
        `FILE_SCHEMA(('${o.schema}'));\nENDSEC;\nDATA;\n`,
    );
    this.context = this.writeContext();
    this.types = this.writeTypes();
    const spatial = this.writeSpatialStructure();
    this.site = spatial.site;
    this.sitePlacement = spatial.sitePlacement;
    this.building = spatial.building;
    this.storeys = spatial.storeys;
  }

  write() {
    for (let s = 0; s < this.o.storeys; s++) this.writeStorey(s);
    this.writeCanopy();
    this.writeRoof();
    this.writeGrid();
    this.writeOddities();
    this.writeRelations();
    this.file.write('ENDSEC;\nEND-ISO-10303-21;\n');
    this.file.flush();
    return this.truth();
  }

  // ---- literals -------------------------------------------------------------------

  /** A length in the file's unit. */
  len(/** @type {number} */ metres) {
    return real(metres * this.scale);
  }

  guid() {
    return `'${this.guids.next()}'`;
  }

  /** A line written once and shared (directions, styles, contexts). */
  once(/** @type {string} */ key, /** @type {() => string} */ make) {
    let ref = this.shared.get(key);
    if (!ref) {
      ref = make();
      this.shared.set(key, ref);
    }
    return ref;
  }

  point(/** @type {number[]} */ coordinates) {
    return this.file.add('IFCCARTESIANPOINT', [coordinates.map((c) => this.len(c))]);
  }

  direction(/** @type {number[]} */ ratios) {
    return this.once(`dir ${ratios}`, () => this.file.add('IFCDIRECTION', [ratios.map(real)]));
  }

  /**
   * IfcAxis2Placement3D, and the frame it is.
   * @param {Vec3} location
   * @param {Vec3} [axis]
   * @param {Vec3} [ref]
   */
  axes(location, axis, ref) {
    const isOrigin = location.every((c) => c === 0);
    const write = () => this.file.add('IFCAXIS2PLACEMENT3D', [isOrigin ? this.origin() : this.point(location), axis ? this.direction(axis) : '$', ref ? this.direction(ref) : '$']);
    const placement = isOrigin && !axis && !ref ? this.once('axes identity', write) : write();
    return { ref: placement, frame: Frame.placement(location, axis, ref) };
  }

  origin() {
    return this.once('origin', () => this.point([0, 0, 0]));
  }

  /**
   * An IfcLocalPlacement relative to `parent`, and its frame in world coordinates.
   * @param {{ ref: string, frame: Frame } | null} parent
   * @param {Vec3} location
   * @param {Vec3} [xAxis] the local x axis (z stays up)
   */
  place(parent, location, xAxis) {
    const a = this.axes(location, xAxis ? [0, 0, 1] : undefined, xAxis);
    const ref = this.file.add('IFCLOCALPLACEMENT', [parent ? parent.ref : '$', a.ref]);
    return { ref, frame: parent ? parent.frame.then(a.frame) : a.frame };
  }

  // ---- context, units, styles, types ---------------------------------------------

  writeContext() {
    const f = this.file;
    const o = this.o;
    const person = f.add('IFCPERSON', ['$', text('Sample'), text('Author'), '$', '$', '$', '$', '$']);
    const organisation = f.add('IFCORGANIZATION', ['$', text('bim-viewers'), '$', '$', '$']);
    const author = f.add('IFCPERSONANDORGANIZATION', [person, organisation, '$']);
    const application = f.add('IFCAPPLICATION', [organisation, text('1'), text('bim-viewers samples'), text('bim-viewers-samples')]);
    const owner = f.add('IFCOWNERHISTORY', [author, application, '$', '.ADDED.', '$', '$', '$', int(1735689600)]);

    const units = [
      f.add('IFCSIUNIT', ['*', '.LENGTHUNIT.', o.units === 'mm' ? '.MILLI.' : '$', '.METRE.']),
      f.add('IFCSIUNIT', ['*', '.AREAUNIT.', '$', '.SQUARE_METRE.']),
      f.add('IFCSIUNIT', ['*', '.VOLUMEUNIT.', '$', '.CUBIC_METRE.']),
    ];
    const radian = f.add('IFCSIUNIT', ['*', '.PLANEANGLEUNIT.', '$', '.RADIAN.']);
    if (o.angles === 'degree') {
      const dimensions = f.add('IFCDIMENSIONALEXPONENTS', ['0', '0', '0', '0', '0', '0', '0']);
      const factor = f.add('IFCMEASUREWITHUNIT', [typed('IFCPLANEANGLEMEASURE', real(Math.PI / 180)), radian]);
      units.push(f.add('IFCCONVERSIONBASEDUNIT', [dimensions, '.PLANEANGLEUNIT.', text('DEGREE'), factor]));
    } else {
      units.push(radian);
    }
    const unitAssignment = f.add('IFCUNITASSIGNMENT', [units]);

    const world = this.axes([0, 0, 0]).ref;
    const north = f.add('IFCDIRECTION', [[real(0), real(1)]]);
    const model = f.add('IFCGEOMETRICREPRESENTATIONCONTEXT', ['$', text('Model'), '3', real(1e-5), world, north]);
    const body = f.add('IFCGEOMETRICREPRESENTATIONSUBCONTEXT', [text('Body'), text('Model'), '*', '*', '*', '*', model, '$', '.MODEL_VIEW.', '$']);
    const axisContext = f.add('IFCGEOMETRICREPRESENTATIONSUBCONTEXT', [text('Axis'), text('Model'), '*', '*', '*', '*', model, '$', '.GRAPH_VIEW.', '$']);
    const footprint = f.add('IFCGEOMETRICREPRESENTATIONSUBCONTEXT', [text('FootPrint'), text('Model'), '*', '*', '*', '*', model, '$', '.PLAN_VIEW.', '$']);
    const world2d = f.add('IFCAXIS2PLACEMENT2D', [f.add('IFCCARTESIANPOINT', [[real(0), real(0)]]), '$']);
    const plan = f.add('IFCGEOMETRICREPRESENTATIONCONTEXT', ['$', text('Plan'), '2', real(1e-5), world2d, '$']);
    const annotation = f.add('IFCGEOMETRICREPRESENTATIONSUBCONTEXT', [text('Annotation'), text('Plan'), '*', '*', '*', '*', plan, '$', '.PLAN_VIEW.', '$']);
    const project = f.add('IFCPROJECT', [this.guid(), owner, text(o.name), '$', '$', '$', '$', [model, plan], unitAssignment]);
    const projectGuid = this.lastGuid();

    const g = georeferenceOf(o.georeferenced);
    if (g) {
      const crs = f.add('IFCPROJECTEDCRS', [text(g.crs), text(g.crsName), '$', '$', '$', '$', units[0]]);
      // The site is placed at the survey coordinates themselves, so the map conversion is the identity.
      f.add('IFCMAPCONVERSION', [model, crs, real(0), real(0), real(0), real(1), real(0), real(1)]);
    }

    const style = (/** @type {string} */ name, /** @type {number[]} */ rgb, transparency = 0) => {
      const colour = f.add('IFCCOLOURRGB', ['$', ...rgb.map(real)]);
      const rendering = f.add('IFCSURFACESTYLERENDERING', [colour, real(transparency), '$', '$', '$', '$', '$', '$', '.NOTDEFINED.']);
      const surface = f.add('IFCSURFACESTYLE', [text(name), '.BOTH.', [rendering]]);
      return this.schema.usesStyleAssignment() ? f.add('IFCPRESENTATIONSTYLEASSIGNMENT', [[surface]]) : surface;
    };
    const styles = {
      exterior: style('Exterior wall', [0.85, 0.82, 0.75]),
      partition: style('Partition', [0.95, 0.95, 0.92]),
      slab: style('Concrete', [0.6, 0.6, 0.62]),
      door: style('Wood', [0.55, 0.35, 0.2]),
      frame: style('Window frame', [0.3, 0.3, 0.32]),
      glass: style('Glass', [0.55, 0.75, 0.9], 0.7),
      space: style('Space', [0.4, 0.6, 0.9], 0.8),
      roof: style('Roof tiles', [0.6, 0.25, 0.2]),
      stair: style('Stair', [0.7, 0.7, 0.7]),
      steel: style('Steel', [0.35, 0.4, 0.45]),
      furniture: style('Furniture', [0.7, 0.5, 0.3]),
    };

    const material = (/** @type {string} */ name) => f.add('IFCMATERIAL', this.schema.material(name));
    const materials = { concrete: material('Concrete'), brick: material('Brick'), timber: material('Timber'), glass: material('Glass'), steel: material('Steel') };
    return { owner, model, body, axisContext, footprint, annotation, project, projectGuid, styles, materials };
  }

  /** A representation item with its style. */
  styled(/** @type {string} */ item, /** @type {string} */ style) {
    this.file.add('IFCSTYLEDITEM', [item, [style], '$']);
    return item;
  }

  /**
   * IfcExtrudedAreaSolid of a profile, swept `depth` along its position's z; and its corners.
   * @param {{ ref: string, points: [number, number][] }} profile
   * @param {{ ref: string, frame: Frame }} position
   * @param {number} depth
   */
  extrusion(profile, position, depth) {
    const ref = this.file.add('IFCEXTRUDEDAREASOLID', [profile.ref, position.ref, this.direction([0, 0, 1]), this.len(depth)]);
    return { ref, corners: extrusionCorners(position.frame, profile.points, depth) };
  }

  /** IfcRectangleProfileDef centred on (cx, cy). */
  rectangleProfile(/** @type {number} */ cx, /** @type {number} */ cy, /** @type {number} */ width, /** @type {number} */ height) {
    const f = this.file;
    const position = cx === 0 && cy === 0
      ? this.once('axes2d identity', () => f.add('IFCAXIS2PLACEMENT2D', [this.point2([0, 0]), '$']))
      : f.add('IFCAXIS2PLACEMENT2D', [this.point2([cx, cy]), '$']);
    return { ref: f.add('IFCRECTANGLEPROFILEDEF', ['.AREA.', '$', position, this.len(width), this.len(height)]), points: rectangle(cx, cy, width, height) };
  }

  /** IfcArbitraryClosedProfileDef (or ...WithVoids) of polygons. */
  polygonProfile(/** @type {[number, number][]} */ outer, /** @type {[number, number][][]} */ holes = []) {
    const f = this.file;
    const polyline = (/** @type {[number, number][]} */ pts) => f.add('IFCPOLYLINE', [[...pts, pts[0]].map((p) => this.point2(p))]);
    const ref = holes.length
      ? f.add('IFCARBITRARYPROFILEDEFWITHVOIDS', ['.AREA.', '$', polyline(outer), holes.map(polyline)])
      : f.add('IFCARBITRARYCLOSEDPROFILEDEF', ['.AREA.', '$', polyline(outer)]);
    return { ref, points: outer };
  }

  point2(/** @type {number[]} */ p) {
    return this.file.add('IFCCARTESIANPOINT', [p.map((c) => this.len(c))]);
  }

  /** IfcShapeRepresentation. */
  representation(/** @type {string} */ context, /** @type {string} */ identifier, /** @type {string} */ type, /** @type {string[]} */ items) {
    return this.file.add('IFCSHAPEREPRESENTATION', [context, text(identifier), text(type), items]);
  }

  /** IfcProductDefinitionShape of representations. */
  shape(/** @type {string[]} */ representations) {
    return this.file.add('IFCPRODUCTDEFINITIONSHAPE', ['$', '$', representations]);
  }

  /** A Body representation's shape from solids (each styled), and the corners they cover. */
  bodyShape(/** @type {{ ref: string, corners: Vec3[] }[]} */ solids, /** @type {string} */ style, extra = /** @type {string[]} */ ([])) {
    for (const solid of solids) this.styled(solid.ref, style);
    const rep = this.representation(this.context.body, 'Body', 'SweptSolid', solids.map((s) => s.ref));
    return { ref: this.shape([...extra, rep]), corners: solids.flatMap((s) => s.corners) };
  }

  /** A shared shape: IfcRepresentationMap of a representation, and its corners. */
  representationMap(/** @type {string} */ identifier, /** @type {string} */ type, /** @type {string[]} */ items, /** @type {Vec3[]} */ corners, context = this.context.body) {
    const ref = this.file.add('IFCREPRESENTATIONMAP', [this.axes([0, 0, 0]).ref, this.representation(context, identifier, type, items)]);
    return { ref, corners };
  }

  /** A representation placing a shared shape (IfcMappedItem with an identity operator). */
  mapped(/** @type {{ ref: string }} */ map, /** @type {string} */ identifier, /** @type {string} */ type = 'MappedRepresentation', context = this.context.body) {
    const operator = this.once('operator identity', () => this.file.add('IFCCARTESIANTRANSFORMATIONOPERATOR3D', ['$', '$', this.origin(), '$', '$']));
    return this.representation(context, identifier, type, [this.file.add('IFCMAPPEDITEM', [map.ref, operator])]);
  }

  writeTypes() {
    // Door types: a leaf (Body) and its swing (Plan), shared by every door of the type.
    const doorType = (/** @type {typeof DOOR} */ door, /** @type {string} */ name) => {
      const leaf = this.extrusion(this.rectangleProfile(door.width / 2, 0, door.width, door.leaf), this.axes([0, 0, 0]), door.height);
      this.styled(leaf.ref, this.context.styles.door);
      const body = this.representationMap('Body', 'SweptSolid', [leaf.ref], leaf.corners);
      const swing = this.representationMap('Plan', 'GeometricCurveSet', [this.doorSwing(door.width)], [], this.context.annotation);
      return this.typeObject('door', name, [body.ref, swing.ref], [['Pset_DoorCommon', [['FireRating', 'IFCLABEL', text('EI30')], ['IsExternal', 'IFCBOOLEAN', bool(door === ENTRANCE)]]]], { body, swing });
    };
    const doorTypes = { interior: doorType(DOOR, 'Door 900'), entrance: doorType(ENTRANCE, 'Entrance door 1000') };
    const windowType = this.typeObject('window', 'Window 1200x1400', [], [['Pset_WindowCommon', [['ThermalTransmittance', 'IFCTHERMALTRANSMITTANCEMEASURE', real(1.1)]]]]);
    const wallTypes = {
      exterior: this.typeObject('wall', 'Exterior wall 200', [], [['Pset_WallCommon', [['ThermalTransmittance', 'IFCTHERMALTRANSMITTANCEMEASURE', real(0.24)]]]], undefined, 'Exterior wall'),
      partition: this.typeObject('wall', 'Partition 200', [], [['Pset_WallCommon', [['AcousticRating', 'IFCLABEL', text('R45')]]]], undefined, 'Partition'),
    };

    const column = this.extrusion(this.rectangleProfile(0, 0, CANOPY.column, CANOPY.column), this.axes([0, 0, 0]), CANOPY.columnHeight);
    this.styled(column.ref, this.context.styles.steel);
    const columnMap = this.representationMap('Body', 'SweptSolid', [column.ref], column.corners);
    const columnType = this.typeObject('column', 'Column 300x300', [columnMap.ref], [['Pset_ColumnCommon', [['LoadBearing', 'IFCBOOLEAN', bool(true)]]]], { body: columnMap });

    // A beam runs along its x axis: the profile lies in the y-z plane.
    const beam = this.extrusion(this.rectangleProfile(0, 0, CANOPY.beamWidth, CANOPY.beamHeight), this.axes([0, 0, CANOPY.beamHeight / 2], [1, 0, 0], [0, 1, 0]), CELL_X);
    this.styled(beam.ref, this.context.styles.steel);
    const beamMap = this.representationMap('Body', 'SweptSolid', [beam.ref], beam.corners);
    const beamType = this.typeObject('beam', 'Beam 200x300', [beamMap.ref], [['Pset_BeamCommon', [['LoadBearing', 'IFCBOOLEAN', bool(true)], ['Span', 'IFCPOSITIVELENGTHMEASURE', this.len(CELL_X)]]]], { body: beamMap });

    // A table: a top on four legs.
    const t = TABLE;
    const top = this.extrusion(this.rectangleProfile(0, 0, t.width, t.depth), this.axes([0, 0, t.height]), t.top);
    const legs = [[-t.legX, -t.legY], [t.legX, -t.legY], [t.legX, t.legY], [-t.legX, t.legY]].map(([x, y]) => this.extrusion(this.rectangleProfile(x, y, t.leg, t.leg), this.axes([0, 0, 0]), t.height));
    for (const part of [top, ...legs]) this.styled(part.ref, this.context.styles.furniture);
    const tableMap = this.representationMap('Body', 'SweptSolid', [top.ref, ...legs.map((l) => l.ref)], [top, ...legs].flatMap((p) => p.corners));
    const furnitureType = this.typeObject('furniture', 'Table 1600x800', [tableMap.ref], [['Pset_FurnitureTypeCommon', [['Style', 'IFCLABEL', text('Desk')]]]], { body: tableMap });
    return { doorTypes, windowType, wallTypes, columnType, beamType, furnitureType };
  }

  /** A door's swing in plan, in the door's frame: the open leaf and a quarter arc, hinged at the origin. */
  doorSwing(/** @type {number} */ width) {
    const f = this.file;
    const leaf = f.add('IFCPOLYLINE', [[this.point2([0, 0]), this.point2([0, width])]]);
    const circle = f.add('IFCCIRCLE', [f.add('IFCAXIS2PLACEMENT2D', [this.point2([0, 0]), '$']), this.len(width)]);
    const quarter = this.o.angles === 'degree' ? 90 : Math.PI / 2;
    const arc = f.add('IFCTRIMMEDCURVE', [circle, [typed('IFCPARAMETERVALUE', real(0))], [typed('IFCPARAMETERVALUE', real(quarter))], '.T.', '.PARAMETER.']);
    return f.add('IFCGEOMETRICCURVESET', [[leaf, arc]]);
  }

  /**
   * A type object with its property sets (written first: the type lists them).
   * @param {'wall' | 'door' | 'window' | 'column' | 'beam' | 'furniture'} kind
   * @param {string} name
   * @param {string[]} maps
   * @param {[string, [string, string, string][]][]} psets
   * @param {Record<string, { ref: string, corners: Vec3[] }>} [shapes]
   * @param {string} [elementType]
   */
  typeObject(kind, name, maps, psets, shapes = {}, elementType = '') {
    const [entity, tail] = this.schema.type(kind, elementType);
    const psetRefs = psets.map(([psetName, props]) => this.propertySet(psetName, props));
    const ref = this.file.add(entity, [this.guid(), this.context.owner, text(name), '$', '$', psetRefs.length ? psetRefs : '$', maps.length ? maps : '$', '$', ...tail]);
    const truth = { id: expressId(ref), guid: this.lastGuid(), type: webIfcName(entity), name, occurrences: /** @type {number[]} */ ([]), psets: psets.map(([n]) => n) };
    this.typeObjects.push(truth);
    return { ref, truth, shapes };
  }

  /**
   * IfcPropertySet of single values: [name, value type, formatted value].
   * @param {string} name
   * @param {[string, string, string][]} props
   */
  propertySet(name, props) {
    const f = this.file;
    const refs = props.map(([prop, type, value]) => f.add('IFCPROPERTYSINGLEVALUE', [text(prop), '$', typed(type, value), '$']));
    return f.add('IFCPROPERTYSET', [this.guid(), this.context.owner, text(name), '$', refs]);
  }

  /**
   * IfcElementQuantity: [name, kind (Length, Area, Volume), value in metres, m² or m³].
   * @param {string} name
   * @param {[string, 'Length' | 'Area' | 'Volume', number][]} quantities
   */
  quantitySet(name, quantities) {
    const f = this.file;
    const refs = quantities.map(([q, kind, value]) =>
      f.add(`IFCQUANTITY${kind.toUpperCase()}`, [text(q), '$', '$', kind === 'Length' ? this.len(value) : real(value), ...this.schema.quantityTail()]),
    );
    return f.add('IFCELEMENTQUANTITY', [this.guid(), this.context.owner, text(name), '$', '$', refs]);
  }

  // ---- spatial structure -----------------------------------------------------------

  writeSpatialStructure() {
    const f = this.file;
    const g = georeferenceOf(this.o.georeferenced);
    const sitePlacement = this.place(null, g ? [g.eastings, g.northings, g.height] : [0, 0, 0]);
    const site = f.add('IFCSITE', [this.guid(), this.context.owner, text('Site'), '$', '$', sitePlacement.ref, '$', '$', '.ELEMENT.', '$', '$', g ? real(g.height * this.scale) : '$', '$', '$']);
    this.record(site, 'IfcSite', 'Site', expressId(this.context.project), null, null);
    const buildingPlacement = this.place(sitePlacement, [0, 0, 0]);
    const building = f.add('IFCBUILDING', [this.guid(), this.context.owner, text(this.o.name), '$', '$', buildingPlacement.ref, '$', '$', '.ELEMENT.', '$', '$', '$']);
    this.record(building, 'IfcBuilding', this.o.name, expressId(site), null, null);
    /** @type {{ ref: string, placement: { ref: string, frame: Frame }, elevation: number, name: string }[]} */
    const storeys = [];
    for (let s = 0; s < this.o.storeys; s++) {
      const elevation = s * STOREY;
      const name = s === 0 ? 'Ground floor' : `Level ${s}`;
      const placement = this.place(buildingPlacement, [0, 0, elevation]);
      const ref = f.add('IFCBUILDINGSTOREY', [this.guid(), this.context.owner, text(name), '$', '$', placement.ref, '$', '$', '.ELEMENT.', this.len(elevation)]);
      this.record(ref, 'IfcBuildingStorey', name, expressId(building), null, null);
      storeys.push({ ref, placement, elevation, name });
    }
    return { sitePlacement, site, building, storeys };
  }

  /**
   * Adds a product to the truth.
   * @param {string} ref
   * @param {string} type
   * @param {string} name
   * @param {number} parent
   * @param {number | null} storey
   * @param {Box | null} box
   */
  record(ref, type, name, parent, storey, box, material = /** @type {string | null} */ (null)) {
    /** @type {ProductTruth} */
    const truth = { id: expressId(ref), guid: this.lastGuid(), type, name, parent, storey, box, psets: [], typeObject: null, material };
    this.products.push(truth);
    return truth;
  }

  lastGuid() {
    return /** @type {string} */ (this.guids.last);
  }

  /**
   * An element: its line (the eight common attributes and the schema's tail) and its truth.
   * @param {{ entity: string, tail: string[], name: string, placement: { ref: string, frame: Frame }, shape?: { ref: string, corners: Vec3[] } | null, storey: number, parent?: number, material?: string | null, extra?: string[] }} e
   */
  element(e) {
    const shape = e.shape ?? null;
    const ref = this.file.add(e.entity, [this.guid(), this.context.owner, text(e.name), '$', '$', e.placement.ref, shape ? shape.ref : '$', '$', ...(e.extra ?? []), ...e.tail]);
    const storeyId = expressId(this.storeys[e.storey].ref);
    const box = shape && shape.corners.length ? boxOf(e.placement.frame, shape.corners) : null;
    return this.record(ref, webIfcName(e.entity), e.name, e.parent ?? storeyId, storeyId, box, e.material ?? null);
  }

  /** Adds `ref` to a relation written at the end (containment, aggregation, types, materials, property sets). */
  relate(/** @type {string} */ key, /** @type {number | string} */ related) {
    const refs = this.relations.get(key);
    const ref = typeof related === 'number' ? `#${related}` : related;
    if (refs) refs.push(ref);
    else this.relations.set(key, [ref]);
  }

  // ---- a storey ---------------------------------------------------------------------

  writeStorey(/** @type {number} */ s) {
    const { roomsX: nx, roomsY: ny } = this.o;
    const storey = this.storeys[s];
    const W = this.width, D = this.depth;
    const half = WALL / 2;

    // Exterior walls, counter-clockwise, so the inside is on each wall's left (+y).
    /** @type {[string, Vec3, Vec3, number][]} */
    const exterior = [
      ['S', [-half, 0, 0], [1, 0, 0], W + WALL],
      ['E', [W, half, 0], [0, 1, 0], D - WALL],
      ['N', [W + half, D, 0], [-1, 0, 0], W + WALL],
      ['W', [0, D - half, 0], [0, -1, 0], D - WALL],
    ];
    for (const [side, start, axis, length] of exterior) {
      const wall = this.wall(s, `Wall ${storey.name} ${side}`, start, axis, length, true);
      // A window in the middle of each room's stretch of this wall (the entrance door instead, on the ground floor).
      const rooms = side === 'S' || side === 'N' ? nx : ny;
      for (let k = 0; k < rooms; k++) {
        // Walls along x start half a wall before the corner, walls along y half a wall after it.
        const alongX = side === 'S' || side === 'N';
        const centre = (alongX ? CELL_X : CELL_Y) * (k + 0.5) + (alongX ? half : -half);
        const roomIndex = side === 'S' ? k : side === 'E' ? k * nx + nx - 1 : side === 'N' ? (ny - 1) * nx + (nx - 1 - k) : (ny - 1 - k) * nx;
        if (s === 0 && side === 'S' && k === 0) this.door(s, wall, centre - ENTRANCE.width / 2, ENTRANCE, `Entrance`);
        else this.window(s, wall, centre - WINDOW.width / 2, `Window ${storey.name} ${roomIndex + 1}${side}`);
      }
    }
    // Partitions between rows (along x), one per room, each with a door at its east end.
    for (let j = 1; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const wall = this.wall(s, `Partition ${storey.name} ${j}.${i + 1}`, [i * CELL_X + half, j * CELL_Y, 0], [1, 0, 0], CELL_X - WALL, false);
        this.door(s, wall, CELL_X - WALL - 1.9, DOOR, `Door ${storey.name} ${j}.${i + 1}`);
      }
    }
    // Partitions between columns of rooms (along y), the whole depth, a door into each room.
    for (let i = 1; i < nx; i++) {
      const wall = this.wall(s, `Partition ${storey.name} ${i}`, [i * CELL_X, half, 0], [0, 1, 0], D - WALL, false);
      for (let j = 0; j < ny; j++) this.door(s, wall, j * CELL_Y + 1 - half, DOOR, `Door ${storey.name} ${i}/${j + 1}`);
    }

    this.slab(s);
    if (s < this.o.storeys - 1) this.stair(s);
    for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) this.space(s, i, j);
    for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) this.table(s, i, j);
  }

  /**
   * A wall along its x axis from `start`, centred on that line.
   * @param {number} s
   * @param {string} name
   * @param {Vec3} start
   * @param {Vec3} axis
   * @param {number} length
   * @param {boolean} isExterior
   */
  wall(s, name, start, axis, length, isExterior) {
    const placement = this.place(this.storeys[s].placement, start, axis[0] === 1 ? undefined : axis);
    const axisCurve = this.file.add('IFCPOLYLINE', [[this.point2([0, 0]), this.point2([length, 0])]]);
    const axisRep = this.representation(this.context.axisContext, 'Axis', 'Curve2D', [axisCurve]);
    const solid = this.extrusion(this.rectangleProfile(length / 2, 0, length, WALL), this.axes([0, 0, 0]), WALL_H);
    const shape = this.bodyShape([solid], isExterior ? this.context.styles.exterior : this.context.styles.partition, [axisRep]);
    const [entity, tail] = this.schema.occurrence(isExterior ? 'exteriorWall' : 'interiorWall');
    const truth = this.element({ entity, tail, name, placement, shape, storey: s, material: isExterior ? 'Concrete' : 'Brick' });
    const type = isExterior ? this.types.wallTypes.exterior : this.types.wallTypes.partition;
    this.typed(truth, type);
    this.relate(isExterior ? 'material exterior' : 'material partition', truth.id);
    truth.psets.push('Pset_WallCommon', 'Qto_WallBaseQuantities');
    this.relate(isExterior ? 'pset exterior walls' : 'pset partitions', truth.id);
    this.defines(truth.id, this.quantitySet('Qto_WallBaseQuantities', [['Length', 'Length', length], ['Width', 'Length', WALL], ['Height', 'Length', WALL_H], ['GrossVolume', 'Volume', length * WALL * WALL_H]]));
    return { truth, placement };
  }

  /** Links an occurrence to its type object. */
  typed(/** @type {ProductTruth} */ product, /** @type {{ ref: string, truth: { occurrences: number[] } }} */ type) {
    product.typeObject = expressId(type.ref);
    type.truth.occurrences.push(product.id);
  }

  /** An IfcRelDefinesByProperties for one object, written now. */
  defines(/** @type {number} */ id, /** @type {string} */ definition) {
    this.file.add('IFCRELDEFINESBYPROPERTIES', [this.guid(), this.context.owner, '$', '$', [`#${id}`], definition]);
  }

  /**
   * An opening in a wall (unless openings are off), `offset` along the wall from its start.
   * @returns {{ placement: { ref: string, frame: Frame }, opening: ProductTruth | null }} where fillings go, and the opening
   */
  opening(/** @type {number} */ s, /** @type {{ truth: ProductTruth, placement: { ref: string, frame: Frame } }} */ wall, /** @type {number} */ offset, /** @type {number} */ sill, /** @type {number} */ width, /** @type {number} */ height, /** @type {string} */ name) {
    const placement = this.place(wall.placement, [offset, 0, sill]);
    if (!this.o.openings) return { placement, opening: null };
    // Deeper than the wall, so the cut goes clean through.
    const solid = this.extrusion(this.rectangleProfile(width / 2, 0, width, WALL + 0.1), this.axes([0, 0, 0]), height);
    const shape = { ref: this.shape([this.representation(this.context.body, 'Body', 'SweptSolid', [solid.ref])]), corners: [] };
    const [entity, tail] = this.schema.occurrence('opening');
    const opening = this.element({ entity, tail, name, placement, shape, storey: s, parent: wall.truth.id });
    this.openingRelations.push({ kind: 'voids', element: wall.truth.id, opening: opening.id });
    return { placement, opening };
  }

  /** A door in a wall: its opening, then the door (the door type's leaf and swing) placed in it. */
  door(/** @type {number} */ s, /** @type {{ truth: ProductTruth, placement: { ref: string, frame: Frame } }} */ wall, /** @type {number} */ offset, /** @type {typeof DOOR} */ size, /** @type {string} */ name) {
    const { placement, opening } = this.opening(s, wall, offset, 0, size.width, size.height, `Opening ${name}`);
    const type = size === ENTRANCE ? this.types.doorTypes.entrance : this.types.doorTypes.interior;
    const shape = { ref: this.shape([this.mapped(type.shapes.swing, 'Plan', 'MappedRepresentation', this.context.annotation), this.mapped(type.shapes.body, 'Body')]), corners: type.shapes.body.corners };
    const truth = this.element({ entity: 'IFCDOOR', tail: this.schema.doorTail(), extra: [this.len(size.height), this.len(size.width)], name, placement, shape, storey: s, material: 'Timber' });
    this.typed(truth, type);
    this.relate('material timber', truth.id);
    truth.psets.push('Pset_DoorCommon');
    this.defines(truth.id, this.propertySet('Pset_DoorCommon', [['Reference', 'IFCIDENTIFIER', text(size === ENTRANCE ? 'D-1000' : 'D-900')]]));
    if (opening) this.openingRelations.push({ kind: 'fills', element: truth.id, opening: opening.id });
  }

  /** A window in an exterior wall: a frame (a profile with a hole) and a pane of glass, in the wall's plane. */
  window(/** @type {number} */ s, /** @type {{ truth: ProductTruth, placement: { ref: string, frame: Frame } }} */ wall, /** @type {number} */ offset, /** @type {string} */ name) {
    const w = WINDOW;
    const { opening } = this.opening(s, wall, offset, w.sill, w.width, w.height, `Opening ${name}`);
    // Windows are placed in the storey (as many exporters do), not in their opening.
    const frame = wall.placement.frame;
    const storeyFrame = this.storeys[s].placement.frame;
    const corner = frame.apply([offset, 0, w.sill]);
    const local = /** @type {Vec3} */ ([corner[0] - storeyFrame.origin[0], corner[1] - storeyFrame.origin[1], corner[2] - storeyFrame.origin[2]]);
    const placement = this.place(this.storeys[s].placement, local, frame.x[0] === 1 ? undefined : frame.x);
    // In the window's frame the profiles lie in its x-z plane and are swept along -y.
    const inPlane = (/** @type {number} */ y) => this.axes([0, y, 0], [0, -1, 0], [1, 0, 0]);
    const inner = /** @type {[number, number][]} */ ([[w.frame, w.frame], [w.width - w.frame, w.frame], [w.width - w.frame, w.height - w.frame], [w.frame, w.height - w.frame]]);
    const outer = /** @type {[number, number][]} */ ([[0, 0], [w.width, 0], [w.width, w.height], [0, w.height]]);
    const frameSolid = this.extrusion(this.polygonProfile(outer, [inner]), inPlane(w.depth / 2), w.depth);
    const glass = this.extrusion(this.polygonProfile(inner), inPlane(0.01), 0.02);
    this.styled(frameSolid.ref, this.context.styles.frame);
    this.styled(glass.ref, this.context.styles.glass);
    const rep = this.representation(this.context.body, 'Body', 'SweptSolid', [frameSolid.ref, glass.ref]);
    const shape = { ref: this.shape([rep]), corners: [...frameSolid.corners, ...glass.corners] };
    const truth = this.element({ entity: 'IFCWINDOW', tail: this.schema.windowTail(), extra: [this.len(w.height), this.len(w.width)], name, placement, shape, storey: s, material: 'Glass' });
    this.typed(truth, this.types.windowType);
    this.relate('material glass', truth.id);
    truth.psets.push('Pset_WindowCommon');
    this.relate('pset windows', truth.id);
    if (opening) this.openingRelations.push({ kind: 'fills', element: truth.id, opening: opening.id });
  }

  /** The floor slab under a storey (its top at the storey's elevation), with the stair's opening above the ground floor. */
  slab(/** @type {number} */ s) {
    const half = WALL / 2;
    const placement = this.place(this.storeys[s].placement, [0, 0, 0]);
    const outline = /** @type {[number, number][]} */ ([[-half, -half], [this.width + half, -half], [this.width + half, this.depth + half], [-half, this.depth + half]]);
    const solid = this.extrusion(this.polygonProfile(outline), this.axes([0, 0, -SLAB]), SLAB);
    const shape = this.bodyShape([solid], this.context.styles.slab);
    const name = `Floor ${this.storeys[s].name}`;
    const truth = this.element({ entity: 'IFCSLAB', tail: ['.FLOOR.'], name, placement, shape, storey: s, material: 'Concrete' });
    this.relate('material concrete', truth.id);
    truth.psets.push('Pset_SlabCommon', 'Qto_SlabBaseQuantities');
    this.relate('pset slabs', truth.id);
    const area = (this.width + WALL) * (this.depth + WALL) - (s > 0 ? (STAIR_HOLE.x1 - STAIR_HOLE.x0) * (STAIR_HOLE.y1 - STAIR_HOLE.y0) : 0);
    this.defines(truth.id, this.quantitySet('Qto_SlabBaseQuantities', [['Depth', 'Length', SLAB], ['GrossArea', 'Area', area]]));
    if (s > 0 && this.o.openings) {
      const h = STAIR_HOLE;
      const holePlacement = this.place(placement, [h.x0, h.y0, -SLAB - 0.05]);
      const hole = this.extrusion(this.rectangleProfile((h.x1 - h.x0) / 2, (h.y1 - h.y0) / 2, h.x1 - h.x0, h.y1 - h.y0), this.axes([0, 0, 0]), SLAB + 0.1);
      const [entity, tail] = this.schema.occurrence('opening');
      const opening = this.element({ entity, tail, name: `Stair opening ${this.storeys[s].name}`, placement: holePlacement, shape: { ref: this.shape([this.representation(this.context.body, 'Body', 'SweptSolid', [hole.ref])]), corners: [] }, storey: s, parent: truth.id });
      this.openingRelations.push({ kind: 'voids', element: truth.id, opening: opening.id });
    }
  }

  /** A straight stair from this storey to the next: an IfcStair made of one flight (a stepped profile swept across its width). */
  stair(/** @type {number} */ s) {
    const st = STAIR;
    const riser = STOREY / st.risers;
    const storeyPlacement = this.storeys[s].placement;
    const stairPlacement = this.place(storeyPlacement, [0, 0, 0]);
    const stair = this.element({ entity: 'IFCSTAIR', tail: ['.STRAIGHT_RUN_STAIR.'], name: `Stair ${this.storeys[s].name}`, placement: stairPlacement, storey: s, material: null });
    // The flight runs along +y; in its frame x is the run, z up, and the profile (run, rise) is swept along -y (world +x).
    const placement = this.place(stairPlacement, [st.x, st.y, 0], [0, 1, 0]);
    /** @type {[number, number][]} */
    const profile = [[0, 0]];
    for (let k = 0; k < st.risers; k++) profile.push([k * st.tread, (k + 1) * riser], [(k + 1) * st.tread, (k + 1) * riser]);
    profile.pop();
    const run = (st.risers - 1) * st.tread;
    profile.push([run, STOREY - 0.3], [0.3, 0]); // the underside
    const solid = this.extrusion(this.polygonProfile(profile), this.axes([0, 0, 0], [0, -1, 0], [1, 0, 0]), st.width);
    const shape = this.bodyShape([solid], this.context.styles.stair);
    const flight = this.element({
      entity: 'IFCSTAIRFLIGHT', tail: this.schema.stairFlightTail(), extra: [int(st.risers), int(st.risers - 1), this.len(riser), this.len(st.tread)],
      name: `Flight ${this.storeys[s].name}`, placement, shape, storey: s, parent: stair.id, material: 'Concrete',
    });
    this.relate('material concrete', flight.id);
    this.relate(`aggregates ${stair.id}`, flight.id);
  }

  /** The space of room (i, j): an extruded rectangle; above a stair it runs around the opening; the ground floor's last room is a Brep. */
  space(/** @type {number} */ s, /** @type {number} */ i, /** @type {number} */ j) {
    const { roomsX: nx, roomsY: ny } = this.o;
    const k = j * nx + i;
    const half = WALL / 2;
    const x0 = i * CELL_X + half, y0 = j * CELL_Y + half, x1 = (i + 1) * CELL_X - half, y1 = (j + 1) * CELL_Y - half;
    const placement = this.place(this.storeys[s].placement, [x0, y0, 0]);
    const outer = /** @type {[number, number][]} */ ([[0, 0], [x1 - x0, 0], [x1 - x0, y1 - y0], [0, y1 - y0]]);
    let area = polygonArea(outer);
    /** @type {SpaceTruth['shape']} */
    let kind = 'extrusion';
    /** @type {{ ref: string, corners: Vec3[] }} */
    let solid;
    const stairBelow = s > 0 && i === 0 && j === 0;
    const isBrep = s === 0 && k === nx * ny - 1 && k > 0;
    if (stairBelow) {
      const h = STAIR_HOLE;
      const hole = /** @type {[number, number][]} */ ([[h.x0 - x0, h.y0 - y0], [h.x0 - x0, h.y1 - y0], [h.x1 - x0, h.y1 - y0], [h.x1 - x0, h.y0 - y0]]);
      solid = this.extrusion(this.polygonProfile(outer, [hole]), this.axes([0, 0, 0]), WALL_H);
      area -= Math.abs(polygonArea(hole));
      kind = 'extrusion with hole';
    } else if (isBrep) {
      solid = this.boxBrep(x1 - x0, y1 - y0, WALL_H);
      kind = 'brep';
    } else {
      solid = this.extrusion(this.polygonProfile(outer), this.axes([0, 0, 0]), WALL_H);
    }
    this.styled(solid.ref, this.context.styles.space);
    const rep = this.representation(this.context.body, 'Body', isBrep ? 'Brep' : 'SweptSolid', [solid.ref]);
    const name = `${s}${String(k + 1).padStart(2, '0')}`;
    const longName = k === 0 ? (s === 0 ? 'Entrance hall' : 'Hall') : LONG_NAMES[(k - 1 + s) % LONG_NAMES.length];
    const storeyId = expressId(this.storeys[s].ref);
    const ref = this.file.add('IFCSPACE', [this.guid(), this.context.owner, text(name), '$', '$', placement.ref, this.shape([rep]), text(longName), ...this.schema.spaceTail()]);
    const box = boxOf(placement.frame, solid.corners);
    const truth = this.record(ref, 'IfcSpace', name, storeyId, storeyId, box);
    truth.psets.push('Pset_SpaceCommon', 'Qto_SpaceBaseQuantities');
    this.relate(`aggregates ${storeyId}`, truth.id);
    this.relate('pset spaces', truth.id);
    this.defines(truth.id, this.quantitySet('Qto_SpaceBaseQuantities', [['Height', 'Length', WALL_H], ['NetFloorArea', 'Area', area], ['GrossFloorArea', 'Area', area], ['NetVolume', 'Volume', area * WALL_H]]));
    this.spaces.push({ id: truth.id, guid: truth.guid, name, longName, storey: storeyId, area, box, shape: kind });
  }

  /** IfcFacetedBrep of a box from the origin to (x, y, z). */
  boxBrep(/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ z) {
    const f = this.file;
    /** @type {Vec3[]} */
    const c = [[0, 0, 0], [x, 0, 0], [x, y, 0], [0, y, 0], [0, 0, z], [x, 0, z], [x, y, z], [0, y, z]];
    const points = c.map((p) => this.point(p));
    // Outward-facing loops (counter-clockwise seen from outside).
    const faces = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]].map((loop) =>
      f.add('IFCFACE', [[f.add('IFCFACEOUTERBOUND', [f.add('IFCPOLYLOOP', [loop.map((n) => points[n])]), '.T.'])]]),
    );
    return { ref: f.add('IFCFACETEDBREP', [f.add('IFCCLOSEDSHELL', [faces])]), corners: c };
  }

  /** A table in the middle of room (i, j), placed as a mapped item of the table type. */
  table(/** @type {number} */ s, /** @type {number} */ i, /** @type {number} */ j) {
    const placement = this.place(this.storeys[s].placement, [(i + 0.5) * CELL_X, (j + 0.5) * CELL_Y, 0]);
    const shape = { ref: this.shape([this.mapped(this.types.furnitureType.shapes.body, 'Body')]), corners: this.types.furnitureType.shapes.body.corners };
    const [entity, tail] = this.schema.occurrence('furniture');
    const truth = this.element({ entity, tail, name: `Table ${this.storeys[s].name} ${j * this.o.roomsX + i + 1}`, placement, shape, storey: s, material: 'Timber' });
    this.typed(truth, this.types.furnitureType);
    this.relate('material timber', truth.id);
  }

  // ---- the rest of the building -------------------------------------------------------

  /** A canopy along the south front of the ground floor: columns and beams (mapped items of their types) under a thin slab. */
  writeCanopy() {
    const c = CANOPY;
    const ground = this.storeys[0].placement;
    const y = -c.depth;
    for (let i = 0; i <= this.o.roomsX; i++) {
      const placement = this.place(ground, [i * CELL_X, y, 0]);
      const shape = { ref: this.shape([this.mapped(this.types.columnType.shapes.body, 'Body')]), corners: this.types.columnType.shapes.body.corners };
      const [entity, tail] = this.schema.occurrence('column');
      const truth = this.element({ entity, tail, name: `Column ${i + 1}`, placement, shape, storey: 0, material: 'Steel' });
      this.typed(truth, this.types.columnType);
      this.relate('material steel', truth.id);
      truth.psets.push('Pset_ColumnCommon');
      this.relate('pset columns', truth.id);
    }
    for (let i = 0; i < this.o.roomsX; i++) {
      const placement = this.place(ground, [i * CELL_X, y, c.columnHeight]);
      const shape = { ref: this.shape([this.mapped(this.types.beamType.shapes.body, 'Body')]), corners: this.types.beamType.shapes.body.corners };
      const [entity, tail] = this.schema.occurrence('beam');
      const truth = this.element({ entity, tail, name: `Beam ${i + 1}`, placement, shape, storey: 0, material: 'Steel' });
      this.typed(truth, this.types.beamType);
      this.relate('material steel', truth.id);
    }
    const top = c.columnHeight + c.beamHeight;
    const placement = this.place(ground, [0, 0, top]);
    const outline = /** @type {[number, number][]} */ ([[-c.column, y - c.column], [this.width + c.column, y - c.column], [this.width + c.column, -WALL / 2], [-c.column, -WALL / 2]]);
    const shape = this.bodyShape([this.extrusion(this.polygonProfile(outline), this.axes([0, 0, 0]), c.slab)], this.context.styles.slab);
    const truth = this.element({ entity: 'IFCSLAB', tail: ['.ROOF.'], name: 'Canopy', placement, shape, storey: 0, material: 'Concrete' });
    this.relate('material concrete', truth.id);
  }

  /** A gable roof over the top storey: a triangle across the depth swept along the width (flat over deep buildings). */
  writeRoof() {
    const s = this.o.storeys - 1;
    const overhang = ROOF.overhang;
    const placement = this.place(this.storeys[s].placement, [0, 0, WALL_H]);
    let solid;
    if (this.depth <= ROOF.gableDepth) {
      const ridge = (this.depth / 2 + overhang) * Math.tan(Math.PI / 6);
      const profile = /** @type {[number, number][]} */ ([[-overhang, 0], [this.depth + overhang, 0], [this.depth / 2, ridge]]);
      solid = this.extrusion(this.polygonProfile(profile), this.axes([-overhang, 0, 0], [1, 0, 0], [0, 1, 0]), this.width + 2 * overhang);
    } else {
      solid = this.extrusion(this.rectangleProfile(this.width / 2, this.depth / 2, this.width + 2 * overhang, this.depth + 2 * overhang), this.axes([0, 0, 0]), ROOF.flat);
    }
    const shape = this.bodyShape([solid], this.context.styles.roof);
    const truth = this.element({ entity: 'IFCROOF', tail: [this.depth <= ROOF.gableDepth ? '.GABLE_ROOF.' : '.FLAT_ROOF.'], name: 'Roof', placement, shape, storey: s, material: 'Concrete' });
    this.relate('material concrete', truth.id);
  }

  /** An IfcGrid on the walls' axes: U axes 1, 2, ... along y at each x; V axes A, B, ... along x at each y. */
  writeGrid() {
    const f = this.file;
    const W = this.width, D = this.depth;
    /** @type {{ ref: string, tag: string, kind: 'U' | 'V', start: [number, number], end: [number, number] }[]} */
    const axes = [];
    const axis = (/** @type {string} */ tag, /** @type {'U' | 'V'} */ kind, /** @type {[number, number]} */ start, /** @type {[number, number]} */ end) => {
      const curve = f.add('IFCPOLYLINE', [[this.point2(start), this.point2(end)]]);
      axes.push({ ref: f.add('IFCGRIDAXIS', [text(tag), curve, '.T.']), tag, kind, start, end });
      return curve;
    };
    const curves = [];
    for (let i = 0; i <= this.o.roomsX; i++) curves.push(axis(String(i + 1), 'U', [i * CELL_X, -4], [i * CELL_X, D + 2]));
    for (let j = 0; j <= this.o.roomsY; j++) curves.push(axis(columnLetters(j), 'V', [-2, j * CELL_Y], [W + 2, j * CELL_Y]));
    const placement = this.place(this.storeys[0].placement, [0, 0, 0]);
    const footprint = this.representation(this.context.footprint, 'FootPrint', 'GeometricCurveSet', [f.add('IFCGEOMETRICCURVESET', [curves])]);
    const u = axes.filter((a) => a.kind === 'U').map((a) => a.ref);
    const v = axes.filter((a) => a.kind === 'V').map((a) => a.ref);
    const ref = f.add('IFCGRID', [this.guid(), this.context.owner, text('Structural grid'), '$', '$', placement.ref, this.shape([footprint]), u, v, '$', ...this.schema.gridTail()]);
    const storeyId = expressId(this.storeys[0].ref);
    this.record(ref, 'IfcGrid', 'Structural grid', storeyId, storeyId, null);
    this.relate(`contains ${storeyId}`, ref);
    this.gridTruth = {
      id: expressId(ref),
      name: 'Structural grid',
      axes: axes.map((a) => ({ id: expressId(a.ref), tag: a.tag, kind: a.kind, start: placement.frame.apply([...a.start, 0]), end: placement.frame.apply([...a.end, 0]) })),
    };
  }

  /** What real exporters write now and then: a proxy with no geometry, and one whose body has no items. */
  writeOddities() {
    const ground = this.storeys[0].placement;
    const [entity, tail] = this.schema.occurrence('proxy');
    this.element({ entity, tail, name: 'Placeholder without geometry', placement: this.place(ground, [1, 1, 0]), storey: 0 });
    const empty = { ref: this.shape([this.representation(this.context.body, 'Body', 'SweptSolid', [])]), corners: [] };
    this.element({ entity, tail, name: 'Proxy with an empty shape', placement: this.place(ground, [2, 1, 0]), shape: empty, storey: 0 });
  }

  // ---- relations ------------------------------------------------------------------

  writeRelations() {
    const f = this.file;
    const rel = (/** @type {string} */ entity, /** @type {unknown[]} */ args) => f.add(entity, [this.guid(), this.context.owner, '$', '$', ...args]);
    rel('IFCRELAGGREGATES', [this.context.project, [this.site]]);
    rel('IFCRELAGGREGATES', [this.site, [this.building]]);
    rel('IFCRELAGGREGATES', [this.building, this.storeys.map((s) => s.ref)]);

    // Elements go into their storey's containment; spaces and flights are aggregated.
    const aggregated = new Set([...this.relations.entries()].filter(([key]) => key.startsWith('aggregates ')).flatMap(([, refs]) => refs));
    const bySt = new Map();
    for (const p of this.products) {
      if (p.storey === null || p.type === 'IfcBuildingStorey' || aggregated.has(`#${p.id}`) || p.type === 'IfcOpeningElement' || p.type === 'IfcGrid') continue;
      if (!bySt.has(p.storey)) bySt.set(p.storey, []);
      bySt.get(p.storey).push(`#${p.id}`);
    }
    for (const [storey, refs] of bySt) {
      const grid = this.relations.get(`contains ${storey}`) ?? [];
      rel('IFCRELCONTAINEDINSPATIALSTRUCTURE', [[...refs, ...grid], `#${storey}`]);
    }
    for (const [key, refs] of this.relations) {
      if (key.startsWith('aggregates ')) rel('IFCRELAGGREGATES', [`#${key.slice('aggregates '.length)}`, refs]);
    }
    for (const r of this.openingRelations) {
      if (r.kind === 'voids') rel('IFCRELVOIDSELEMENT', [`#${r.element}`, `#${r.opening}`]);
      else rel('IFCRELFILLSELEMENT', [`#${r.opening}`, `#${r.element}`]);
    }
    for (const type of [this.types.doorTypes.interior, this.types.doorTypes.entrance, this.types.windowType, this.types.wallTypes.exterior, this.types.wallTypes.partition, this.types.columnType, this.types.beamType, this.types.furnitureType]) {
      if (type.truth.occurrences.length) rel('IFCRELDEFINESBYTYPE', [type.truth.occurrences.map((id) => `#${id}`), type.ref]);
    }

    // Property sets shared by all occurrences of a kind.
    /** @type {[string, string, [string, string, string][]][]} */
    const shared = [
      ['pset exterior walls', 'Pset_WallCommon', [['IsExternal', 'IFCBOOLEAN', bool(true)], ['LoadBearing', 'IFCBOOLEAN', bool(true)], ['FireRating', 'IFCLABEL', text('F90')], ['Reference', 'IFCIDENTIFIER', text('EW-200')]]],
      ['pset partitions', 'Pset_WallCommon', [['IsExternal', 'IFCBOOLEAN', bool(false)], ['LoadBearing', 'IFCBOOLEAN', bool(false)], ['Reference', 'IFCIDENTIFIER', text('IW-200')]]],
      ['pset windows', 'Pset_WindowCommon', [['IsExternal', 'IFCBOOLEAN', bool(true)], ['Reference', 'IFCIDENTIFIER', text('W-1200')]]],
      ['pset slabs', 'Pset_SlabCommon', [['IsExternal', 'IFCBOOLEAN', bool(false)], ['LoadBearing', 'IFCBOOLEAN', bool(true)]]],
      ['pset spaces', 'Pset_SpaceCommon', [['IsExternal', 'IFCBOOLEAN', bool(false)], ['Category', 'IFCLABEL', text('Room')]]],
      ['pset columns', 'Pset_ColumnCommon', [['Reference', 'IFCIDENTIFIER', text('C-300')]]],
    ];
    for (const [key, name, props] of shared) {
      const refs = this.relations.get(key);
      if (refs) rel('IFCRELDEFINESBYPROPERTIES', [refs, this.propertySet(name, props)]);
    }

    const usage = (/** @type {string} */ material, /** @type {string} */ name) => {
      const layer = f.add('IFCMATERIALLAYER', [material, this.len(WALL), '$', ...this.schema.materialLayerTail()]);
      const set = f.add('IFCMATERIALLAYERSET', [[layer], text(name), ...this.schema.materialLayerSetTail()]);
      return f.add('IFCMATERIALLAYERSETUSAGE', [set, '.AXIS2.', '.POSITIVE.', this.len(-WALL / 2), ...this.schema.materialUsageTail()]);
    };
    /** @type {[string, () => string][]} */
    const materials = [
      ['material exterior', () => usage(this.context.materials.concrete, 'Exterior wall 200')],
      ['material partition', () => usage(this.context.materials.brick, 'Partition 200')],
      ['material concrete', () => this.context.materials.concrete],
      ['material timber', () => this.context.materials.timber],
      ['material glass', () => this.context.materials.glass],
      ['material steel', () => this.context.materials.steel],
    ];
    for (const [key, material] of materials) {
      const refs = this.relations.get(key);
      if (refs) rel('IFCRELASSOCIATESMATERIAL', [refs, material()]);
    }
  }

  // ---- the truth --------------------------------------------------------------------

  truth() {
    /** @type {Record<string, number>} */
    const counts = {};
    for (const p of this.products) counts[p.type] = (counts[p.type] ?? 0) + 1;
    const drawn = this.products.filter((p) => p.box && p.type !== 'IfcSpace');
    const o = this.o;
    return {
      generator: 'bim-viewers samples/building.js',
      version: 1,
      parameters: { ...o },
      schema: o.schema,
      lengthUnit: o.units === 'mm' ? 'MILLIMETRE' : 'METRE',
      angleUnit: o.angles === 'degree' ? 'DEGREE' : 'RADIAN',
      lines: this.file.lines,
      project: { id: expressId(this.context.project), guid: this.context.projectGuid, name: o.name },
      site: { id: expressId(/** @type {string} */ (this.site)), origin: this.sitePlacement?.frame.origin },
      building: { id: expressId(/** @type {string} */ (this.building)), name: o.name },
      georeference: o.georeferenced ? { .../** @type {Georeference} */ (georeferenceOf(o.georeferenced)) } : null,
      counts,
      storeys: (this.storeys ?? []).map((s) => {
        const p = /** @type {ProductTruth} */ (this.products.find((x) => x.id === expressId(s.ref)));
        return { id: p.id, guid: p.guid, name: s.name, elevation: s.elevation };
      }),
      spaces: this.spaces,
      products: this.products,
      types: this.typeObjects,
      grid: this.gridTruth,
      /** Everything drawn but the spaces (hidden at load). */
      box: unionOf(drawn.map((p) => p.box)),
      /** With the spaces. */
      boxWithSpaces: unionOf(this.products.map((p) => p.box)),
    };
  }
}

/** web-ifc's spelling of an entity name: IFCWALLSTANDARDCASE -> IfcWallStandardCase. */
export function webIfcName(/** @type {string} */ entity) {
  const known = /** @type {Record<string, string>} */ ({
    IFCWALL: 'IfcWall', IFCWALLSTANDARDCASE: 'IfcWallStandardCase', IFCOPENINGELEMENT: 'IfcOpeningElement', IFCDOOR: 'IfcDoor', IFCWINDOW: 'IfcWindow',
    IFCSLAB: 'IfcSlab', IFCSTAIR: 'IfcStair', IFCSTAIRFLIGHT: 'IfcStairFlight', IFCCOLUMN: 'IfcColumn', IFCBEAM: 'IfcBeam', IFCROOF: 'IfcRoof',
    IFCFURNITURE: 'IfcFurniture', IFCFURNISHINGELEMENT: 'IfcFurnishingElement', IFCBUILDINGELEMENTPROXY: 'IfcBuildingElementProxy',
    IFCWALLTYPE: 'IfcWallType', IFCDOORTYPE: 'IfcDoorType', IFCDOORSTYLE: 'IfcDoorStyle', IFCWINDOWTYPE: 'IfcWindowType', IFCWINDOWSTYLE: 'IfcWindowStyle',
    IFCCOLUMNTYPE: 'IfcColumnType', IFCBEAMTYPE: 'IfcBeamType', IFCFURNITURETYPE: 'IfcFurnitureType',
  });
  const name = known[entity];
  if (!name) throw new Error(`no web-ifc name for ${entity}`);
  return name;
}

/** Grid letters: A..Z, then AA, AB, ... */
function columnLetters(/** @type {number} */ n) {
  let s = '';
  for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
}
