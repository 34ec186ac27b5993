import { Box3, Color, Matrix4, Mesh, type OrthographicCamera, PerspectiveCamera, Quaternion, Scene, Vector2, Vector3, WebGLRenderer, FrontSide, type ShaderMaterial } from 'three';
import { openLoader } from './loaders/open-loader.js';
import type { ModelLoader, Origin } from './loaders/model-loader.js';
import { FramePacer } from './scene/frame-pacer.js';
import { MovingDetail, MOVING_MIN_PIXELS } from './scene/moving-detail.js';
import { warmUp } from './warm-up.js';
import { engineLoading, engineWaiting, takeEngine, type Engine } from './engine.js';
import { checksums } from './formats/checksum.js';
import { RANGE_STRIDE, type GeometryChunk, type WorkerMemory } from './ifc/protocol.js';
import { ObjectState } from './scene/object-state.js';
import { batchMaterial, batchUniforms, Pass, type BatchMaterials, type BatchUniforms } from './scene/batch-material.js';
import { SceneModel, batchGeometry } from './scene/scene-model.js';
import { CameraRig, toVector, vec } from './scene/camera-rig.js';
import { Picker, trianglesNear, type PickHit } from './scene/picker.js';
import { PointClouds } from './pointcloud/point-clouds.js';
import type { PointCloudModel } from './pointcloud/pointcloud-model.js';
import { Navigation } from './scene/navigation.js';
import { OrbitSphere } from './scene/orbit-sphere.js';
import { MAX_CLIPPING_PLANES, clipPlane } from './scene/clipping-planes.js';
import type { WidgetViewport } from './scene/clipping-widget.js';
import { Sectioning } from './scene/sectioning.js';
import { CameraTransition, type TransitionSettings } from './scene/camera-transition.js';
import { DepthBuffer } from './scene/depth-buffer.js';
import { Movement3d } from './scene/movement.js';
import { MODES, parseNavigationMap, type Movement, type NavigationMap } from './scene/navigation-map.js';
import { Labels, type TextRenderMode } from './scene/labels.js';
import { Measure, snap, type MeasureMode } from './scene/measure.js';
import { GridAxes, type AxisState, type GridInfo } from './scene/grid-axes.js';
import { Images, type ImageSpec } from './scene/images.js';
import { cssColor, parseColor, type Rgba } from './data/colors.js';
import { MODEL_ID_SPAN, expressIdOf, isValidBase, objectId, toIdList } from './data/object-ids.js';
import { withFallback, type ModelSource } from './data/load-sources.js';
import {
  ViewerError,
  type Box,
  type ClippingPlane,
  type ColorInfo,
  type Ids,
  type Intersection,
  type ModelInfo,
  type Product,
  type ProductOptions,
  type SpatialNode,
  type StreamingProgress,
  type Vec3,
  type ViewName,
  type Viewpoint,
  type ViewpointInput,
} from './types.js';

export interface Viewer3dOptions {
  defaultColor: string | number;
  selectedColor: string;
  translucentOpacity: number;
  fieldOfView: number;
  enableTouch: boolean;
  navigationOrbitSphereColor: string;
  enableClippingPlaneWidget: boolean;
  activeClippingPlaneBorderColor: string;
  textRenderMode: TextRenderMode;
}

/** One object's IFC type and state, as objectStates() gives them. */
export interface ObjectStateInfo {
  objectId: string;
  type: string;
  /** Shown, in a shown model. */
  visible: boolean;
  selected: boolean;
  /** Its custom colour (color()), or null. */
  color: Rgba | null;
}

/** What the viewer tells its element; click-like hooks return false when cancelled. */
export interface Viewer3dHooks {
  select(selected: string[]): void;
  clippingplanes(planes: ClippingPlane[]): void;
  viewpoint(viewpoint: Viewpoint): void;
  click(objectId: string | undefined, intersects: Intersection | undefined): boolean;
  doubleclick(objectId: string | undefined, intersects: Intersection | undefined): boolean;
  contextmenu(objectId: string | undefined, intersects: Intersection | undefined): boolean;
  /** Something failed after its call had answered (a point cloud node read after the load). */
  error?(error: ViewerError): void;
}

/**
 * The framework-free 3D viewer: a three.js scene of batched IFC models with per-object
 * state, picking, navigation and the documented camera API. Coordinates in and out are
 * IFC coordinates (metres, z up); inside, everything is relative to `origin` so that
 * georeferenced models render without jitter and several models stay aligned.
 */
export class Viewer3d {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly rig = new CameraRig();
  private readonly canvas: HTMLCanvasElement;
  /** The IFC engine: taken at once, or when an IFC file first needs it where engines load lazily (engine.ts). */
  private engine: Engine | null = null;
  /** Settles once the engine warm-up (warm-up.ts) has run, or has given way to a model (at once without an engine). */
  readonly warmedUp: Promise<void>;
  /**
   * Workers that parse a big model together. Two only where the machine has the cores
   * for them besides the page and the GPU: on two cores a second worker slows the load.
   */
  loadWorkers = (navigator.hardwareConcurrency || 2) >= 4 ? 2 : 1;
  private readonly state = new ObjectState();
  private readonly uniforms: BatchUniforms;
  private readonly materials: BatchMaterials<ShaderMaterial>;
  private readonly picker: Picker;
  private readonly navigation: Navigation;
  private readonly sphere: OrbitSphere;
  private readonly detail = new MovingDetail(() => this.requestRender());
  private readonly sectioning: Sectioning;
  private readonly transition: CameraTransition;
  private readonly depth = new DepthBuffer();
  readonly movement: Movement3d;
  readonly labels: Labels;
  readonly measure: Measure;
  private readonly grids: GridAxes;
  readonly images = new Images();
  private renderMode: 'incremental' | 'regular' = 'regular';
  private pixelRatio = Math.min(window.devicePixelRatio || 1, 2);
  /** While the camera moves in incremental mode, frames are drawn at a lower resolution. */
  private coarseUntil = 0;
  private refineTimer = 0;
  private readonly models: SceneModel[] = [];
  /** The point clouds (core/pointcloud/): their own models, in the same scene, origin, clipping and picking. */
  readonly pointClouds: PointClouds;
  /** What each loaded model was loaded from, which answers for its products. */
  private readonly loaders = new Map<SceneModel, ModelLoader>();
  /** The model whose geometry is arriving (in the scene, not yet in `models`). */
  private streaming: SceneModel | null = null;
  /** IFC coordinates of the viewer's (0, 0, 0); set by the first model. */
  private origin: Vector3 | null = null;
  private nextIndex = 0;
  /** Settles when the last loaded model's spaces are in (they stream after the model is shown). */
  private settling: Promise<void> = Promise.resolve();
  /** The viewpoint the viewer chose itself after a load (to reframe when more models arrive). */
  private framed = '';
  /** Pending while the WebGL context is lost and until the geometry is back. */
  private restoring: Promise<void> | null = null;
  private restored: () => void = () => {};
  private nextKey = 1;
  private frame = 0;
  private options: Viewer3dOptions;

