/** Shapes of the 2D viewer's API (seed 002 "Viewer 2D types" and methods, COMPAT.md "Shapes"). */

export interface Point2 {
  x: number;
  y: number;
}

export interface Size2 {
  width: number;
  height: number;
}

export interface Location3 {
  x: number;
  y: number;
  z: number;
}

/** A storey: `{id, guid, name, elevation}` (elevation in metres). */
export interface Storey2d {
  id: string;
  guid: string;
  name: string;
  elevation: number;
}

/** x, y: the minimum corner in model coordinates (metres); width and height. */
export interface Rect2 {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Space2d {
  id: string;
  guid: string;
  name: string;
  longName: string;
  /** The storey's name. */
  storey: string;
  storeyId: string;
  /** Only when asked with `visible: true`. */
  boundingBox?: Rect2;
}

export interface SpaceQuery {
  /** All models (default: only the first loaded model). */
  all?: boolean;
  buildingId?: string;
  storeyId?: string;
  /** Only spaces on storeys shown now, with their bounding boxes. */
  visible?: boolean;
}

export interface StoreyQuery {
  buildingId?: string;
  all?: boolean;
  visible?: boolean;
}

export interface MarkerIcon {
  url: string;
  size: Size2;
  /** The point of the image (pixels from its top left) that sits on the marker's position. */
  anchor?: Point2;
}

/** What addMarker takes. */
export interface MarkerInput {
  id?: string;
  x: number;
  y: number;
  icon?: MarkerIcon;
  color?: string;
  text?: string;
  data?: unknown;
  clickable?: boolean;
  draggable?: boolean;
}

/** A marker as events report it: `{id, x, y, color, text, data}`. */
export interface Marker {
  id: string;
  x: number;
  y: number;
  color?: string;
  text?: string;
  data?: unknown;
}

/** What addImage takes: x, y is the image's minimum corner, sizes in metres. */
export interface ImageInput {
  id?: string;
  url: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Turn with the (first) model when it is transformed. */
  rotate?: boolean;
}

/** getViewpoint: z is the height of the storey shown; the direction is horizontal. */
export interface Viewpoint2d {
  location: Location3;
  direction: Location3;
}

/** The viewer2d.viewpoint event's viewpoint; rotation in degrees, counter-clockwise from +x. */
export interface ViewpointChange extends Viewpoint2d {
  rotation: number;
}

/** setViewpoint: direction in degrees (counter-clockwise from +x) or a vector. */
export interface ViewpointInput2d {
  location?: { x: number; y: number; z?: number };
  direction?: number | { x: number; y: number; z?: number };
}

export interface Transformation2d {
  position?: { x?: number; y?: number; z?: number };
  rotation?: { centerOfRotation?: { x?: number; y?: number }; angle?: number };
}

export interface LoadOptions2d {
  /** Keep the models already loaded (default false: replace them). */
  append?: boolean;
  modelId?: string;
  modelName?: string;
}

export interface LookAtOptions2d {
  retainStoreys?: boolean;
  /** Margin around the objects, metres: one number or per axis. */
  expand?: number | { x?: number; y?: number };
}

export interface Box2Input {
  min: { x: number; y: number; z?: number };
  max: { x: number; y: number; z?: number };
}

/** getBoundingBox: the rectangle, with its corners as well. */
export interface BoundingBox2d extends Rect2 {
  min: { x: number; y: number };
  max: { x: number; y: number };
}

export type SpaceNameFormat = 'regular' | 'long';
