import { Box3, type Material, type Matrix4, type MeshBasicMaterial, type OrthographicCamera, type PerspectiveCamera, type Ray, type Scene, type ShaderMaterial, type WebGLRenderer } from 'three';
import { ClippingPlanes, type ClipPlane } from './clipping-planes.js';
import { ClippingWidget, type WidgetViewport } from './clipping-widget.js';
import { SectionCaps } from './section-caps.js';
import type { Batch } from './scene-model.js';

/** What section planes need of the viewer they cut. */
export interface SectionedView {
  /** The materials the planes clip. */
  materials(): Material[];
  /** The batches of the models shown, with their placements (for the caps). */
  batches(): { batch: Batch; matrix: Matrix4 }[];
  /** The scene's box, viewer coordinates. */
  box(): Box3;
  /** After every change of the planes: set, moved with the widget, removed with Delete. */
  changed(): void;
  requestRender(): void;
}

/**
 * Section planes as one feature: up to six clipping planes (viewer coordinates), the solid
 * caps where they cut, the widget that moves the selected one, and the keys and clicks
 * that pick, turn and remove planes (Shift+click selects, R switches the widget between
 * moving and turning, Delete removes).
 */
export class Sectioning {
  readonly planes = new ClippingPlanes();
  readonly widget: ClippingWidget;
  /** The widget shows on the selected plane only when enabled (enableClippingPlaneWidget). */
  widgetEnabled = false;
  private readonly caps: SectionCaps;

  constructor(
    scene: Scene,
    canvas: HTMLCanvasElement,
    container: HTMLElement,
    camera: () => PerspectiveCamera | OrthographicCamera,
    /** A fresh stencil-pass batch material, and the depth mode for cap materials (SectionCaps). */
    stencilMaterial: () => ShaderMaterial,
    prepare: <M extends MeshBasicMaterial>(material: M) => M,
    private readonly view: SectionedView,
  ) {
    this.caps = new SectionCaps(stencilMaterial, prepare);
    scene.add(this.caps.group);
    this.widget = new ClippingWidget(scene, canvas, container, camera, () => view.requestRender());
    this.widget.onChange = (location, direction) => {
      this.planes.update(this.planes.selected, location, direction);
      this.changed(false);
    };
    canvas.addEventListener('keydown', (e) => this.onKeyDown(e));
  }

  set(planes: ClipPlane[]) {
    this.planes.set(planes);
    this.changed();
  }

  /** Selects the plane a ray (Shift+click) passes nearest to; false when it passes none. */
  selectAt(ray: Ray): boolean {
    if (this.planes.planes.length === 0) return false;
    const index = this.planes.planeAt(ray, this.view.box().expandByScalar(1));
    if (index < 0) return false;
    this.planes.selected = index;
    this.refreshWidget();
    this.view.requestRender();
    return true;
  }

  setViewport(viewport: WidgetViewport) {
    this.widget.setViewport(viewport);
    this.refreshWidget();
    this.view.requestRender();
  }

  /** The widget on the selected plane, when enabled and a plane exists. */
  refreshWidget() {
    const plane = this.widgetEnabled ? this.planes.planes[this.planes.selected] ?? null : null;
    this.widget.show(plane, this.view.box());
  }

  /** The caps again: models shown, hidden, moved, loaded or gone. */
  updateCaps() {
    const cutting = this.planes.planes.length > 0;
    this.caps.update(this.planes.planes, cutting ? this.view.batches() : [], cutting ? this.view.box() : new Box3());
  }

  render(renderer: WebGLRenderer) {
    this.widget.render(renderer);
  }

  dispose() {
    this.caps.dispose();
    this.widget.dispose();
  }

  private changed(moveWidget = true) {
    const planes = this.planes.threePlanes();
    for (const material of this.view.materials()) material.clippingPlanes = planes;
    this.updateCaps();
    if (moveWidget) this.refreshWidget();
    this.view.requestRender();
    this.view.changed();
  }

  private onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Delete' && this.planes.selected >= 0) {
      event.preventDefault();
      this.planes.remove(this.planes.selected);
      this.changed();
    } else if ((event.key === 'r' || event.key === 'R') && this.widgetEnabled && this.planes.selected >= 0) {
      this.widget.toggleMode();
    }
  }
}