  constructor(private readonly container: HTMLElement, options: Viewer3dOptions, private readonly hooks: Viewer3dHooks) {
    this.options = options;
    // The engine preload() started, when there is one: its worker may be warm already.
    const engine = engineLoading() === 'eager' || engineWaiting() ? this.ifcEngine() : null;
    // Scenes are checked with WebAssembly: compiled now rather than when the first one arrives (a failure shows there).
    checksums().catch(() => undefined);
    this.canvas = document.createElement('canvas');
    this.canvas.style.cssText = 'display:block;width:100%;height:100%;outline:none';
    this.canvas.tabIndex = 0;
    container.appendChild(this.canvas);
    this.renderer = new WebGLRenderer({ canvas: this.canvas, antialias: true, preserveDrawingBuffer: false, alpha: false, stencil: true });
    this.renderer.setPixelRatio(this.pixelRatio);
    this.renderer.info.autoReset = true;
    this.renderer.localClippingEnabled = true; // clipping planes live on the batch materials
    // Asking for shader logs blocks until each shader is compiled: only while developing.
    this.renderer.debug.checkShaderErrors = Boolean(import.meta.env?.DEV);
    this.scene.background = new Color('#f2f3f5');
    this.uniforms = batchUniforms(this.state.texture, this.state.width, this.depth.uniform);
    this.materials = {
      opaque: this.depth.track(batchMaterial(this.uniforms, Pass.Opaque)),
      solid: this.depth.track(batchMaterial(this.uniforms, Pass.Opaque, FrontSide)),
      translucent: this.depth.track(batchMaterial(this.uniforms, Pass.Translucent)),
    };
    this.picker = new Picker();
    this.pointClouds = new PointClouds({
      requestRender: () => this.requestRender(),
      logDepthBufFC: this.depth.uniform,
      track: (m) => this.depth.track(m),
      warn: (message) => console.warn(`bim-viewer-3d: ${message}`),
      error: (message) => this.hooks.error?.(new ViewerError('pointcloud', message)),
    });
    this.scene.add(this.pointClouds.group);
    this.transition = new CameraTransition(this.rig, () => this.requestRender());
    this.labels = new Labels(container);
    this.measure = new Measure(this.labels);
    this.grids = new GridAxes(this.labels);
    this.scene.add(this.labels.group, this.measure.group, this.grids.group, this.images.group);
    this.sectioning = new Sectioning(this.scene, this.canvas, container, () => this.rig.camera, () => this.depth.track(batchMaterial(this.uniforms, Pass.Stencil)), (m) => this.depth.track(m), {
      materials: () => [...Object.values(this.materials), ...this.pointClouds.materials()],
      batches: () => this.models.flatMap((m) => (m.group.visible ? m.batches.map((batch) => ({ batch, matrix: m.matrix })) : [])),
      box: () => this.sceneBox(),
      changed: () => this.hooks.clippingplanes(this.getClippingPlanes()),
      requestRender: () => this.requestRender(),
    });
    // three restores its own state on webglcontextrestored; the model geometry lives on the
    // GPU only (its colours and ids are freed after upload), so it is streamed again.
    this.canvas.addEventListener('webglcontextlost', () => {
      this.restoring ??= new Promise((resolve) => (this.restored = resolve));
    });
    this.canvas.addEventListener('webglcontextrestored', () => void this.restoreGeometry());
    this.sphere = new OrbitSphere(options.navigationOrbitSphereColor);
    this.scene.add(this.sphere.mesh);
    this.movement = new Movement3d(this.rig, () => this.requestRender(), () => this.hooks.viewpoint(this.getViewpoint()));
    this.navigation = new Navigation(this.canvas, this.rig, {
      pickPoint: (x, y) => this.pickAt(x, y)?.point ?? null,
      showOrbitPoint: (point) => {
        this.sphere.show(point);
        this.requestRender();
      },
      changed: () => {
        this.coarseFrames();
        this.requestRender();
      },
      moved: () => this.hooks.viewpoint(this.getViewpoint()),
      select: (x, y, event) => this.onClick(x, y, event),
      lookAt: (x, y) => this.onDoubleClick(x, y),
      contextMenu: (x, y) => {
        const [objectId, intersects] = this.describeHit(this.pickAt(x, y));
        return this.hooks.contextmenu(objectId, intersects);
      },
      capturesPointer: () => this.sectioning.widget.capturesPointer,
    }, this.movement);
    this.setOptions(options);
    this.resize();
    this.compileMaterials();
    // The grid and tag shaders too: without the engine's warm-up (a page of scenes) the first model with grids compiled them in its load.
    this.grids.compileShaders((camera) => this.render(camera));
    this.warmedUp = engine ? warmUp(engine.warmUp, this.materials, (model, origin) => this.drawWarmUp(model, origin), engine.busy) : Promise.resolve();
  }

  /** The IFC worker's memory (its models, web-ifc's wasm), or null while no engine has started. */
  engineMemory(): Promise<WorkerMemory | null> {
    return this.engine ? this.engine.client.memory() : Promise.resolve(null);
  }

  /** The IFC engine, taken on first use. */
  private ifcEngine(): Engine {
    if (!this.engine) {
      this.engine = takeEngine();
      // Once a model is asked for, the warm-up would only compete with it.
      this.engine.busy = () => this.nextKey > 1;
    }
    return this.engine;
  }

