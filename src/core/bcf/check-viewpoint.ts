import type { BcfViewpoint } from './viewpoint-types.js';
import { describe } from '../data/arguments.js';

/**
 * What is wrong with a BCF viewpoint (BCF-API 2.1/3.0 JSON), or null when it can be
 * shown: the rules of the API's tables, not just the draft-03 schemas (which leave every
 * field optional). Exactly one camera, with all its fields; components, colours and
 * clipping planes of the right shapes. Fields the 3D view does not use (lines, bitmaps,
 * snapshot, index, guid) are not looked into. No browser dependency: the platform may
 * check what it is sent with the same rules.
 */
export function bcfViewpointProblem(viewpoint: unknown): string | null {
  try {
    check(viewpoint);
    return null;
  } catch (e) {
    if (e instanceof Problem) return e.message;
    throw e;
  }
}

class Problem extends Error {}

function fail(message: string): never {
  throw new Problem(message);
}

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;

function check(viewpoint: unknown): asserts viewpoint is BcfViewpoint {
  if (!isObject(viewpoint)) fail(`a viewpoint must be an object, got ${describe(viewpoint)}`);
  const { perspective_camera: perspective, orthogonal_camera: orthogonal } = viewpoint;
  if (!absent(perspective) && !absent(orthogonal)) fail('a viewpoint has exactly one camera: perspective_camera or orthogonal_camera, not both');
  if (absent(perspective) && absent(orthogonal)) fail('a viewpoint needs a perspective_camera or an orthogonal_camera');
  if (!absent(perspective)) {
    const camera = cameraFields('perspective_camera', perspective);
    const fov = camera.field_of_view;
    if (!(typeof fov === 'number' && fov > 0 && fov < 180)) fail(`perspective_camera.field_of_view must be degrees between 0 and 180, got ${describe(fov)}`);
  } else {
    const camera = cameraFields('orthogonal_camera', orthogonal);
    const scale = camera.view_to_world_scale;
    if (!(typeof scale === 'number' && Number.isFinite(scale) && scale > 0)) fail(`orthogonal_camera.view_to_world_scale must be a positive number of metres, got ${describe(scale)}`);
  }
  listOf('clipping_planes', viewpoint.clipping_planes, (plane, name) => {
    if (!isObject(plane)) fail(`${name} must be {location, direction}, got ${describe(plane)}`);
    point(`${name}.location`, plane.location);
    direction(`${name}.direction`, plane.direction);
  });
  for (const key of ['lines', 'bitmaps'] as const) listOf(key, viewpoint[key], () => undefined);
  const components = viewpoint.components;
  if (absent(components)) return;
  if (!isObject(components)) fail(`components must be an object, got ${describe(components)}`);
  componentList('components.selection', components.selection);
  listOf('components.coloring', components.coloring, (coloring, name) => {
    if (!isObject(coloring)) fail(`${name} must be {color, components}, got ${describe(coloring)}`);
    if (typeof coloring.color !== 'string' || !/^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(coloring.color)) fail(`${name}.color must be 6 hex digits (RRGGBB) or 8 (AARRGGBB), got ${describe(coloring.color)}`);
    if (!Array.isArray(coloring.components)) fail(`${name}.components must be an array, got ${describe(coloring.components)}`);
    componentList(`${name}.components`, coloring.components);
  });
  const visibility = components.visibility;
  if (absent(visibility)) return;
  if (!isObject(visibility)) fail(`components.visibility must be an object, got ${describe(visibility)}`);
  if (visibility.default_visibility !== undefined && typeof visibility.default_visibility !== 'boolean') fail(`components.visibility.default_visibility must be a boolean, got ${describe(visibility.default_visibility)}`);
  componentList('components.visibility.exceptions', visibility.exceptions);
  const hints = visibility.view_setup_hints;
  if (absent(hints)) return;
  if (!isObject(hints)) fail(`components.visibility.view_setup_hints must be an object, got ${describe(hints)}`);
  for (const key of ['spaces_visible', 'space_boundaries_visible', 'openings_visible']) {
    if (hints[key] !== undefined && typeof hints[key] !== 'boolean') fail(`components.visibility.view_setup_hints.${key} must be a boolean, got ${describe(hints[key])}`);
  }
}

function cameraFields(name: string, camera: unknown): Fields {
  if (!isObject(camera)) fail(`${name} must be an object, got ${describe(camera)}`);
  point(`${name}.camera_view_point`, camera.camera_view_point);
  direction(`${name}.camera_direction`, camera.camera_direction);
  direction(`${name}.camera_up_vector`, camera.camera_up_vector);
  const aspect = camera.aspect_ratio;
  if (aspect !== undefined && !(typeof aspect === 'number' && Number.isFinite(aspect) && aspect > 0)) fail(`${name}.aspect_ratio must be a positive number, got ${describe(aspect)}`);
  return camera;
}

function point(name: string, value: unknown) {
  if (!isObject(value) || !['x', 'y', 'z'].every((k) => typeof value[k] === 'number' && Number.isFinite(value[k]))) fail(`${name} must be {x, y, z} numbers, got ${describe(value)}`);
}

function direction(name: string, value: unknown) {
  point(name, value);
  const v = value as { x: number; y: number; z: number };
  if (v.x === 0 && v.y === 0 && v.z === 0) fail(`${name} must not be the zero vector`);
}

function listOf(name: string, value: unknown, each: (item: unknown, name: string) => void) {
  if (absent(value)) return;
  if (!Array.isArray(value)) fail(`${name} must be an array, got ${describe(value)}`);
  value.forEach((item, i) => each(item, `${name}[${i}]`));
}

function componentList(name: string, value: unknown) {
  listOf(name, value, (component, itemName) => {
    if (!isObject(component)) fail(`${itemName} must be a component {ifc_guid}, got ${describe(component)}`);
    for (const key of ['ifc_guid', 'originating_system', 'authoring_tool_id']) {
      if (!absent(component[key]) && typeof component[key] !== 'string') fail(`${itemName}.${key} must be a string, got ${describe(component[key])}`);
    }
  });
}
