import { Box3, Color, Group, Vector3, type Plane, type OrthographicCamera, type PerspectiveCamera, type Ray, type Scene, type ShaderMaterial, type WebGLRenderer } from 'three';
import { EdlPass } from './edl-pass.js';
import { ViewerError } from '../types.js';
import { COLOR_MODES, type ColorMode } from './point-material.js';
import { PointCloudModel } from './pointcloud-model.js';
import { PointCloudSource } from './pointcloud-source.js';
import { selectNodes } from './node-selection.js';
import { pickPoint, type PointHit } from './point-picking.js';
import { updateOctantLevels, type OctreeNode } from './octree-node.js';
import { GpuFence } from '../scene/gpu-fence.js';

/** The point cloud settings of a viewer (getPointCloudOptions / setPointCloudOptions). */
export interface PointCloudOptions {
  /** Points drawn at most, over all clouds (default 2,000,000). */
  pointBudget: number;
  /** Point width as a multiple of the spacing between points at their level (default 1.5: a level's subsample leaves no gaps). */
  pointSize: number;
  colorMode: ColorMode;
  /** Classification codes (0-255) not drawn (and not picked). */
  hiddenClasses: number[];
  /** Eye-dome lighting: shades the points by the depth around them, so shapes read without normals. */
  eyeDomeLighting: boolean;
}

export const DEFAULT_POINT_CLOUD_OPTIONS: PointCloudOptions = { pointBudget: 2_000_000, pointSize: 1.5, colorMode: 'rgb', hiddenClasses: [], eyeDomeLighting: false };

/** Node reads under way at most, over all clouds. */
const MAX_IN_FLIGHT = 4;
/** Main-thread time per frame for decoding nodes (ms). */
const DECODE_SLICE_MS = 8;

/** What the clouds need of their viewer. */
export interface PointCloudHost {
  requestRender(): void;
  /** The depth mode's uniform (logarithmic depth), and the hook that keeps a material's depth kind in step. */
  logDepthBufFC: { value: number };
  track<M extends ShaderMaterial>(material: M): M;
  /** A node failed to load after the cloud was shown: said on the console, the cloud stays. */
  warn(message: string): void;
  /** ... and the first such failure of a cloud is its viewer's error (viewer.error): the cloud is not whole. */
  error(message: string): void;
}

/**
 * The point clouds of a viewer: loading (HTTP ranges), which nodes show under the shared
 * point budget, their decoding on the main thread within a slice of each frame, picking,
 * and the settings. Viewer3d calls it; it knows nothing of BIM models.
 *
 * Decoding stays on the main thread, between frames in slices of DECODE_SLICE_MS: a node
 * is a few thousand to ~100k points, a linear pass of a few ns a point, and a worker would
 * need another entry in the script-tag bundles (and a copy or transfer of each node).
 */
export class PointClouds {
  readonly group = new Group();
  readonly clouds: PointCloudModel[] = [];
  private options: PointCloudOptions = { ...DEFAULT_POINT_CLOUD_OPTIONS, hiddenClasses: [] };
  private inFlight = 0;
  /** Clouds whose failed node was reported as an error (once each). */
  private readonly reported = new WeakSet<PointCloudModel>();
  private readonly arrived: { cloud: PointCloudModel; node: OctreeNode; bytes: Uint8Array }[] = [];
  private frame = 0;
  /** Points drawn in the last frame. */
  drawnPoints = 0;
  /** The nodes the last frame wanted, nearest first. */
  private wanted: OctreeNode[] = [];
  private decodeTimer = 0;
  /** Nodes came in since the last selection: their children are yet to be considered. */
  private decodedSinceFrame = false;
  private frameTimer = 0;
  private readonly fence = new GpuFence();
  private nextFrame = 0;
  private edl: EdlPass | null = null;
  private disposed = false;
  /** The nodes drawn in the last frame. */
  private drawnNodes: OctreeNode[] = [];
  /** Node names in the order they were asked for (tests read it). */
  readonly requested: string[] = [];

  constructor(private readonly host: PointCloudHost) {}

  /** Reads the head and hierarchy of a cloud file (nothing is added yet). */
  open(url: string): Promise<PointCloudSource> {
    return PointCloudSource.open(url);
  }

