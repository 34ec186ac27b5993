// xeokit: @xeokit/xeokit-sdk's Viewer with its WebIFCLoaderPlugin (web-ifc on the main
// thread, as the plugin is written), default viewer settings. With `?format=xkt` the page
// is `xeokit-xkt`: the same viewer loads xeokit's own processed format with its
// XKTLoaderPlugin (the file made by bench/peer-formats.mjs), and starts no web-ifc.
//
// WORKAROUND (see README "Benchmarks"): with web-ifc 0.0.78 some placed geometries come
// out with 0 vertices (TOOLCHAIN.md). The plugin hands them to SceneModel.createMesh,
// which overruns a buffer on them, the load throws inside the plugin and "loaded" never
// fires. Below, createMesh skips meshes without vertices or indices and createEntity
// drops their ids, which is what the plugin would do if it checked. Nothing else of the
// plugin or the viewer is changed, and non-empty geometries take the original code path.
import { Viewer, WebIFCLoaderPlugin, XKTLoaderPlugin, SceneModel } from '@xeokit/xeokit-sdk';
import * as WebIFC from 'web-ifc';
import wasmUrl from 'web-ifc/web-ifc.wasm?url';
import { install } from './harness.js';

const createMesh = SceneModel.prototype.createMesh;
SceneModel.prototype.createMesh = function (cfg) {
  if (cfg && !cfg.geometryId && ((cfg.positions && cfg.positions.length === 0) || (cfg.indices && cfg.indices.length === 0))) {
    (this.__benchEmpty ??= new Set()).add(cfg.id);
    return false;
  }
  return createMesh.call(this, cfg);
};
const createEntity = SceneModel.prototype.createEntity;
SceneModel.prototype.createEntity = function (cfg) {
  if (this.__benchEmpty && cfg && Array.isArray(cfg.meshIds)) {
    cfg.meshIds = cfg.meshIds.filter((id) => !this.__benchEmpty.has(id));
    if (cfg.meshIds.length === 0) return null;
  }
  return createEntity.call(this, cfg);
};

const xkt = new URLSearchParams(location.search).get('format') === 'xkt';
let viewer;
let plugin;
let canvas;
/** The plugin's web-ifc (none for XKT). */
let ifcAPI = null;

install(xkt ? 'xeokit-xkt' : 'xeokit', {
  async setup(container) {
    canvas = document.createElement('canvas');
    canvas.style.cssText = 'display:block;width:100%;height:100%';
    canvas.width = container.clientWidth;
    canvas.height = container.clientHeight;
    container.appendChild(canvas);
    viewer = new Viewer({ canvasElement: canvas, transparent: false });
    if (xkt) {
      plugin = new XKTLoaderPlugin(viewer);
      return;
    }
    ifcAPI = new WebIFC.IfcAPI();
    await ifcAPI.Init((path) => (path.endsWith('.wasm') ? new URL(wasmUrl, location.href).href : path), true);
    plugin = new WebIFCLoaderPlugin(viewer, { WebIFC, IfcAPI: ifcAPI });
  },
  load(bytes) {
    return new Promise((resolve, reject) => {
      let model;
      try {
        model = plugin.load(xkt ? { id: 'model', xkt: bytes.buffer } : { id: 'model', ifc: bytes.buffer });
      } catch (e) {
        reject(e);
        return;
      }
      model.on('loaded', () => resolve());
      model.on('error', (e) => reject(new Error(String(e))));
    });
  },
  wasmBytes() {
    return ifcAPI ? ifcAPI.wasmModule.HEAPU8.buffer.byteLength : 0;
  },
  bounds() {
    const a = viewer.scene.aabb;
    return { min: [a[0], a[1], a[2]], max: [a[3], a[4], a[5]], up: 'y' };
  },
  setCamera(eye, target, up, fov) {
    const camera = viewer.camera;
    if (camera.perspective.fov !== fov) {
      camera.perspective.fovAxis = 'y';
      camera.perspective.fov = fov;
    }
    camera.eye = eye;
    camera.look = target;
    camera.up = up;
  },
  render() {
    viewer.scene.render(true);
  },
  gl() {
    return viewer.scene.canvas.gl;
  },
  pick(x, y) {
    const hit = viewer.scene.pick({ canvasPos: [x, y], pickSurface: true });
    return hit && hit.entity ? hit.entity.id : null;
  },
});
