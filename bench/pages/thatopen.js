// That Open: @thatopen/components' IfcLoader (IFC -> Fragments with @thatopen/fragments'
// IfcImporter, web-ifc on the main thread) into a World (SimpleScene, SimpleRenderer,
// SimpleCamera), wired as That Open's IfcLoader tutorial wires it: the model follows the
// camera (model.useCamera), camera updates ask fragments for a view update, and the
// renderer is in its default (AUTO) mode. With `?format=frag` the page is `thatopen-frag`:
// the same world loads That Open's own processed format, Fragments (the file made by
// bench/peer-formats.mjs), with FragmentsModels.load, and starts no web-ifc.
//
// WORKAROUND (see README "Benchmarks"): the importer streams geometry per IFC class with
// IfcAPI.StreamMeshes(modelID, ids, callback). In the browser build of web-ifc 0.0.78 the
// JS wrapper passes a fourth argument (applyLinearScalingFactor) that the browser wasm does
// not bind: "BindingError: function StreamMeshes called with 4 arguments, expected 3",
// and nothing loads. The shim below streams the same meshes through the binding that
// does work, StreamAllMeshesWithTypes, for the classes of the requested ids, and passes on
// exactly the requested meshes (the importer asks for all ids of one class at a time, so
// no mesh is computed twice). Nothing else of the importer or the viewer is changed.
import * as THREE from 'three';
import * as OBC from '@thatopen/components';
import * as WEBIFC from 'web-ifc';
import workerUrl from '@thatopen/fragments/worker?url';
import { install } from './harness.js';

const params = new URLSearchParams(location.search);
if (params.get('shim') !== 'off') {
  WEBIFC.IfcAPI.prototype.StreamMeshes = function (modelID, expressIDs, meshCallback) {
    const ids = Array.isArray(expressIDs) ? expressIDs : Array.from(expressIDs);
    const wanted = new Set(ids);
    const types = new Set();
    for (const id of ids) types.add(this.GetLineType(modelID, id));
    this.StreamAllMeshesWithTypes(modelID, [...types], (mesh) => {
      if (wanted.has(mesh.expressID)) meshCallback(mesh);
    });
  };
}

const frag = params.get('format') === 'frag';
let components;
let world;
let fragments;
let loader;
let caster;
let model;

/** FragmentsModels.update(true) without its rate limit (calls within maxUpdateRate ms of the last are dropped). */
async function forceUpdate() {
  const core = fragments.core;
  await Promise.all([...core.models.list.values()].map((m) => m._refreshView()));
  await core.models.forceUpdateFinish();
}

install(frag ? 'thatopen-frag' : 'thatopen', {
  async setup(container) {
    components = new OBC.Components();
    const worlds = components.get(OBC.Worlds);
    world = worlds.create();
    world.scene = new OBC.SimpleScene(components);
    world.scene.setup();
    world.renderer = new OBC.SimpleRenderer(components, container);
    world.camera = new OBC.SimpleCamera(components);
    components.init();
    fragments = components.get(OBC.FragmentsManager);
    fragments.init(new URL(workerUrl, location.href).href);
    world.camera.controls.addEventListener('update', () => fragments.core.update());
    fragments.list.onItemSet.add(({ value }) => {
      value.useCamera(world.camera.three);
      world.scene.three.add(value.object);
      fragments.core.update(true);
    });
    caster = components.get(OBC.Raycasters).get(world);
    if (frag) return;
    loader = components.get(OBC.IfcLoader);
    // The same web-ifc.wasm as everyone, served unhashed at /wasm/ (the importer asks for it by name).
    await loader.setup({ autoSetWasm: false, wasm: { path: `${location.origin}/wasm/`, absolute: true } });
  },
  async load(bytes) {
    model = frag ? await fragments.core.load(bytes, { modelId: 'model' }) : await loader.load(bytes, true, 'model');
    await forceUpdate();
  },
  bounds() {
    const box = model.box;
    return { min: box.min.toArray(), max: box.max.toArray(), up: 'y' };
  },
  setCamera(eye, target, up, fov) {
    const camera = world.camera.three;
    if (camera.fov !== fov) {
      camera.fov = fov;
      camera.updateProjectionMatrix();
    }
    world.camera.controls.setLookAt(...eye, ...target, false);
    world.camera.controls.update(0);
  },
  async settle() {
    await forceUpdate();
    for (let i = 0; i < 50 && model.isBusy; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      await forceUpdate();
    }
  },
  render() {
    world.renderer.update();
  },
  gl() {
    return world.renderer.three.getContext();
  },
  async pick(x, y) {
    const position = new THREE.Vector2((x / 1280) * 2 - 1, -(y / 800) * 2 + 1);
    const hit = await caster.castRay({ position });
    return hit ? (hit.localId ?? hit.object?.uuid ?? true) : null;
  },
});
