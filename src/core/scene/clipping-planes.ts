import { Plane, Ray, Vector3, type Box3 } from 'three';

/** The documented limit (seed 002, "Limits"). */
export const MAX_CLIPPING_PLANES = 6;

/** One clipping plane in viewer coordinates; `direction` points to the side that is cut away (as in BCF). */
export interface ClipPlane {
  location: Vector3;
  direction: Vector3;
  /** three's form: keeps the side its normal points to, i.e. normal = -direction. */
  plane: Plane;
}

export function clipPlane(location: Vector3, direction: Vector3): ClipPlane {
  const dir = direction.clone().normalize();
  return { location: location.clone(), direction: dir, plane: new Plane().setFromNormalAndCoplanarPoint(dir.clone().negate(), location) };
}

/**
 * The clipping planes of a viewer and which one is selected. Owns nothing on the GPU:
 * the materials and the section caps read `planes` when they change (`version`).
 */
export class ClippingPlanes {
  planes: ClipPlane[] = [];
  selected = -1;
  /** Bumped on every change, so dependants know to rebuild. */
  version = 0;

  set(planes: ClipPlane[]) {
    this.planes = planes;
    this.selected = planes.length ? Math.min(Math.max(this.selected, 0), planes.length - 1) : -1;
    this.version++;
  }

  remove(index: number) {
    if (index < 0 || index >= this.planes.length) return;
    this.planes.splice(index, 1);
    this.selected = this.planes.length ? Math.min(index, this.planes.length - 1) : -1;
    this.version++;
  }

  /** Moves plane `index` (the widget): keeps location and direction in step with the plane. */
  update(index: number, location: Vector3, direction: Vector3) {
    this.planes[index] = clipPlane(location, direction);
    this.version++;
  }

  /** three's planes for materials. */
  threePlanes(): Plane[] {
    return this.planes.map((p) => p.plane);
  }

  /**
   * The plane a ray points at: the nearest crossing inside `box` that no other plane cuts
   * away. Used to select a plane with Shift+click.
   */
  planeAt(ray: Ray, box: Box3): number {
    let best = -1;
    let bestDistance = Infinity;
    const point = new Vector3();
    this.planes.forEach((p, i) => {
      if (!ray.intersectPlane(p.plane, point) || !box.containsPoint(point)) return;
      const visible = this.planes.every((other, j) => j === i || other.plane.distanceToPoint(point) >= -1e-6);
      const distance = point.distanceTo(ray.origin);
      if (visible && distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    });
    return best;
  }
}
