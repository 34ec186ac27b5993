import type { BimViewer3d } from '../bim-viewer-3d.js';
import type { Vec3, Viewpoint } from '../../core/types.js';

/**
 * The on-screen joystick (seed 002 `enableJoystick`, `joystick*` options). Dragging the
 * knob (mouse, pen or finger: pointer events) flies the camera: in a perspective view up
 * and down move forward and back and sideways turns; in an orthogonal view the camera
 * orbits about the middle of the models. Turning speed is divided by
 * `joystickRotationClamp`.
 */

export type JoystickPlace = 'middle-left' | 'bottom-left' | 'bottom-center' | 'bottom-right' | 'middle-right';
export const JOYSTICK_PLACES: readonly JoystickPlace[] = ['middle-left', 'bottom-left', 'bottom-center', 'bottom-right', 'middle-right'];

export interface JoystickOptions {
  color: string;
  place: JoystickPlace;
  rotationClamp: number;
  borderOffset: string;
  size: number;
}

/** Degrees per second an orthogonal view orbits at full deflection (before the clamp). */
const ORBIT_SPEED = 40;

export class Joystick {
  readonly root: HTMLDivElement;
  private readonly knob: HTMLDivElement;
  private options: JoystickOptions;
  private pointer?: number;
  private deflection = { x: 0, y: 0 };
  private mode: 'perspective' | 'orthogonal' = 'perspective';
  private frame = 0;
  private last = 0;
  private pivot?: Vec3;

  constructor(private readonly viewer: () => BimViewer3d | undefined, options: JoystickOptions) {
    this.options = options;
    this.root = document.createElement('div');
    this.root.className = 'joystick';
    this.root.setAttribute('part', 'joystick');
    this.root.setAttribute('role', 'slider');
    this.root.setAttribute('aria-label', 'joystick');
    this.knob = document.createElement('div');
    this.knob.className = 'knob';
    this.root.appendChild(this.knob);
    this.root.addEventListener('pointerdown', (e) => this.start(e));
    this.root.addEventListener('pointermove', (e) => this.move(e));
    this.root.addEventListener('pointerup', (e) => this.end(e));
    this.root.addEventListener('pointercancel', (e) => this.end(e));
    this.root.addEventListener('lostpointercapture', (e) => this.end(e));
    this.root.addEventListener('contextmenu', (e) => e.preventDefault());
    this.apply();
  }

  update(options: Partial<JoystickOptions>) {
    this.options = { ...this.options, ...options };
    this.apply();
  }

  setVisible(visible: boolean) {
    this.root.hidden = !visible;
    if (!visible) this.stop();
  }

  private apply() {
    const { color, place, borderOffset, size } = this.options;
    const s = this.root.style;
    s.width = s.height = `${size}px`;
    s.borderColor = color;
    this.knob.style.background = color;
    this.knob.style.width = this.knob.style.height = `${Math.round(size * 0.4)}px`;
    s.left = s.right = s.top = s.bottom = s.transform = '';
    const [row, column] = place.split('-');
    if (row === 'bottom') s.bottom = borderOffset;
    else { s.top = '50%'; s.transform = 'translateY(-50%)'; }
    if (column === 'left') s.left = borderOffset;
    else if (column === 'right') s.right = borderOffset;
    else { s.left = '50%'; s.transform = 'translateX(-50%)'; }
    this.root.dataset.position = place;
    this.placeKnob();
  }

  private placeKnob() {
    const r = this.options.size / 2;
    this.knob.style.transform = `translate(-50%, -50%) translate(${this.deflection.x * r}px, ${this.deflection.y * r}px)`;
  }

  private start(e: PointerEvent) {
    if (this.pointer !== undefined) return;
    e.preventDefault();
    this.pointer = e.pointerId;
    try { this.root.setPointerCapture(e.pointerId); } catch { /* synthetic pointers */ }
    const viewer = this.viewer();
    this.mode = 'perspective';
    this.pivot = undefined;
    if (viewer) {
      void viewer.viewpoint().then((vp) => { this.mode = vp.type; }).catch(() => undefined);
      void viewer.boundingBox(null).then((box) => {
        if (box) this.pivot = { x: (box.min.x + box.max.x) / 2, y: (box.min.y + box.max.y) / 2, z: (box.min.z + box.max.z) / 2 };
      }).catch(() => undefined);
    }
    this.move(e);
  }

  private move(e: PointerEvent) {
    if (e.pointerId !== this.pointer) return;
    const box = this.root.getBoundingClientRect();
    const r = box.width / 2 || 1;
    let x = (e.clientX - (box.left + r)) / r;
    let y = (e.clientY - (box.top + r)) / r;
    const length = Math.hypot(x, y);
    if (length > 1) { x /= length; y /= length; }
    this.deflection = { x, y };
    this.placeKnob();
    this.drive();
  }