  /** The viewer origin a first cloud gives: its cube's centre, rounded to metres. */
  static originOf(source: PointCloudSource): Vector3 {
    const { min, max } = source.metadata.boundingBox;
    return new Vector3(...[0, 1, 2].map((i) => Math.round((min[i] + max[i]) / 2)));
  }

  /** Adds an opened cloud; resolves once its root node is in (so a broken file fails its load). */
  async add(id: string, name: string, source: PointCloudSource, origin: Vector3): Promise<PointCloudModel> {
    let cloud: PointCloudModel | null = null;
    try {
      cloud = new PointCloudModel(id, name, source, origin, this.host.logDepthBufFC);
      this.host.track(cloud.material);
      this.configure(cloud);
      cloud.group.updateMatrixWorld(true);
      await this.loadNode(cloud, cloud.root, true);
      if (this.disposed) throw new ViewerError('disposed', 'The viewer has been disposed');
    } catch (e) {
      cloud?.dispose();
      // A hierarchy or root node that cannot be read is the file's fault: a pointcloud error, as the reads' are.
      throw e instanceof ViewerError ? e : new ViewerError('pointcloud', `Could not load the point cloud ${source.url}: ${(e as Error).message}`);
    }
    this.clouds.push(cloud);
    this.group.add(cloud.group);
    this.host.requestRender();
    return cloud;
  }

  get(id: string): PointCloudModel | undefined {
    return this.clouds.find((c) => c.id === id);
  }

  remove(id: string) {
    const cloud = this.get(id);
    if (!cloud) return;
    this.clouds.splice(this.clouds.indexOf(cloud), 1);
    cloud.dispose();
    this.host.requestRender();
  }

  getOptions(): PointCloudOptions {
    return { ...this.options, hiddenClasses: [...this.options.hiddenClasses] };
  }

  setOptions(options: Partial<PointCloudOptions>) {
    const next = { ...this.options, ...options };
    if (!(Number.isInteger(next.pointBudget) && next.pointBudget >= 0)) throw new ViewerError('argument', `pointBudget must be a whole number of points, got ${String(options.pointBudget)}`);
    if (!(Number.isFinite(next.pointSize) && next.pointSize > 0)) throw new ViewerError('argument', `pointSize must be a positive number, got ${String(options.pointSize)}`);
    if (!COLOR_MODES.includes(next.colorMode)) throw new ViewerError('argument', `colorMode must be one of ${COLOR_MODES.join(', ')}, got "${String(options.colorMode)}"`);
    if (!Array.isArray(next.hiddenClasses) || next.hiddenClasses.some((c) => !Number.isInteger(c) || c < 0 || c > 255)) throw new ViewerError('argument', 'hiddenClasses must be an array of classification codes 0-255');
    next.eyeDomeLighting = Boolean(next.eyeDomeLighting);
    next.hiddenClasses = [...next.hiddenClasses];
    this.options = next;
    for (const cloud of this.clouds) this.configure(cloud);
    this.host.requestRender();
  }

  /** The materials the viewer's clipping planes cut. */
  materials(): ShaderMaterial[] {
    return this.clouds.map((c) => c.material);
  }

  /** The placed bounds of the shown clouds, viewer coordinates. */
  expandBox(box: Box3): Box3 {
    for (const cloud of this.clouds) if (cloud.group.visible) box.union(cloud.bounds());
    return box;
  }

  /** Before each frame: chooses the nodes to show for this camera, and asks for the nearest wanted ones. */
  update(camera: PerspectiveCamera | OrthographicCamera, height: number, clipping: Plane[]) {
    if (this.clouds.length === 0) return;
    this.frame++;
    this.decodedSinceFrame = false;
    const shown = this.clouds.filter((c) => c.group.visible);
    const { visible, wanted, points } = selectNodes(shown.map((c) => ({ root: c.root, matrix: c.group.matrixWorld })), { camera, height, budget: this.options.pointBudget, clipping });
    for (const node of this.drawnNodes) node.drawn = false;
    for (const cloud of this.clouds) for (const child of cloud.group.children) child.visible = false;
    for (const node of visible) {
      node.points!.visible = true;
      node.drawn = true;
      node.lastShown = this.frame;
    }
    this.drawnNodes = visible;
    updateOctantLevels(visible);
    this.drawnPoints = points;
    const ortho = (camera as OrthographicCamera).isOrthographicCamera;
    for (const cloud of this.clouds) {
      const u = cloud.material.uniforms;
      u.orthographic.value = Boolean(ortho);
      if (ortho) {
        const o = camera as OrthographicCamera;
        u.projection.value = height / ((o.top - o.bottom) / o.zoom);
      } else {
        u.projection.value = height / 2 / Math.tan(((camera as PerspectiveCamera).fov * Math.PI) / 360);
      }
    }
    this.wanted = wanted;
    this.pump();
    this.evict();
  }