  /**
   * Draws one invisible triangle with each batch material, so shaders are compiled and the
   * GPU's pipelines built at once, even when a model arrives before the warm-up has run.
   */
  private compileMaterials() {
    const geometry = batchGeometry({
      positions: new Float32Array(9),
      colors: new Uint8Array(12),
      objects: new Float32Array(3),
      indices: new Uint32Array([0, 1, 2]),
    });
    const scene = new Scene();
    scene.background = this.scene.background; // what shows until the first real frame
    for (const material of Object.values(this.materials)) scene.add(new Mesh(geometry, material));
    this.renderer.render(scene, this.rig.camera);
    geometry.dispose();
    this.requestRender();
  }

  /** Draws the warm-up model and its grid once from a camera that sees them, then the real scene over it. */
  private drawWarmUp(model: SceneModel, origin: [number, number, number]) {
    const box = model.bounds();
    const size = box.getSize(new Vector3()).length();
    const center = box.getCenter(new Vector3());
    const camera = new PerspectiveCamera(60, 1, size / 100, size * 10);
    camera.up.set(0, 0, 1);
    camera.position.copy(center).addScaledVector(new Vector3(1, -1, 1), size);
    camera.lookAt(center);
    camera.updateMatrixWorld();
    this.scene.add(model.group);
    this.grids.add(model.id, model.grids, new Vector3(...origin), model.matrix);
    this.render(camera);
    this.grids.remove(model.id);
    this.scene.remove(model.group);
    this.render();
  }

  // ---- options ----------------------------------------------------------------

  setOptions(options: Viewer3dOptions) {
    this.options = options;
    this.uniforms.selectedColor.value.copy(toColor(cssColor(options.selectedColor, { r: 0.65, g: 0.96, b: 0.33, a: 1 })));
    this.uniforms.defaultColor.value.copy(toColor(cssColor(options.defaultColor, { r: 0.063, g: 0.063, b: 0.063, a: 1 })));
    this.uniforms.translucentOpacity.value = Math.min(1, Math.max(0, Number.isFinite(options.translucentOpacity) ? options.translucentOpacity : 0.05));
    if (Number.isFinite(options.fieldOfView) && options.fieldOfView > 1 && options.fieldOfView < 179) this.rig.fov = options.fieldOfView;
    this.navigation.enableTouch = options.enableTouch;
    this.sphere.setColor(toColor(cssColor(options.navigationOrbitSphereColor, { r: 0.69, g: 0.82, b: 0.35, a: 1 })).getStyle());
    this.sectioning.widget.setColor(toColor(cssColor(options.activeClippingPlaneBorderColor, { r: 0.65, g: 0.96, b: 0.33, a: 1 })).getStyle());
    this.sectioning.widgetEnabled = options.enableClippingPlaneWidget;
    this.labels.setMode(options.textRenderMode === 'dom' ? 'dom' : 'canvas');
    this.sectioning.refreshWidget();
    this.requestRender();
  }

  // ---- models -----------------------------------------------------------------

  /**
   * Loads a model; resolves once all of it is in. `onShown` comes earlier: when everything
   * drawn at load is in the scene and a frame is asked for. The spaces, hidden at load,
   * stream after that (units of their own at the end of the plan), so a model shows
   * without waiting for them. A source that fails and has a fallback (a scene whose
   * manifest also offers the IFC) is loaded from the fallback, with a warning that says why.
   */
  loadModel(source: ModelSource, only: Set<string> | undefined, onProgress: (p: StreamingProgress) => void, onShown: () => void = () => {}): Promise<ModelInfo> {
    return withFallback('bim-viewer-3d', source, (from) => this.loadSource(from, only, onProgress, onShown));
  }

  private async loadSource(source: ModelSource, only: Set<string> | undefined, onProgress: (p: StreamingProgress) => void, onShown: () => void): Promise<ModelInfo> {
    const modelId = source.id ?? this.freshModelId(source.url);
    if (this.models.some((m) => m.id === modelId) || this.pointClouds.get(modelId)) throw new ViewerError('argument', `A model with id "${modelId}" is already loaded`);
    if (source.format === 'pointcloud') return this.loadPointCloud(modelId, source, progressOf(modelId, onProgress), onShown);
    const progress = progressOf(modelId, onProgress);
    const base = source.objectIdBase ?? this.freshBase();
    const key = this.nextKey++;
    const model = new SceneModel(modelId, source.name ?? modelId, key, base, this.nextIndex, this.materials);
    this.scene.add(model.group);
    this.streaming = model;
    let pacer: FramePacer | null = null;
    const onlyExpress = only ? [...only].map((id) => expressIdOf(base, id) ?? (base === '0' ? Number(id) : NaN)).filter((n) => Number.isFinite(n) && n > 0) : null;
    const failed = (e: unknown) => (e instanceof ViewerError ? e : new ViewerError(source.format === 'scene' ? 'scene' : 'ifc', `Could not load ${source.url}: ${(e as Error).message}`));
    let loader: ModelLoader | null = null;
    const stream = (units: [number, number]) => {
      const origin = this.origin ? [this.origin.x, this.origin.y, this.origin.z] as Origin : null;
      return loader!.stream(units, origin, (chunk, more) => {
        this.addChunk(model, chunk);
        // Frames while the model is being shown (its spaces, streamed after, are hidden),
        // and only while the next chunk is not here yet.
        if (this.streaming === model && !more && pacer?.due()) this.streamingFrame(model, pacer);
      });
    };
    let shown: number;
    let units: number;
    try {
      loader = await openLoader(source, { client: () => this.ifcEngine().client, key, base, only: onlyExpress, workers: this.loadWorkers, progress });
      const opened = await loader.open();
      pacer = new FramePacer(this.renderer.getContext() as WebGL2RenderingContext, performance.now(), loader.firstFrameMs);
      model.opened = opened;
      units = opened.units;
      shown = opened.elementUnits;
      let used = await stream([0, shown]);
      // Nothing but spaces: they set the origin, as any first geometry does.
      if (model.batches.length === 0) {
        used = await stream([shown, units]);
        shown = units;
      }
      this.origin ??= new Vector3(...used);
    } catch (e) {
      for (let i = model.firstIndex; i < model.firstIndex + model.count; i++) this.state.reset(i, false);
      model.dispose();
      void loader?.close();
      throw failed(e);
    } finally {
      this.streaming = null;
      pacer?.dispose();
    }
    this.models.push(model);
    this.loaders.set(model, loader);
    this.grids.add(model.id, model.grids, this.origin ?? new Vector3(), model.matrix);
    this.updatePasses();
    const box = this.sceneBox();
    this.frameScene(this.models.length === 1, box);
    this.rig.setSceneRadius(box.getSize(new Vector3()).length());
    this.sectioning.updateCaps();
    this.requestRender();
    onShown();
    const rest = stream([shown, units]);
    this.settling = rest.then(() => undefined, () => undefined);
    try {
      await rest;
    } catch (e) {
      this.nextIndex = model.firstIndex + model.count;
      await this.unloadModel(model.id);
      this.frameScene(false); // a camera framed on the failed model frames what is left again
      throw failed(e);
    }
    this.nextIndex = model.firstIndex + model.count;
    this.updatePasses();
    progress(1, 'done');
    return this.info(model);
  }

