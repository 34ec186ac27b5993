import { Vector3 } from 'three';
import type { CameraRig } from './camera-rig.js';
import { MODES, filtersHold, type Binding, type Movement, type NavigationMap } from './navigation-map.js';
import type { Movement3d } from './movement.js';

/** What navigation needs from the viewer: picking, and the actions that involve objects. */
export interface NavigationHost {
  /** The surface point under a canvas pixel (viewer coordinates), or null. */
  pickPoint(x: number, y: number): Vector3 | null;
  showOrbitPoint(point: Vector3 | null): void;
  /** The camera moved (redraw). */
  changed(): void;
  /** A gesture that moved the camera ended (viewer.viewpoint). */
  moved(): void;
  /** The point actions; each returns false when a listener cancelled it. */
  select(x: number, y: number, event: MouseEvent): boolean;
  lookAt(x: number, y: number, event: MouseEvent): boolean;
  contextMenu(x: number, y: number, event: MouseEvent): boolean;
  /** True when a widget under the pointer takes this gesture (the clipping widget's handles). */
  capturesPointer(): boolean;
}

const DRAG_THRESHOLD = 4;
const ROTATE_SPEED = 0.008;
const DOUBLE_TAP_MS = 350;
const BUTTON_DRAGS = ['leftdrag', 'middledrag', 'rightdrag'];

interface Gesture {
  button: number;
  touch: boolean;
  startX: number;
  startY: number;
  lastX: number;
  lastY: number;
  dragging: boolean;
  bindings: Binding[];
  pivot?: Vector3;
}

interface Modifiers {
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/**
 * Mouse, touch and keyboard input turned into camera and viewer actions by a navigation
 * map (navigation-map.ts): orbit about the picked point (the orbit sphere shows it), pan,
 * pivot (turn in place), zoom towards the cursor, select, look at, context menu; and
 * held keys into continuous movement. Touch acts only when enabled.
 */
export class Navigation {
  enableTouch = false;
  private map = MODES.orbit;
  private gesture: Gesture | null = null;
  private touches = new Map<number, { x: number; y: number }>();
  private pinch: { distance: number; x: number; y: number; pivot: Vector3; bindings: Binding[] } | null = null;
  private lastTap = { time: 0, x: 0, y: 0 };
  private wheelTimer = 0;
  /** A right drag just ended: the contextmenu that some systems send on release belongs to it. */
  private rightDragEnded = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly element: HTMLElement,
    private readonly rig: CameraRig,
    private readonly host: NavigationHost,
    private readonly movement: Movement3d,
  ) {
    const opts = { signal: this.abort.signal };
    element.addEventListener('pointerdown', (e) => this.down(e), opts);
    element.addEventListener('pointermove', (e) => this.move(e), opts);
    element.addEventListener('pointerup', (e) => this.up(e), opts);
    element.addEventListener('pointercancel', (e) => this.cancel(e), opts);
    element.addEventListener('wheel', (e) => this.wheel(e), { ...opts, passive: false });
    element.addEventListener('dblclick', (e) => this.point('mouse', 'dblclick', ...this.local(e), e), opts);
    element.addEventListener('contextmenu', (e) => this.contextMenu(e), opts);
    element.addEventListener('keydown', (e) => this.key(e, true), opts);
    element.addEventListener('keyup', (e) => this.key(e, false), opts);
    element.addEventListener('blur', () => this.movement.resetKeyDown(), opts);
  }

  /** A predefined mode or a custom map (already checked by parseNavigationMap). */
  setMap(map: Required<NavigationMap>) {
    this.map = map;
    this.gesture = null;
    this.pinch = null;
  }

  dispose() {
    this.abort.abort();
    window.clearTimeout(this.wheelTimer);
  }

  private local(e: MouseEvent): [number, number] {
    const rect = this.element.getBoundingClientRect();
    return [e.clientX - rect.left, e.clientY - rect.top];
  }

