import { Vector3 } from 'three';
import type { CameraRig } from './camera-rig.js';

/** What navigation needs from the viewer: picking, and being told what happened. */
export interface NavigationHost {
  /** The surface point under a canvas pixel (viewer coordinates), or null. */
  pickPoint(x: number, y: number): Vector3 | null;
  showOrbitPoint(point: Vector3 | null): void;
  /** The camera moved (redraw). */
  changed(): void;
  /** A gesture that moved the camera ended (viewer.viewpoint). */
  moved(): void;
  click(x: number, y: number, event: MouseEvent): void;
  doubleClick(x: number, y: number, event: MouseEvent): void;
  contextMenu(x: number, y: number, event: MouseEvent): void;
  /** Fallback orbit point when nothing is under the cursor. */
  sceneCenter(): Vector3;
  /** True when a widget under the pointer takes this gesture (the clipping widget's handles). */
  capturesPointer(): boolean;
}

const DRAG_THRESHOLD = 4;
const ROTATE_SPEED = 0.008;

interface Gesture {
  button: number;
  startX: number;
  startY: number;
  lastX: number;
  lastY: number;
  dragging: boolean;
  pivot?: Vector3;
}

/**
 * Mouse and touch navigation (COMPAT.md): left drag orbits about the picked point (the
 * orbit sphere shows it), right or middle drag pans, the wheel moves towards the point
 * under the cursor, click, double click and context menu are handed to the viewer.
 * With touch enabled: one finger orbits, two fingers pan and pinch.
 */
export class Navigation {
  enableTouch = false;
  private gesture: Gesture | null = null;
  /** A right drag just ended: the contextmenu that some systems send on release belongs to it. */
  private rightDragEnded = false;
  private touches = new Map<number, { x: number; y: number }>();
  private pinch: { distance: number; x: number; y: number; pivot: Vector3 } | null = null;
  private wheelTimer = 0;
  private readonly abort = new AbortController();

  constructor(
    private readonly element: HTMLElement,
    private readonly rig: CameraRig,
    private readonly host: NavigationHost,
  ) {
    const opts = { signal: this.abort.signal };
    element.addEventListener('pointerdown', (e) => this.down(e), opts);
    element.addEventListener('pointermove', (e) => this.move(e), opts);
    element.addEventListener('pointerup', (e) => this.up(e), opts);
    element.addEventListener('pointercancel', (e) => this.cancel(e), opts);
    element.addEventListener('wheel', (e) => this.wheel(e), { ...opts, passive: false });
    element.addEventListener('dblclick', (e) => this.host.doubleClick(...this.local(e), e), opts);
    element.addEventListener('contextmenu', (e) => this.contextMenu(e), opts);
  }

  dispose() {
    this.abort.abort();
    window.clearTimeout(this.wheelTimer);
  }

  /**
   * The browser's menu never shows. A right click opens the viewer's: on release where
   * the system sends contextmenu on press (Linux, macOS), so a right drag only pans.
   */
  private contextMenu(e: MouseEvent) {
    e.preventDefault();
    if (this.gesture?.button === 2) return; // decided in up()
    if (this.rightDragEnded) {
      this.rightDragEnded = false;
      return;
    }
    this.host.contextMenu(...this.local(e), e);
  }

  private local(e: MouseEvent): [number, number] {
    const rect = this.element.getBoundingClientRect();
    return [e.clientX - rect.left, e.clientY - rect.top];
  }

  private down(e: PointerEvent) {
    if (e.pointerType === 'touch') {
      if (!this.enableTouch) return;
      this.touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      this.element.setPointerCapture?.(e.pointerId);
      if (this.touches.size === 2) this.startPinch();
      else if (this.touches.size === 1) this.gesture = this.newGesture(e, 0);
      return;
    }
    if (this.gesture || this.host.capturesPointer()) return;
    this.rightDragEnded = false;
    this.element.setPointerCapture?.(e.pointerId);
    this.gesture = this.newGesture(e, e.button);
  }

  private newGesture(e: PointerEvent, button: number): Gesture {
    const [x, y] = this.local(e);
    return { button, startX: x, startY: y, lastX: x, lastY: y, dragging: false };
  }