  /** A point cloud: its head and hierarchy, then its root node; the first model of all sets the origin at its cube's centre. */
  private async loadPointCloud(modelId: string, source: ModelSource, progress: ReturnType<typeof progressOf>, onShown: () => void): Promise<ModelInfo> {
    progress(0, 'download');
    const opened = await this.pointClouds.open(source.url);
    if (this.models.some((m) => m.id === modelId) || this.pointClouds.get(modelId)) throw new ViewerError('argument', `A model with id "${modelId}" is already loaded`);
    const first = this.models.length === 0 && this.pointClouds.clouds.length === 0;
    const origin = this.origin ?? PointClouds.originOf(opened);
    const cloud = await this.pointClouds.add(modelId, source.name ?? modelId, opened, origin);
    this.origin ??= origin;
    cloud.material.clippingPlanes = this.sectioning.planes.threePlanes();
    const box = this.sceneBox();
    this.frameScene(first, box);
    this.rig.setSceneRadius(box.getSize(new Vector3()).length());
    this.sectioning.updateCaps();
    this.requestRender();
    onShown();
    progress(1, 'done');
    return this.cloudInfo(cloud);
  }

  private cloudInfo(cloud: PointCloudModel): ModelInfo {
    const box = cloud.bounds();
    const origin = this.origin ?? new Vector3();
    return {
      modelId: cloud.id,
      name: cloud.name,
      modelType: 'point-cloud',
      pointCount: cloud.pointCount,
      boundingBox: { min: vec(box.min.clone().add(origin)), max: vec(box.max.clone().add(origin)) },
      visible: cloud.group.visible,
    };
  }

  /** Frames the scene while nobody has moved the camera since the viewer last framed it (always the first model). */
  private frameScene(first: boolean, box = this.sceneBox()) {
    if (box.isEmpty() || (!first && JSON.stringify(this.getViewpoint()) !== this.framed)) return;
    this.rig.fit(box, 'home');
    this.framed = JSON.stringify(this.getViewpoint());
  }

  /** A frame of a model still streaming in; the first model is framed on what has arrived. */
  private streamingFrame(model: SceneModel, pacer: FramePacer) {
    if (this.models.length === 0) this.frameScene(true, model.bounds());
    this.render();
    pacer.drawn();
  }

  /** Puts a streamed chunk in the scene: objects seen for the first time show, but spaces stay hidden. */
  private addChunk(model: SceneModel, chunk: GeometryChunk) {
    const [first, end] = model.addChunk(chunk);
    this.state.ensure(end);
    // Spaces are volumes around rooms: hidden until asked for, as in other BIM viewers.
    for (let i = first; i < end; i++) this.state.reset(i, model.types[i - model.firstIndex] !== 'IfcSpace');
    this.updatePasses();
  }

  setModelVisible(modelId: string, visible: boolean) {
    const cloud = this.pointClouds.get(modelId);
    if (cloud) {
      cloud.group.visible = visible;
      this.requestRender();
      return;
    }
    this.model(modelId).group.visible = visible;
    this.grids.setModelVisible(modelId, visible);
    this.sectioning.updateCaps();
    this.requestRender();
  }

  async unloadModel(modelId: string) {
    if (this.pointClouds.get(modelId)) {
      this.pointClouds.remove(modelId);
      if (this.models.length === 0 && this.pointClouds.clouds.length === 0) this.origin = null;
      this.sectioning.updateCaps();
      this.requestRender();
      return;
    }
    const model = this.model(modelId);
    const wasSelected = this.selectedIds().length;
    for (let i = 0; i < model.count; i++) this.state.reset(model.firstIndex + i, false);
    this.models.splice(this.models.indexOf(model), 1);
    this.grids.remove(model.id);
    // Reuse the index range when it was the last one handed out.
    if (model.firstIndex + model.count === this.nextIndex) this.nextIndex = model.firstIndex;
    model.dispose();
    await this.loaders.get(model)?.close();
    this.loaders.delete(model);
    if (this.models.length === 0) {
      if (this.pointClouds.clouds.length === 0) this.origin = null;
      this.nextIndex = 0;
    }
    if (wasSelected !== this.selectedIds().length) this.hooks.select(this.selectedIds());
    // The far plane follows what is left (an unloaded huge model leaves no huge far plane behind).
    this.rig.setSceneRadius(this.sceneBox().getSize(new Vector3()).length());
    this.sectioning.updateCaps();
    this.updatePasses();
    this.requestRender();
  }