  private matching(device: 'mouse' | 'touch' | 'keyboard', event: string, modifiers: Modifiers, x?: number, y?: number): Binding[] {
    let onObject: boolean | undefined;
    // Modifier flags are prototype getters on DOM events: copy them by name.
    const { shiftKey, ctrlKey, altKey, metaKey } = modifiers;
    return this.map[device].filter((b) => b.event === event && filtersHold(b, {
      shiftKey,
      ctrlKey,
      altKey,
      metaKey,
      orthogonal: this.rig.mode === 'orthogonal',
      onObject: () => (onObject ??= x !== undefined && y !== undefined && this.host.pickPoint(x, y) !== null),
    }));
  }

  /** Runs the point actions of a click-like event in order, stopping at a cancelled one. */
  private point(device: 'mouse' | 'touch', event: string, x: number, y: number, e: MouseEvent) {
    for (const binding of this.matching(device, event, e, x, y)) {
      const done = binding.action === 'select' ? this.host.select(x, y, e)
        : binding.action === 'lookAt' ? this.host.lookAt(x, y, e)
        : binding.action === 'contextmenu' ? this.host.contextMenu(x, y, e)
        : this.motion(binding, 0, 0, x, y);
      if (done === false) return;
    }
  }

  /**
   * The browser's menu never shows. A right click runs the contextmenu event's actions: on
   * release where the system sends contextmenu on press (Linux, macOS), so a right drag only pans.
   */
  private contextMenu(e: MouseEvent) {
    e.preventDefault();
    if (this.gesture?.button === 2) return; // decided in up()
    if (this.rightDragEnded) {
      this.rightDragEnded = false;
      return;
    }
    this.point('mouse', 'contextmenu', ...this.local(e), e);
  }

  private down(e: PointerEvent) {
    if (e.pointerType === 'touch') {
      if (!this.enableTouch) return;
      this.touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      this.element.setPointerCapture?.(e.pointerId);
      if (this.touches.size === 2) this.startPinch(e);
      else if (this.touches.size === 1) this.gesture = this.newGesture(e, 0, true);
      return;
    }
    if (this.gesture || this.host.capturesPointer()) return;
    this.rightDragEnded = false;
    this.element.setPointerCapture?.(e.pointerId);
    this.gesture = this.newGesture(e, e.button, false);
  }