  private move(e: PointerEvent) {
    if (e.pointerType === 'touch') {
      if (!this.touches.has(e.pointerId)) return;
      this.touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pinch) return this.movePinch();
    }
    const g = this.gesture;
    if (!g) return;
    const [x, y] = this.local(e);
    if (!g.dragging) {
      if (Math.hypot(x - g.startX, y - g.startY) < DRAG_THRESHOLD) return;
      g.dragging = true;
      g.pivot = this.host.pickPoint(g.startX, g.startY) ?? this.rig.target.clone();
      if (g.button === 0) this.host.showOrbitPoint(g.pivot);
    }
    const dx = x - g.lastX, dy = y - g.lastY;
    g.lastX = x;
    g.lastY = y;
    if (g.button === 0) this.rig.orbit(g.pivot!, -dx * ROTATE_SPEED, -dy * ROTATE_SPEED);
    else this.pan(dx, dy, g.pivot!);
    this.host.changed();
  }

  private up(e: PointerEvent) {
    if (e.pointerType === 'touch') {
      this.touches.delete(e.pointerId);
      if (this.pinch) {
        this.pinch = null;
        this.host.moved();
        this.gesture = null;
        return;
      }
    }
    const g = this.gesture;
    if (!g) return;
    this.gesture = null;
    this.element.releasePointerCapture?.(e.pointerId);
    this.rightDragEnded = g.button === 2 && g.dragging;
    if (g.dragging) {
      this.host.showOrbitPoint(null);
      this.host.moved();
    } else if (g.button === 0) {
      this.host.click(g.startX, g.startY, e);
    } else if (g.button === 2) {
      this.host.contextMenu(g.startX, g.startY, e);
      this.rightDragEnded = true; // swallow a contextmenu that follows the release
    }
  }

  private cancel(e: PointerEvent) {
    this.touches.delete(e.pointerId);
    this.pinch = null;
    if (this.gesture?.dragging) this.host.moved();
    this.gesture = null;
    this.host.showOrbitPoint(null);
  }

  /** Moves the camera so the point at the pivot's depth follows the cursor. */
  private pan(dx: number, dy: number, pivot: Vector3) {
    const camera = this.rig.camera;
    const depth = Math.max(0.1, pivot.clone().sub(camera.position).dot(this.rig.direction()));
    const scale = this.rig.metresPerPixel(depth, this.element.clientHeight || 1);
    const right = new Vector3(1, 0, 0).applyQuaternion(camera.quaternion);
    const up = new Vector3(0, 1, 0).applyQuaternion(camera.quaternion);
    this.rig.translate(right.multiplyScalar(-dx * scale).add(up.multiplyScalar(dy * scale)));
  }

  private wheel(e: WheelEvent) {
    e.preventDefault();
    const [x, y] = this.local(e);
    const steps = Math.max(-5, Math.min(5, -e.deltaY / (e.deltaMode === 1 ? 3 : 100)));
    this.zoomAt(x, y, steps);
    this.host.changed();
    window.clearTimeout(this.wheelTimer);
    this.wheelTimer = window.setTimeout(() => this.host.moved(), 200);
  }

  /** Moves forward (`steps` > 0) or back towards the point under (x, y). */
  private zoomAt(x: number, y: number, steps: number, pivot?: Vector3) {
    const camera = this.rig.camera;
    const point = pivot ?? this.host.pickPoint(x, y) ?? this.rayPoint(x, y);
    if (this.rig.mode === 'orthogonal') {
      const before = this.rig.metresPerPixel(1, this.element.clientHeight || 1);
      this.rig.zoomOrthographic(Math.pow(0.85, steps));
      const after = this.rig.metresPerPixel(1, this.element.clientHeight || 1);
      const w = this.element.clientWidth || 1, h = this.element.clientHeight || 1;
      const right = new Vector3(1, 0, 0).applyQuaternion(camera.quaternion);
      const up = new Vector3(0, 1, 0).applyQuaternion(camera.quaternion);
      const ox = x - w / 2, oy = h / 2 - y;
      this.rig.translate(right.multiplyScalar(ox * (before - after)).add(up.multiplyScalar(oy * (before - after))));
      return;
    }
    const toPoint = point.clone().sub(camera.position);
    const distance = toPoint.length();
    const move = steps > 0 ? distance * (1 - Math.pow(0.8, steps)) : -Math.max(distance, 1) * (Math.pow(1.25, -steps) - 1);
    this.rig.translate(toPoint.normalize().multiplyScalar(move));
  }

  /** A point along the ray under the cursor, at the orbit target's distance. */
  private rayPoint(x: number, y: number): Vector3 {
    const camera = this.rig.camera;
    const w = this.element.clientWidth || 1, h = this.element.clientHeight || 1;
    const p = new Vector3((x / w) * 2 - 1, -(y / h) * 2 + 1, 0.5).unproject(camera);
    const distance = Math.max(1, this.rig.target.distanceTo(camera.position));
    return camera.position.clone().add(p.sub(camera.position).normalize().multiplyScalar(distance));
  }

  private startPinch() {
    if (this.gesture?.dragging) this.host.showOrbitPoint(null);
    this.gesture = null;
    const [a, b] = [...this.touches.values()];
    const rect = this.element.getBoundingClientRect();
    const x = (a.x + b.x) / 2 - rect.left, y = (a.y + b.y) / 2 - rect.top;
    this.pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y), x, y, pivot: this.host.pickPoint(x, y) ?? this.rayPoint(x, y) };
  }

  private movePinch() {
    const pinch = this.pinch!;
    const [a, b] = [...this.touches.values()];
    const rect = this.element.getBoundingClientRect();
    const x = (a.x + b.x) / 2 - rect.left, y = (a.y + b.y) / 2 - rect.top;
    const distance = Math.hypot(a.x - b.x, a.y - b.y);
    this.pan(x - pinch.x, y - pinch.y, pinch.pivot);
    if (pinch.distance > 0 && distance > 0) this.zoomAt(x, y, Math.log(distance / pinch.distance) / Math.log(1 / 0.8), pinch.pivot);
    pinch.x = x;
    pinch.y = y;
    pinch.distance = distance;
    this.host.changed();
  }
}