  /**
   * Places a model: scaled, then turned by `angle` (radians) about the axis (x, y, z),
   * then moved by `position`, all about the IFC origin. Each call replaces the last.
   */
  transformModel(modelId: string, transform: { position?: Vec3; scale?: Vec3; rotation?: Vec3 & { angle: number } }) {
    const cloud = this.pointClouds.get(modelId);
    const model = cloud ? null : this.model(modelId);
    const origin = this.origin ?? new Vector3();
    const { position, scale, rotation } = transform;
    const axis = rotation ? toVector(rotation) : new Vector3(0, 0, 1);
    const ifc = new Matrix4().compose(
      position ? toVector(position) : new Vector3(),
      new Quaternion().setFromAxisAngle(axis.lengthSq() > 0 ? axis.normalize() : new Vector3(0, 0, 1), rotation?.angle ?? 0),
      scale ? toVector(scale) : new Vector3(1, 1, 1),
    );
    const toIfc = new Matrix4().makeTranslation(origin.x, origin.y, origin.z);
    const fromIfc = new Matrix4().makeTranslation(-origin.x, -origin.y, -origin.z);
    const matrix = fromIfc.multiply(ifc).multiply(toIfc);
    if (cloud) {
      cloud.setMatrix(matrix);
      cloud.setColorMode(this.pointClouds.getOptions().colorMode); // the elevation ramp follows the placed box
      this.requestRender();
      return;
    }
    model!.setMatrix(matrix);
    this.grids.setMatrix(modelId, model!.matrix);
    this.sectioning.updateCaps();
    this.requestRender();
  }

  modelInfo(modelId?: string): ModelInfo[] {
    if (modelId === undefined) return [...this.models.map((m) => this.info(m)), ...this.pointClouds.clouds.map((c) => this.cloudInfo(c))];
    const cloud = this.pointClouds.get(modelId);
    return [cloud ? this.cloudInfo(cloud) : this.info(this.model(modelId))];
  }

  // ---- object state -------------------------------------------------------------

  setVisible(ids: Ids | null, visible: boolean) {
    this.forEachIndex(ids, (index) => this.state.setVisible(index, visible));
  }

  setTranslucent(ids: Ids | null, on: boolean) {
    this.forEachIndex(ids, (index) => this.state.setTranslucent(index, on));
  }

  setSelected(ids: Ids | null, on: boolean) {
    this.forEachIndex(ids, (index) => this.state.setSelected(index, on));
  }

  setColor(ids: Ids, color: string) {
    const rgba = parseColor(color);
    if (!rgba) throw new ViewerError('argument', `color: "${color}" is not #RRGGBB or #RRGGBBAA`);
    this.forEachIndex(ids, (index) => this.state.setColor(index, rgba));
  }

  getColors(ids: Ids): ColorInfo {
    const out: ColorInfo = {};
    for (const id of toIdList(ids)) {
      const index = this.indexOf(id);
      const rgba = index === undefined ? null : this.state.color(index);
      if (rgba) out[id] = { color: { r: Math.round(rgba.r * 255), g: Math.round(rgba.g * 255), b: Math.round(rgba.b * 255) }, opacity: rgba.a, style: 'custom' };
    }
    return out;
  }

  resetColors() {
    this.forEachIndex(null, (index) => this.state.setColor(index, null));
  }

  objectIds(): string[] {
    return this.models.flatMap((m) => m.objectIds());
  }

  /** Every loaded object with its IFC type and state, in one pass (a BCF viewpoint takes them all). */
  objectStates(): ObjectStateInfo[] {
    const states: ObjectStateInfo[] = [];
    for (const model of this.models) {
      for (let i = 0; i < model.count; i++) {
        const index = model.firstIndex + i;
        const visible = model.group.visible && this.state.visible(index);
        states.push({ objectId: model.objectIdAt(index), type: model.types[i], visible, selected: this.state.selected(index), color: this.state.color(index) });
      }
    }
    return states;
  }

  selectedIds(): string[] {
    const ids: string[] = [];
    for (const model of this.models) {
      for (let i = 0; i < model.count; i++) if (this.state.selected(model.firstIndex + i)) ids.push(model.objectIdAt(model.firstIndex + i));
    }
    return ids;
  }

  // ---- camera -------------------------------------------------------------------

  boundingBox(ids: Ids | null): Box | null {
    const box = ids === null ? this.sceneBox() : this.boxOf(ids);
    if (box.isEmpty() || !this.origin) return null;
    return { min: vec(box.min.add(this.origin)), max: vec(box.max.add(this.origin)) };
  }

  lookAt(ids: Ids, direction?: ViewName): Promise<void> {
    const box = this.boxOf(ids);
    if (box.isEmpty()) return Promise.resolve();
    return this.transition.run(() => this.rig.fit(box, direction));
  }

  lookAtBox(box: Box, direction?: ViewName): Promise<void> {
    const origin = this.origin ?? new Vector3();
    return this.transition.run(() => this.rig.fit(new Box3(toVector(box.min).sub(origin), toVector(box.max).sub(origin)), direction));
  }

  getViewpoint(): Viewpoint {
    return this.rig.viewpoint(this.origin ?? new Vector3());
  }

  setViewpoint(input: ViewpointInput): Promise<void> {
    return this.transition.run(() => {
      if (typeof input === 'string') {
        const box = this.sceneBox();
        if (!box.isEmpty()) this.rig.fit(box, input);
      } else {
        this.rig.setViewpoint(input, this.origin ?? new Vector3());
      }
    });
  }

  get transitionSettings(): TransitionSettings {
    return { ...this.transition.settings };
  }

  set transitionSettings(settings: TransitionSettings) {
    this.transition.settings = { ...settings };
  }

  /** Vertical field of view (degrees) and the near and far planes (metres). */
  getCameraSettings(): { fov: number; near: number; far: number } {
    return { fov: this.rig.fov, near: this.rig.perspective.near, far: this.rig.perspective.far };
  }

  setCameraSettings(settings: Partial<{ fov: number; near: number; far: number }>) {
    if (settings.fov !== undefined) this.rig.fov = settings.fov;
    this.rig.setClipRange(settings.near, settings.far);
    this.requestRender();
  }

  // ---- navigation ---------------------------------------------------------------

  /** 'orbit' (default), 'pan', 'pivot', or a custom map {mouse, touch, keyboard}; `{}` disables navigation. */
  setNavigationMode(mode: 'orbit' | 'pan' | 'pivot' | NavigationMap) {
    this.navigation.setMap(typeof mode === 'string' ? MODES[mode] : parseNavigationMap(mode));
  }

  keyDown(movement: Movement, value: boolean | number) {
    this.movement.keyDown(movement, value);
  }

