import { MathUtils, Vector3 } from 'three';
import type { CameraRig } from './camera-rig.js';
import type { Movement } from './navigation-map.js';

/** COMPAT.md's defaults: metres per second, and degrees per second for turning. */
export const DEFAULT_SPEEDS = { walkSpeed: 3, elevationSpeed: 1.5, rotationSpeed: 40 };

/**
 * Continuous camera movement (keyDown and navigate, the widget's keys and joystick):
 * each movement keyword has a strength from keys held (0 or 1) and from navigate
 * (a number, e.g. a joystick's deflection); while any is non-zero the camera moves by
 * speed x strength x time held. Time is the wall clock's: each frame moves by the time
 * since the last one, and a change of strengths first moves for the time the old ones
 * were held, so a key held for 0.8 s moves 0.8 s worth however slow the frames are
 * (a frame of a big model on software GL takes 300 ms and more).
 */
export class Movement3d {
  speeds = { ...DEFAULT_SPEEDS };
  private readonly keys = new Map<Movement, number>();
  private readonly analog = new Map<Movement, number>();
  private frame = 0;
  /** performance.now() when the current strengths were last applied. */
  private last = 0;

  constructor(
    private readonly rig: CameraRig,
    private readonly changed: () => void,
    /** A movement ended: all strengths are zero again. */
    private readonly stopped: () => void,
  ) {}

  get active() {
    return [...this.keys.values(), ...this.analog.values()].some((v) => v !== 0);
  }

  keyDown(movement: Movement, value: boolean | number) {
    this.update(() => this.keys.set(movement, strength(value)));
  }

  resetKeyDown() {
    this.update(() => this.keys.clear());
  }

  navigate(movement: Movement, value: number | boolean) {
    this.update(() => this.analog.set(movement, strength(value)));
  }

  stopNavigation() {
    this.update(() => this.analog.clear());
  }

  /** Moves as `seconds` of the current strengths would (also used by tests to step exactly). */
  step(seconds: number) {
    const s = (m: Movement) => (this.keys.get(m) ?? 0) + (this.analog.get(m) ?? 0);
    const forward = s('moveForward') - s('moveBackward');
    const right = s('moveRight') - s('moveLeft');
    const up = s('moveUp') - s('moveDown');
    const yaw = s('rotateLeft') - s('rotateRight');
    const pitch = s('rotateUp') - s('rotateDown');
    const camera = this.rig.camera;
    const turn = MathUtils.degToRad(this.speeds.rotationSpeed) * seconds;
    if (yaw || pitch) this.rig.orbit(camera.position.clone(), yaw * turn, pitch * turn);
    const direction = this.rig.direction();
    if (this.rig.mode === 'orthogonal' && forward) {
      // Forward in an orthogonal view shows less, as walking closer would.
      this.rig.zoomOrthographic(Math.pow(0.5, forward * seconds));
    }
    const level = new Vector3(direction.x, direction.y, 0);
    if (level.lengthSq() < 1e-8) level.set(0, 1, 0).applyQuaternion(camera.quaternion).setZ(0);
    level.normalize();
    const side = new Vector3(level.y, -level.x, 0);
    const move = new Vector3()
      .addScaledVector(this.rig.mode === 'perspective' ? level : new Vector3(), forward * this.speeds.walkSpeed * seconds)
      .addScaledVector(side, right * this.speeds.walkSpeed * seconds)
      .add(new Vector3(0, 0, up * this.speeds.elevationSpeed * seconds));
    if (move.lengthSq() > 0) this.rig.translate(move);
    this.changed();
  }

  dispose() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  /** Applies the old strengths up to now, changes them, and starts or stops the frames. */
  private update(change: () => void) {
    const wasActive = this.active;
    if (wasActive) this.catchUp();
    change();
    if (this.active && !wasActive) {
      this.last = performance.now();
      this.frame = requestAnimationFrame(this.tick);
    } else if (!this.active && wasActive) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.stopped();
    }
  }

  private catchUp() {
    const now = performance.now();
    const seconds = (now - this.last) / 1000;
    this.last = now;
    if (seconds > 0) this.step(seconds);
  }

  private readonly tick = () => {
    this.catchUp();
    this.frame = requestAnimationFrame(this.tick);
  };
}

const strength = (value: boolean | number) => (typeof value === 'number' ? value : value ? 1 : 0);
