import { Box3, MathUtils, OrthographicCamera, PerspectiveCamera, Quaternion, Vector3, type Camera } from 'three';
import type { ViewName, Viewpoint, ViewpointInput, Vec3 } from '../types.js';

const Z_UP = new Vector3(0, 0, 1);

/** Camera directions of the named views (COMPAT.md): where the camera looks, and its up. */
const VIEWS: Record<Exclude<ViewName, 'home'>, { direction: Vector3; up: Vector3 }> = {
  top: { direction: new Vector3(0, 0, -1), up: new Vector3(0, 1, 0) },
  bottom: { direction: new Vector3(0, 0, 1), up: new Vector3(0, -1, 0) },
  front: { direction: new Vector3(0, 1, 0), up: Z_UP },
  back: { direction: new Vector3(0, -1, 0), up: Z_UP },
  left: { direction: new Vector3(1, 0, 0), up: Z_UP },
  right: { direction: new Vector3(-1, 0, 0), up: Z_UP },
};
const HOME_DIRECTION = new Vector3(1, 1, -0.8).normalize();
/**
 * The farthest far plane, 1e15 m: beyond any real extent (a LAS of random 32-bit coordinates
 * spans 4e9 m, and must still show), and finite in a float32 projection (1e300 is not).
 */
const MAX_FAR = 1e15;

/**
 * The viewer's cameras: a perspective and an orthographic one kept in step, z up, in
 * viewer coordinates (IFC coordinates minus the viewer's origin). Converts to and from
 * the documented viewpoint shape, which is in IFC coordinates.
 */
export class CameraRig {
  readonly perspective = new PerspectiveCamera(60, 1, 0.05, 2000);
  readonly orthographic = new OrthographicCamera(-1, 1, 1, -1, 0.05, 2000);
  mode: 'perspective' | 'orthogonal' = 'perspective';
  /** The point the camera turns around and keeps its distance to (viewer coordinates). */
  readonly target = new Vector3();
  /** Height of the orthographic view in metres. */
  viewHeight = 20;
  private aspect = 1;

  constructor() {
    for (const camera of [this.perspective, this.orthographic]) {
      camera.up.copy(Z_UP);
      camera.position.set(-20, -20, 20);
      camera.lookAt(0, 0, 0);
    }
  }

  get camera(): PerspectiveCamera | OrthographicCamera {
    return this.mode === 'perspective' ? this.perspective : this.orthographic;
  }

  get fov() {
    return this.perspective.fov;
  }

  set fov(degrees: number) {
    this.perspective.fov = degrees;
    this.perspective.updateProjectionMatrix();
  }

  setAspect(width: number, height: number) {
    this.aspect = width / Math.max(1, height);
    this.updateProjection();
  }

  /** Near and far planes set by the page; the viewer chooses them while these are unset. */
  private fixedNear?: number;
  private fixedFar?: number;

  /** Keeps the far plane beyond the scene (at least 2 km, COMPAT.md) unless the page set one. */
  setSceneRadius(radius: number) {
    // A box of NaN or 1e300 coordinates (bad files) must not make the projection NaN or infinite in float32.
    if (!Number.isFinite(radius)) return;
    this.sceneFar = Math.min(MAX_FAR, Math.max(2000, radius * 6));
    this.applyClipRange();
  }

  setClipRange(near?: number, far?: number) {
    if (near !== undefined) this.fixedNear = near;
    if (far !== undefined) this.fixedFar = far;
    this.applyClipRange();
  }

  private sceneFar = 2000;

  private applyClipRange() {
    for (const camera of [this.perspective, this.orthographic]) {
      camera.near = this.fixedNear ?? 0.05;
      camera.far = this.fixedFar ?? this.sceneFar;
    }
    this.updateProjection();
  }

  direction(out = new Vector3()): Vector3 {
    return this.camera.getWorldDirection(out);
  }

  /** The documented viewpoint, in IFC coordinates (viewer coordinates + origin). */
  viewpoint(origin: Vector3): Viewpoint {
    const camera = this.camera;
    const location = vec(camera.position.clone().add(origin));
    const direction = vec(this.direction());
    const up = vec(new Vector3(0, 1, 0).applyQuaternion(camera.quaternion));
    return this.mode === 'perspective'
      ? { type: 'perspective', location, direction, up, fov: this.perspective.fov }
      : { type: 'orthogonal', location, direction, up, viewToWorldScale: this.viewHeight };
  }

  /** Sets a whole or partial viewpoint (IFC coordinates); missing parts keep their value. */
  setViewpoint(input: Exclude<ViewpointInput, string>, origin: Vector3) {
    const current = this.camera;
    const position = input.location ? toVector(input.location).sub(origin) : current.position.clone();
    const direction = input.direction ? toVector(input.direction).normalize() : this.direction();
    const up = input.up ? toVector(input.up) : current.up.clone();
    if (input.type) this.mode = input.type;
    if (input.fov !== undefined) this.perspective.fov = input.fov;
    if (input.viewToWorldScale !== undefined) this.viewHeight = input.viewToWorldScale;
    const distance = Math.max(1, this.target.distanceTo(current.position));
    this.place(position, direction, up, distance);
  }

