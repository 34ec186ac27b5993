import {
  BufferGeometry,
  Color,
  Float32BufferAttribute,
  Group,
  LineBasicMaterial,
  LineLoop,
  Object3D,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
  type Box3,
  type OrthographicCamera,
  type WebGLRenderer,
} from 'three';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import type { ClipPlane } from './clipping-planes.js';

const Z = new Vector3(0, 0, 1);

/** A screen rectangle in CSS pixels from the canvas' top left. */
export interface WidgetViewport {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The clipping plane widget: the selected plane's outline in the active border colour,
 * with three's TransformControls to move it along its normal (drag the arrow) or turn it
 * (press R to switch between moving and turning). Drawn in the main view, or, when a
 * viewport is set, in that rectangle of the canvas with a camera of its own.
 */
export class ClippingWidget {
  /** Changes of the plane by the user: location and direction in viewer coordinates. */
  onChange: (location: Vector3, direction: Vector3) => void = () => {};
  private readonly proxy = new Object3D();
  private readonly outline: LineLoop<BufferGeometry, LineBasicMaterial>;
  private readonly group = new Group();
  private readonly ownScene = new Scene();
  private readonly ownCamera = new PerspectiveCamera(50, 1, 0.01, 1e6);
  /** Made when first shown (three's gizmo is ~0.4 MB of geometry a page without planes never needs). */
  private controls: TransformControls | null = null;
  private overlay: HTMLDivElement | null = null;
  private viewport: WidgetViewport | null = null;
  private active = false;
  private size = 10;

  constructor(
    private readonly scene: Scene,
    private readonly canvas: HTMLCanvasElement,
    private readonly container: HTMLElement,
    private readonly mainCamera: () => PerspectiveCamera | OrthographicCamera,
    private readonly changed: () => void,
  ) {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new Float32BufferAttribute([-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0], 3));
    this.outline = new LineLoop(geometry, new LineBasicMaterial({ color: '#a7f555', depthTest: false }));
    this.outline.renderOrder = 20;
    this.group.name = 'clipping-widget';
    this.group.add(this.proxy, this.outline);
  }

  /** True while the pointer is on a handle or dragging one: navigation must not act then. */
  get capturesPointer(): boolean {
    return !!this.controls && this.active && (this.controls.dragging || this.controls.axis !== null);
  }

  setColor(color: string) {
    this.outline.material.color = new Color(color);
  }

  /** Shows the widget on `plane` (null hides it), sized to the scene box. */
  show(plane: ClipPlane | null, box: Box3) {
    this.active = plane !== null;
    if (!plane) {
      this.controls?.detach();
      this.group.removeFromParent();
      this.controls?.getHelper().removeFromParent();
      return;
    }
    this.controls ??= this.createControls();
    this.size = Math.max(1, box.isEmpty() ? 10 : box.getSize(new Vector3()).length());
    this.proxy.position.copy(plane.location);
    this.proxy.quaternion.setFromUnitVectors(Z, plane.direction);
    this.syncOutline();
    this.controls.attach(this.proxy);
    const target = this.viewport ? this.ownScene : this.scene;
    target.add(this.group, this.controls.getHelper());
  }

  /** Draws the widget into `viewport` of the canvas (null: in the main view). */
  setViewport(viewport: WidgetViewport | null) {
    this.viewport = viewport;
    this.controls?.dispose();
    this.controls?.getHelper().removeFromParent();
    this.controls = null; // made again, on the new element, when next shown
    this.overlay?.remove();
    this.overlay = null;
    if (viewport) {
      this.overlay = document.createElement('div');
      this.overlay.style.cssText = `position:absolute;left:${viewport.x}px;top:${viewport.y}px;width:${viewport.width}px;height:${viewport.height}px;touch-action:none`;
      this.overlay.className = 'clipping-widget-viewport';
      this.container.appendChild(this.overlay);
    }
  }

  toggleMode() {
    if (!this.controls) return;
    const rotate = this.controls.mode !== 'rotate';
    this.controls.setMode(rotate ? 'rotate' : 'translate');
    this.controls.showX = rotate;
    this.controls.showY = rotate;
    this.controls.showZ = !rotate;
    this.changed();
  }

  get mode() {
    return this.controls?.mode ?? 'translate';
  }

  /** Renders the widget's own viewport after the main view (nothing when drawn in the main view). */
  render(renderer: WebGLRenderer) {
    if (this.controls) this.controls.camera = this.viewport ? this.ownCamera : this.mainCamera();
    if (!this.viewport || !this.active) return;
    const main = this.mainCamera();
    const direction = main.getWorldDirection(new Vector3());
    this.ownCamera.aspect = this.viewport.width / Math.max(1, this.viewport.height);
    this.ownCamera.position.copy(this.proxy.position).addScaledVector(direction, -this.size * 1.2);
    this.ownCamera.up.copy(main.up);
    this.ownCamera.quaternion.copy(main.quaternion);
    this.ownCamera.updateProjectionMatrix();
    this.ownCamera.updateMatrixWorld();
    const height = this.canvas.clientHeight;
    const { x, y, width, height: h } = this.viewport;
    renderer.setScissorTest(true);
    renderer.setViewport(x, height - y - h, width, h);
    renderer.setScissor(x, height - y - h, width, h);
    renderer.clearDepth();
    renderer.render(this.ownScene, this.ownCamera);
    renderer.setScissorTest(false);
    renderer.setViewport(0, 0, this.canvas.clientWidth, height);
  }

  dispose() {
    this.controls?.dispose();
    this.overlay?.remove();
    this.outline.geometry.dispose();
    this.outline.material.dispose();
  }

  private createControls(): TransformControls {
    const controls = new TransformControls(this.viewport ? this.ownCamera : this.mainCamera(), this.overlay ?? this.canvas);
    controls.setSpace('local');
    controls.setMode('translate');
    controls.showX = false;
    controls.showY = false;
    controls.addEventListener('change', () => this.changed());
    controls.addEventListener('objectChange', () => {
      this.syncOutline();
      this.onChange(this.proxy.position.clone(), Z.clone().applyQuaternion(this.proxy.quaternion).normalize());
    });
    return controls;
  }

  private syncOutline() {
    this.outline.position.copy(this.proxy.position);
    this.outline.quaternion.copy(new Quaternion().copy(this.proxy.quaternion));
    this.outline.scale.setScalar(this.size);
  }
}
