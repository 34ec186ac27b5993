import { ViewerError } from '../types.js';
import type { Box2Input, ImageInput, MarkerInput, SpaceNameFormat, Transformation2d, ViewpointInput2d } from './types.js';

/**
 * Argument checks of the 2D viewer's methods: a wrong call fails at once with a message
 * that names the method and what it expected (ids and strings: core/data/arguments.ts).
 */

function fail(method: string, message: string): never {
  throw new ViewerError('argument', `${method}: ${message}`);
}

const finite = (v: unknown) => typeof v === 'number' ? Number.isFinite(v) : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

export function checkNumber(method: string, name: string, value: unknown) {
  if (!finite(value)) fail(method, `${name} must be a number, got ${describe(value)}`);
}

/** Any CSS colour: names, #hex, rgb(), rgba(), hsl()... */
export function isCssColor(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() === '') return false;
  if (typeof CSS !== 'undefined' && typeof CSS.supports === 'function') return CSS.supports('color', value);
  return /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value.trim()) || /^(rgba?|hsla?)\(/i.test(value.trim()) || /^[a-z]+$/i.test(value.trim());
}

export function checkCssColor(method: string, value: unknown): asserts value is string {
  if (!isCssColor(value)) fail(method, `colour must be a CSS colour ("#ff0000", "red", "rgba(255, 0, 0, 0.5)"), got ${describe(value)}`);
}

export function checkMarker(method: string, marker: unknown): asserts marker is MarkerInput {
  if (!isObject(marker)) fail(method, `expected a marker {x, y, ...}, got ${describe(marker)}`);
  checkNumber(method, 'x', marker.x);
  checkNumber(method, 'y', marker.y);
  if (marker.id !== undefined && marker.id !== null && typeof marker.id !== 'string' && typeof marker.id !== 'number') fail(method, `id must be a string, got ${describe(marker.id)}`);
  if (marker.color !== undefined && marker.color !== null) checkCssColor(method, marker.color);
  if (marker.text !== undefined && marker.text !== null && typeof marker.text !== 'string' && typeof marker.text !== 'number') fail(method, `text must be a string, got ${describe(marker.text)}`);
  if (marker.icon !== undefined && marker.icon !== null) {
    const icon = marker.icon;
    if (!isObject(icon) || typeof icon.url !== 'string' || icon.url === '') fail(method, `icon must be {url, size: {width, height}, anchor?: {x, y}}, got ${describe(icon)}`);
    if (icon.size !== undefined && (!isObject(icon.size) || !finite(icon.size.width) || !finite(icon.size.height))) fail(method, 'icon.size must be {width, height} in pixels');
    if (icon.anchor !== undefined && (!isObject(icon.anchor) || !finite(icon.anchor.x) || !finite(icon.anchor.y))) fail(method, 'icon.anchor must be {x, y} in pixels');
  }
}

export function checkImage(method: string, image: unknown): asserts image is ImageInput {
  if (!isObject(image)) fail(method, `expected an image {url, x, y, width, height}, got ${describe(image)}`);
  if (typeof image.url !== 'string' || image.url.trim() === '') fail(method, `url must be a non-empty string, got ${describe(image.url)}`);
  for (const key of ['x', 'y', 'width', 'height']) checkNumber(method, key, image[key]);
}

export function checkViewpoint2d(method: string, vp: unknown): asserts vp is ViewpointInput2d {
  if (!isObject(vp)) fail(method, `expected {location: {x, y}, direction}, got ${describe(vp)}`);
  if (vp.location !== undefined) {
    if (!isObject(vp.location)) fail(method, `location must be {x, y}, got ${describe(vp.location)}`);
    checkNumber(method, 'location.x', vp.location.x);
    checkNumber(method, 'location.y', vp.location.y);
  }
  const d = vp.direction;
  if (d !== undefined && !finite(d) && !(isObject(d) && finite(d.x) && finite(d.y))) {
    fail(method, `direction must be degrees (a number) or {x, y}, got ${describe(d)}`);
  }
}

export function checkBox2(method: string, box: unknown): asserts box is Box2Input {
  if (!isObject(box) || !isObject(box.min) || !isObject(box.max)) fail(method, `expected {min: {x, y, z?}, max: {x, y, z?}}, got ${describe(box)}`);
  for (const corner of ['min', 'max'] as const) {
    const c = box[corner] as Record<string, unknown>;
    checkNumber(method, `${corner}.x`, c.x);
    checkNumber(method, `${corner}.y`, c.y);
    if (c.z !== undefined && c.z !== null) checkNumber(method, `${corner}.z`, c.z);
  }
}

export function checkTransformation(method: string, t: unknown): asserts t is Transformation2d {
  if (!isObject(t)) fail(method, `expected {position: {x, y, z}, rotation: {centerOfRotation: {x, y}, angle}}, got ${describe(t)}`);
  if (t.position !== undefined) {
    if (!isObject(t.position)) fail(method, 'position must be {x, y, z}');
    for (const k of ['x', 'y', 'z']) if (t.position[k] !== undefined) checkNumber(method, `position.${k}`, t.position[k]);
  }
  if (t.rotation !== undefined) {
    if (!isObject(t.rotation)) fail(method, 'rotation must be {centerOfRotation: {x, y}, angle}');
    if (t.rotation.angle !== undefined) checkNumber(method, 'rotation.angle', t.rotation.angle);
    const c = t.rotation.centerOfRotation;
    if (c !== undefined && (!isObject(c) || (c.x !== undefined && !finite(c.x)) || (c.y !== undefined && !finite(c.y)))) fail(method, 'rotation.centerOfRotation must be {x, y}');
  }
}

export function checkNameFormat(method: string, format: unknown): asserts format is SpaceNameFormat {
  if (format !== 'regular' && format !== 'long') fail(method, `the format must be "regular" or "long", got ${describe(format)}`);
}

export function checkOptionalObject(method: string, name: string, value: unknown) {
  if (value !== undefined && value !== null && !isObject(value)) fail(method, `${name} must be an object, got ${describe(value)}`);
}

export function checkSpaceNames(method: string, names: unknown) {
  if (!isObject(names)) fail(method, `expected a map of object id to {name, longName}, got ${describe(names)}`);
}