  resetKeyDown() {
    this.movement.resetKeyDown();
  }

  navigate(movement: Movement, value: boolean | number) {
    this.movement.navigate(movement, value);
  }

  stopNavigation() {
    this.movement.stopNavigation();
  }

  // ---- images -------------------------------------------------------------------

  /** Replaces the images in the scene (PNG, JPG, GIF, DDS; metres; IFC coordinates). */
  async setImages(specs: ImageSpec[]) {
    await this.images.set(specs, this.origin ?? new Vector3());
    this.requestRender();
  }

  // ---- grids --------------------------------------------------------------------

  /** The IfcGrids of the loaded models: `{id, name, type, modelId, axes: [{id, length}]}`. */
  getGrids(): GridInfo[] {
    return this.grids.list();
  }

  getGridAxisState(axisId: string): AxisState {
    this.checkAxis(axisId);
    return this.grids.state(axisId);
  }

  setGridAxisState(axisId: string, state: Partial<AxisState>) {
    this.checkAxis(axisId);
    const box = this.sceneBox();
    this.grids.setState(axisId, state, box.isEmpty() ? [0, 3] : [box.min.z, box.max.z]);
    this.requestRender();
  }

  /** The point `distance` metres along an axis from its start, and the axis direction there (IFC coordinates). */
  calculatePointOnAxis(axisId: string, distance: number): { location: Vec3; direction: Vec3 } {
    this.checkAxis(axisId);
    const { location, direction } = this.grids.pointOnAxis(axisId, distance);
    return { location: vec(location.add(this.origin ?? new Vector3())), direction: vec(direction) };
  }

  private checkAxis(axisId: string) {
    if (!this.grids.has(axisId)) throw new ViewerError('argument', `No grid axis with id "${axisId}"`);
  }

  // ---- measuring ----------------------------------------------------------------

  /** Clicks measure instead of selecting: `laser` or `dimension`; no mode keeps the last one. */
  enableMeasure(mode?: MeasureMode) {
    this.measure.enable(mode);
  }

  disableMeasure() {
    this.measure.disable();
    this.requestRender();
  }

  clearMeasure() {
    this.measure.clear();
    this.requestRender();
  }

  /** Canvas pixel of a point in viewer coordinates. */
  private toScreen(p: Vector3): Vector2 {
    const v = p.clone().project(this.rig.camera);
    return new Vector2(((v.x + 1) / 2) * (this.canvas.clientWidth || 1), ((1 - v.y) / 2) * (this.canvas.clientHeight || 1));
  }

  // ---- clipping -----------------------------------------------------------------

  /** Sets the clipping planes (IFC coordinates); at most six. */
  setClippingPlanes(planes: ClippingPlane[]) {
    if (planes.length > MAX_CLIPPING_PLANES) {
      throw new ViewerError('argument', `clippingPlanes: at most ${MAX_CLIPPING_PLANES} planes, got ${planes.length}`);
    }
    const origin = this.origin ?? new Vector3();
    this.sectioning.set(planes.map((p) => clipPlane(toVector(p.location).sub(origin), toVector(p.direction))));
  }

  getClippingPlanes(): ClippingPlane[] {
    const origin = this.origin ?? new Vector3();
    return this.sectioning.planes.planes.map((p) => ({ location: vec(p.location.clone().add(origin)), direction: vec(p.direction) }));
  }

  /** Clipping planes at the top and/or bottom of the objects' bounding box. */
  section(ids: Ids, sides: ('top' | 'bottom')[]) {
    const box = this.boxOf(ids);
    if (box.isEmpty()) return;
    const origin = this.origin ?? new Vector3();
    const planes = this.getClippingPlanes();
    const center = box.getCenter(new Vector3()).add(origin);
    const add = (z: number, dz: number) => planes.push({ location: { x: center.x, y: center.y, z: z + origin.z }, direction: { x: 0, y: 0, z: dz } });
    if (sides.includes('top')) add(box.max.z, 1);
    if (sides.includes('bottom')) add(box.min.z, -1);
    this.setClippingPlanes(planes);
  }

  /** Draws the clipping widget into a rectangle of the canvas (CSS pixels from its top left). */
  setClippingWidgetViewport(viewport: WidgetViewport) {
    this.sectioning.setViewport(viewport);
  }

  // ---- data -------------------------------------------------------------------

  async products(ids: Ids | null, options: ProductOptions): Promise<(Product | null)[]> {
    if (ids === null) {
      const all = await Promise.all(this.models.map((m) => this.loader(m).products(null, options)));
      return all.flat();
    }
    const list = toIdList(ids);
    const result: (Product | null)[] = list.map(() => null);
    for (const model of this.models) {
      const wanted: number[] = [];
      const slots: number[] = [];
      list.forEach((id, i) => {
        const express = expressIdOf(model.objectIdBase, id) ?? (model.objectIdBase === '0' && /^\d+$/.test(id) ? Number(id) : null);
        if (express !== null && express > 0 && result[i] === null) {
          wanted.push(express);
          slots.push(i);
        }
      });
      if (wanted.length === 0) continue;
      const products = await this.loader(model).products(wanted, options);
      products.forEach((p, k) => {
        if (p) result[slots[k]] = p;
      });
    }
    return result;
  }

  /** The object ids of each IFC GlobalId (for BCF components), one per loaded model that has it. */
  async objectIdsOfGlobalIds(globalIds: string[]): Promise<string[][]> {
    const result: string[][] = globalIds.map(() => []);
    for (const model of this.models) {
      const found = await this.loader(model).expressIds(globalIds);
      found.forEach((express, i) => {
        if (express !== null) result[i].push(objectId(model.objectIdBase, express));
      });
    }
    return result;
  }

  /** The spatial structure of each model (project, sites, buildings, storeys with elevations, spaces). */
  spatialStructure(): Promise<{ modelId: string; root: SpatialNode | null }[]> {
    return Promise.all(this.models.map(async (m) => ({ modelId: m.id, root: await (m.spatial ??= this.loader(m).spatial()) })));
  }

  // ---- page -------------------------------------------------------------------

  screenshot(): string {
    this.render(this.rig.camera, true);
    return this.canvas.toDataURL('image/png');
  }