  /** After each frame: a fence, so that frames showing nodes as they arrive are paced by what a frame costs. */
  drawn(gl: WebGL2RenderingContext) {
    if (this.clouds.length === 0) return;
    this.fence.place(gl);
  }

  /** A node of a shown cloud could not be read or decoded: warned each time, an error once per cloud. */
  private nodeFailed(cloud: PointCloudModel, message: string) {
    this.host.warn(message);
    if (this.reported.has(cloud)) return;
    this.reported.add(cloud);
    this.host.error(message);
  }

  /** Starts reads of the last frame's wanted nodes, nearest first, up to MAX_IN_FLIGHT. */
  private pump() {
    for (const node of this.wanted) {
      if (this.inFlight >= MAX_IN_FLIGHT) break;
      if (node.loading || node.loaded || node.failed) continue;
      const cloud = this.clouds.find((c) => c.root === rootOf(node));
      // A read that fails after the load is said on the console; the rest of the cloud stays.
      if (cloud) void this.loadNode(cloud, node, false).catch((e) => this.clouds.includes(cloud) && this.nodeFailed(cloud, (e as Error).message));
    }
  }

  /**
   * A frame to show what arrived: once the last one has finished on the GPU (its fence), and
   * as long again after it, so that drawing takes at most half the time while nodes pour in
   * (on a software GPU a frame of millions of points takes a second of the CPU that decodes).
   */
  private frameSoon() {
    if (this.frameTimer || this.disposed) return;
    const tick = () => {
      this.frameTimer = 0;
      const now = performance.now();
      if (this.fence.pending) {
        if (!this.fence.passed()) {
          this.frameTimer = window.setTimeout(tick, 16);
          return;
        }
        this.nextFrame = now + Math.max(50, now - this.fence.placedAt);
      }
      if (now < this.nextFrame) {
        this.frameTimer = window.setTimeout(tick, this.nextFrame - now);
        return;
      }
      this.host.requestRender();
    };
    tick();
  }

  /** Decodes what arrived in slices of DECODE_SLICE_MS, between frames. */
  private decodeSoon() {
    if (this.decodeTimer || this.disposed) return;
    this.decodeTimer = window.setTimeout(() => {
      this.decodeTimer = 0;
      this.decodeArrived();
    }, 0);
  }

  /**
   * Draws the scene when eye-dome lighting is on and a cloud shows: the clouds with EDL
   * first, then the rest over them. False when the caller should draw the scene itself.
   */
  render(renderer: WebGLRenderer, scene: Scene, camera: PerspectiveCamera | OrthographicCamera, logarithmic: boolean, logDepthBufFC: number): boolean {
    if (!this.options.eyeDomeLighting || !this.clouds.some((c) => c.group.visible)) return false;
    this.edl ??= new EdlPass();
    const background = scene.background instanceof Color ? scene.background : new Color(0xffffff);
    this.edl.render(renderer, this.group, camera, background, logarithmic, logDepthBufFC);
    // The rest over it: a colour background would clear the canvas (three clears for one always).
    const autoClear = renderer.autoClear;
    const sceneBackground = scene.background;
    renderer.autoClear = false;
    scene.background = null;
    this.group.visible = false;
    renderer.render(scene, camera);
    this.group.visible = true;
    scene.background = sceneBackground;
    renderer.autoClear = autoClear;
    return true;
  }

  /** Whether nodes are being read, decoded, or wanted by the last frame. */
  get busy(): boolean {
    return this.inFlight > 0 || this.arrived.length > 0 || this.decodedSinceFrame || this.wanted.some((n) => !n.loaded && !n.failed);
  }

