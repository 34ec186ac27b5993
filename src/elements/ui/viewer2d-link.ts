import type { BimViewer3d } from '../bim-viewer-3d.js';
import type { BimViewer2d } from '../bim-viewer-2d.js';
import type { Viewpoint } from '../../core/types.js';
import type { Storey2d } from '../../core/viewer2d/types.js';

/**
 * Keeps a 2D viewer and the 3D viewer in step (seed 002 `enableViewer2dIntegration`,
 * `viewer2dId`, `set2dLockedNavigationMode`, `set2dLockStoreyMode`):
 *
 * - 3D -> 2D: the arrow follows the camera (position and horizontal direction); the
 *   storey shown follows the camera height (the highest storey at most 0.5 m above the
 *   eye), unless the storey is locked. Locked navigation keeps the arrow centred.
 * - 2D -> 3D: dragging the arrow moves and turns the camera; a click on the plan puts
 *   the camera there, at eye height (1.6 m) above the clicked storey.
 * - Selection is shared both ways (the 2D viewer selects only its spaces).
 *
 * The camera is sampled every 100 ms while linked (viewpoint() is cheap), so the arrow
 * follows every kind of movement: mouse, keyboard, joystick, API calls.
 */

const EYE_HEIGHT = 1.6;
/** Half the width of the plan shown around the arrow in locked navigation, metres. */
const LOCKED_HALF_SIZE = 12;

export function storeyForHeight(storeys: Storey2d[], z: number): Storey2d | undefined {
  const sorted = storeys.slice().sort((a, b) => a.elevation - b.elevation);
  let found = sorted[0];
  for (const storey of sorted) if (storey.elevation <= z + 0.5) found = storey;
  return found;
}

export class Viewer2dLink {
  lockedNavigation = false;
  lockStorey = false;
  private timer = 0;
  private last = '';
  private storeyId?: string;
  private readonly abort = new AbortController();
  private plan?: BimViewer2d;
  private busy = false;

  constructor(
    private readonly viewer: BimViewer3d,
    private readonly find2d: () => BimViewer2d | undefined,
  ) {
    const signal = this.abort.signal;
    viewer.addEventListener('viewer.select', (e) => {
      const plan = this.find2d();
      if (!plan) return;
      const selected = (e as CustomEvent<{ selected: string[] }>).detail.selected;
      const mine = new Set(plan.getSpaces({ all: true }).map((s) => s.id));
      const spaces = selected.filter((id) => mine.has(id));
      void (spaces.length ? plan.select(spaces) : plan.unselect()).catch(() => undefined);
    }, { signal });
    this.timer = window.setInterval(() => {
      // One sample at a time: while a load holds the viewer's queue, calls would pile up.
      if (this.busy) return;
      this.busy = true;
      void this.sync().finally(() => { this.busy = false; });
    }, 100);
  }

  /** The current 2D viewer; (re)binds its events when it changed (e.g. created later by markup). */
  private bind(): BimViewer2d | undefined {
    const plan = this.find2d();
    if (plan === this.plan) return plan;
    this.plan = plan;
    this.last = '';
    if (!plan) return plan;
    const signal = this.abort.signal;
    plan.addEventListener('viewer2d.viewpoint', (e) => {
      if (this.plan !== plan) return;
      const { location, rotation } = (e as CustomEvent<{ viewpoint: { location: { x: number; y: number }; rotation: number } }>).detail.viewpoint;
      void this.moveCamera(location.x, location.y, undefined, rotation);
    }, { signal });
    plan.addEventListener('viewer2d.click', (e) => {
      if (this.plan !== plan || e.defaultPrevented) return;
      const { location } = (e as CustomEvent<{ location: { x: number; y: number; z: number } }>).detail;
      void this.moveCamera(location.x, location.y, location.z + EYE_HEIGHT);
    }, { signal });
    plan.addEventListener('viewer2d.select', (e) => {
      if (this.plan !== plan) return;
      const selected = (e as CustomEvent<{ selected: string[] }>).detail.selected;
      void this.viewer.deselectAll().then(() => (selected.length ? this.viewer.select(selected) : undefined)).catch(() => undefined);
    }, { signal });
    return plan;
  }

  private async moveCamera(x: number, y: number, z?: number, rotation?: number) {
    const vp = await this.viewer.viewpoint().catch(() => undefined);
    if (!vp) return;
    const location = { x, y, z: z ?? vp.location.z };
    let direction = vp.direction;
    if (rotation !== undefined) {
      const a = (rotation * Math.PI) / 180;
      const horizontal = Math.hypot(vp.direction.x, vp.direction.y) || 1;
      direction = { x: Math.cos(a) * horizontal, y: Math.sin(a) * horizontal, z: vp.direction.z };
    }
    await this.viewer.viewpoint({ ...vp, location, direction } as Viewpoint).catch(() => undefined);
    await this.sync();
  }

  /** 3D -> 2D: arrow, storey, centring. */
  async sync(): Promise<void> {
    const plan = this.bind();
    if (!plan) return;
    const storeys = plan.getStoreys({ all: true });
    if (!storeys.length) return;
    const vp = await this.viewer.viewpoint().catch(() => undefined);
    if (!vp) return;
    const key = JSON.stringify([vp.location, vp.direction, this.lockedNavigation, this.lockStorey]);
    if (key === this.last) return;
    this.last = key;
    if (!this.lockStorey) {
      const storey = storeyForHeight(storeys, vp.location.z - EYE_HEIGHT);
      if (storey && storey.id !== this.storeyId) await this.showStorey(storey.id);
    }
    const horizontal = Math.hypot(vp.direction.x, vp.direction.y);
    const viewpoint = horizontal > 1e-6
      ? { location: { x: vp.location.x, y: vp.location.y }, direction: { x: vp.direction.x / horizontal, y: vp.direction.y / horizontal } }
      : { location: { x: vp.location.x, y: vp.location.y } };
    await plan.setViewpoint(viewpoint).catch(() => undefined);
    if (this.lockedNavigation) {
      const { x, y } = vp.location;
      await plan.lookAtBoundingBox({ min: { x: x - LOCKED_HALF_SIZE, y: y - LOCKED_HALF_SIZE }, max: { x: x + LOCKED_HALF_SIZE, y: y + LOCKED_HALF_SIZE } }, { retainStoreys: true }).catch(() => undefined);
    }
  }

  /** Shows one storey in the 2D viewer (the storey select and the camera height use this). */
  async showStorey(id: string) {
    const plan = this.bind();
    if (!plan) return;
    this.storeyId = id;
    await plan.hideStoreys().catch(() => undefined);
    await plan.showStorey(id).catch(() => undefined);
    this.onStorey?.(id);
  }

  /** Told when the storey shown changes. */
  onStorey?: (id: string) => void;

  get currentStorey() {
    return this.storeyId;
  }

  refresh() {
    this.last = '';
    void this.sync();
  }

  dispose() {
    clearInterval(this.timer);
    this.abort.abort();
  }
}
