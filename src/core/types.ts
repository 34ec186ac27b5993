/** Shapes shared by the core, the elements and the jQuery shim (seed 002, seed 000, COMPAT.md). */

/** A point or direction in model coordinates: metres, z up. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export interface Box {
  min: Vec3;
  max: Vec3;
}

/** Object ids as pages pass them: one string, a number, or arrays of either. */
export type Ids = string | number | ReadonlyArray<string | number>;

export type ViewName = 'home' | 'top' | 'bottom' | 'left' | 'right' | 'front' | 'back';

export interface PerspectiveViewpoint {
  type: 'perspective';
  location: Vec3;
  direction: Vec3;
  up: Vec3;
  fov: number;
}

export interface OrthogonalViewpoint {
  type: 'orthogonal';
  location: Vec3;
  direction: Vec3;
  up: Vec3;
  /** Height of the view in metres (BCF view_to_world_scale). */
  viewToWorldScale: number;
}

export type Viewpoint = PerspectiveViewpoint | OrthogonalViewpoint;

/** What the viewpoint setter takes: a whole or partial viewpoint, or a view name. */
export type ViewpointInput = ViewName | (Partial<Omit<PerspectiveViewpoint, 'type'>> & Partial<Omit<OrthogonalViewpoint, 'type'>> & { type?: 'perspective' | 'orthogonal' });

/** Where a pick hit a surface (viewer.click/doubleclick/contextmenu). */
export interface Intersection {
  /** The object hit; undefined for a point of a point cloud. */
  objectId?: string;
  /** The point cloud whose point was picked (none for BIM objects). */
  modelId?: string;
  point: Vec3;
  normal: Vec3;
}

/** A Product record (seed 000): basic fields, plus attributes/definedBy when asked. */
export interface Product {
  objectId: string;
  parent: string;
  globalId: string;
  type: string;
  name: string;
  description: string | null;
  attributes?: Record<string, AttributeValue>;
  definedBy?: AttributeValue[];
}

export interface AttributeValue {
  type: string;
  value: unknown;
}

export interface ProductOptions {
  attributes?: boolean;
  definedBy?: boolean;
}

export interface ModelInfo {
  modelId: string;
  name: string;
  boundingBox: Box;
  visible: boolean;
  /** Set for point clouds ('point-cloud'); BIM models leave it out. */
  modelType?: 'bim' | 'point-cloud';
  /** A point cloud's points (all levels of its octree). */
  pointCount?: number;
}

/** The answer of color(null, ids): keyed by object id. */
export type ColorInfo = Record<string, { color: { r: number; g: number; b: number }; opacity: number; style: string }>;

/** The optional query of loadUrl (COMPAT.md): load only these objects. */
export interface ObjectQuery {
  objectId?: string | number | { $in: ReadonlyArray<string | number> };
}

export interface LoadModelOptions {
  modelType?: 'bim' | 'point-cloud';
  modelId?: string;
  name?: string;
}

/** Spatial structure node (IfcProject > IfcSite > IfcBuilding > IfcBuildingStorey > ...). */
export interface SpatialNode {
  objectId: string;
  type: string;
  name: string;
  elevation?: number;
  children: SpatialNode[];
}

/** viewer.streamingprogress detail. */
export interface StreamingProgress {
  modelId: string;
  /** 0..1 over the whole load (download, parse, geometry). */
  progress: number;
  phase: 'download' | 'parse' | 'geometry' | 'done';
}

/** Error kinds carried by viewer.error (detail.type) and by rejected promises (error.type). */
export type ViewerErrorType = 'network' | 'manifest' | 'ifc' | 'scene' | 'plans' | 'pointcloud' | 'argument' | 'method' | 'webgl' | 'disposed';

export class ViewerError extends Error {
  readonly type: ViewerErrorType;
  constructor(type: ViewerErrorType, message: string) {
    super(message);
    this.name = 'ViewerError';
    this.type = type;
  }
}

/** A clipping plane (seed 002, BCF): `direction` points to the side that is cut away. IFC coordinates. */
export interface ClippingPlane {
  location: Vec3;
  direction: Vec3;
}
