import { LitElement, css, html } from 'lit';
import { property } from 'lit/decorators.js';
import { Viewer3d } from '../core/viewer3d.js';
import { loadSources, SCENE_OR_IFC, type ModelSource } from '../core/data/load-sources.js';
import { parseObjectQuery } from '../core/data/object-query.js';
import { checkIds, checkString, checkFunction, checkBox, checkViewName, checkViewpoint, checkColor, checkClippingPlanes, checkTransform } from '../core/data/arguments.js';
import {
  ViewerError,
  type Box,
  type ClippingPlane,
  type ColorInfo,
  type Ids,
  type LoadModelOptions,
  type ModelInfo,
  type ObjectQuery,
  type Product,
  type ProductOptions,
  type Vec3,
  type ViewName,
  type Viewpoint,
  type ViewpointInput,
} from '../core/types.js';
import { emit, type CustomEvents, type Viewer3dEventMap, type Viewer3dEventName } from './events.js';
import { isEasing, type TransitionSettings } from '../core/scene/camera-transition.js';
import { MOVEMENTS, parseNavigationMap, type Movement, type NavigationMap } from '../core/scene/navigation-map.js';
import type { AxisState, GridInfo } from '../core/scene/grid-axes.js';
import type { ImageSpec } from '../core/scene/images.js';
import { bcfViewpointError, showBcfViewpoint, takeBcfViewpoint } from '../core/bcf/viewer-viewpoints.js';
import type { BcfViewpoint } from '../core/bcf/viewpoint-types.js';
import type { PointCloudOptions } from '../core/pointcloud/point-clouds.js';
import { canDefine } from './define.js';
import { booleanAttribute } from './boolean-attribute.js';

function checkMovement(method: string, movement: unknown, value: unknown) {
  if (!MOVEMENTS.includes(movement as Movement)) throw new ViewerError('argument', `${method}: unknown movement "${String(movement)}" (${MOVEMENTS.join(', ')})`);
  if (typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) throw new ViewerError('argument', `${method}: value must be a boolean or a number`);
}

const RELEASED = 'The viewer was removed from the page, which released it; put it back to start again';

/**
 * The 3D viewer: IFC models (web-ifc in a worker) and point clouds in a WebGL scene (three.js).
 *
 * Point clouds (`application/vnd.platform.pointcloud`, read with HTTP range requests) load
 * with `loadModel(url, {modelType: 'point-cloud', modelId})` or from a manifest that offers
 * that format; they share the origin, clipping planes, picking and measuring with BIM
 * models. Their settings are methods: `setPointCloudOptions({pointBudget, pointSize,
 * colorMode, hiddenClasses, eyeDomeLighting})` and `getPointCloudOptions()`.
 *
 * Every method returns a promise and runs after the calls made before it, so a page
 * may call `hide(ids)` straight after `loadUrl(url)` and it acts on the loaded model.
 * Failures reject the promise and fire `viewer.error`; what was loaded stays usable.
 *
 * @fires viewer.load - after the models of a loadUrl/loadModel are in the scene; detail `{modelIds}`
 * @fires viewer.error - something went wrong; detail `{type, message}`
 * @fires viewer.select - the user changed the selection; detail `{selected}`
 * @fires viewer.viewpoint - the user moved the camera; detail `{viewpoint}`
 * @fires viewer.click - click; detail `{objectId, intersects}`; cancel to prevent selecting
 * @fires viewer.doubleclick - double click; detail `{objectId, intersects}`; cancel to prevent look-at
 * @fires viewer.contextmenu - context menu requested; detail `{objectId, intersects}`
 * @fires viewer.streamingprogress - while models load; detail `{progress: {modelId, progress, phase}}`
 * @fires viewer.clippingplanes - the clipping planes changed; detail `{planes}`
 */
export class BimViewer3d extends LitElement {
  static override styles = css`
    :host { display: block; position: relative; overflow: hidden; min-height: 150px; contain: strict; touch-action: none; }
    :host([hidden]) { display: none; }
    .canvas-host { position: absolute; inset: 0; }
  `;

