import { ViewerError, type Box, type Ids, type ViewName, type ViewpointInput } from '../types.js';
import { parseColor } from './colors.js';

/**
 * Argument checks for the public methods: wrong types fail at once with a message that
 * names the method and what it expected, instead of failing somewhere deep inside.
 */

const VIEW_NAMES: readonly ViewName[] = ['home', 'top', 'bottom', 'left', 'right', 'front', 'back'];

function fail(method: string, message: string): never {
  throw new ViewerError('argument', `${method}: ${message}`);
}

export function checkString(method: string, name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') fail(method, `${name} must be a non-empty string, got ${describe(value)}`);
}

export function checkFunction(method: string, value: unknown) {
  if (typeof value !== 'function') fail(method, `expected a callback function, got ${describe(value)}`);
}

export function checkIds(method: string, ids: unknown): asserts ids is Ids {
  const ok = (id: unknown) => (typeof id === 'string') || (typeof id === 'number' && Number.isFinite(id));
  if (!(ok(ids) || (Array.isArray(ids) && ids.every(ok)))) {
    fail(method, `object ids must be a string, a number or an array of them, got ${describe(ids)}`);
  }
}

export function checkColor(method: string, color: unknown) {
  if (typeof color !== 'string' || !parseColor(color)) fail(method, `colour must be "#RRGGBB" or "#RRGGBBAA", got ${describe(color)}`);
}

export function checkViewName(method: string, name: unknown): asserts name is ViewName {
  if (!VIEW_NAMES.includes(name as ViewName)) fail(method, `direction must be one of ${VIEW_NAMES.join(', ')}, got ${describe(name)}`);
}

const isVec = (v: unknown) => typeof v === 'object' && v !== null && ['x', 'y', 'z'].every((k) => Number.isFinite((v as Record<string, unknown>)[k]));

export function checkBox(method: string, box: unknown): asserts box is Box {
  const b = box as Box | null;
  if (!b || !isVec(b.min) || !isVec(b.max)) fail(method, `expected a box {min: {x,y,z}, max: {x,y,z}}, got ${describe(box)}`);
}

export function checkViewpoint(method: string, vp: unknown): asserts vp is ViewpointInput {
  if (typeof vp === 'string') {
    checkViewName(method, vp);
    return;
  }
  if (typeof vp !== 'object' || vp === null) fail(method, `expected a viewpoint object or a view name, got ${describe(vp)}`);
  const v = vp as Record<string, unknown>;
  for (const key of ['location', 'direction', 'up'] as const) {
    if (v[key] !== undefined && !isVec(v[key])) fail(method, `${key} must be {x, y, z}, got ${describe(v[key])}`);
  }
  if (v.type !== undefined && v.type !== 'perspective' && v.type !== 'orthogonal') fail(method, `type must be "perspective" or "orthogonal", got ${describe(v.type)}`);
  for (const key of ['fov', 'viewToWorldScale'] as const) {
    if (v[key] !== undefined && !(Number.isFinite(v[key]) && (v[key] as number) > 0)) fail(method, `${key} must be a positive number, got ${describe(v[key])}`);
  }
}

export function checkClippingPlanes(method: string, planes: unknown) {
  if (!Array.isArray(planes)) fail(method, `expected an array of {location, direction}, got ${describe(planes)}`);
  planes.forEach((p, i) => {
    if (!isVec(p?.location) || !isVec(p?.direction)) fail(method, `plane ${i} must be {location: {x,y,z}, direction: {x,y,z}}, got ${describe(p)}`);
    if (p.direction.x === 0 && p.direction.y === 0 && p.direction.z === 0) fail(method, `plane ${i} has a zero direction`);
  });
}

export function checkTransform(method: string, transform: unknown) {
  const t = transform as Record<string, Record<string, unknown>> | null;
  if (!t || typeof t !== 'object') fail(method, `expected {position, scale, rotation}, got ${describe(transform)}`);
  for (const key of ['position', 'scale', 'rotation'] as const) {
    if (t[key] !== undefined && !isVec(t[key])) fail(method, `${key} must be {x, y, z}, got ${describe(t[key])}`);
  }
  if (t.rotation !== undefined && !Number.isFinite(t.rotation.angle) && !Number.isFinite(t.rotation.w)) fail(method, 'rotation needs an angle in radians (or w, as a quaternion)');
}

/** A value as an error message names it. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