  /** The point under a pixel's ray, nearest the eye. */
  pick(ray: Ray, metresPerPixel: (depth: number) => number, clipping: Plane[]): (PointHit & { cloud: PointCloudModel }) | null {
    let best: (PointHit & { cloud: PointCloudModel }) | null = null;
    const hidden = new Set(this.options.hiddenClasses);
    for (const cloud of this.clouds) {
      if (!cloud.group.visible) continue;
      const hit = pickPoint(ray, cloud.shown(), metresPerPixel, clipping, (c) => hidden.has(c));
      if (hit && (!best || hit.distance < best.distance)) best = { ...hit, cloud };
    }
    return best;
  }

  dispose() {
    this.disposed = true;
    window.clearTimeout(this.decodeTimer);
    window.clearTimeout(this.frameTimer);
    this.fence.clear();
    this.edl?.dispose();
    for (const cloud of this.clouds) cloud.dispose();
    this.clouds.length = 0;
  }

  private configure(cloud: PointCloudModel) {
    cloud.setColorMode(this.options.colorMode);
    cloud.setHiddenClasses(this.options.hiddenClasses);
    cloud.material.uniforms.pointSize.value = this.options.pointSize;
  }

  /** Reads a node; `now` decodes it at once (the root, during the load), else it waits for a slice. It stays `loading` until decoded. */
  private async loadNode(cloud: PointCloudModel, node: OctreeNode, now: boolean) {
    node.loading = true;
    this.inFlight++;
    this.requested.push(node.name);
    if (this.requested.length > 10_000) this.requested.splice(0, 5_000);
    let queued = false;
    try {
      const bytes = await cloud.source.node(node.entry.byteOffset, node.entry.byteSize);
      if (now) cloud.addNode(node, bytes);
      else if (this.clouds.includes(cloud)) queued = Boolean(this.arrived.push({ cloud, node, bytes }));
    } catch (e) {
      node.failed = true;
      throw e;
    } finally {
      node.loading = queued;
      this.inFlight--;
      if (!now) {
        this.decodeSoon();
        this.pump();
      }
    }
  }

  private decodeArrived() {
    const start = performance.now();
    let decoded = 0;
    while (this.arrived.length && performance.now() - start < DECODE_SLICE_MS) {
      decoded++;
      const { cloud, node, bytes } = this.arrived.shift()!;
      node.loading = false;
      if (!this.clouds.includes(cloud) || node.points) continue;
      try {
        cloud.addNode(node, bytes);
      } catch (e) {
        node.failed = true;
        this.nodeFailed(cloud, `Point cloud ${cloud.id}, node ${node.name}: ${(e as Error).message}`);
      }
    }
    if (this.arrived.length) this.decodeSoon();
    if (decoded) {
      this.decodedSinceFrame = true;
      this.frameSoon();
    }
  }

  /** Keeps at most twice the budget (and at least a million points) loaded: the longest unseen nodes go first. */
  private evict() {
    const limit = Math.max(2 * this.options.pointBudget, 1_000_000);
    let total = this.clouds.reduce((n, c) => n + c.loadedPoints, 0);
    if (total <= limit) return;
    const cached: { cloud: PointCloudModel; node: OctreeNode }[] = [];
    for (const cloud of this.clouds) {
      for (const child of cloud.group.children) {
        if (child.visible) continue;
        const node = findNode(cloud.root, child.name);
        if (node && node.parent) cached.push({ cloud, node });
      }
    }
    cached.sort((a, b) => a.node.lastShown - b.node.lastShown);
    for (const { cloud, node } of cached) {
      if (total <= limit) break;
      total -= node.numPoints;
      cloud.dropNode(node);
    }
  }
}

function rootOf(node: OctreeNode): OctreeNode {
  let n = node;
  while (n.parent) n = n.parent;
  return n;
}

function findNode(root: OctreeNode, name: string): OctreeNode | undefined {
  let node: OctreeNode | undefined = root;
  for (let i = 1; node && i < name.length; i++) node = node.children[Number(name[i])];
  return node;
}

export type { PointHit, ColorMode };