  /** Colour of objects that carry no colour of their own (CSS colour or number). */
  @property({ attribute: 'default-color', reflect: true }) defaultColor: string | number = '#101010';
  /** Colour of selected objects. */
  @property({ attribute: 'selected-color', reflect: true }) selectedColor = '#a7f555';
  /** Opacity of objects made translucent. */
  @property({ attribute: 'translucent-opacity', reflect: true, type: Number }) translucentOpacity = 0.05;
  /** Vertical field of view in degrees. */
  @property({ attribute: 'field-of-view', reflect: true, type: Number }) fieldOfView = 60;
  /** One-finger orbit, two-finger pan and pinch on touch screens. */
  @property({ attribute: 'enable-touch', reflect: true, type: Boolean, converter: booleanAttribute(false) }) enableTouch = false;
  /** Colour of the sphere that marks the orbit point while orbiting. */
  @property({ attribute: 'navigation-orbit-sphere-color', reflect: true }) navigationOrbitSphereColor = '#b1d059';
  /** Shows the clipping plane widget on the selected plane when a plane exists (drag to move, R to turn). */
  @property({ attribute: 'enable-clipping-plane-widget', reflect: true, type: Boolean, converter: booleanAttribute(false) }) enableClippingPlaneWidget = false;
  /** Border colour of the selected clipping plane. */
  @property({ attribute: 'active-clipping-plane-border-color', reflect: true }) activeClippingPlaneBorderColor = '#a7f555';
  /** How labels (measurements, grid tags) are drawn: `canvas` sprites, or `dom` elements for sharper text. */
  @property({ attribute: 'text-render-mode', reflect: true }) textRenderMode: 'canvas' | 'dom' = 'canvas';

  private core?: Viewer3d;
  private queue: Promise<unknown> = Promise.resolve();
  private resizeObserver?: ResizeObserver;
  private disposed = false;
  /** Set while the element is out of the page and its viewer released (see disconnectedCallback). */
  private released = false;
  private releaseTimer?: ReturnType<typeof setTimeout>;

  override render() {
    return html`<div class="canvas-host" part="canvas"></div>`;
  }

  override firstUpdated() {
    this.start();
  }

  /** A new viewer on the canvas host: at the first render, and when a released element comes back. */
  private start() {
    const host = this.renderRoot.querySelector('.canvas-host') as HTMLElement;
    try {
      this.core = new Viewer3d(host, this.coreOptions(), {
        select: (selected) => { emit(this, 'viewer.select', { selected }); },
        clippingplanes: (planes) => { emit(this, 'viewer.clippingplanes', { planes }); },
        viewpoint: (viewpoint) => { emit(this, 'viewer.viewpoint', { viewpoint }); },
        click: (objectId, intersects) => emit(this, 'viewer.click', { objectId, intersects }),
        doubleclick: (objectId, intersects) => emit(this, 'viewer.doubleclick', { objectId, intersects }),
        contextmenu: (objectId, intersects) => emit(this, 'viewer.contextmenu', { objectId, intersects }),
        error: (error) => this.report(error),
      });
    } catch (e) {
      this.report(new ViewerError('webgl', `WebGL is not available: ${(e as Error).message}`));
      return;
    }
    this.resizeObserver = new ResizeObserver(() => this.core?.resize());
    this.resizeObserver.observe(this);
  }

  override updated(changed: Map<string, unknown>) {
    if (this.core && [...changed.keys()].some((k) => k !== 'core')) this.core.setOptions(this.coreOptions());
  }

  override connectedCallback() {
    super.connectedCallback();
    clearTimeout(this.releaseTimer);
    if (this.released) {
      this.released = false;
      this.start();
    } else if (this.core) {
      this.resizeObserver?.observe(this);
    }
  }

  /**
   * Taken out of the page (a framework unmounting it), the element releases its viewer
   * after the current task: the WebGL context, the models and their worker memory go at
   * once rather than when garbage is collected (a browser keeps about 16 contexts). A move
   * within one task keeps everything; an element put back later starts empty.
   */
  override disconnectedCallback() {
    super.disconnectedCallback();
    this.resizeObserver?.disconnect();
    clearTimeout(this.releaseTimer);
    this.releaseTimer = setTimeout(() => {
      if (this.isConnected || this.disposed || !this.core) return;
      this.core.dispose();
      this.core = undefined;
      this.released = true;
    });
  }

  private coreOptions() {
    return {
      defaultColor: this.defaultColor,
      selectedColor: this.selectedColor,
      translucentOpacity: Number(this.translucentOpacity),
      fieldOfView: Number(this.fieldOfView),
      enableTouch: Boolean(this.enableTouch),
      navigationOrbitSphereColor: this.navigationOrbitSphereColor,
      enableClippingPlaneWidget: Boolean(this.enableClippingPlaneWidget),
      activeClippingPlaneBorderColor: this.activeClippingPlaneBorderColor,
      textRenderMode: this.textRenderMode,
    };
  }