  private newGesture(e: PointerEvent, button: number, touch: boolean): Gesture {
    const [x, y] = this.local(e);
    return { button, touch, startX: x, startY: y, lastX: x, lastY: y, dragging: false, bindings: [] };
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
      g.bindings = g.touch ? this.matching('touch', 'drag', e, g.startX, g.startY) : this.matching('mouse', BUTTON_DRAGS[g.button] ?? '', e, g.startX, g.startY);
      if (g.bindings.length === 0) return;
      g.pivot = this.host.pickPoint(g.startX, g.startY) ?? this.rig.target.clone();
      if (g.bindings.some((b) => b.action === 'orbit')) this.host.showOrbitPoint(g.pivot);
    }
    const dx = x - g.lastX, dy = y - g.lastY;
    g.lastX = x;
    g.lastY = y;
    for (const binding of g.bindings) this.motion(binding, dx, dy, g.startX, g.startY, g.pivot);
    if (g.bindings.length) this.host.changed();
  }

  /** One step of a motion action for a pointer move of (dx, dy) pixels. */
  private motion(binding: Binding, dx: number, dy: number, x: number, y: number, pivot?: Vector3): boolean {
    const scale = binding.scale ?? 1;
    const around = pivot ?? this.rig.target;
    switch (binding.action) {
      case 'orbit':
        this.rig.orbit(around, -dx * ROTATE_SPEED * scale, -dy * ROTATE_SPEED * scale);
        break;
      case 'pivot':
        this.rig.orbit(this.rig.camera.position.clone(), dx * ROTATE_SPEED * scale * 0.5, dy * ROTATE_SPEED * scale * 0.5);
        break;
      case 'pan':
        this.pan(dx * scale, dy * scale, around);
        break;
      case 'zoom':
        this.zoomAt(x, y, (-dy / 40) * scale, pivot);
        break;
    }
    return true;
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
      if (g.bindings.length) this.host.moved();
    } else if (g.touch) {
      const now = performance.now();
      const double = now - this.lastTap.time < DOUBLE_TAP_MS && Math.hypot(g.startX - this.lastTap.x, g.startY - this.lastTap.y) < 20;
      this.lastTap = double ? { time: 0, x: 0, y: 0 } : { time: now, x: g.startX, y: g.startY };
      this.point('touch', double ? 'doubletap' : 'tap', g.startX, g.startY, e);
    } else if (g.button === 0) {
      this.point('mouse', 'click', g.startX, g.startY, e);
    } else if (g.button === 2) {
      this.point('mouse', 'contextmenu', g.startX, g.startY, e);
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
    const [x, y] = this.local(e);
    const bindings = this.matching('mouse', 'wheel', e, x, y);
    if (bindings.length === 0) return;
    e.preventDefault();
    const steps = Math.max(-5, Math.min(5, -e.deltaY / (e.deltaMode === 1 ? 3 : 100)));
    for (const binding of bindings) {
      if (binding.action === 'zoom') this.zoomAt(x, y, steps * (binding.scale ?? 1));
      else this.motion(binding, -e.deltaX / 4, -e.deltaY / 4, x, y);
    }
    this.host.changed();
    window.clearTimeout(this.wheelTimer);
    this.wheelTimer = window.setTimeout(() => this.host.moved(), 200);
  }

  /** Held keys of the keyboard map move the camera while they are down. */
  private key(e: KeyboardEvent, down: boolean) {
    const bindings = this.matching('keyboard', e.key.toLowerCase(), e);
    if (bindings.length === 0) return;
    e.preventDefault();
    for (const binding of bindings) this.movement.keyDown(binding.action as Movement, down ? binding.scale ?? 1 : 0);
  }

  /** Moves forward (`steps` > 0) or back towards the point under (x, y). */
  private zoomAt(x: number, y: number, steps: number, pivot?: Vector3) {
    const camera = this.rig.camera;
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
    const point = pivot ?? this.host.pickPoint(x, y) ?? this.rayPoint(x, y);
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

  private startPinch(e: PointerEvent) {
    if (this.gesture?.dragging) this.host.showOrbitPoint(null);
    this.gesture = null;
    const [a, b] = [...this.touches.values()];
    const rect = this.element.getBoundingClientRect();
    const x = (a.x + b.x) / 2 - rect.left, y = (a.y + b.y) / 2 - rect.top;
    const bindings = [...this.matching('touch', 'twofingerdrag', e, x, y), ...this.matching('touch', 'pinch', e, x, y)];
    this.pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y), x, y, pivot: this.host.pickPoint(x, y) ?? this.rayPoint(x, y), bindings };
  }

  private movePinch() {
    const pinch = this.pinch!;
    const [a, b] = [...this.touches.values()];
    const rect = this.element.getBoundingClientRect();
    const x = (a.x + b.x) / 2 - rect.left, y = (a.y + b.y) / 2 - rect.top;
    const distance = Math.hypot(a.x - b.x, a.y - b.y);
    const twoFinger = this.map.touch.filter((b) => b.event === 'twofingerdrag');
    for (const binding of pinch.bindings) {
      if (twoFinger.includes(binding)) this.motion(binding, x - pinch.x, y - pinch.y, x, y, pinch.pivot);
      else if (binding.action === 'zoom' && pinch.distance > 0 && distance > 0) {
        this.zoomAt(x, y, (Math.log(distance / pinch.distance) / Math.log(1 / 0.8)) * (binding.scale ?? 1), pinch.pivot);
      } else this.motion(binding, 0, (pinch.distance - distance), x, y, pinch.pivot);
    }
    pinch.x = x;
    pinch.y = y;
    pinch.distance = distance;
    this.host.changed();
  }
}