  resize() {
    const width = Math.max(1, this.container.clientWidth);
    const height = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(width, height, false);
    this.rig.setAspect(width, height);
    this.requestRender();
  }

  renderInfo() {
    this.render(this.rig.camera, true);
    const { calls, triangles } = this.renderer.info.render;
    return { drawCalls: calls, triangles, objects: this.models.reduce((n, m) => n + m.count, 0), points: this.pointClouds.drawnPoints };
  }

  dispose() {
    cancelAnimationFrame(this.frame);
    window.clearTimeout(this.refineTimer);
    this.transition.stop();
    this.movement.dispose();
    this.detail.dispose();
    this.navigation.dispose();
    for (const model of this.models) model.dispose();
    this.models.length = 0;
    this.pointClouds.dispose();
    this.engine?.client.dispose();
    this.sphere.dispose();
    this.sectioning.dispose();
    this.measure.dispose();
    this.grids.dispose();
    this.images.dispose();
    this.labels.dispose();
    this.state.dispose();
    Object.values(this.materials).forEach((m) => m.dispose());
    this.renderer.dispose();
    this.renderer.forceContextLoss();
    this.canvas.remove();
    this.restored(); // nobody waits for a context that will not come back
  }

  /** Resolves when the viewer can draw (at once, unless the WebGL context is lost or being restored). */
  whenReady(): Promise<void> {
    return this.restoring ?? Promise.resolve();
  }

  private async restoreGeometry() {
    await this.settling; // a model's spaces still streaming would come in twice
    const origin = this.origin ?? new Vector3();
    for (const model of this.models) {
      model.clearBatches(false); // the old buffers died with the old context
      await this.loader(model).restream([origin.x, origin.y, origin.z], (chunk) => model.addChunk(chunk));
    }
    this.state.texture.needsUpdate = true;
    this.updatePasses();
    this.sectioning.updateCaps();
    this.render();
    this.restoring = null;
    this.restored();
  }

  // ---- internals ----------------------------------------------------------------

  requestRender() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** `{renderMode, pixelRatio, depthBuffer, shading}`. */
  getRenderSettings() {
    return { renderMode: this.renderMode, pixelRatio: this.pixelRatio, depthBuffer: this.depth.mode, shading: 'default' as const };
  }

  setRenderSettings(settings: Partial<{ renderMode: 'incremental' | 'regular'; pixelRatio: number; depthBuffer: 'logarithmic' | 'standard' }>) {
    if (settings.renderMode) this.renderMode = settings.renderMode;
    if (settings.pixelRatio !== undefined) this.pixelRatio = settings.pixelRatio;
    if (settings.depthBuffer) this.depth.mode = settings.depthBuffer;
    this.renderer.setPixelRatio(this.pixelRatio);
    this.resize();
  }

  /** Incremental mode: draw coarse frames while the camera moves, a full one once it rests. */
  private coarseFrames() {
    if (this.renderMode !== 'incremental') return;
    this.coarseUntil = performance.now() + 150;
    window.clearTimeout(this.refineTimer);
    this.refineTimer = window.setTimeout(() => this.requestRender(), 170);
  }

  /** Draws a frame; while the camera moves, without the smallest objects (MovingDetail) unless `full`. */
  render(camera: PerspectiveCamera | OrthographicCamera = this.rig.camera, full = false) {
    const coarse = this.renderMode === 'incremental' && performance.now() < this.coarseUntil;
    const ratio = coarse ? Math.max(0.25, this.pixelRatio / 2) : this.pixelRatio;
    if (this.renderer.getPixelRatio() !== ratio) this.renderer.setPixelRatio(ratio);
    this.depth.update(camera);
    const metresPerPixel = (depth: number) => this.rig.metresPerPixel(depth, this.canvas.clientHeight || 1);
    this.labels.update(camera, this.canvas.clientWidth, this.canvas.clientHeight);
    this.measure.update(camera, metresPerPixel);
    this.sphere.scaleFor(camera, metresPerPixel);
    this.detail.update(camera, this.sceneModels(), metresPerPixel, full || camera !== this.rig.camera ? 0 : MOVING_MIN_PIXELS);
    this.pointClouds.update(camera, this.canvas.clientHeight || 1, this.sectioning.planes.threePlanes());
    if (!this.pointClouds.render(this.renderer, this.scene, camera, this.depth.mode === 'logarithmic', this.depth.uniform.value)) this.renderer.render(this.scene, camera);
    const gl = this.renderer.getContext() as WebGL2RenderingContext;
    this.pointClouds.drawn(gl);
    this.sectioning.render(this.renderer);
    this.detail.drawn(gl);
  }

  /** Every model in the scene, a streaming one included. */
  private sceneModels(): SceneModel[] {
    return this.streaming ? [...this.models, this.streaming] : this.models;
  }

  /** Draws the see-through pass only where something is see-through, the opaque pass only where something is opaque. */
  private updatePasses() {
    const anyTranslucent = this.state.translucentCount > 0 || this.state.coloredCount > 0;
    for (const model of this.sceneModels()) {
      for (const batch of model.batches) {
        const shown = this.anyVisible(batch.ranges);
        batch.translucent.visible = shown && (batch.transparent || anyTranslucent);
        batch.opaque.visible = shown && (!batch.transparent || this.state.coloredCount > 0);
      }
    }
  }

  /** Whether a batch has an object to draw: a batch of hidden objects (the spaces, at first) costs no draw call. */
  private anyVisible(ranges: Uint32Array) {
    for (let i = 0; i < ranges.length; i += RANGE_STRIDE) if (this.state.visible(ranges[i])) return true;
    return false;
  }