  /** Frames `box` (viewer coordinates) snugly, looking along a named or the current direction. */
  fit(box: Box3, view?: ViewName) {
    if (box.isEmpty() || ![box.min, box.max].every((p) => Number.isFinite(p.x) && Number.isFinite(p.y) && Number.isFinite(p.z))) return;
    const preset = view && view !== 'home' ? VIEWS[view] : undefined;
    const direction = preset ? preset.direction.clone() : view === 'home' ? HOME_DIRECTION.clone() : this.direction();
    const up = preset ? preset.up.clone() : Z_UP.clone();
    const right = direction.clone().cross(Math.abs(up.dot(direction)) > 0.999 ? new Vector3(0, 1, 0) : up).normalize();
    const screenUp = right.clone().cross(direction).normalize();
    const center = box.getCenter(new Vector3());
    const halfY = Math.tan(MathUtils.degToRad(this.perspective.fov) / 2);
    const halfX = halfY * this.aspect;
    let distance = 0.5, extentX = 0.25, extentY = 0.25;
    for (let i = 0; i < 8; i++) {
      const corner = new Vector3(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z).sub(center);
      const along = corner.dot(direction), x = Math.abs(corner.dot(right)), y = Math.abs(corner.dot(screenUp));
      // The camera sits `distance` before the centre: each corner must fall inside the frustum.
      distance = Math.max(distance, x / halfX - along, y / halfY - along);
      extentX = Math.max(extentX, x);
      extentY = Math.max(extentY, y);
    }
    distance *= 1.08;
    this.viewHeight = Math.max(2 * extentY, (2 * extentX) / this.aspect) * 1.08;
    this.place(center.clone().addScaledVector(direction, -distance), direction, up, distance);
  }

  /** Positions both cameras; `distance` along the view direction sets the orbit target. */
  place(position: Vector3, direction: Vector3, up: Vector3, distance: number) {
    const dir = direction.clone().normalize();
    const safeUp = Math.abs(up.clone().normalize().dot(dir)) > 0.999 ? (Math.abs(dir.z) > 0.9 ? new Vector3(0, 1, 0) : Z_UP.clone()) : up.clone();
    for (const camera of [this.perspective, this.orthographic]) {
      camera.position.copy(position);
      camera.up.copy(safeUp);
      camera.lookAt(position.clone().add(dir));
      camera.up.copy(Z_UP); // orbiting turns about z from here on
      camera.updateMatrixWorld();
    }
    this.target.copy(position).addScaledVector(dir, distance);
    this.updateProjection();
  }

  /** Turns the camera about `pivot`: yaw about z, pitch about the camera's right axis. */
  orbit(pivot: Vector3, yaw: number, pitch: number) {
    const camera = this.camera;
    const turn = new Quaternion().setFromAxisAngle(Z_UP, yaw);
    const right = new Vector3(1, 0, 0).applyQuaternion(camera.quaternion);
    const tilt = new Quaternion().setFromAxisAngle(right, pitch);
    const forward = this.direction().applyQuaternion(tilt);
    const rotation = Math.abs(forward.z) > 0.995 ? turn : turn.multiply(tilt);
    this.transform(rotation, pivot);
  }

  /** Moves the camera within its view plane by a world-space offset. */
  translate(offset: Vector3) {
    for (const camera of [this.perspective, this.orthographic]) {
      camera.position.add(offset);
      camera.updateMatrixWorld();
    }
    this.target.add(offset);
  }

  /** Metres per pixel at `depth` in front of the camera, for a canvas `height` pixels high. */
  metresPerPixel(depth: number, height: number) {
    if (this.mode === 'orthogonal') return this.viewHeight / height;
    return (2 * depth * Math.tan(MathUtils.degToRad(this.perspective.fov) / 2)) / height;
  }

  zoomOrthographic(factor: number) {
    this.viewHeight = Math.min(1e6, Math.max(0.01, this.viewHeight * factor));
    this.updateProjection();
  }

  updateProjection() {
    this.perspective.aspect = this.aspect;
    this.perspective.updateProjectionMatrix();
    const h = this.viewHeight / 2;
    const o = this.orthographic;
    o.left = -h * this.aspect;
    o.right = h * this.aspect;
    o.top = h;
    o.bottom = -h;
    o.updateProjectionMatrix();
  }

  snapshot(): CameraState {
    const camera = this.camera;
    return { mode: this.mode, position: camera.position.clone(), quaternion: camera.quaternion.clone(), target: this.target.clone(), viewHeight: this.viewHeight, fov: this.perspective.fov };
  }

  /** Sets the state `t` (0..1) of the way from `a` to `b`. */
  interpolate(a: CameraState, b: CameraState, t: number) {
    this.mode = b.mode;
    for (const camera of [this.perspective, this.orthographic]) {
      camera.position.lerpVectors(a.position, b.position, t);
      camera.quaternion.slerpQuaternions(a.quaternion, b.quaternion, t);
      camera.updateMatrixWorld();
    }
    this.target.lerpVectors(a.target, b.target, t);
    this.viewHeight = a.viewHeight * Math.pow(b.viewHeight / a.viewHeight, t);
    this.perspective.fov = a.fov + (b.fov - a.fov) * t;
    this.updateProjection();
  }

  private transform(rotation: Quaternion, pivot: Vector3) {
    for (const camera of [this.perspective, this.orthographic] as Camera[]) {
      camera.position.sub(pivot).applyQuaternion(rotation).add(pivot);
      camera.quaternion.premultiply(rotation);
      camera.updateMatrixWorld();
    }
    this.target.sub(pivot).applyQuaternion(rotation).add(pivot);
  }
}

/** Everything that makes a camera view, for transitions. */
export interface CameraState {
  mode: 'perspective' | 'orthogonal';
  position: Vector3;
  quaternion: Quaternion;
  target: Vector3;
  viewHeight: number;
  fov: number;
}

export function toVector(v: Vec3): Vector3 {
  return new Vector3(v.x, v.y, v.z);
}

export function vec(v: Vector3): Vec3 {
  return { x: v.x, y: v.y, z: v.z };
}
