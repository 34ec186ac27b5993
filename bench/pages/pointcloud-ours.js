// Our viewer: <bim-viewer-3d> from source, the cloud through its public loadModel and
// setPointCloudOptions; camera, frames and picks through its engine (`el.core`, a
// Viewer3d), as bench/pages/ours-adapter.js does for IFC. Bounds are the viewer's own
// (relative to its origin), the same frame potree-core's matrixWorld gives its cloud.
import { Vector3 } from 'three';
import '../../src/elements/bim-viewer-3d.ts';
import { install, FOV } from './pointcloud-harness.js';

let el;
let core;

install('ours', {
  async setup(container) {
    el = document.createElement('bim-viewer-3d');
    el.style.cssText = 'display:block;width:100%;height:100%';
    container.appendChild(el);
    await el.updateComplete;
    core = el.core;
    core.resize();
    core.rig.fov = FOV;
  },
  async load(url, budget) {
    await el.setPointCloudOptions({ pointBudget: budget });
    await el.loadModel(url, { modelType: 'point-cloud', modelId: 'cloud' });
    const box = core.sceneBox();
    return { min: box.min.toArray(), max: box.max.toArray() };
  },
  setCamera(eye, target) {
    const position = new Vector3(...eye);
    const direction = new Vector3(...target).sub(position);
    const distance = direction.length();
    core.rig.place(position, direction.normalize(), new Vector3(0, 0, 1), distance);
  },
  update() {
    // Viewer3d.render chooses the nodes (PointClouds.update) before it draws.
  },
  loading() {
    return core.pointClouds.busy;
  },
  render() {
    core.render(core.rig.camera, true);
  },
  gl() {
    return core.renderer.getContext();
  },
  pick(x, y) {
    const hit = core.pickAt(x, y);
    return hit ? hit.point.toArray() : null;
  },
});
