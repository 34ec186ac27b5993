import { Color, Mesh, MeshBasicMaterial, SphereGeometry, type Vector3, type PerspectiveCamera, type OrthographicCamera } from 'three';

/** The sphere that marks the point the camera orbits about while the user drags. */
export class OrbitSphere {
  readonly mesh: Mesh<SphereGeometry, MeshBasicMaterial>;

  constructor(color: string) {
    this.mesh = new Mesh(new SphereGeometry(1, 24, 16), new MeshBasicMaterial({ color: new Color(color), transparent: true, opacity: 0.85, depthTest: false }));
    this.mesh.name = 'orbit-sphere';
    this.mesh.renderOrder = 10;
    this.mesh.visible = false;
  }

  setColor(color: string) {
    this.mesh.material.color.set(color);
  }

  show(point: Vector3 | null) {
    this.mesh.visible = point !== null;
    if (point) this.mesh.position.copy(point);
  }

  /** Keeps the sphere about 8 pixels across wherever it is. */
  scaleFor(camera: PerspectiveCamera | OrthographicCamera, metresPerPixel: (depth: number) => number) {
    if (!this.mesh.visible) return;
    const depth = this.mesh.position.distanceTo(camera.position);
    this.mesh.scale.setScalar(metresPerPixel(depth) * 8);
  }

  dispose() {
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
  }
}
