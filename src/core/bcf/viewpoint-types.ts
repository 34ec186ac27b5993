/**
 * BCF viewpoints as the BCF REST API (buildingSMART BCF-API 2.1 and 3.0) writes them in
 * JSON: the body of POST .../viewpoints and the answer of GET .../viewpoints/{guid}.
 * Types only, no browser or node dependency: the 3D viewer takes and shows them
 * (core/bcf/viewer-viewpoints.ts) and the platform stores and serves them.
 *
 * Coordinates are IFC world coordinates in metres, z up; angles in degrees.
 */

/** A point (camera_view_point, a clipping plane's location), metres. */
export interface BcfPoint {
  x: number;
  y: number;
  z: number;
}

/** A direction; never the zero vector. */
export type BcfDirection = BcfPoint;

interface BcfCameraBase {
  camera_view_point: BcfPoint;
  camera_direction: BcfDirection;
  camera_up_vector: BcfDirection;
  /** Width / height of the view (mandatory in 3.0, absent in 2.1). */
  aspect_ratio?: number;
}

export interface BcfPerspectiveCamera extends BcfCameraBase {
  /** The entire vertical field of view, degrees (0 < fov < 180). */
  field_of_view: number;
}

export interface BcfOrthogonalCamera extends BcfCameraBase {
  /** The entire vertical size of the view, metres. */
  view_to_world_scale: number;
}

/** An object, by its IFC GlobalId (authoring_tool_id is the fallback of tools without one). */
export interface BcfComponent {
  ifc_guid?: string | null;
  originating_system?: string | null;
  authoring_tool_id?: string | null;
}

/** Components drawn in one colour: `RRGGBB`, or `AARRGGBB` (alpha first) when translucent. */
export interface BcfColoring {
  color: string;
  components: BcfComponent[];
}

export interface BcfViewSetupHints {
  spaces_visible?: boolean;
  space_boundaries_visible?: boolean;
  openings_visible?: boolean;
}

/**
 * Applied in this order: everything takes `default_visibility` (default false), spaces and
 * openings are hidden unless their hint says visible, then each exception takes the
 * opposite of `default_visibility`.
 */
export interface BcfVisibility {
  default_visibility?: boolean;
  exceptions?: BcfComponent[] | null;
  view_setup_hints?: BcfViewSetupHints | null;
}

export interface BcfComponents {
  selection?: BcfComponent[] | null;
  coloring?: BcfColoring[] | null;
  visibility?: BcfVisibility | null;
}

/** `direction` points into the half-space that is clipped away. */
export interface BcfClippingPlane {
  location: BcfPoint;
  direction: BcfDirection;
}

export interface BcfLine {
  start_point: BcfPoint;
  end_point: BcfPoint;
}

export interface BcfBitmap {
  guid?: string;
  bitmap_type: 'png' | 'jpg';
  /** Plain base64 (POST only). */
  bitmap_data?: string;
  location: BcfPoint;
  normal: BcfDirection;
  up: BcfDirection;
  height: number;
}

export interface BcfSnapshot {
  snapshot_type: 'png' | 'jpg';
  /** Plain base64, no `data:` URL prefix (POST only; GET .../snapshot serves the image). */
  snapshot_data?: string;
}

/** A viewpoint: exactly one of the two cameras, and what the view shows. */
export interface BcfViewpoint {
  guid?: string | null;
  index?: number | null;
  perspective_camera?: BcfPerspectiveCamera | null;
  orthogonal_camera?: BcfOrthogonalCamera | null;
  lines?: BcfLine[] | null;
  clipping_planes?: BcfClippingPlane[] | null;
  bitmaps?: BcfBitmap[] | null;
  snapshot?: BcfSnapshot | null;
  components?: BcfComponents | null;
}
