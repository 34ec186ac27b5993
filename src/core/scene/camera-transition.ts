import { EASINGS, type Easing } from './easing.js';
import type { CameraRig, CameraState } from './camera-rig.js';

export interface TransitionSettings {
  /** Milliseconds; 0 jumps. */
  duration: number;
  /** A name of EASINGS, e.g. LinearNone or QuadraticInOut. */
  easing: string;
}

/**
 * Animated camera moves (lookAt, lookAtBoundingBox, viewpoint): the move is applied to
 * find where it ends, then played from the current view with the chosen easing. A new
 * move first completes the one under way.
 */
export class CameraTransition {
  settings: TransitionSettings = { duration: 0, easing: 'LinearNone' };
  private frame = 0;
  private finish: (() => void) | null = null;

  constructor(
    private readonly rig: CameraRig,
    private readonly redraw: () => void,
  ) {}

  /** Runs `move` on the rig, animated; resolves when the camera has arrived. */
  run(move: () => void): Promise<void> {
    this.stop();
    const from = this.rig.snapshot();
    move();
    const { duration, easing } = this.settings;
    if (!(duration > 0)) {
      this.redraw();
      return Promise.resolve();
    }
    const to = this.rig.snapshot();
    const ease: Easing = EASINGS[easing] ?? EASINGS.LinearNone;
    this.rig.interpolate(from, to, 0);
    const start = performance.now();
    return new Promise((resolve) => {
      this.finish = () => {
        this.rig.interpolate(from, to, 1);
        this.redraw();
        resolve();
      };
      const step = () => {
        const t = Math.min(1, (performance.now() - start) / duration);
        if (t >= 1) return this.stop();
        this.rig.interpolate(from, to, ease(t));
        this.redraw();
        this.frame = requestAnimationFrame(step);
      };
      this.frame = requestAnimationFrame(step);
    });
  }

  /** Ends a move under way at its destination. */
  stop() {
    cancelAnimationFrame(this.frame);
    const finish = this.finish;
    this.finish = null;
    finish?.();
  }
}

export function isEasing(name: unknown): name is string {
  return typeof name === 'string' && name in EASINGS;
}

export type { CameraState };
