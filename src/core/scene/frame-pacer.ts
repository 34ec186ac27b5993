import { GpuFence } from './gpu-fence.js';

/** The first frame of a streaming model comes this long after the stream starts: most models are complete by then. */
const FIRST_FRAME_MS = 2000;
/** At most this share of the time goes to drawing while a model streams... */
const SHARE = 0.2;
/** ...and frames are at least this far apart. */
const MIN_INTERVAL_MS = 500;

/**
 * Paces the frames that show a model growing while it streams. Each frame competes with
 * the workers for the machine (on a software-rendered GPU it is CPU work), so frames
 * come only after a while, and each one waits until the previous one has finished on the
 * GPU (a fence) and a few times its cost has passed: drawing stays a small share of the load.
 */
export class FramePacer {
  private next: number;
  private readonly fence = new GpuFence();

  /** `firstFrameMs`: how long after `now` the first frame may come (a scene's chunks are worth drawing at once). */
  constructor(private readonly gl: WebGL2RenderingContext, now = performance.now(), firstFrameMs = FIRST_FRAME_MS) {
    this.next = now + firstFrameMs;
  }

  /** Is it time for a frame? */
  due(now = performance.now()): boolean {
    return this.settle(now) && now >= this.next;
  }

  /** Has the last frame finished on the GPU (as seen `now`)? Then the next one is scheduled by its cost. */
  settle(now = performance.now()): boolean {
    if (!this.fence.pending) return true;
    if (!this.fence.passed()) return false;
    const cost = now - this.fence.placedAt;
    this.next = now + Math.max(MIN_INTERVAL_MS, cost * (1 / SHARE - 1));
    return true;
  }

  /** Call right after drawing a frame. */
  drawn(now = performance.now()) {
    this.fence.place(this.gl, now);
  }

  dispose() {
    this.fence.clear();
  }
}
