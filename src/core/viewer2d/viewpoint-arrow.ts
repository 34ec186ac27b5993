import { PLAN_STYLE as S } from './style.js';
import { svg } from './svg.js';

/**
 * The viewpoint arrow: a red dot at the viewing position with a wedge pointing the
 * viewing direction, in screen space (constant size). Dragging the dot moves the
 * position, dragging the wedge turns the direction; each move is reported.
 */
export interface ArrowHost {
  toScreen(x: number, y: number): [number, number];
  toView(px: number, py: number): [number, number];
  pointer(event: PointerEvent): [number, number];
  /** The user moved or turned the arrow: new position and direction angle (radians, counter-clockwise from +x). */
  changed(x: number, y: number, angle: number): void;
}

export class ViewpointArrow {
  readonly group: SVGGElement;
  private readonly body: SVGCircleElement;
  private readonly head: SVGPathElement;
  x = 0;
  y = 0;
  /** Radians, counter-clockwise from +x. */
  angle = Math.PI / 2;
  private shown = false;

  constructor(parent: SVGGElement, private readonly host: ArrowHost) {
    this.group = svg('g', { class: 'viewpoint', display: 'none' }, parent);
    this.head = svg('path', {
      d: 'M 30 0 L 6 -11 L 9 0 L 6 11 Z',
      fill: S.viewpointColor,
      'fill-opacity': 0.85,
      stroke: '#ffffff',
      'stroke-width': 1.5,
      'stroke-linejoin': 'round',
    }, this.group);
    this.body = svg('circle', { r: 7, fill: S.viewpointColor, stroke: '#ffffff', 'stroke-width': 2 }, this.group);
    this.body.style.cursor = 'move';
    this.head.style.cursor = 'grab';
    this.drag(this.body, 'move');
    this.drag(this.head, 'turn');
  }

  set(x: number, y: number, angle: number) {
    this.x = x;
    this.y = y;
    this.angle = angle;
    this.update();
  }

  setShown(shown: boolean) {
    this.shown = shown;
    this.update();
  }

  update() {
    if (!this.shown) {
      this.group.setAttribute('display', 'none');
      return;
    }
    this.group.removeAttribute('display');
    const [sx, sy] = this.host.toScreen(this.x, this.y);
    // Screen y points down: a counter-clockwise model angle is a clockwise screen one.
    const degrees = (-this.angle * 180) / Math.PI;
    this.group.setAttribute('transform', `translate(${sx.toFixed(1)} ${sy.toFixed(1)}) rotate(${degrees.toFixed(2)})`);
  }

  private drag(node: SVGElement, mode: 'move' | 'turn') {
    for (const type of ['mousedown', 'touchstart'] as const) node.addEventListener(type, (e) => e.stopPropagation());
    node.addEventListener('click', (e) => e.stopPropagation());
    node.addEventListener('pointerdown', (down: PointerEvent) => {
      if (down.button !== 0) return;
      down.stopPropagation();
      down.preventDefault();
      try {
        node.setPointerCapture(down.pointerId);
      } catch {
        // synthetic events have no capturable pointer
      }
      const [px, py] = this.host.pointer(down);
      const [sx, sy] = this.host.toScreen(this.x, this.y);
      const grab = [px - sx, py - sy];
      const move = (event: PointerEvent) => {
        if (event.pointerId !== down.pointerId) return;
        const [mx, my] = this.host.pointer(event);
        if (mode === 'move') {
          const [x, y] = this.host.toView(mx - grab[0], my - grab[1]);
          this.x = x;
          this.y = y;
        } else {
          const [cx, cy] = this.host.toScreen(this.x, this.y);
          if (Math.hypot(mx - cx, my - cy) < 2) return;
          this.angle = Math.atan2(-(my - cy), mx - cx);
        }
        this.update();
        this.host.changed(this.x, this.y, this.angle);
      };
      const up = (event: PointerEvent) => {
        if (event.pointerId !== down.pointerId) return;
        node.removeEventListener('pointermove', move);
        node.removeEventListener('pointerup', up);
        node.removeEventListener('pointercancel', up);
      };
      node.addEventListener('pointermove', move);
      node.addEventListener('pointerup', up);
      node.addEventListener('pointercancel', up);
    });
  }
}