  // ---- plumbing -------------------------------------------------------------

  /** Runs `op` after every call made before it; errors reject and fire viewer.error. */
  private run<T>(op: (core: Viewer3d) => T | Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      await this.updateComplete;
      if (this.disposed) throw new ViewerError('disposed', 'The viewer has been disposed');
      if (this.released) throw new ViewerError('disposed', RELEASED);
      if (!this.core) throw new ViewerError('webgl', 'The viewer could not start (no WebGL)');
      await this.core.whenReady(); // a lost WebGL context comes back first
      if (this.disposed || !this.core) throw new ViewerError('disposed', 'The viewer has been disposed');
      return op(this.core);
    });
    this.queue = next.catch(() => undefined);
    return next.catch((e: unknown) => {
      // Work its release cut short rejects quietly: the page that removed the viewer is not listening for news of it.
      if (this.released) throw new ViewerError('disposed', RELEASED);
      const error = e instanceof ViewerError ? e : new ViewerError('ifc', (e as Error)?.message ?? String(e));
      this.report(error);
      throw error;
    });
  }

  private report(error: ViewerError) {
    emit(this, 'viewer.error', { type: error.type, message: error.message });
  }

  /** Validates synchronously so wrong arguments reject even while a load is under way. */
  private checked<T>(check: () => void, op: (core: Viewer3d) => T | Promise<T>): Promise<T> {
    try {
      check();
    } catch (e) {
      const error = e as ViewerError;
      this.report(error);
      return Promise.reject(error);
    }
    return this.run(op);
  }

  // ---- loading --------------------------------------------------------------

  /**
   * Loads a token URL: IFC text is one model; a JSON manifest lists models (DESIGN.md).
   * `query` loads only some objects: `{objectId: 123}` or `{objectId: {$in: [123, 456]}}`.
   */
  loadUrl(url: string, query?: ObjectQuery): Promise<ModelInfo[]> {
    return this.checked(() => { checkString('loadUrl', 'url', url); }, async (core) => {
      const only = parseObjectQuery(query);
      const sources = await loadSources(url, SCENE_OR_IFC);
      return this.loadAll(core, sources, only);
    });
  }

  /** Loads models from a 3D token, optionally only the objects in `options.query`. */
  loadModelsFromToken(url: string, options?: { query?: ObjectQuery }): Promise<ModelInfo[]> {
    return this.loadUrl(url, options?.query);
  }

  /**
   * Loads a document format as one model: an IFC download URL (`modelType` 'bim', the
   * default), or a point cloud file (`modelType: 'point-cloud'`). Resolves with the model's
   * info; a point cloud's adds `modelType: 'point-cloud'` and `pointCount`. A cloud that
   * cannot be read rejects with an error of type `pointcloud`.
   */
  loadModel(url: string, options: LoadModelOptions = {}): Promise<ModelInfo> {
    return this.checked(() => {
      checkString('loadModel', 'url', url);
      if (options.modelType && options.modelType !== 'bim' && options.modelType !== 'point-cloud') {
        throw new ViewerError('argument', `loadModel: modelType "${options.modelType}" is not supported ("bim" or "point-cloud")`);
      }
    }, async (core) => {
      const source: ModelSource = { url: new URL(url, document.baseURI).href, id: options.modelId, name: options.name, format: options.modelType === 'point-cloud' ? 'pointcloud' : undefined };
      const [info] = await this.loadAll(core, [source]);
      return info;
    });
  }

  private async loadAll(core: Viewer3d, sources: ModelSource[], only?: Set<string>): Promise<ModelInfo[]> {
    const infos: ModelInfo[] = [];
    for (const source of sources) {
      infos.push(await core.loadModel(source, only, (progress) => emit(this, 'viewer.streamingprogress', { progress })));
    }
    emit(this, 'viewer.load', { modelIds: infos.map((i) => i.modelId) });
    return infos;
  }

  showModel(modelId: string): Promise<void> {
    return this.checked(() => checkString('showModel', 'modelId', modelId), (core) => core.setModelVisible(modelId, true));
  }

  hideModel(modelId: string): Promise<void> {
    return this.checked(() => checkString('hideModel', 'modelId', modelId), (core) => core.setModelVisible(modelId, false));
  }

  unloadModel(modelId: string): Promise<void> {
    return this.checked(() => checkString('unloadModel', 'modelId', modelId), (core) => core.unloadModel(modelId));
  }

  /**
   * Places a model: `{position {x,y,z}, scale {x,y,z}, rotation {x,y,z, angle (radians)}}`,
   * scaled, turned about the axis (x, y, z), then moved, about the IFC origin. Each call
   * replaces the previous transform.
   */
  transformModel(modelId: string, transform: { position?: Vec3; scale?: Vec3; rotation?: Vec3 & { angle: number } }): Promise<void> {
    return this.checked(() => {
      checkString('transformModel', 'modelId', modelId);
      checkTransform('transformModel', transform);
    }, (core) => core.transformModel(modelId, transform));
  }

  /** The loaded models, or the one with `modelId`: `[{modelId, name, boundingBox, visible}]`. */
  modelInfo(modelId?: string): Promise<ModelInfo[]> {
    return this.run((core) => core.modelInfo(modelId ?? undefined));
  }

  // ---- object state ---------------------------------------------------------

  show(ids: Ids) { return this.checked(() => checkIds('show', ids), (core) => core.setVisible(ids, true)); }
  hide(ids: Ids) { return this.checked(() => checkIds('hide', ids), (core) => core.setVisible(ids, false)); }
  translucent(ids: Ids) { return this.checked(() => checkIds('translucent', ids), (core) => core.setTranslucent(ids, true)); }
  opaque(ids: Ids) { return this.checked(() => checkIds('opaque', ids), (core) => core.setTranslucent(ids, false)); }
  select(ids: Ids) { return this.checked(() => checkIds('select', ids), (core) => core.setSelected(ids, true)); }
  deselect(ids: Ids) { return this.checked(() => checkIds('deselect', ids), (core) => core.setSelected(ids, false)); }
  showAll() { return this.run((core) => core.setVisible(null, true)); }
  hideAll() { return this.run((core) => core.setVisible(null, false)); }
  translucentAll() { return this.run((core) => core.setTranslucent(null, true)); }
  opaqueAll() { return this.run((core) => core.setTranslucent(null, false)); }
  deselectAll() { return this.run((core) => core.setSelected(null, false)); }

  /**
   * `color('#ff0000', ids)` sets a colour (`#RRGGBB` or `#RRGGBBAA`); `color(null, ids)`
   * reads the custom colours of those ids: `{id: {color{r,g,b}, opacity, style}}`, `{}` when none.
   */
  color(color: string | null, ids: Ids): Promise<ColorInfo | void> {
    return this.checked(() => {
      checkIds('color', ids);
      if (color !== null) checkColor('color', color);
    }, (core) => (color === null ? core.getColors(ids) : core.setColor(ids, color)));
  }

  resetColors() { return this.run((core) => core.resetColors()); }

  /** Calls `callback(id)` for every object; resolves to the ids. */
  each(callback?: (id: string) => void): Promise<string[]> {
    return this.checked(() => { if (callback !== undefined) checkFunction('each', callback); }, (core) => {
      const ids = core.objectIds();
      ids.forEach((id) => callback?.call(this, id));
      return ids;
    });
  }

  /** Calls `callback(id)` for every selected object; resolves to the ids. */
  eachSelected(callback?: (id: string) => void): Promise<string[]> {
    return this.checked(() => { if (callback !== undefined) checkFunction('eachSelected', callback); }, (core) => {
      const ids = core.selectedIds();
      ids.forEach((id) => callback?.call(this, id));
      return ids;
    });
  }

  // ---- camera ---------------------------------------------------------------

  /** Moves the objects into view, optionally from a named direction. */
  lookAt(ids: Ids, direction?: ViewName) {
    return this.checked(() => { checkIds('lookAt', ids); if (direction !== undefined) checkViewName('lookAt', direction); },
      (core) => core.lookAt(ids, direction));
  }

  /** Bounding box `{min, max}` of the objects (all when `ids` is null); null when none is known. */
  boundingBox(ids: Ids | null = null): Promise<Box | null> {
    return this.checked(() => { if (ids !== null) checkIds('boundingBox', ids); }, (core) => core.boundingBox(ids));
  }

  lookAtBoundingBox(box: Box, direction?: ViewName) {
    return this.checked(() => { checkBox('lookAtBoundingBox', box); if (direction !== undefined) checkViewName('lookAtBoundingBox', direction); },
      (core) => core.lookAtBox(box, direction));
  }

  /** Without an argument (or null) resolves to the current viewpoint; otherwise sets it. */
  viewpoint(viewpoint?: ViewpointInput | null): Promise<Viewpoint> {
    return this.checked(() => { if (viewpoint != null) checkViewpoint('viewpoint', viewpoint); }, async (core) => {
      if (viewpoint != null) await core.setViewpoint(viewpoint);
      return core.getViewpoint();
    });
  }

  /**
   * Animates lookAt, lookAtBoundingBox and viewpoint: `{duration (ms), easing}` with the
   * standard easing names (LinearNone, QuadraticInOut, CubicOut, ...); initially `{duration: 0, easing: 'LinearNone'}`.
   * Without an argument resolves to the current settings.
   */
  transitionSettings(settings?: Partial<TransitionSettings> | null): Promise<TransitionSettings> {
    return this.checked(() => {
      if (settings == null) return;
      if (settings.duration !== undefined && !(Number.isFinite(settings.duration) && settings.duration >= 0)) throw new ViewerError('argument', 'transitionSettings: duration must be a number of milliseconds >= 0');
      if (settings.easing !== undefined && !isEasing(settings.easing)) throw new ViewerError('argument', `transitionSettings: unknown easing "${settings.easing}" (try LinearNone, QuadraticInOut, CubicOut, ...)`);
    }, (core) => {
      if (settings != null) core.transitionSettings = { ...core.transitionSettings, ...settings };
      return core.transitionSettings;
    });
  }

  /** `{fov (degrees), near, far (metres)}`; unset near/far are chosen from the scene. */
  setCameraSettings(settings: Partial<{ fov: number; near: number; far: number }>): Promise<void> {
    return this.checked(() => {
      const s = settings as Record<string, unknown> | null;
      if (!s || typeof s !== 'object') throw new ViewerError('argument', 'setCameraSettings: expected {fov, near, far}');
      for (const key of ['fov', 'near', 'far']) {
        if (s[key] !== undefined && !(Number.isFinite(s[key]) && (s[key] as number) > 0)) throw new ViewerError('argument', `setCameraSettings: ${key} must be a positive number`);
      }
      if (settings.fov !== undefined && settings.fov >= 180) throw new ViewerError('argument', 'setCameraSettings: fov must be below 180 degrees');
      const near = settings.near, far = settings.far;
      if (near !== undefined && far !== undefined && near >= far) throw new ViewerError('argument', 'setCameraSettings: near must be less than far');
    }, (core) => {
      core.setCameraSettings(settings);
      if (settings.fov !== undefined) this.fieldOfView = settings.fov;
    });
  }

  getCameraSettings(): Promise<{ fov: number; near: number; far: number }> {
    return this.run((core) => core.getCameraSettings());
  }

  /**
   * `{renderMode: 'incremental' | 'regular', pixelRatio, depthBuffer: 'logarithmic' | 'standard'}`.
   * Incremental draws coarser frames while the camera moves and a full one when it rests.
   */
  setRenderSettings(settings: Partial<{ renderMode: 'incremental' | 'regular'; pixelRatio: number; depthBuffer: 'logarithmic' | 'standard' }>): Promise<void> {
    return this.checked(() => {
      const s = settings as Record<string, unknown> | null;
      if (!s || typeof s !== 'object') throw new ViewerError('argument', 'setRenderSettings: expected {renderMode, pixelRatio, depthBuffer}');
      if (s.renderMode !== undefined && s.renderMode !== 'incremental' && s.renderMode !== 'regular') throw new ViewerError('argument', 'setRenderSettings: renderMode must be "incremental" or "regular"');
      if (s.depthBuffer !== undefined && s.depthBuffer !== 'logarithmic' && s.depthBuffer !== 'standard') throw new ViewerError('argument', 'setRenderSettings: depthBuffer must be "logarithmic" or "standard"');
      if (s.pixelRatio !== undefined && !(Number.isFinite(s.pixelRatio) && (s.pixelRatio as number) > 0 && (s.pixelRatio as number) <= 4)) throw new ViewerError('argument', 'setRenderSettings: pixelRatio must be a number in (0, 4]');
    }, (core) => core.setRenderSettings(settings));
  }

  /** `{renderMode, pixelRatio, depthBuffer, shading}`. */
  getRenderSettings() {
    return this.run((core) => core.getRenderSettings());
  }

  /**
   * Point cloud settings; the ones given change, the others stay: `pointBudget` (points drawn
   * at most over all clouds, default 2,000,000), `pointSize` (a point's width as a multiple of
   * the spacing between points at its level, default 1), `colorMode` (`rgb` (default),
   * `intensity`, `classification`, `elevation`; a cloud without colour or intensity falls
   * back to intensity, then elevation), `hiddenClasses` (classification codes not drawn nor
   * picked, default []), `eyeDomeLighting` (shading by depth, default false).
   */
  setPointCloudOptions(options: Partial<PointCloudOptions>): Promise<void> {
    return this.checked(() => {
      if (!options || typeof options !== 'object') throw new ViewerError('argument', 'setPointCloudOptions: expected {pointBudget, pointSize, colorMode, hiddenClasses, eyeDomeLighting}');
    }, (core) => core.pointClouds.setOptions(options));
  }

  /** The point cloud settings: `{pointBudget, pointSize, colorMode, hiddenClasses, eyeDomeLighting}`. */
  getPointCloudOptions(): Promise<PointCloudOptions> {
    return this.run((core) => core.pointClouds.getOptions());
  }

  // ---- navigation -------------------------------------------------------------

  /**
   * 'orbit' (default), 'pan', 'pivot', or a custom map `{mouse, touch, keyboard}` of
   * `{event, action, filter, scale}` lists that replaces every default; `{}` disables
   * navigation. Names: docs/navigation.md.
   */
  setNavigationMode(mode: 'orbit' | 'pan' | 'pivot' | NavigationMap): Promise<void> {
    return this.checked(() => {
      if (typeof mode === 'string' && !['orbit', 'pan', 'pivot'].includes(mode)) throw new ViewerError('argument', `setNavigationMode: unknown mode "${mode}" (orbit, pan, pivot, or a map)`);
      if (typeof mode !== 'string') parseNavigationMap(mode);
    }, (core) => core.setNavigationMode(mode));
  }

  /** Holds a movement (moveForward, rotateLeft, ...) as a key would: true/1 starts it, false/0 ends it. */
  keyDown(movement: Movement, value: boolean | number = true): Promise<void> {
    return this.checked(() => checkMovement('keyDown', movement, value), (core) => core.keyDown(movement, value));
  }

  /** Releases every movement held by keyDown. */
  resetKeyDown(): Promise<void> {
    return this.run((core) => core.resetKeyDown());
  }

  /** Moves continuously with a strength (e.g. a joystick's deflection, -1..1) until stopNavigation. */
  navigate(movement: Movement, value: boolean | number = 1): Promise<void> {
    return this.checked(() => checkMovement('navigate', movement, value), (core) => core.navigate(movement, value));
  }

  stopNavigation(): Promise<void> {
    return this.run((core) => core.stopNavigation());
  }

  /** Walking speed in metres per second (default 3); without a value resolves to it. */
  walkSpeed(value?: number | null): Promise<number> {
    return this.speed('walkSpeed', value);
  }

  /** Up and down speed in metres per second (default 1.5). */
  elevationSpeed(value?: number | null): Promise<number> {
    return this.speed('elevationSpeed', value);
  }

  /** Turning speed in degrees per second (default 40). */
  rotationSpeed(value?: number | null): Promise<number> {
    return this.speed('rotationSpeed', value);
  }

  private speed(name: 'walkSpeed' | 'elevationSpeed' | 'rotationSpeed', value?: number | null): Promise<number> {
    return this.checked(() => {
      if (value != null && !(Number.isFinite(value) && value > 0)) throw new ViewerError('argument', `${name}: expected a positive number, got ${value}`);
    }, (core) => {
      if (value != null) core.movement.speeds[name] = value;
      return core.movement.speeds[name];
    });
  }

  // ---- images -----------------------------------------------------------------

  /**
   * Replaces the images in the scene: `[{url, size {width, height}, transform {position,
   * rotation}}]`, PNG, JPG, GIF or DDS, in metres, each centred on the origin and facing
   * up unless transformed (rotation: axis + angle in radians, or a quaternion). `[]` clears.
   */
  images(images: ImageSpec[]): Promise<void> {
    return this.checked(() => {
      if (!Array.isArray(images)) throw new ViewerError('argument', 'images: expected an array of {url, size, transform}');
      images.forEach((image, i) => {
        if (typeof image?.url !== 'string' || !image.url) throw new ViewerError('argument', `images: image ${i} needs a url`);
        if (!(image.size?.width > 0 && image.size?.height > 0)) throw new ViewerError('argument', `images: image ${i} needs a size {width, height} in metres`);
        if (image.transform !== undefined) checkTransform('images', image.transform);
      });
    }, (core) => core.setImages(images));
  }

  // ---- grids ------------------------------------------------------------------

  /** The IfcGrids of the loaded models: `[{id, name, type, modelId, axes: [{id, length}]}]`. */
  getGrids(): Promise<GridInfo[]> {
    return this.run((core) => core.getGrids());
  }

  /** `{visible, extrudeCurve}` of a grid axis. */
  getGridAxisState(axisId: string): Promise<AxisState> {
    return this.checked(() => checkString('getGridAxisState', 'axisId', axisId), (core) => core.getGridAxisState(axisId));
  }

  /** Shows or hides an axis (`visible`) and draws it as a curtain through the building (`extrudeCurve`). */
  setGridAxisState(axisId: string, state: Partial<AxisState>): Promise<void> {
    return this.checked(() => {
      checkString('setGridAxisState', 'axisId', axisId);
      const s = state as Record<string, unknown> | null;
      if (!s || typeof s !== 'object' || ['visible', 'extrudeCurve'].some((k) => s[k] !== undefined && typeof s[k] !== 'boolean')) {
        throw new ViewerError('argument', 'setGridAxisState: expected {visible?: boolean, extrudeCurve?: boolean}');
      }
    }, (core) => core.setGridAxisState(axisId, state));
  }

  /** `{location, direction}` at `distance` metres along the axis from its start. */
  calculatePointOnAxis(axisId: string, distance: number): Promise<{ location: Vec3; direction: Vec3 }> {
    return this.checked(() => {
      checkString('calculatePointOnAxis', 'axisId', axisId);
      if (!Number.isFinite(distance)) throw new ViewerError('argument', 'calculatePointOnAxis: distance must be a number of metres');
    }, (core) => core.calculatePointOnAxis(axisId, distance));
  }

  // ---- measuring --------------------------------------------------------------

  /**
   * Clicks measure instead of selecting: `{mode: 'laser'}` (point to point, default) or
   * `{mode: 'dimension'}` (its x, y and z parts); without a mode the last one is kept.
   * Points snap to vertices and edges; labels (metres) follow textRenderMode.
   */
  enableMeasure(options: { mode?: 'laser' | 'dimension' } = {}): Promise<void> {
    return this.checked(() => {
      const mode = options?.mode;
      if (mode !== undefined && mode !== 'laser' && mode !== 'dimension') throw new ViewerError('argument', `enableMeasure: mode must be "laser" or "dimension", got "${String(mode)}"`);
    }, (core) => core.enableMeasure(options?.mode));
  }

  /** Clicks select again; the measurements stay. */
  disableMeasure(): Promise<void> {
    return this.run((core) => core.disableMeasure());
  }

  /** Removes every measurement. */
  clearMeasure(): Promise<void> {
    return this.run((core) => core.clearMeasure());
  }

  // ---- clipping ---------------------------------------------------------------

  /**
   * `clippingPlanes([{location, direction}, ...])` sets up to six planes (`direction`
   * points to the side cut away); `clippingPlanes()` or `(null)` resolves to them.
   */
  clippingPlanes(planes?: ClippingPlane[] | null): Promise<ClippingPlane[]> {
    return this.checked(() => { if (planes != null) checkClippingPlanes('clippingPlanes', planes); }, (core) => {
      if (planes != null) core.setClippingPlanes(planes);
      return core.getClippingPlanes();
    });
  }

  /** Draws the clipping plane widget into this rectangle of the viewer (CSS pixels); needs enableClippingPlaneWidget. */
  clippingPlaneWidgetViewport(viewport: { x: number; y: number; width: number; height: number }): Promise<void> {
    return this.checked(() => {
      const ok = viewport && ['x', 'y', 'width', 'height'].every((k) => Number.isFinite((viewport as Record<string, number>)[k])) && viewport.width > 0 && viewport.height > 0;
      if (!ok) throw new ViewerError('argument', 'clippingPlaneWidgetViewport: expected {x, y, width, height} with a positive size');
    }, (core) => core.setClippingWidgetViewport(viewport));
  }

  /** Adds clipping planes at the top and/or bottom of the objects' bounding box. */
  section(ids: Ids, sides: ('top' | 'bottom')[] = ['top', 'bottom']): Promise<ClippingPlane[]> {
    return this.checked(() => {
      checkIds('section', ids);
      if (!Array.isArray(sides) || sides.some((s) => s !== 'top' && s !== 'bottom')) throw new ViewerError('argument', 'section: sides must be an array of "top" and "bottom"');
    }, (core) => {
      core.section(ids, sides);
      return core.getClippingPlanes();
    });
  }

  // ---- BCF viewpoints ---------------------------------------------------------

  /**
   * A BCF viewpoint (BCF-API 2.1/3.0 JSON, the body of POST .../viewpoints) of what the
   * viewer shows: `perspective_camera` or `orthogonal_camera` (IFC world coordinates,
   * metres, z up; vertical field of view in degrees), `clipping_planes` (`direction`
   * points to the side cut away) and `components` by IFC GlobalId: `selection`,
   * `coloring` (`RRGGBB`, or `AARRGGBB` when translucent) and `visibility`
   * (`default_visibility` with the shorter list of `exceptions`, `view_setup_hints` for
   * spaces and openings). `{snapshot: true}` adds `snapshot: {snapshot_type: 'png',
   * snapshot_data}` (plain base64).
   */
  getBcfViewpoint(options: { snapshot?: boolean } = {}): Promise<BcfViewpoint> {
    return this.checked(() => {
      const o = options as Record<string, unknown> | null;
      if (o != null && (typeof o !== 'object' || (o.snapshot !== undefined && typeof o.snapshot !== 'boolean'))) throw new ViewerError('argument', 'getBcfViewpoint: expected {snapshot?: boolean}');
    }, (core) => takeBcfViewpoint(core, options ?? {}));
  }

  /**
   * Shows a BCF viewpoint (BCF-API 2.1/3.0 JSON): its objects found by IFC GlobalId in every
   * loaded model (unknown GlobalIds are ignored; a whole without geometry of its own, such
   * as a curtain wall, stands for its parts), visibility with its view setup hints (spaces
   * and openings hidden unless they say visible), selection, colours, clipping planes,
   * then the camera, moved as transitionSettings say; resolves once it has arrived. A
   * malformed viewpoint rejects with a ViewerError of type `argument`.
   */
  showBcfViewpoint(viewpoint: BcfViewpoint): Promise<void> {
    return this.checked(() => {
      const error = bcfViewpointError('showBcfViewpoint', viewpoint);
      if (error) throw error;
    }, (core) => showBcfViewpoint(core, viewpoint));
  }

  // ---- data -----------------------------------------------------------------

  /** Product records (seed 000) of `ids` (all when omitted); unknown ids give null. */
  getProducts(ids?: Ids | null, options: ProductOptions = {}): Promise<(Product | null)[]> {
    return this.checked(() => { if (ids != null) checkIds('getProducts', ids); }, (core) => core.products(ids ?? null, options));
  }

  /** Product records with their attributes and property sets; unknown ids give null. */
  objectInfo(ids?: Ids | null): Promise<(Product | null)[]> {
    return this.getProducts(ids, { attributes: true, definedBy: true });
  }

  // ---- page -----------------------------------------------------------------

  /** A PNG data URL of the current view. */
  screenshot(): Promise<string> {
    return this.run((core) => core.screenshot());
  }

  /** Fits the canvas to the element (also done on every size change). */
  resize(): Promise<void> {
    return this.run((core) => core.resize());
  }

  /** Releases GPU memory, workers and listeners; later calls reject. Does not wait for queued calls. */
  dispose(): Promise<void> {
    const core = this.core;
    if (this.disposed || !core) return this.run(() => undefined);
    this.disposed = true;
    this.core = undefined;
    this.resizeObserver?.disconnect();
    core.dispose();
    return Promise.resolve();
  }

  /** For tests and tools: the renderer's counters after the last frame. */
  renderInfo(): Promise<{ drawCalls: number; triangles: number; objects: number; points: number }> {
    return this.run((core) => core.renderInfo());
  }
}

if (canDefine('bim-viewer-3d')) customElements.define('bim-viewer-3d', BimViewer3d);

declare global {
  interface HTMLElementTagNameMap {
    'bim-viewer-3d': BimViewer3d;
  }
  interface HTMLElementEventMap extends CustomEvents<Viewer3dEventMap> {}
}

export type { Viewer3dEventName };
