import { Matrix3, Ray, Vector2, Vector3, Triangle, type Plane, type OrthographicCamera, type PerspectiveCamera } from 'three';
import type { SceneModel } from './scene-model.js';

export interface PickHit {
  index: number;
  model: SceneModel;
  /** Viewer coordinates. */
  point: Vector3;
  normal: Vector3;
  /** The triangle hit, viewer coordinates (for snapping). */
  triangle: [Vector3, Vector3, Vector3];
}

/**
 * Hits closer together than this (viewer units, metres) are one surface, and the object
 * listed first takes it: a roof and the zone drawn around it share their top face, and a
 * scene's positions, on a 0.1 mm grid, put one or the other a hair in front, where the
 * IFC's put the other (elements come before spaces and zones, models in their order).
 */
const SAME_SURFACE = 1e-3;

/**
 * Finds the object under a pixel on the CPU: the ray through the pixel against every
 * object's box, then, nearest box first, against the triangles of those objects until
 * no box left can hold a nearer hit. No draw, no GPU round trip: the cost grows with the
 * objects along the ray, not with the triangles on screen (a GPU id pass re-draws them all).
 */
export class Picker {
  /** The visible object under pixel (x, y) and where it is hit; parts cut away by `clipping` planes do not count. */
  pick(camera: PerspectiveCamera | OrthographicCamera, models: SceneModel[], visible: (index: number) => boolean, x: number, y: number, width: number, height: number, clipping: Plane[] = []): PickHit | null {
    const ray = this.ray(camera, x, y, width, height);
    const candidates: Candidate[] = [];
    for (const model of models) boxesOnRay(model, ray, visible, candidates);
    candidates.sort((a, b) => a.distance - b.distance);
    let best: PickHit | null = null;
    let bestDistance = Infinity;
    for (const { model, index, distance } of candidates) {
      if (distance > bestDistance + SAME_SURFACE) break; // every box left starts behind the hit
      const hit = intersectObject(model, index, ray, clipping);
      if (!hit) continue;
      const d = hit.point.distanceTo(ray.origin);
      const nearer = d < bestDistance - SAME_SURFACE || (best !== null && d <= bestDistance + SAME_SURFACE && index < best.index);
      if (nearer) {
        bestDistance = d;
        best = { index, model, ...hit };
      }
    }
    return best;
  }

  /** The ray through a pixel, in viewer coordinates, from the near plane. */
  ray(camera: PerspectiveCamera | OrthographicCamera, x: number, y: number, width: number, height: number): Ray {
    const ndc = new Vector2((x / width) * 2 - 1, -(y / height) * 2 + 1);
    const origin = new Vector3(ndc.x, ndc.y, -1).unproject(camera);
    const far = new Vector3(ndc.x, ndc.y, 1).unproject(camera);
    return new Ray(origin, far.sub(origin).normalize());
  }
}

interface Candidate {
  model: SceneModel;
  index: number;
  /** Where the ray enters the object's box, viewer coordinates. */
  distance: number;
}

/** Appends the visible objects of `model` whose boxes `ray` (viewer coordinates) passes through. */
function boxesOnRay(model: SceneModel, worldRay: Ray, visible: (index: number) => boolean, out: Candidate[]) {
  const toWorld = model.matrix;
  const ray = worldRay.clone().applyMatrix4(toWorld.clone().invert());
  const ox = ray.origin.x, oy = ray.origin.y, oz = ray.origin.z;
  const ix = 1 / ray.direction.x, iy = 1 / ray.direction.y, iz = 1 / ray.direction.z;
  const b = model.boxes;
  const entry = new Vector3();
  // Slab test, boxes grown by a millimetre so flat objects (a zero-thick plate) are hit too.
  const pad = 1e-3;
  for (let i = 0, o = 0; i < model.count; i++, o += 6) {
    let near = 0;
    let far = Infinity;
    let t1 = (b[o] - pad - ox) * ix, t2 = (b[o + 3] + pad - ox) * ix;
    near = Math.max(near, Math.min(t1, t2));
    far = Math.min(far, Math.max(t1, t2));
    t1 = (b[o + 1] - pad - oy) * iy;
    t2 = (b[o + 4] + pad - oy) * iy;
    near = Math.max(near, Math.min(t1, t2));
    far = Math.min(far, Math.max(t1, t2));
    t1 = (b[o + 2] - pad - oz) * iz;
    t2 = (b[o + 5] + pad - oz) * iz;
    near = Math.max(near, Math.min(t1, t2));
    far = Math.min(far, Math.max(t1, t2));
    if (!(near <= far)) continue; // also NaN: an empty box, or the ray along a face
    const index = model.firstIndex + i;
    if (!visible(index)) continue;
    ray.at(near, entry).applyMatrix4(toWorld);
    out.push({ model, index, distance: entry.distanceTo(worldRay.origin) });
  }
}

const hit = new Vector3();

/**
 * The triangles of one object that come within `radius` of `point` (viewer coordinates),
 * for snapping to the vertices and edges around a hit.
 */
export function trianglesNear(model: SceneModel, index: number, point: Vector3, radius: number): [Vector3, Vector3, Vector3][] {
  const toWorld = model.matrix;
  const local = point.clone().applyMatrix4(toWorld.clone().invert());
  const reach = radius / (toWorld.getMaxScaleOnAxis() || 1);
  const triangle = new Triangle();
  const closest = new Vector3();
  const found: [Vector3, Vector3, Vector3][] = [];
  model.forEachTriangle(index, (a, b, c) => {
    if (triangle.set(a, b, c).closestPointToPoint(local, closest).distanceTo(local) > reach) return;
    found.push([a.clone().applyMatrix4(toWorld), b.clone().applyMatrix4(toWorld), c.clone().applyMatrix4(toWorld)]);
  });
  return found;
}

/** The nearest hit of `ray` on the triangles of one object. */
function intersectObject(model: SceneModel, index: number, worldRay: Ray, clipping: Plane[]): Omit<PickHit, 'index' | 'model'> | null {
  // Test in the model's own frame (transformModel), report in the viewer's.
  const toWorld = model.matrix;
  const ray = worldRay.clone().applyMatrix4(toWorld.clone().invert());
  const normalMatrix = new Matrix3().getNormalMatrix(toWorld);
  let best = Infinity;
  let result: Omit<PickHit, 'index' | 'model'> | null = null;
  model.forEachTriangle(index, (a, b, c) => {
    if (!ray.intersectTriangle(a, b, c, false, hit)) return;
    const world = hit.clone().applyMatrix4(toWorld);
    const distance = world.distanceTo(worldRay.origin);
    if (distance >= best || !clipping.every((plane) => plane.distanceToPoint(world) >= 0)) return;
    best = distance;
    const normal = Triangle.getNormal(a, b, c, new Vector3()).applyMatrix3(normalMatrix).normalize();
    if (normal.dot(worldRay.direction) > 0) normal.negate();
    result = { point: world, normal, triangle: [a.clone().applyMatrix4(toWorld), b.clone().applyMatrix4(toWorld), c.clone().applyMatrix4(toWorld)] };
  });
  return result;
}
