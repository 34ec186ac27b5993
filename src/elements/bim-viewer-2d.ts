import { LitElement, css, html } from 'lit';
import { property } from 'lit/decorators.js';
import { checkIds, checkString } from '../core/data/arguments.js';
import { fetchBytes } from '../core/data/fetch-bytes.js';
import { loadSources, PLANS_OR_IFC, withFallback, type ModelSource } from '../core/data/load-sources.js';
import { checksums } from '../core/formats/checksum.js';
import { decodePlans, PlansFormatError } from '../core/formats/plans.js';
import type { PlanModel } from '../core/plan/protocol.js';
import { MODEL_ID_SPAN, isValidBase, toIdList } from '../core/data/object-ids.js';
import { PlanClient } from '../core/plan/plan-client.js';
import { ViewerError, type Ids } from '../core/types.js';
import {
  checkBox2,
  checkCssColor,
  checkImage,
  checkMarker,
  checkNameFormat,
  checkNumber,
  checkOptionalObject,
  checkSpaceNames,
  checkTransformation,
  checkViewpoint2d,
  describe,
  isCssColor,
} from '../core/viewer2d/arguments.js';
import type {
  BoundingBox2d,
  Box2Input,
  ImageInput,
  LoadOptions2d,
  LookAtOptions2d,
  Marker,
  MarkerInput,
  Space2d,
  SpaceNameFormat,
  SpaceQuery,
  Storey2d,
  StoreyQuery,
  Transformation2d,
  Viewpoint2d,
  ViewpointInput2d,
} from '../core/viewer2d/types.js';
import { Viewer2d } from '../core/viewer2d/viewer2d.js';
import { emit2d, type Viewer2dEventMap, type Viewer2dEventName } from './events2d.js';
import type { CustomEvents } from './events.js';
import { canDefine } from './define.js';
import { booleanAttribute } from './boolean-attribute.js';


const DEFAULT_SELECT_COLOR = '#A7F555';

