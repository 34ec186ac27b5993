// Our viewer: <bim-viewer-3d> from source (src/elements/bim-viewer-3d.ts), driven through
// its engine (`el.core`, a Viewer3d): there is no public "load these bytes" method yet, so
// the bytes go to Viewer3d.loadModel as an already fetched source (the same path loadUrl
// takes when a token URL answers with IFC text, or with a scene). Camera and picking
// through the engine's CameraRig and pickAt (private in TypeScript, callable at run time).
// ours.html loads IFC, ours-scene.html the model's scene (docs/SCENE-FORMAT.md).
import { Vector3 } from 'three';
import '../../src/elements/bim-viewer-3d.ts';
import { preload, setEngineLoading } from '../../src/core/engine.ts';
import { install } from './harness.js';

let el;
let core;
let complete;
/** Whether the next frame is of a view at rest (the load's): complete, where orbit frames leave out what is under 4 pixels. */
let atRest = false;

/** Puts a viewer's camera (its engine, `el.core`) at `eye`, looking at `target`, through its CameraRig. */
export function placeCamera(core, eye, target, up, fov, distance) {
  if (core.rig.fov !== fov) core.rig.fov = fov;
  const position = new Vector3(...eye);
  const direction = new Vector3(...target).sub(position);
  core.rig.place(position, direction.normalize(), new Vector3(...up), distance);
}

/**
 * Installs our viewer loading `format` ('ifc' or 'scene') as the bench's viewer `name`.
 * The IFC page starts the engine as the script-tag bundle and the npm entry do when they
 * are evaluated; the scene page as a page of scenes does, with none (core/engine.ts).
 */
export const installOurs = (name, format) => {
  if (format === 'scene') setEngineLoading('lazy');
  else void preload();
  return installPage(name, format);
};

const installPage = (name, format) => install(name, {
  async setup(container, { cold = false } = {}) {
    el = document.createElement('bim-viewer-3d');
    el.style.cssText = 'display:block;width:100%;height:100%';
    container.appendChild(el);
    await el.updateComplete;
    core = el.core;
    core.resize();
    // Warm: web-ifc initialised and warmed up in the worker before the load clock starts
    // (see warm-up.ts). Cold: a page loads at once, as pages do.
    if (!cold) await core.warmedUp;
  },
  async load(bytes) {
    // Resolves when the model is shown (loadModel's onShown); its spaces, hidden at load,
    // stream after that and the harness waits for them (untimed) through loaded().
    let shown;
    const whenShown = new Promise((resolve) => (shown = resolve));
    complete = core.loadModel({ url: `${location.origin}/model.${format}`, id: 'model', bytes: bytes.buffer, format }, undefined, () => {}, shown);
    await Promise.race([whenShown, complete]);
  },
  loaded() {
    return complete;
  },
  bounds() {
    const box = core.sceneBox();
    return { min: box.min.toArray(), max: box.max.toArray(), up: 'z' };
  },
  setCamera(eye, target, up, fov, step) {
    placeCamera(core, eye, target, up, fov, step.distance);
  },
  settle() {
    atRest = true;
  },
  render() {
    core.render(core.rig.camera, atRest);
    atRest = false;
  },
  gl() {
    return core.renderer.getContext();
  },
  async wasmBytes() {
    // The worker's web-ifc; none on a page that starts it lazily and loads a scene.
    return (await core.engineMemory())?.wasmBytes ?? 0;
  },
  pick(x, y) {
    const hit = core.pickAt(x, y);
    return hit ? hit.index : null;
  },
});
