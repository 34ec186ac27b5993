import { Matrix4, Vector3, type Camera } from 'three';
import type { SceneModel } from './scene-model.js';
import { RANGE_STRIDE } from '../ifc/protocol.js';
import { GpuFence } from './gpu-fence.js';

/** Objects smaller than this on screen (their box's diagonal, in CSS pixels) are left out while the camera moves. */
export const MOVING_MIN_PIXELS = 4;
/** How long the camera rests before the full frame is drawn. */
const REST_MS = 150;
/** How often the GPU's progress on a moving frame is looked at. */
const POLL_MS = 16;

const eye = new Vector3();
const inverse = new Matrix4();

/**
 * Leaves out objects too small to see while the camera moves, and draws them again once
 * it rests. A chunk's pieces come largest object first (GeometryBatcher), so what is
 * left out is the tail of its indices: a shorter draw range, nothing rebuilt. The tail
 * ends at the last piece that shows at least `minPixels` from where it is (its object's
 * box), so nothing that large is ever left out. On steel models most triangles are bolts
 * and plates of a few pixels (Mini_Project_Tekla: 68 % of its triangles are in objects
 * under 4 pixels with the whole model in view). Picking reads the page's own copy of the
 * triangles and the section caps draw the same ranges, so both stay exact.
 */
export class MovingDetail {
  private readonly last = new Matrix4();
  private readonly lastProjection = new Matrix4();
  private restTimer = 0;
  private moved = false;
  /** The last moving frame's fence, until the GPU has finished that frame. */
  private readonly fence = new GpuFence();

  constructor(
    /** Asks for a frame (the full one, once the camera rests). */
    private readonly requestRender: () => void,
  ) {}

  /**
   * Sets each batch's draw range for a frame from `camera`: everything at rest (or with
   * `minPixels` 0), only objects of at least `minPixels` while the camera has moved since
   * the last frame. `metresPerPixel` gives the size of a pixel at a depth.
   */
  update(camera: Camera, models: Iterable<SceneModel>, metresPerPixel: (depth: number) => number, minPixels = MOVING_MIN_PIXELS) {
    camera.updateMatrixWorld(); // three would only do it in render(), after the ranges are set
    const moved = !this.last.equals(camera.matrixWorld) || !this.lastProjection.equals(camera.projectionMatrix);
    this.last.copy(camera.matrixWorld);
    this.lastProjection.copy(camera.projectionMatrix);
    if (moved) this.stopWaiting();
    this.moved = moved;
    const skip = moved && minPixels > 0;
    for (const model of models) {
      // In the model's own coordinates: its boxes are there (transformModel moves the group).
      inverse.copy(model.matrix).invert();
      eye.setFromMatrixPosition(camera.matrixWorld).applyMatrix4(inverse);
      const scale = model.matrix.getMaxScaleOnAxis();
      for (const batch of model.batches) {
        const count = skip ? keptIndices(model, batch, (size, distance) => size * scale >= minPixels * metresPerPixel(distance * scale)) : Infinity;
        batch.geometry.setDrawRange(0, count);
      }
    }
  }

  /**
   * Once a moving frame is drawn: the full frame REST_MS after the GPU has finished it
   * (its fence), unless the camera moves again first. A frame's drawing ends on the GPU,
   * long after its calls return on software GL: counted from the calls, the rest ran out
   * while the frame was still being drawn, and big models got a full frame between every
   * two moving ones (office-20k's orbit frames took 0.6-1.2 s instead of 0.45).
   */
  drawn(gl: WebGL2RenderingContext) {
    if (!this.moved) return;
    this.stopWaiting();
    this.fence.place(gl);
    const waitForGpu = () => {
      if (!this.fence.passed()) {
        this.restTimer = window.setTimeout(waitForGpu, POLL_MS);
        return;
      }
      this.restTimer = window.setTimeout(() => this.requestRender(), REST_MS);
    };
    this.restTimer = window.setTimeout(waitForGpu, 0);
  }

  dispose() {
    this.stopWaiting();
  }

  private stopWaiting() {
    window.clearTimeout(this.restTimer);
    this.fence.clear();
  }
}

/** How many of a batch's indices to draw: up to the last piece `shows` (pieces come largest object first). */
function keptIndices(model: SceneModel, batch: SceneModel['batches'][number], shows: (size: number, distance: number) => boolean): number {
  const { sizes, ranges } = batch;
  let kept = sizes.length;
  while (kept > 0 && !shows(sizes[kept - 1], model.distanceTo(ranges[(kept - 1) * RANGE_STRIDE], eye))) kept--;
  return kept === sizes.length ? Infinity : ranges[kept * RANGE_STRIDE + 1];
}