let generated = 0;
const freshId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(++generated).toString(36)}`;

/** Random model ids like the platform's (32 hex digits) when neither the page nor the manifest names the model. */
function randomModelId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Load failures are reported as viewer2d.loadfail; they are not reported twice. */
const reported = new WeakSet<object>();

/**
 * The 2D viewer: storey plans (spaces and the cut of the building) as SVG, panned and
 * zoomed with the mouse, wheel or fingers.
 *
 * Nothing is displayed until a storey is shown (`showStorey`). Methods that change the
 * viewer return promises and run in call order: while a `loadUrl` is under way, later
 * calls wait for it, so `showStorey(id)` straight after `loadUrl(url)` acts on the
 * loaded model; when nothing is loading they take effect at once. Methods that read
 * (`getStoreys`, `getSpaces`, `getSelected`, ...) and `addMarker`/`addImage` (which give
 * the new id) answer synchronously, as the documented API does.
 *
 * @fires viewer2d.click - click; detail `{location{x,y,z}, id}` (id undefined on empty space); cancel to prevent selecting
 * @fires viewer2d.dblclick - double click; detail `{location, id}`; cancel to prevent the zoom
 * @fires viewer2d.contextmenu - context menu requested; detail `{location, id}`
 * @fires viewer2d.load - a model is loaded; detail `{modelId}`
 * @fires viewer2d.loadstart - a model starts loading; detail `{modelId}`
 * @fires viewer2d.loadfail - a model could not be loaded; detail `{modelId, message}`
 * @fires viewer2d.unload - a model was unloaded; detail `{modelId}`
 * @fires viewer2d.markerclick - click on a clickable marker; detail `{marker}`; cancel to keep the click from the plan
 * @fires viewer2d.markerhover - the pointer entered a marker; detail `{marker}`; cancel to prevent the highlight
 * @fires viewer2d.markerdrag - a draggable marker was dropped at a new place; detail `{marker}`; cancel to put it back
 * @fires viewer2d.select - the user changed the selection; detail `{selected}`
 * @fires viewer2d.viewpoint - the user dragged the viewpoint arrow; detail `{viewpoint{location, direction, rotation}}`
 * @fires viewer2d.error - a method was called wrongly; detail `{type, message}`
 */
export class BimViewer2d extends LitElement {
  static override styles = css`
    :host { display: block; position: relative; overflow: hidden; min-height: 150px; contain: strict; touch-action: none; background: #fff; }
    :host([hidden]) { display: none; }
    .plan-host { position: absolute; inset: 0; }
  `;

  /** Shows the red arrow of the viewing position (once a storey is shown). */
  @property({ attribute: 'show-viewpoint', reflect: true, type: Boolean, converter: booleanAttribute(true) }) showViewpoint = true;
  /** Fill of selected spaces (any CSS colour). */
  @property({ attribute: 'select-color', reflect: true }) selectColor = DEFAULT_SELECT_COLOR;

  private readonly container: HTMLDivElement;
  private readonly core: Viewer2d;
  private plans?: PlanClient;
  private pending = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private resizeObserver?: ResizeObserver;
  private disposed = false;

  constructor() {
    super();
    this.container = document.createElement('div');
    this.container.className = 'plan-host';
    this.container.part.add('plan');
    this.core = new Viewer2d(this.container, this.coreOptions(), {
      click: (location, id) => emit2d(this, 'viewer2d.click', { location, id }),
      dblclick: (location, id) => emit2d(this, 'viewer2d.dblclick', { location, id }),
      contextmenu: (location, id) => emit2d(this, 'viewer2d.contextmenu', { location, id }),
      select: (selected) => { emit2d(this, 'viewer2d.select', { selected }); },
      viewpoint: (viewpoint) => { emit2d(this, 'viewer2d.viewpoint', { viewpoint }); },
      markerclick: (marker) => emit2d(this, 'viewer2d.markerclick', { marker }),
      markerhover: (marker) => emit2d(this, 'viewer2d.markerhover', { marker }),
      markerdrag: (marker) => emit2d(this, 'viewer2d.markerdrag', { marker }),
    });
  }

  override render() {
    return html`${this.container}`;
  }

  override firstUpdated() {
    this.resizeObserver = new ResizeObserver(() => this.core.resize());
    this.resizeObserver.observe(this);
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('selectColor') && !isCssColor(this.selectColor)) {
      this.report(new ViewerError('argument', `selectColor: ${describe(this.selectColor)} is not a CSS colour; using ${DEFAULT_SELECT_COLOR}`));
    }
    this.core.setOptions(this.coreOptions());
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.resizeObserver?.disconnect();
    this.resizeObserver = undefined;
  }

  override connectedCallback() {
    super.connectedCallback();
    if (this.hasUpdated && !this.resizeObserver && !this.disposed) {
      this.resizeObserver = new ResizeObserver(() => this.core.resize());
      this.resizeObserver.observe(this);
    }
  }

  private coreOptions() {
    return {
      showViewpoint: this.showViewpoint !== false,
      selectColor: isCssColor(this.selectColor) ? this.selectColor : DEFAULT_SELECT_COLOR,
    };
  }

  // ---- plumbing -------------------------------------------------------------

  /**
   * Runs `op` in call order: at once when nothing is under way, else after the calls
   * made before it. Errors reject the promise and fire viewer2d.error.
   */
  private run<T>(op: (core: Viewer2d) => T | Promise<T>): Promise<T> {
    if (this.pending === 0) {
      let result: T | Promise<T>;
      try {
        result = this.live(op);
      } catch (e) {
        return this.failed(e);
      }
      return result instanceof Promise ? this.track(result) : Promise.resolve(result);
    }
    return this.track(this.tail.then(() => this.live(op)));
  }

  private live<T>(op: (core: Viewer2d) => T): T {
    if (this.disposed) throw new ViewerError('disposed', 'The 2D viewer has been disposed');
    return op(this.core);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending++;
    const settled = promise.finally(() => { this.pending--; });
    this.tail = settled.catch(() => undefined);
    return settled.catch((e: unknown) => this.failed(e));
  }

  private failed(e: unknown): Promise<never> {
    const error = e instanceof ViewerError ? e : new ViewerError('argument', (e as Error)?.message ?? String(e));
    if (!reported.has(e as object)) this.report(error);
    return Promise.reject(error);
  }

  private report(error: ViewerError) {
    emit2d(this, 'viewer2d.error', { type: error.type, message: error.message });
  }

  /** Validates synchronously, so wrong arguments reject even while a load is under way. */
  private checked<T>(check: () => void, op: (core: Viewer2d) => T | Promise<T>): Promise<T> {
    try {
      check();
    } catch (e) {
      return this.failed(e);
    }
    return this.run(op);
  }

  /** For the synchronous methods: a wrong call fires viewer2d.error and throws. */
  private checkNow(check: () => void) {
    try {
      check();
    } catch (e) {
      const error = e instanceof ViewerError ? e : new ViewerError('argument', String(e));
      this.report(error);
      throw error;
    }
  }

  // ---- loading --------------------------------------------------------------

  /**
   * Loads a token URL (a manifest of models, IFC text or processed plans). Without `append` the models
   * loaded before are unloaded first. `modelId` names the (first) model; otherwise the
   * manifest's id is used, or a random one. Resolves to the ids of the loaded models.
   */
  loadUrl(url: string, options: LoadOptions2d = {}): Promise<string[]> {
    return this.checked(() => {
      checkString('loadUrl', 'url', url);
      checkOptionalObject('loadUrl', 'options', options);
    }, async (core) => {
      const opts = options ?? {};
      let sources;
      try {
        sources = await loadSources(url, PLANS_OR_IFC);
      } catch (e) {
        const id = opts.modelId ? String(opts.modelId) : randomModelId();
        emit2d(this, 'viewer2d.loadstart', { modelId: id });
        emit2d(this, 'viewer2d.loadfail', { modelId: id, message: (e as Error).message });
        reported.add(e as object);
        throw e;
      }
      if (!opts.append) for (const id of core.modelIds()) this.unloadNow(core, id);
      const ids: string[] = [];
      let firstError: unknown;
      for (const [i, source] of sources.entries()) {
        const named = opts.modelId ? (i === 0 ? String(opts.modelId) : `${opts.modelId}-${i + 1}`) : undefined;
        const modelId = named ?? source.id ?? randomModelId();
        if (core.modelIds().includes(modelId)) this.unloadNow(core, modelId);
        emit2d(this, 'viewer2d.loadstart', { modelId });
        try {
          const base = source.objectIdBase ?? this.freshBase(core);
          const plan = await this.planOf(source, base);
          if (this.disposed) throw new ViewerError('disposed', 'The 2D viewer has been disposed');
          core.addModel(modelId, (i === 0 && opts.modelName ? String(opts.modelName) : source.name) ?? modelId, base, plan);
          ids.push(modelId);
          emit2d(this, 'viewer2d.load', { modelId });
        } catch (e) {
          emit2d(this, 'viewer2d.loadfail', { modelId, message: (e as Error).message });
          firstError ??= e;
        }
      }
      if (firstError) {
        reported.add(firstError as object);
        throw firstError;
      }
      return ids;
    });
  }

  /**
   * The plans of a source: read from the platform's processed plans (formats/plans.ts), or
   * extracted from its IFC in the plan worker. Processed plans that fail to load give way
   * to the IFC the manifest also offers, with a warning that says why.
   */
  private planOf(source: ModelSource, base: string): Promise<PlanModel> {
    return withFallback('bim-viewer-2d', source, (from) => this.planFrom(from, base));
  }

  private async planFrom(source: ModelSource, base: string): Promise<PlanModel> {
    if (source.format === 'plans') {
      try {
        const [bytes] = await Promise.all([source.bytes ?? fetchBytes(source.url), checksums()]);
        return decodePlans(new Uint8Array(bytes), base);
      } catch (e) {
        throw e instanceof PlansFormatError ? new ViewerError('plans', `${source.url}: ${e.message}`) : e;
      }
    }
    const bytes = source.bytes ?? (await fetchBytes(source.url));
    this.plans ??= new PlanClient();
    try {
      return await this.plans.plan(bytes, base);
    } catch (e) {
      throw new ViewerError('ifc', `Could not read the plans of ${source.url}: ${(e as Error).message}`);
    }
  }

  /** Unloads a model (by the id loadUrl gave it). */
  unloadModel(modelId: string): Promise<void> {
    return this.checked(() => checkString('unloadModel', 'modelId', modelId), (core) => {
      if (!core.modelIds().includes(modelId)) throw new ViewerError('argument', `unloadModel: no model with id "${modelId}" is loaded`);
      this.unloadNow(core, modelId);
    });
  }

  private unloadNow(core: Viewer2d, modelId: string) {
    if (core.removeModel(modelId)) emit2d(this, 'viewer2d.unload', { modelId });
  }

  /** A base that keeps a model without one apart from every loaded model (as in the 3D viewer). */
  private freshBase(core: Viewer2d): string {
    const used = new Set(core.store.models.map((m) => m.objectIdBase));
    for (let n = 0n; ; n++) {
      const base = (n * MODEL_ID_SPAN).toString();
      if (!used.has(base) && isValidBase(base)) return base;
    }
  }

  /** Moves and turns a model's plan: `{position{x,y,z}, rotation{centerOfRotation{x,y}, angle (radians)}}`. */
  setTransformation(modelId: string, transformation: Transformation2d): Promise<void> {
    return this.checked(() => {
      checkString('setTransformation', 'modelId', modelId);
      checkTransformation('setTransformation', transformation);
    }, (core) => {
      if (!core.modelIds().includes(modelId)) throw new ViewerError('argument', `setTransformation: no model with id "${modelId}" is loaded`);
      core.setTransformation(modelId, transformation);
    });
  }

  // ---- storeys ----------------------------------------------------------------

  /** Shows a storey (more than one may be shown, e.g. one per model). */
  showStorey(id: string): Promise<void> {
    return this.checked(() => checkIds('showStorey', id), (core) => {
      if (!core.showStorey(String(id))) throw new ViewerError('argument', `showStorey: no storey with id "${String(id)}" is loaded`);
    });
  }

  hideStorey(id: string): Promise<void> {
    return this.checked(() => checkIds('hideStorey', id), (core) => { core.hideStorey(String(id)); });
  }

  /** Hides every storey. */
  hideStoreys(): Promise<void> {
    return this.run((core) => core.hideStoreys());
  }

  /** The storeys `{elevation, id, guid, name}` of the first model (of all with `all`), lowest first. */
  getStoreys(query: StoreyQuery = {}): Storey2d[] {
    this.checkNow(() => checkOptionalObject('getStoreys', 'query', query));
    return this.core.store.storeys(query ?? {});
  }

  /** The storey of the first model at an elevation (the highest at or below it), or null. */
  getStoreyByElevation(elevation: number): Storey2d | null {
    this.checkNow(() => checkNumber('getStoreyByElevation', 'elevation', elevation));
    const model = this.core.store.models[0];
    const storey = model && this.core.store.storeyAt(model, Number(elevation));
    return storey ? this.core.store.storeyInfo(storey) : null;
  }

  /** One storey per model at an elevation. */
  getStoreysByElevation(elevation: number): Storey2d[] {
    this.checkNow(() => checkNumber('getStoreysByElevation', 'elevation', elevation));
    return this.core.store.models
      .map((m) => this.core.store.storeyAt(m, Number(elevation)))
      .filter((s): s is NonNullable<typeof s> => !!s)
      .map((s) => this.core.store.storeyInfo(s));
  }

  // ---- spaces -----------------------------------------------------------------

  /** The spaces of the first model (all with `all`); with `visible`, only those shown, with their bounding boxes. */
  getSpaces(query: SpaceQuery = {}): Space2d[] {
    this.checkNow(() => checkOptionalObject('getSpaces', 'query', query));
    return this.core.store.spaces(query ?? {});
  }

  /** The bounding box `{x, y, width, height, min, max}` of spaces (or storeys), or null when none is known. */
  getBoundingBox(ids: Ids): BoundingBox2d | null {
    this.checkNow(() => checkIds('getBoundingBox', ids));
    return this.core.getBoundingBox(toIdList(ids));
  }

  /** Deprecated in the documented API: always `{z: 0}`. */
  getOffset(): { z: number } {
    return { z: 0 };
  }

  /** Selects spaces shown in 2D (replacing the selection); others are ignored. */
  select(ids: Ids): Promise<void> {
    return this.checked(() => checkIds('select', ids), (core) => core.select(toIdList(ids)));
  }

  /** Removes ids from the selection; all when none are given. */
  unselect(ids?: Ids | null): Promise<void> {
    return this.checked(() => { if (ids !== undefined && ids !== null) checkIds('unselect', ids); },
      (core) => core.unselect(ids === undefined || ids === null ? undefined : toIdList(ids)));
  }

  /** The selected space ids. */
  getSelected(): string[] {
    return this.core.getSelected();
  }

  /** Fills spaces with a CSS colour (`rgba(...)` for see-through). */
  setColor(ids: Ids, color: string): Promise<void> {
    return this.checked(() => { checkIds('setColor', ids); checkCssColor('setColor', color); }, (core) => core.setColor(toIdList(ids), color));
  }

  clearColors(): Promise<void> {
    return this.run((core) => core.clearColors());
  }

  /** Names to show instead of the model's: `{objectId: {name, longName}}`. */
  setSpaceNames(names: Record<string, { name?: string; longName?: string }>): Promise<void> {
    return this.checked(() => checkSpaceNames('setSpaceNames', names), (core) => core.setSpaceNames(names));
  }

  /** `regular` shows space names, `long` their long names. */
  setSpaceNameFormat(format: SpaceNameFormat): Promise<void> {
    return this.checked(() => checkNameFormat('setSpaceNameFormat', format), (core) => core.setSpaceNameFormat(format));
  }

  // ---- markers and images ------------------------------------------------------

  /** Adds a marker; returns its id (the given one, or a new one). */
  addMarker(marker: MarkerInput): string {
    this.checkNow(() => checkMarker('addMarker', marker));
    const id = marker.id !== undefined && marker.id !== null && String(marker.id) !== '' ? String(marker.id) : freshId('marker');
    void this.run((core) => { core.addMarker({ ...marker, id }); }).catch(() => undefined);
    return id;
  }

  removeMarker(id: string): Promise<void> {
    return this.checked(() => checkIds('removeMarker', id), (core) => { core.removeMarker(String(id)); });
  }

  clearMarkers(): Promise<void> {
    return this.run((core) => core.clearMarkers());
  }

  /** The markers, with their current positions. */
  getMarkers(): Marker[] {
    return this.core.getMarkers();
  }

  /** Adds an image covering x..x+width, y..y+height (metres); returns its id. */
  addImage(image: ImageInput): string {
    this.checkNow(() => checkImage('addImage', image));
    const id = image.id !== undefined && image.id !== null && String(image.id) !== '' ? String(image.id) : freshId('image');
    void this.run((core) => { core.addImage({ ...image, id, x: Number(image.x), y: Number(image.y), width: Number(image.width), height: Number(image.height) }); }).catch(() => undefined);
    return id;
  }

  clearImages(): Promise<void> {
    return this.run((core) => core.clearImages());
  }

  // ---- viewpoint and view -------------------------------------------------------

  /** `{location{x,y,z}, direction{x,y,z}}`: z is the height of the storey shown; the direction is horizontal. */
  getViewpoint(): Viewpoint2d {
    return this.core.getViewpoint();
  }

  /** `{location{x,y}, direction}`, direction in degrees (counter-clockwise from +x) or a vector `{x,y}`. */
  setViewpoint(viewpoint: ViewpointInput2d): Promise<void> {
    return this.checked(() => checkViewpoint2d('setViewpoint', viewpoint), (core) => core.setViewpoint(viewpoint));
  }

  /** Moves the viewpoint to (x, y). */
  moveTo(x: number, y: number): Promise<void> {
    return this.checked(() => { checkNumber('moveTo', 'x', x); checkNumber('moveTo', 'y', y); }, (core) => core.moveTo(Number(x), Number(y)));
  }

  /** Hides the viewpoint arrow (the same as setting `showViewpoint` to false). */
  hideViewpoint(): Promise<void> {
    return this.run((core) => {
      this.showViewpoint = false;
      core.setOptions(this.coreOptions());
    });
  }

  /** Shows the viewpoint arrow again (`showViewpoint = true`). */
  revealViewpoint(): Promise<void> {
    return this.run((core) => {
      this.showViewpoint = true;
      core.setOptions(this.coreOptions());
    });
  }

  /**
   * Brings spaces (or storeys) into view, `expand` metres around them. When none of them
   * is on a shown storey, switches to the lowest of their storeys, unless `retainStoreys`.
   */
  lookAt(ids: Ids, options: LookAtOptions2d = {}): Promise<void> {
    return this.checked(() => { checkIds('lookAt', ids); checkOptionalObject('lookAt', 'options', options); },
      (core) => core.lookAt(toIdList(ids), options ?? {}));
  }

  /** Brings a box into view; with z given (and no retainStoreys) shows the storeys at min.z. */
  lookAtBoundingBox(box: Box2Input, options: { retainStoreys?: boolean } = {}): Promise<void> {
    return this.checked(() => { checkBox2('lookAtBoundingBox', box); checkOptionalObject('lookAtBoundingBox', 'options', options); },
      (core) => core.lookAtBoundingBox(normaliseBox(box), options ?? {}));
  }

  /** A PNG data URL of the view, `width` x `height` pixels (default: the element's size). */
  screenshot(size?: { width?: number; height?: number } | null, callback?: (image: string) => void): Promise<string> {
    return this.checked(() => {
      if (size !== undefined && size !== null) {
        checkOptionalObject('screenshot', 'size', size);
        if (size.width !== undefined) checkNumber('screenshot', 'width', size.width);
        if (size.height !== undefined) checkNumber('screenshot', 'height', size.height);
      }
    }, async (core) => {
      const image = await core.screenshot(size?.width === undefined ? undefined : Number(size.width), size?.height === undefined ? undefined : Number(size.height));
      if (typeof callback === 'function') callback.call(this, image);
      return image;
    });
  }

  /** Fits the plan to the element again after a size change (also done by itself). */
  resize(): Promise<void> {
    return this.run((core) => core.resize());
  }

  /** Releases the worker and the listeners; later calls reject. */
  dispose(): Promise<void> {
    return this.run((core) => {
      core.dispose();
      this.plans?.dispose();
      this.plans = undefined;
      this.resizeObserver?.disconnect();
      this.disposed = true;
    });
  }
}

function normaliseBox(box: Box2Input): Box2Input {
  const n = (v: unknown) => (v === undefined || v === null ? undefined : Number(v));
  return {
    min: { x: Number(box.min.x), y: Number(box.min.y), z: n(box.min.z) },
    max: { x: Number(box.max.x), y: Number(box.max.y), z: n(box.max.z) },
  };
}

if (canDefine('bim-viewer-2d')) customElements.define('bim-viewer-2d', BimViewer2d);

declare global {
  interface HTMLElementTagNameMap {
    'bim-viewer-2d': BimViewer2d;
  }
  interface HTMLElementEventMap extends CustomEvents<Viewer2dEventMap> {}
}

export type { Viewer2dEventName };
