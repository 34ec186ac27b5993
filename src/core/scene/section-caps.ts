import {
  AlwaysStencilFunc,
  BackSide,
  Color,
  DecrementWrapStencilOp,
  DoubleSide,
  FrontSide,
  Group,
  IncrementWrapStencilOp,
  Mesh,
  MeshBasicMaterial,
  NotEqualStencilFunc,
  PlaneGeometry,
  Quaternion,
  ReplaceStencilOp,
  Vector3,
  type Box3,
  type Matrix4,
  type ShaderMaterial,
} from 'three';
import type { Batch } from './scene-model.js';
import type { ClipPlane } from './clipping-planes.js';

const Z = new Vector3(0, 0, 1);

/**
 * Solid-looking cuts: for each clipping plane, the batches are counted into the stencil
 * buffer (back faces up, front faces down) with only that plane applied; where the count
 * is not zero the inside of a solid shows, and a cap drawn on the plane fills it. Caps
 * are clipped by the other planes. Runs before the model itself (render order).
 */
export class SectionCaps {
  readonly group = new Group();
  private readonly capMaterials: MeshBasicMaterial[] = [];
  private readonly stencilMaterials: ShaderMaterial[] = [];
  private readonly capGeometry = new PlaneGeometry(1, 1);

  constructor(
    /** A fresh stencil-pass batch material (sharing the viewer's state uniforms). */
    private readonly stencilMaterial: () => ShaderMaterial,
    /** Makes a new cap material follow the viewer's depth buffer mode. */
    private readonly prepare: <M extends MeshBasicMaterial>(material: M) => M = (m) => m,
    private readonly color = new Color('#8c8f94'),
  ) {
    this.group.name = 'section-caps';
  }

  /** Rebuilds the stencil meshes and caps for these planes and batches. */
  update(planes: ClipPlane[], batches: { batch: Batch; matrix: Matrix4 }[], box: Box3) {
    this.clear();
    if (planes.length === 0 || box.isEmpty()) return;
    const size = box.getSize(new Vector3()).length() * 2 + 1;
    const center = box.getCenter(new Vector3());
    planes.forEach((clip, i) => {
      const others = planes.filter((_, j) => j !== i).map((p) => p.plane);
      for (const [side, op] of [[BackSide, IncrementWrapStencilOp], [FrontSide, DecrementWrapStencilOp]] as const) {
        const material = this.stencilMaterial();
        material.side = side;
        material.clippingPlanes = [clip.plane];
        material.depthWrite = false;
        material.depthTest = false;
        material.colorWrite = false;
        material.stencilWrite = true;
        material.stencilFunc = AlwaysStencilFunc;
        material.stencilFail = op;
        material.stencilZFail = op;
        material.stencilZPass = op;
        this.stencilMaterials.push(material);
        for (const { batch, matrix } of batches) {
          const mesh = new Mesh(batch.geometry, material);
          mesh.matrixAutoUpdate = false;
          mesh.matrix.copy(matrix);
          mesh.renderOrder = i + 1;
          mesh.frustumCulled = false;
          this.group.add(mesh);
        }
      }
      const capMaterial = this.prepare(new MeshBasicMaterial({
        color: this.color,
        side: DoubleSide,
        clippingPlanes: others,
        stencilWrite: true,
        stencilRef: 0,
        stencilFunc: NotEqualStencilFunc,
        stencilFail: ReplaceStencilOp,
        stencilZFail: ReplaceStencilOp,
        stencilZPass: ReplaceStencilOp,
      }));
      this.capMaterials.push(capMaterial);
      const cap = new Mesh(this.capGeometry, capMaterial);
      cap.name = `section-cap-${i}`;
      // Centre the cap on the scene's projection onto the plane, facing along it.
      cap.position.copy(clip.plane.projectPoint(center, new Vector3()));
      cap.quaternion.copy(new Quaternion().setFromUnitVectors(Z, clip.direction));
      cap.scale.setScalar(size);
      cap.renderOrder = i + 1.1;
      cap.onAfterRender = (renderer) => renderer.clearStencil();
      this.group.add(cap);
    });
  }

  clear() {
    this.group.clear();
    this.stencilMaterials.forEach((m) => m.dispose());
    this.capMaterials.forEach((m) => m.dispose());
    this.stencilMaterials.length = 0;
    this.capMaterials.length = 0;
  }

  dispose() {
    this.clear();
    this.capGeometry.dispose();
  }
}