  private end(e: PointerEvent) {
    if (e.pointerId !== this.pointer) return;
    this.stop();
  }

  private stop() {
    const wasActive = this.pointer !== undefined;
    this.pointer = undefined;
    this.deflection = { x: 0, y: 0 };
    this.placeKnob();
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (wasActive) void this.viewer()?.stopNavigation().catch(() => undefined);
  }

  /** Applies the deflection: continuous movement (perspective) or an orbit loop (orthogonal). */
  private drive() {
    const viewer = this.viewer();
    if (!viewer) return;
    const clamp = this.options.rotationClamp > 0 ? this.options.rotationClamp : 1;
    const { x, y } = this.deflection;
    if (this.mode === 'perspective') {
      void viewer.navigate('moveForward', Math.max(0, -y)).catch(() => undefined);
      void viewer.navigate('moveBackward', Math.max(0, y)).catch(() => undefined);
      void viewer.navigate('rotateLeft', Math.max(0, -x) / clamp).catch(() => undefined);
      void viewer.navigate('rotateRight', Math.max(0, x) / clamp).catch(() => undefined);
    }
    if (!this.frame) {
      this.last = performance.now();
      this.frame = requestAnimationFrame((t) => this.tick(t));
    }
  }

  private tick(now: number) {
    this.frame = 0;
    if (this.pointer === undefined) return;
    const seconds = (now - this.last) / 1000; // the wall clock's, however slow the frames
    this.last = now;
    if (this.mode === 'orthogonal') void this.orbit(seconds);
    else this.drive(); // a view that turned orthogonal meanwhile is picked up here
    // drive() may have asked for the next frame already: one loop, not two per frame
    if (!this.frame) this.frame = requestAnimationFrame((t) => this.tick(t));
  }

  /** Turns an orthogonal view about the pivot: sideways about the vertical, up/down about the view's right. */
  private async orbit(seconds: number) {
    const viewer = this.viewer();
    if (!viewer || !this.pivot) return;
    const clamp = this.options.rotationClamp > 0 ? this.options.rotationClamp : 1;
    const yaw = (-this.deflection.x * ORBIT_SPEED * seconds * Math.PI) / 180 / clamp;
    const pitch = (-this.deflection.y * ORBIT_SPEED * seconds * Math.PI) / 180 / clamp;
    const vp = (await viewer.viewpoint()) as Viewpoint;
    const p = this.pivot;
    const rotZ = (v: Vec3, a: number): Vec3 => ({ x: v.x * Math.cos(a) - v.y * Math.sin(a), y: v.x * Math.sin(a) + v.y * Math.cos(a), z: v.z });
    let offset = rotZ({ x: vp.location.x - p.x, y: vp.location.y - p.y, z: vp.location.z - p.z }, yaw);
    let direction = rotZ(vp.direction, yaw);
    // Pitch: rotate about the horizontal axis at right angles to the view.
    const right = normalise({ x: direction.y, y: -direction.x, z: 0 });
    if (right && Math.abs(direction.z) < 0.99) {
      offset = rotateAbout(offset, right, pitch);
      const next = rotateAbout(direction, right, pitch);
      if (Math.abs(next.z) < 0.99) direction = next; else offset = rotateAbout(offset, right, -pitch);
    }
    await viewer.viewpoint({
      type: vp.type,
      location: { x: p.x + offset.x, y: p.y + offset.y, z: p.z + offset.z },
      direction,
      up: { x: 0, y: 0, z: 1 },
    }).catch(() => undefined);
  }
}

function normalise(v: Vec3): Vec3 | undefined {
  const l = Math.hypot(v.x, v.y, v.z);
  return l > 1e-9 ? { x: v.x / l, y: v.y / l, z: v.z / l } : undefined;
}

/** Rodrigues' rotation of v about the unit axis k by angle a. */
function rotateAbout(v: Vec3, k: Vec3, a: number): Vec3 {
  const c = Math.cos(a);
  const s = Math.sin(a);
  const dot = k.x * v.x + k.y * v.y + k.z * v.z;
  const cross = { x: k.y * v.z - k.z * v.y, y: k.z * v.x - k.x * v.z, z: k.x * v.y - k.y * v.x };
  return {
    x: v.x * c + cross.x * s + k.x * dot * (1 - c),
    y: v.y * c + cross.y * s + k.y * dot * (1 - c),
    z: v.z * c + cross.z * s + k.z * dot * (1 - c),
  };
}