  /** The select action: viewer.click, then (unless cancelled) the selection changes. */
  private onClick(x: number, y: number, event: MouseEvent): boolean {
    if (event.shiftKey && this.sectioning.selectAt(this.picker.ray(this.rig.camera, x, y, this.canvas.clientWidth || 1, this.canvas.clientHeight || 1))) return true;
    const hit = this.pickAt(x, y);
    const [objectId, intersects] = this.describeHit(hit);
    if (!this.hooks.click(objectId, intersects)) return false;
    if (this.measure.enabled) {
      if (hit && 'cloud' in hit) this.measure.click(hit.point.clone()); // a point is its own snap
      else if (hit) {
        // Vertices and edges within a dozen pixels of the hit may take the point.
        const reach = this.rig.metresPerPixel(hit.point.distanceTo(this.rig.camera.position), this.canvas.clientHeight || 1) * 14;
        this.measure.click(snap(hit.point, trianglesNear(hit.model, hit.index, hit.point, reach), (p) => this.toScreen(p)));
      }
      this.requestRender();
      return true;
    }
    const additive = event.ctrlKey || event.metaKey;
    const before = this.selectedIds();
    if (!additive) this.forEachIndex(null, (index) => this.state.setSelected(index, false), false);
    if (hit && !('cloud' in hit)) this.state.setSelected(hit.index, additive ? !this.state.selected(hit.index) : true);
    const after = this.selectedIds();
    this.requestRender();
    if (before.join() !== after.join()) this.hooks.select(after);
    return true;
  }

  /** The look-at action: viewer.doubleclick, then (unless cancelled) the camera frames the object. */
  private onDoubleClick(x: number, y: number): boolean {
    const hit = this.pickAt(x, y);
    const [objectId, intersects] = this.describeHit(hit);
    if (!this.hooks.doubleclick(objectId, intersects)) return false;
    if (objectId) void this.lookAt(objectId).then(() => this.hooks.viewpoint(this.getViewpoint()));
    return true;
  }

  /** The object or point under a pixel, whichever is nearer. */
  private pickAt(x: number, y: number): PickHit | PointPick | null {
    const width = this.canvas.clientWidth || 1;
    const height = this.canvas.clientHeight || 1;
    const planes = this.sectioning.planes.threePlanes();
    const hit = this.models.length === 0 ? null : this.picker.pick(this.rig.camera, this.models.filter((m) => m.group.visible), (index) => this.state.visible(index), x, y, width, height, planes);
    if (this.pointClouds.clouds.length === 0) return hit;
    const ray = this.picker.ray(this.rig.camera, x, y, width, height);
    const point = this.pointClouds.pick(ray, (depth) => this.rig.metresPerPixel(depth, height), planes);
    if (point && (!hit || point.distance <= hit.point.distanceTo(ray.origin))) return { point: point.point, cloud: point.cloud, toEye: ray.direction.clone().negate() };
    return hit;
  }

  private describeHit(hit: PickHit | PointPick | null): [string | undefined, Intersection | undefined] {
    if (!hit || !this.origin) return [undefined, undefined];
    // A point has no surface: its normal is the direction back to the eye.
    if ('cloud' in hit) return [undefined, { objectId: undefined, modelId: hit.cloud.id, point: vec(hit.point.clone().add(this.origin)), normal: vec(hit.toEye) }];
    const objectId = hit.model.objectIdAt(hit.index);
    return [objectId, { objectId, point: vec(hit.point.clone().add(this.origin)), normal: vec(hit.normal) }];
  }

  private forEachIndex(ids: Ids | null, fn: (index: number) => void, render = true) {
    if (ids === null) {
      for (const model of this.models) for (let i = 0; i < model.count; i++) fn(model.firstIndex + i);
    } else {
      for (const id of toIdList(ids)) {
        const index = this.indexOf(id);
        if (index !== undefined) fn(index);
      }
    }
    if (render) {
      this.updatePasses();
      this.requestRender();
    }
  }

  private indexOf(id: string): number | undefined {
    for (const model of this.models) {
      const index = model.indexOf(id);
      if (index !== undefined) return index;
    }
    return undefined;
  }

  private boxOf(ids: Ids): Box3 {
    const box = new Box3();
    for (const id of toIdList(ids)) {
      const index = this.indexOf(id);
      if (index !== undefined) this.models.find((m) => m.has(index))!.expandBox(index, box);
    }
    return box;
  }

  /** Box of the visible objects of the visible models (and shown point clouds), viewer coordinates. */
  private sceneBox(): Box3 {
    const box = new Box3();
    const visible = (index: number) => this.state.visible(index);
    for (const model of this.models) if (model.group.visible) model.expandBoxes(visible, box);
    return this.pointClouds.expandBox(box);
  }

  private loader(model: SceneModel): ModelLoader {
    return this.loaders.get(model)!;
  }

  private model(modelId: string): SceneModel {
    const model = this.models.find((m) => m.id === modelId);
    if (!model) throw new ViewerError('argument', `No model with id "${modelId}" is loaded`);
    return model;
  }

  private info(model: SceneModel): ModelInfo {
    const box = model.bounds();
    const origin = this.origin ?? new Vector3();
    return {
      modelId: model.id,
      name: model.name,
      boundingBox: { min: vec(box.min.clone().add(origin)), max: vec(box.max.clone().add(origin)) },
      visible: model.group.visible,
    };
  }

  private freshModelId(url: string): string {
    const name = decodeURIComponent(new URL(url, document.baseURI).pathname.split('/').pop() || 'model').replace(/\.ifc$/i, '');
    let id = name;
    for (let n = 2; this.models.some((m) => m.id === id); n++) id = `${name}-${n}`;
    return id;
  }

  /** A base that keeps a model without one apart from every loaded model. */
  private freshBase(): string {
    const used = new Set(this.models.map((m) => m.objectIdBase));
    for (let n = 0n; ; n++) {
      const base = (n * MODEL_ID_SPAN).toString();
      if (!used.has(base) && isValidBase(base)) return base;
    }
  }
}

/** A point of a point cloud under the cursor (viewer coordinates). */
interface PointPick {
  point: Vector3;
  cloud: PointCloudModel;
  toEye: Vector3;
}

/**
 * A load's progress callback, made here rather than inside loadSource: a closure shares
 * its function's context with every other closure there, and the loader keeps this one,
 * which would keep the source's bytes.
 */
function progressOf(modelId: string, onProgress: (p: StreamingProgress) => void) {
  return (value: number, phase: StreamingProgress['phase']) => onProgress({ modelId, progress: value, phase });
}

function toColor(rgba: { r: number; g: number; b: number }): Color {
  return new Color(rgba.r, rgba.g, rgba.b);
}
