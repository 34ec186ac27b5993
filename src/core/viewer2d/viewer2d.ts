import { select, type Selection } from 'd3-selection';
import { zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import type { PlanModel } from '../plan/protocol.js';
import { Affine } from './affine.js';
import { ImageLayer } from './images.js';
import { LabelLayer, type LabelItem } from './labels.js';
import { MarkerLayer } from './markers.js';
import { ModelLayer } from './plan-layer.js';
import { PlanStore, round, type LoadedModel } from './plan-store.js';
import { svgToPng } from './screenshot.js';
import { PLAN_STYLE } from './style.js';
import { svg } from './svg.js';
import type {
  BoundingBox2d,
  Box2Input,
  ImageInput,
  Location3,
  LookAtOptions2d,
  Marker,
  MarkerInput,
  SpaceNameFormat,
  Transformation2d,
  ViewpointChange,
  Viewpoint2d,
  ViewpointInput2d,
} from './types.js';
import { ViewpointArrow } from './viewpoint-arrow.js';

/**
 * The 2D viewer's engine (no custom element, no jQuery): storey plans as SVG, panned and
 * zoomed with d3-zoom, with space selection and colours, names, markers, images and the
 * viewpoint arrow. The element (elements/bim-viewer-2d.ts) drives it and turns its
 * callbacks into events.
 *
 * Frames: model coordinates (IFC x, y in metres) -> view coordinates (after the model's
 * setTransformation; what the API speaks) -> SVG user space ((x - ox, oy - y): y down,
 * the viewer's origin subtracted) -> screen pixels (d3-zoom's transform).
 */
export interface Viewer2dOptions {
  showViewpoint: boolean;
  selectColor: string;
}

export interface Viewer2dCallbacks {
  /** Each returns false when a listener cancelled the event. */
  click(location: Location3, id: string | undefined): boolean;
  dblclick(location: Location3, id: string | undefined): boolean;
  contextmenu(location: Location3, id: string | undefined): boolean;
  select(selected: string[]): void;
  viewpoint(viewpoint: ViewpointChange): void;
  markerclick(marker: Marker): boolean;
  markerhover(marker: Marker): boolean;
  markerdrag(marker: Marker): boolean;
}

const PADDING = 24;
const MIN_SCALE = 1e-3;
const MAX_SCALE = 1e4;

export class Viewer2d {
  readonly store = new PlanStore();
  private readonly root: SVGSVGElement;
  private readonly world: SVGGElement;
  private readonly modelsGroup: SVGGElement;
  private readonly labels: LabelLayer;
  private readonly markers: MarkerLayer;
  private readonly images: ImageLayer;
  private readonly arrow: ViewpointArrow;
  private readonly layers = new Map<string, ModelLayer>();
  private readonly behaviour: ZoomBehavior<SVGSVGElement, unknown>;
  private readonly selection: Selection<SVGSVGElement, unknown, null, undefined>;
  private transform: ZoomTransform = zoomIdentity;
  private origin: [number, number] | null = null;
  private fitted = false;
  private viewpointSet = false;
  private nameFormat: SpaceNameFormat = 'regular';
  private readonly selected = new Set<string>();
  private readonly colors = new Map<string, string>();

  constructor(private readonly host: HTMLElement, private options: Viewer2dOptions, private readonly callbacks: Viewer2dCallbacks) {
    this.root = svg('svg', { class: 'plan', width: '100%', height: '100%' });
    this.root.style.cssText = 'display:block;width:100%;height:100%;touch-action:none;user-select:none;-webkit-user-select:none';
    svg('rect', { class: 'background', x: 0, y: 0, width: '100%', height: '100%', fill: PLAN_STYLE.background }, this.root);
    this.world = svg('g', { class: 'world' }, this.root);
    this.modelsGroup = svg('g', { class: 'models' }, this.world);
    this.images = new ImageLayer(this.world, () => this.origin ?? [0, 0]);
    const overlay = svg('g', { class: 'overlay' }, this.root);
    this.labels = new LabelLayer(overlay);
    const pointer = (event: PointerEvent): [number, number] => this.pointer(event);
    this.markers = new MarkerLayer(overlay, {
      toScreen: (x, y) => this.toScreen(x, y),
      toView: (px, py) => this.toView(px, py),
      pointer,
      hover: (marker) => this.callbacks.markerhover(marker),
      dragged: (marker) => this.callbacks.markerdrag(marker),
    });
    this.arrow = new ViewpointArrow(overlay, {
      toScreen: (x, y) => this.toScreen(x, y),
      toView: (px, py) => this.toView(px, py),
      pointer,
      changed: () => this.callbacks.viewpoint(this.viewpointChange()),
    });
    host.appendChild(this.root);

    this.selection = select(this.root);
    this.behaviour = zoom<SVGSVGElement, unknown>()
      .scaleExtent([MIN_SCALE, MAX_SCALE])
      .clickDistance(4)
      // d3 listens for touches only where it guesses a touch screen; listen everywhere
      // (touch events simply never come where there is none).
      .touchable(() => true)
      .on('zoom', (event: D3ZoomEvent<SVGSVGElement, unknown>) => this.applyTransform(event.transform));
    this.selection.call(this.behaviour).on('dblclick.zoom', null);
    this.root.addEventListener('click', (e) => this.onClick(e));
    this.root.addEventListener('dblclick', (e) => this.onDoubleClick(e));
    this.root.addEventListener('contextmenu', (e) => this.onContextMenu(e));
  }

  setOptions(options: Viewer2dOptions) {
    this.options = options;
    for (const id of this.selected) this.restyle(id);
    this.updateArrow();
  }

  // ---- models -----------------------------------------------------------------

  addModel(id: string, name: string, objectIdBase: string, plan: PlanModel): LoadedModel {
    if (this.store.model(id)) throw new Error(`A model with id "${id}" is already loaded`);
    const model = this.store.add(id, name, objectIdBase, plan);
    if (!this.origin) {
      const b = plan.storeys.find((s) => Number.isFinite(s.bounds[0]))?.bounds;
      this.origin = b ? [Math.round((b[0] + b[2]) / 2), Math.round((b[1] + b[3]) / 2)] : [0, 0];
      this.images.update();
    }
    if (!this.viewpointSet) {
      const b = plan.storeys.find((s) => Number.isFinite(s.bounds[0]))?.bounds;
      if (b) this.arrow.set((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, Math.PI / 2);
    }
    this.layers.set(id, new ModelLayer(model, this.origin, this.modelsGroup, (space) => this.fillOf(space)));
    return model;
  }

  removeModel(id: string): boolean {
    const model = this.store.remove(id);
    if (!model) return false;
    this.layers.get(id)?.remove();
    this.layers.delete(id);
    for (const space of model.plan.spaces) {
      this.selected.delete(space.objectId);
    }
    if (this.store.models.length === 0) {
      this.origin = null;
      this.fitted = false;
    }
    this.refresh();
    return true;
  }

  modelIds(): string[] {
    return this.store.models.map((m) => m.id);
  }

  setTransformation(modelId: string, t: Transformation2d) {
    const model = this.store.model(modelId);
    if (!model) throw new RangeError(`No model with id "${modelId}" is loaded`);
    const px = Number(t.position?.x ?? 0), py = Number(t.position?.y ?? 0);
    const angle = Number(t.rotation?.angle ?? 0);
    const cx = Number(t.rotation?.centerOfRotation?.x ?? 0), cy = Number(t.rotation?.centerOfRotation?.y ?? 0);
    model.transform = Affine.translate(px, py).times(Affine.rotate(angle, cx, cy));
    this.layers.get(modelId)?.setTransform(this.svgTransform(model.transform));
    this.refresh();
  }

  /** A view transformation as seen in SVG user space: F T F^-1 with F(x, y) = (x - ox, oy - y). */
  private svgTransform(t: Affine): Affine {
    const [ox, oy] = this.origin ?? [0, 0];
    const f = new Affine(1, 0, 0, -1, -ox, oy);
    const fInverse = new Affine(1, 0, 0, -1, ox, oy);
    return f.times(t.times(fInverse));
  }

  // ---- storeys ------------------------------------------------------------------

  showStorey(id: string): boolean {
    const found = this.store.findStorey(id);
    if (!found) return false;
    this.store.shown.delete(id);
    this.store.shown.add(id);
    this.layers.get(found.model.id)?.storey(found.index).setVisible(true);
    if (!this.fitted) this.fitStoreys();
    this.refresh();
    return true;
  }

  hideStorey(id: string): boolean {
    const found = this.store.findStorey(id);
    if (!found || !this.store.shown.delete(id)) return false;
    this.layers.get(found.model.id)?.storey(found.index).setVisible(false);
    this.refresh();
    return true;
  }

  hideStoreys() {
    for (const id of [...this.store.shown]) this.hideStorey(id);
  }

  /** Shows exactly these storeys (hiding the others). */
  private showOnly(ids: string[]) {
    for (const id of [...this.store.shown]) if (!ids.includes(id)) this.hideStorey(id);
    for (const id of ids) if (!this.store.shown.has(id)) this.showStorey(id);
  }

  // ---- selection and colours ------------------------------------------------------

  /** Selects the spaces among `ids` that are on shown storeys (replacing the selection). */
  select(ids: string[]) {
    const before = [...this.selected];
    this.selected.clear();
    for (const id of ids) if (this.store.isSpaceVisible(id)) this.selected.add(id);
    for (const id of new Set([...before, ...this.selected])) this.restyle(id);
  }

  unselect(ids?: string[]) {
    const gone = ids ? ids.filter((id) => this.selected.delete(id)) : [...this.selected];
    if (!ids) this.selected.clear();
    for (const id of gone) this.restyle(id);
  }

  getSelected(): string[] {
    return [...this.selected];
  }

  setColor(ids: string[], color: string) {
    for (const id of ids) {
      this.colors.set(id, color);
      this.restyle(id);
    }
  }

  clearColors() {
    const ids = [...this.colors.keys()];
    this.colors.clear();
    for (const id of ids) this.restyle(id);
  }

  private restyle(id: string) {
    const found = this.store.findSpace(id);
    if (!found) return;
    const layer = this.layers.get(found.model.id)?.drawn(found.space.storey);
    const path = layer?.spacePaths.get(id);
    if (!path) return;
    path.setAttribute('fill', this.fillOf(id));
  }

  private fillOf(id: string): string {
    return this.selected.has(id) ? this.options.selectColor : this.colors.get(id) ?? PLAN_STYLE.spaceFill;
  }

  // ---- names ----------------------------------------------------------------------

  setSpaceNames(names: Record<string, { name?: unknown; longName?: unknown }>) {
    for (const [id, value] of Object.entries(names)) {
      if (!value || typeof value !== 'object') continue;
      const entry = { ...this.store.names.get(id) };
      if (value.name !== undefined && value.name !== null) entry.name = String(value.name);
      if (value.longName !== undefined && value.longName !== null) entry.longName = String(value.longName);
      this.store.names.set(id, entry);
    }
    this.refreshLabels();
  }

  setSpaceNameFormat(format: SpaceNameFormat) {
    this.nameFormat = format;
    this.refreshLabels();
  }

  /** The names shown now (for tests and tools). */
  visibleLabels() {
    return this.labels.visible();
  }

  // ---- markers and images ------------------------------------------------------------

  addMarker(input: MarkerInput): string {
    return this.markers.add(input);
  }

  removeMarker(id: string): boolean {
    return this.markers.remove(id);
  }

  clearMarkers() {
    this.markers.clear();
  }

  getMarkers(): Marker[] {
    return this.markers.list();
  }

  addImage(input: ImageInput): string {
    const id = this.images.add(input);
    this.updateTurningImages();
    return id;
  }

  clearImages() {
    this.images.clear();
  }

  // ---- viewpoint ---------------------------------------------------------------------

  getViewpoint(): Viewpoint2d {
    const { location, direction } = this.viewpointChange();
    return { location, direction };
  }

  setViewpoint(input: ViewpointInput2d) {
    let angle = this.arrow.angle;
    if (typeof input.direction === 'number') angle = (input.direction * Math.PI) / 180;
    else if (input.direction && (input.direction.x !== 0 || input.direction.y !== 0)) angle = Math.atan2(input.direction.y, input.direction.x);
    const x = input.location ? Number(input.location.x) : this.arrow.x;
    const y = input.location ? Number(input.location.y) : this.arrow.y;
    this.viewpointSet = true;
    this.arrow.set(x, y, angle);
  }

  moveTo(x: number, y: number) {
    this.viewpointSet = true;
    this.arrow.set(x, y, this.arrow.angle);
  }

  private viewpointChange(): ViewpointChange {
    const z = this.store.activeElevation();
    const degrees = (((this.arrow.angle * 180) / Math.PI) % 360 + 360) % 360;
    return {
      location: { x: round(this.arrow.x), y: round(this.arrow.y), z },
      direction: { x: round(Math.cos(this.arrow.angle)), y: round(Math.sin(this.arrow.angle)), z: 0 },
      rotation: round(degrees),
    };
  }

  private updateArrow() {
    this.arrow.setShown(this.options.showViewpoint && this.store.shown.size > 0);
  }

  // ---- camera ------------------------------------------------------------------------

  /** Bounding box of spaces in view coordinates, or null when none is known. */
  getBoundingBox(ids: string[]): BoundingBox2d | null {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const id of ids) {
      const found = this.store.findSpace(id) ?? undefined;
      const storey = found ? undefined : this.store.findStorey(id);
      const model = found?.model ?? storey?.model;
      const bounds = found?.space.bounds ?? storey?.storey.bounds;
      if (!model || !bounds || !Number.isFinite(bounds[0])) continue;
      const [x0, y0, x1, y1] = this.store.viewBounds(model, bounds);
      minX = Math.min(minX, x0);
      minY = Math.min(minY, y0);
      maxX = Math.max(maxX, x1);
      maxY = Math.max(maxY, y1);
    }
    if (!Number.isFinite(minX)) return null;
    return {
      x: round(minX), y: round(minY), width: round(maxX - minX), height: round(maxY - minY),
      min: { x: round(minX), y: round(minY) }, max: { x: round(maxX), y: round(maxY) },
    };
  }

  lookAt(ids: string[], options: LookAtOptions2d = {}) {
    const found = ids.map((id) => {
      const space = this.store.findSpace(id);
      if (space) return { id, model: space.model, storey: space.model.plan.storeys[space.space.storey] };
      const storey = this.store.findStorey(id);
      return storey ? { id, model: storey.model, storey: storey.storey } : undefined;
    }).filter((f): f is NonNullable<typeof f> => !!f);
    if (found.length === 0) return;
    let targets = found.filter((f) => this.store.isShown(f.storey));
    if (targets.length === 0) {
      if (!options.retainStoreys) {
        const lowest = Math.min(...found.map((f) => f.storey.elevation));
        const storeys = found.filter((f) => f.storey.elevation === lowest);
        this.showOnly([...new Set(storeys.map((f) => f.storey.objectId))]);
        targets = storeys;
      } else {
        targets = found;
      }
    }
    const box = this.getBoundingBox(targets.map((t) => t.id));
    if (!box) return;
    const expand = options.expand;
    const ex = typeof expand === 'number' ? expand : Number(expand?.x ?? 0) || 0;
    const ey = typeof expand === 'number' ? expand : Number(expand?.y ?? 0) || 0;
    this.fitView(box.x - ex, box.y - ey, box.x + box.width + ex, box.y + box.height + ey);
  }

  lookAtBoundingBox(box: Box2Input, options: { retainStoreys?: boolean } = {}) {
    const hasZ = box.min.z !== undefined && box.min.z !== null && Number.isFinite(Number(box.min.z));
    const retain = options.retainStoreys ?? !hasZ;
    if (!retain && hasZ) {
      const z = Number(box.min.z);
      const ids = this.store.models.map((m) => this.store.storeyAt(m, z)?.objectId).filter((id): id is string => !!id);
      if (ids.length) this.showOnly(ids);
    }
    this.fitView(Math.min(box.min.x, box.max.x), Math.min(box.min.y, box.max.y), Math.max(box.min.x, box.max.x), Math.max(box.min.y, box.max.y));
  }

  /** Frames the shown storeys. */
  fitStoreys() {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const { model, storey } of this.store.shownStoreys()) {
      if (!Number.isFinite(storey.bounds[0])) continue;
      const [x0, y0, x1, y1] = this.store.viewBounds(model, storey.bounds);
      minX = Math.min(minX, x0);
      minY = Math.min(minY, y0);
      maxX = Math.max(maxX, x1);
      maxY = Math.max(maxY, y1);
    }
    if (Number.isFinite(minX)) this.fitView(minX, minY, maxX, maxY);
  }

  /** Zooms so the view rectangle fills the viewer (less a padding), centred. */
  fitView(minX: number, minY: number, maxX: number, maxY: number) {
    const { width, height } = this.size();
    if (width <= 0 || height <= 0) return;
    const w = Math.max(maxX - minX, 1e-3), h = Math.max(maxY - minY, 1e-3);
    const pad = Math.min(PADDING, width / 4, height / 4);
    const k = Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.min((width - 2 * pad) / w, (height - 2 * pad) / h)));
    const [cx, cy] = this.toUser((minX + maxX) / 2, (minY + maxY) / 2);
    this.setTransform(zoomIdentity.translate(width / 2 - k * cx, height / 2 - k * cy).scale(k));
    this.fitted = true;
  }

  /** Zooms by `factor` around a pixel of the viewer. */
  zoomAt(factor: number, px: number, py: number) {
    this.behaviour.scaleBy(this.selection, factor, [px, py]);
  }

  /** The current zoom: pixels per metre and the offset, for tests and tools. */
  zoomState(): { k: number; x: number; y: number } {
    return { k: this.transform.k, x: this.transform.x, y: this.transform.y };
  }

  private setTransform(t: ZoomTransform) {
    this.behaviour.transform(this.selection, t);
  }

  private applyTransform(t: ZoomTransform) {
    this.transform = t;
    this.world.setAttribute('transform', `translate(${t.x} ${t.y}) scale(${t.k})`);
    this.updateOverlay();
  }

  private updateOverlay() {
    const t = this.transform;
    this.labels.update(t.k, t.x, t.y);
    this.markers.update();
    this.arrow.update();
  }

  resize() {
    if (!this.fitted && this.store.shown.size) this.fitStoreys();
    this.updateOverlay();
  }

  // ---- coordinates -----------------------------------------------------------------------

  size(): { width: number; height: number } {
    const r = this.root.getBoundingClientRect();
    return { width: r.width, height: r.height };
  }

  private toUser(x: number, y: number): [number, number] {
    const [ox, oy] = this.origin ?? [0, 0];
    return [x - ox, oy - y];
  }

  toScreen(x: number, y: number): [number, number] {
    const [ux, uy] = this.toUser(x, y);
    return [ux * this.transform.k + this.transform.x, uy * this.transform.k + this.transform.y];
  }

  toView(px: number, py: number): [number, number] {
    const [ox, oy] = this.origin ?? [0, 0];
    const ux = (px - this.transform.x) / this.transform.k;
    const uy = (py - this.transform.y) / this.transform.k;
    return [ux + ox, oy - uy];
  }

  private pointer(event: MouseEvent): [number, number] {
    const r = this.root.getBoundingClientRect();
    return [event.clientX - r.left, event.clientY - r.top];
  }

  // ---- interaction -------------------------------------------------------------------------

  /** Where a mouse event is on the plan, and the space there. */
  private locate(event: MouseEvent): { location: Location3; id: string | undefined } {
    const [px, py] = this.pointer(event);
    const [x, y] = this.toView(px, py);
    const hit = this.store.spaceAt(x, y);
    const z = hit ? round(hit.model.plan.storeys[hit.space.storey].elevation) : this.store.activeElevation();
    return { location: { x: round(x), y: round(y), z }, id: hit?.space.objectId };
  }

  private onClick(event: MouseEvent) {
    if (this.markers.takeClickSuppression()) return;
    const record = this.markers.recordOf(event.target);
    if (record?.clickable && !this.callbacks.markerclick(this.markers.snapshot(record))) return;
    const { location, id } = this.locate(event);
    if (!this.callbacks.click(location, id)) return;
    const before = this.getSelected();
    if (event.ctrlKey || event.metaKey) {
      if (id && this.selected.has(id)) this.unselect([id]);
      else if (id) this.select([...before, id]);
    } else {
      this.select(id ? [id] : []);
    }
    const after = this.getSelected();
    if (before.length !== after.length || before.some((s, i) => s !== after[i])) this.callbacks.select(after);
  }

  private onDoubleClick(event: MouseEvent) {
    if (this.markers.recordOf(event.target)) return;
    const { location, id } = this.locate(event);
    if (!this.callbacks.dblclick(location, id)) return;
    if (id) this.lookAt([id], { retainStoreys: true, expand: 1 });
    else this.zoomAt(2, ...this.pointer(event));
  }

  private onContextMenu(event: MouseEvent) {
    event.preventDefault();
    const { location, id } = this.locate(event);
    this.callbacks.contextmenu(location, id);
  }

  // ---- drawing state ---------------------------------------------------------------------------

  /** After storeys, models or transformations changed: labels, arrow, turning images. */
  private refresh() {
    this.refreshLabels();
    this.updateArrow();
    this.updateTurningImages();
  }

  private updateTurningImages() {
    const first = this.store.models[0];
    const t = first ? this.svgTransform(first.transform) : Affine.identity;
    if (t.isIdentity) this.images.turning.removeAttribute('transform');
    else this.images.turning.setAttribute('transform', t.toSvg());
  }

  private refreshLabels() {
    const items: LabelItem[] = [];
    for (const { model, storey } of this.store.shownStoreys()) {
      for (const index of storey.spaces) {
        const space = model.plan.spaces[index];
        const names = this.store.spaceNames(space);
        const text = this.nameFormat === 'long' ? names.longName || names.name : names.name;
        const [vx, vy] = model.transform.apply(space.label[0], space.label[1]);
        const [x, y] = this.toUser(vx, vy);
        const [x0, y0, x1, y1] = this.store.viewBounds(model, space.bounds);
        items.push({ id: space.objectId, text, x, y, width: x1 - x0, height: y1 - y0 });
      }
    }
    this.labels.set(items);
    this.labels.update(this.transform.k, this.transform.x, this.transform.y);
  }

  // ---- output ------------------------------------------------------------------------------------

  screenshot(width?: number, height?: number): Promise<string> {
    const size = this.size();
    const w = Math.max(1, Math.round(width ?? size.width));
    const h = Math.max(1, Math.round(height ?? size.height));
    return svgToPng(this.root, Math.max(1, size.width), Math.max(1, size.height), w, h, PLAN_STYLE.background);
  }

  dispose() {
    this.selection.on('.zoom', null);
    this.root.remove();
    this.layers.clear();
  }
}
