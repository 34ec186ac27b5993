import { Color, FrontSide, Matrix4, Mesh, PerspectiveCamera, Scene, Vector3, WebGLRenderer, type Camera, type ShaderMaterial } from 'three';
import { batchMaterial, batchUniforms, Pass, type BatchMaterials, type BatchUniforms } from './batch-material.js';
import { batchGeometry } from './scene-model.js';
import { DepthBuffer } from './depth-buffer.js';
import { ObjectState } from './object-state.js';
import { GridAxes } from './grid-axes.js';
import { Labels } from './labels.js';

/** The viewer's background, which its canvas shows until the first real frame. */
export const BACKGROUND = '#f2f3f5';

/** A WebGL renderer on a canvas of its own, as each 3D viewer has one. */
export function createRenderer(): WebGLRenderer {
  const canvas = document.createElement('canvas');
  canvas.style.cssText = 'display:block;width:100%;height:100%;outline:none';
  canvas.tabIndex = 0;
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: false, alpha: false, stencil: true });
  renderer.info.autoReset = true;
  renderer.localClippingEnabled = true; // clipping planes live on the batch materials
  // Asking for shader logs blocks until each shader is compiled: only while developing.
  renderer.debug.checkShaderErrors = Boolean(import.meta.env?.DEV);
  return renderer;
}

/** The materials of a viewer's batches, each followed by `depth`. */
export function batchMaterials(uniforms: BatchUniforms, depth: DepthBuffer): BatchMaterials<ShaderMaterial> {
  return {
    opaque: depth.track(batchMaterial(uniforms, Pass.Opaque)),
    solid: depth.track(batchMaterial(uniforms, Pass.Opaque, FrontSide)),
    translucent: depth.track(batchMaterial(uniforms, Pass.Translucent)),
  };
}

/**
 * Draws one invisible triangle with each material, so their shaders are compiled and the
 * GPU's pipelines built before a model needs them.
 */
export function compileMaterials(renderer: WebGLRenderer, materials: BatchMaterials<ShaderMaterial>, camera: Camera) {
  const geometry = batchGeometry({
    positions: new Float32Array(9),
    colors: new Uint8Array(12),
    objects: new Float32Array(3),
    indices: new Uint32Array([0, 1, 2]),
  });
  const scene = new Scene();
  scene.background = new Color(BACKGROUND);
  for (const material of Object.values(materials)) {
    const mesh = new Mesh(geometry, material);
    mesh.frustumCulled = false; // a point-sized triangle where any camera may be: drawn all the same
    scene.add(mesh);
  }
  renderer.render(scene, camera);
  geometry.dispose();
}

/**
 * Draws a made-up grid axis and its tag once, from a camera that sees them, so that the
 * grids' and the tags' shaders are compiled before a model with grids needs them.
 */
export function compileGridShaders(grids: GridAxes, draw: (camera: PerspectiveCamera) => void) {
  const id = 'compile-grid-shaders';
  grids.add(id, [{ objectId: '0', name: '', type: 'NOTDEFINED', axes: [{ objectId: '0', tag: 'A', points: [0, 0, 0, 1, 0, 0] }] }], new Vector3(), new Matrix4());
  const camera = new PerspectiveCamera(60, 1, 0.1, 10);
  camera.up.set(0, 0, 1);
  camera.position.set(0.5, -2, 1);
  camera.lookAt(0.5, 0, 0);
  camera.updateMatrixWorld();
  try {
    draw(camera);
  } finally {
    grids.remove(id);
  }
}

/** A renderer made before its viewer; `release()` once the viewer has compiled its own materials. */
export interface SpareRenderer {
  renderer: WebGLRenderer;
  release(): void;
}

let spare: SpareRenderer | null = null;
/** Asked for and not made yet. */
let pending = false;
let timer = 0;

/**
 * Makes a renderer for the next viewer once `after` settles, in a task of its own (it holds
 * the page's thread for the WebGL context and the shaders: about 150 ms on software GL),
 * and compiles the batch, grid and grid tag shaders on it. three keeps compiled programs
 * per renderer, so the viewer that takes it finds its own materials, made the same way,
 * compiled: neither the context nor the shaders are paid after the page asks for a model.
 * A viewer made before that makes its own, and this one is not made.
 */
export function prepareRenderer(after: Promise<unknown> = Promise.resolve()): void {
  if (spare || pending || typeof document === 'undefined') return;
  pending = true;
  void after.then(() => {
    if (pending) timer = window.setTimeout(makeSpare, 0); // unless a viewer came first and made its own
  });
}

/** The renderer and its compiled shaders (prepareRenderer). */
function makeSpare() {
  timer = 0;
  pending = false;
  try {
    const renderer = createRenderer();
    // The window's size: most pages give their first viewer much of it, and a drawing
    // buffer's allocation is a good part of a renderer's start (the viewer resizes it anyway).
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.setSize(window.innerWidth, window.innerHeight, false);
    const state = new ObjectState();
    const depth = new DepthBuffer();
    const materials = batchMaterials(batchUniforms(state.texture, state.width, depth.uniform), depth);
    compileMaterials(renderer, materials, new PerspectiveCamera());
    const labels = new Labels(document.createElement('div'));
    const grids = new GridAxes(labels);
    const scene = new Scene();
    scene.add(labels.group, grids.group);
    compileGridShaders(grids, (camera) => {
      labels.update(camera, renderer.domElement.clientWidth || window.innerWidth, renderer.domElement.clientHeight || window.innerHeight);
      renderer.render(scene, camera);
    });
    spare = {
      renderer,
      // Disposing a material frees its program only when no other material uses it.
      release: () => {
        for (const material of Object.values(materials)) material.dispose();
        state.dispose();
        grids.dispose();
        labels.dispose();
      },
    };
  } catch {
    // no WebGL here: the viewer says so when it is made
  }
}

/** The renderer prepareRenderer() made, or null; one that is still to be made no longer will be. */
export function takeRenderer(): SpareRenderer | null {
  window.clearTimeout(timer);
  timer = 0;
  pending = false;
  const taken = spare;
  spare = null;
  return taken;
}
