import { Matrix3, Ray, Vector2, Vector3, WebGLRenderTarget, Triangle, type Material, type Plane, type OrthographicCamera, type PerspectiveCamera, type Scene, type WebGLRenderer } from 'three';
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
 * Finds the object under a pixel with a GPU id buffer: the batches are drawn once into
 * a 1x1 target with object indices as colours, so the cost does not depend on the number
 * of objects or triangles. The exact point and normal then come from a ray test against
 * the triangles of that one object only.
 */
export class Picker {
  private readonly target = new WebGLRenderTarget(1, 1);
  private readonly pixel = new Uint8Array(4);

  constructor(
    private readonly renderer: WebGLRenderer,
    private readonly pickMaterial: Material,
  ) {}

  /** The object under pixel (x, y) and where it is hit; parts cut away by `clipping` planes do not count. */
  pick(scene: Scene, camera: PerspectiveCamera | OrthographicCamera, models: SceneModel[], x: number, y: number, width: number, height: number, clipping: Plane[] = []): PickHit | null {
    const index = this.objectAt(scene, camera, models, x, y, width, height);
    if (index < 0) return null;
    const model = models.find((m) => m.has(index));
    if (!model) return null;
    const ray = this.ray(camera, x, y, width, height);
    const hit = intersectObject(model, index, ray, clipping);
    return hit ? { index, model, ...hit } : null;
  }

  /** The ray through a pixel, in viewer coordinates. */
  ray(camera: PerspectiveCamera | OrthographicCamera, x: number, y: number, width: number, height: number): Ray {
    const ndc = new Vector2((x / width) * 2 - 1, -(y / height) * 2 + 1);
    const origin = new Vector3(ndc.x, ndc.y, -1).unproject(camera);
    const far = new Vector3(ndc.x, ndc.y, 1).unproject(camera);
    return new Ray(origin, far.sub(origin).normalize());
  }

  dispose() {
    this.target.dispose();
  }

  private objectAt(scene: Scene, camera: PerspectiveCamera | OrthographicCamera, models: SceneModel[], x: number, y: number, width: number, height: number): number {
    // Every batch is drawn once, through its opaque mesh, with the id material: glass too.
    const saved: [SceneModel['batches'][number], Material, boolean, boolean][] = [];
    for (const model of models) {
      for (const batch of model.batches) {
        saved.push([batch, batch.opaque.material as Material, batch.opaque.visible, batch.translucent.visible]);
        batch.opaque.material = this.pickMaterial;
        batch.opaque.visible = true;
        batch.translucent.visible = false;
      }
    }
    const hidden = scene.children.filter((child) => child.visible && !child.name.startsWith('model:'));
    hidden.forEach((child) => (child.visible = false));
    const previousTarget = this.renderer.getRenderTarget();
    const clearAlpha = this.renderer.getClearAlpha();
    const background = scene.background;
    scene.background = null;
    camera.setViewOffset(width, height, Math.floor(x), Math.floor(y), 1, 1);
    try {
      this.renderer.setRenderTarget(this.target);
      this.renderer.setClearColor(0x000000, 0);
      this.renderer.clear();
      this.renderer.render(scene, camera);
      this.renderer.readRenderTargetPixels(this.target, 0, 0, 1, 1, this.pixel);
    } finally {
      camera.clearViewOffset();
      this.renderer.setRenderTarget(previousTarget);
      this.renderer.setClearAlpha(clearAlpha);
      scene.background = background;
      hidden.forEach((child) => (child.visible = true));
      for (const [batch, material, opaqueVisible, translucentVisible] of saved) {
        batch.opaque.material = material;
        batch.opaque.visible = opaqueVisible;
        batch.translucent.visible = translucentVisible;
      }
    }
    const p = this.pixel;
    const id = p[0] + p[1] * 256 + p[2] * 65536 + p[3] * 16777216;
    return id - 1;
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
