import { PLAN_STYLE as S } from './style.js';
import { svg } from './svg.js';
import type { Marker, MarkerIcon, MarkerInput } from './types.js';

/**
 * Markers: pins (or icons) at plan positions, drawn in screen space so they keep their
 * size at every zoom. A marker added as clickable reports clicks, a draggable one can be
 * moved with the mouse (or a finger); hovering reports too. Marker text is set as a text
 * node and icon URLs as attributes: nothing a page passes is parsed as markup.
 */
export interface MarkerRecord {
  marker: Marker;
  icon?: MarkerIcon;
  clickable: boolean;
  draggable: boolean;
  node: SVGGElement;
}

export interface MarkerHost {
  /** View coordinates -> pixels in the SVG. */
  toScreen(x: number, y: number): [number, number];
  /** Pixels in the SVG -> view coordinates. */
  toView(px: number, py: number): [number, number];
  /** Pixels of a pointer event in the SVG. */
  pointer(event: PointerEvent): [number, number];
  /** viewer2d.markerhover; false when a listener cancelled it. */
  hover(marker: Marker): boolean;
  /** After a drag; false when a listener cancelled it (the marker goes back). */
  dragged(marker: Marker): boolean;
}

const DRAG_THRESHOLD = 3;
let counter = 0;

export class MarkerLayer {
  readonly group: SVGGElement;
  private readonly records = new Map<string, MarkerRecord>();
  private readonly byNode = new WeakMap<Element, MarkerRecord>();
  private suppressClick = false;

  constructor(parent: SVGGElement, private readonly host: MarkerHost) {
    this.group = svg('g', { class: 'markers' }, parent);
  }

  add(input: MarkerInput): string {
    const id = input.id !== undefined && input.id !== null && String(input.id) !== '' ? String(input.id) : `marker-${Date.now().toString(36)}-${(++counter).toString(36)}`;
    this.remove(id);
    const marker: Marker = { id, x: Number(input.x), y: Number(input.y) };
    if (input.color !== undefined) marker.color = input.color;
    if (input.text !== undefined) marker.text = String(input.text);
    if (input.data !== undefined) marker.data = input.data;
    const record: MarkerRecord = {
      marker,
      icon: input.icon,
      clickable: !!input.clickable,
      draggable: !!input.draggable,
      node: svg('g', { class: 'marker' }, this.group),
    };
    this.draw(record);
    this.wire(record);
    this.records.set(id, record);
    this.byNode.set(record.node, record);
    this.place(record);
    return id;
  }

  remove(id: string): boolean {
    const record = this.records.get(id);
    if (!record) return false;
    record.node.remove();
    this.records.delete(id);
    return true;
  }

  clear() {
    for (const record of this.records.values()) record.node.remove();
    this.records.clear();
  }

  list(): Marker[] {
    return [...this.records.values()].map((r) => copy(r.marker));
  }

  get(id: string): Marker | undefined {
    const record = this.records.get(id);
    return record ? copy(record.marker) : undefined;
  }

  /** Repositions every marker (after a zoom or pan). */
  update() {
    for (const record of this.records.values()) this.place(record);
  }

  /** The marker an event happened on, if any. */
  recordOf(target: EventTarget | null): MarkerRecord | undefined {
    let node = target instanceof Element ? target : null;
    while (node && node !== this.group) {
      const record = this.byNode.get(node);
      if (record) return record;
      node = node.parentElement;
    }
    return undefined;
  }

  /** True (once) when the click being handled ends a drag, which is no click. */
  takeClickSuppression(): boolean {
    const suppress = this.suppressClick;
    this.suppressClick = false;
    return suppress;
  }

  /** A copy of a marker for events (pages may keep or change it freely). */
  snapshot(record: MarkerRecord): Marker {
    return copy(record.marker);
  }

  private place(record: MarkerRecord) {
    const [sx, sy] = this.host.toScreen(record.marker.x, record.marker.y);
    const hovered = record.node.getAttribute('data-hover') === 'true';
    record.node.setAttribute('transform', `translate(${sx.toFixed(1)} ${sy.toFixed(1)})${hovered ? ' scale(1.25)' : ''}`);
  }

  private draw(record: MarkerRecord) {
    const { node, icon, marker } = record;
    node.style.cursor = record.draggable ? 'move' : record.clickable ? 'pointer' : 'default';
    if (icon && typeof icon.url === 'string') {
      const width = Number(icon.size?.width) || 24;
      const height = Number(icon.size?.height) || 24;
      const ax = Number.isFinite(icon.anchor?.x) ? Number(icon.anchor!.x) : width / 2;
      const ay = Number.isFinite(icon.anchor?.y) ? Number(icon.anchor!.y) : height;
      svg('image', { href: icon.url, x: -ax, y: -ay, width, height, preserveAspectRatio: 'none' }, node);
    } else {
      svg('circle', { r: 7, fill: marker.color ?? S.markerColor, stroke: '#ffffff', 'stroke-width': 2 }, node);
    }
    if (marker.text) {
      const text = svg('text', {
        x: icon ? 4 : 11,
        y: 0,
        'font-family': S.labelFont.replace(/^\S+\s/, ''),
        'font-size': S.labelSize,
        fill: S.labelFill,
        stroke: S.labelHalo,
        'stroke-width': 3,
        'paint-order': 'stroke',
        'dominant-baseline': 'central',
      }, node);
      text.textContent = marker.text;
    }
  }

  private wire(record: MarkerRecord) {
    const { node } = record;
    node.addEventListener('pointerenter', () => {
      if (!this.host.hover(copy(record.marker))) return;
      node.setAttribute('data-hover', 'true');
      this.place(record);
    });
    node.addEventListener('pointerleave', () => {
      node.removeAttribute('data-hover');
      this.place(record);
    });
    if (!record.draggable) return;
    // The plan's pan must not start under a draggable marker.
    for (const type of ['mousedown', 'touchstart'] as const) node.addEventListener(type, (e) => e.stopPropagation());
    node.addEventListener('pointerdown', (down: PointerEvent) => {
      if (down.button !== 0) return;
      down.stopPropagation();
      down.preventDefault();
      const [px, py] = this.host.pointer(down);
      const [sx, sy] = this.host.toScreen(record.marker.x, record.marker.y);
      const grab = [px - sx, py - sy];
      const from = { x: record.marker.x, y: record.marker.y };
      let dragging = false;
      try {
        node.setPointerCapture(down.pointerId);
      } catch {
        // synthetic events have no capturable pointer
      }
      const move = (event: PointerEvent) => {
        if (event.pointerId !== down.pointerId) return;
        const [mx, my] = this.host.pointer(event);
        if (!dragging && Math.hypot(mx - px, my - py) < DRAG_THRESHOLD) return;
        dragging = true;
        const [x, y] = this.host.toView(mx - grab[0], my - grab[1]);
        record.marker.x = x;
        record.marker.y = y;
        this.place(record);
      };
      const up = (event: PointerEvent) => {
        if (event.pointerId !== down.pointerId) return;
        node.removeEventListener('pointermove', move);
        node.removeEventListener('pointerup', up);
        node.removeEventListener('pointercancel', up);
        if (!dragging) return;
        this.suppressClick = true;
        setTimeout(() => { this.suppressClick = false; }, 0);
        if (!this.host.dragged(copy(record.marker))) {
          record.marker.x = from.x;
          record.marker.y = from.y;
          this.place(record);
        }
      };
      node.addEventListener('pointermove', move);
      node.addEventListener('pointerup', up);
      node.addEventListener('pointercancel', up);
    });
  }
}

function copy(marker: Marker): Marker {
  return { ...marker };
}
