// The peer: potree-core 2.0.15 reading our file as Potree 2.0 (the bench server cuts
// metadata.json, hierarchy.bin and octree.bin out of it: docs/POINTCLOUD-FORMAT.md), with
// the same renderer settings as ours. As published it draws colours white unless its
// input and output colour encodings are equal: both are set to linear here.
import { PerspectiveCamera, Raycaster, Scene, Vector2, Vector3, WebGLRenderer, Color } from 'three';
import { Potree, PointColorType, PointSizeType } from 'potree-core';
import { install, FOV, WIDTH, HEIGHT } from './pointcloud-harness.js';

let renderer;
let camera;
let scene;
let potree;
let cloud;
let loads = [];

install('potree-core', {
  async setup(container) {
    renderer = new WebGLRenderer({ antialias: true });
    renderer.setPixelRatio(1);
    renderer.setSize(WIDTH, HEIGHT);
    container.appendChild(renderer.domElement);
    camera = new PerspectiveCamera(FOV, WIDTH / HEIGHT, 0.1, 1e5);
    camera.up.set(0, 0, 1);
    scene = new Scene();
    scene.background = new Color('#f2f3f5');
    potree = new Potree();
  },
  async load(url, budget) {
    potree.pointBudget = budget;
    const base = url.replace(/metadata\.json$/, '');
    // potree-core's bounds of Potree 2.0 data are the octree's cube; the views must frame
    // the cloud's own bounds, as ours do, which Potree 2.0 keeps as the position
    // attribute's min and max (fetched beside potree-core's own read of the same file).
    const [loaded, metadata] = await Promise.all([potree.loadPointCloud('metadata.json', base), fetch(url).then((r) => r.json())]);
    cloud = loaded;
    cloud.material.pointColorType = PointColorType.RGB;
    cloud.material.pointSizeType = PointSizeType.ADAPTIVE;
    cloud.material.size = 1;
    cloud.material.inputColorEncoding = 0;
    cloud.material.outputColorEncoding = 0;
    // Nodes under 40 pixels of radius on screen are not refined: the rule ours uses
    // (core/pointcloud/node-selection.ts), so both choose nodes the same way under the budget.
    cloud.minNodePixelSize = 40;
    scene.add(cloud);
    const { min, max } = metadata.attributes.find((a) => a.name === 'position');
    return { min, max };
  },
  setCamera(eye, target) {
    camera.position.set(...eye);
    camera.lookAt(new Vector3(...target));
    camera.updateMatrixWorld();
  },
  update() {
    const result = potree.updatePointClouds([cloud], camera, renderer);
    loads = loads.concat(result.nodeLoadPromises);
  },
  loading() {
    const pending = loads.length > 0 || cloud.pcoGeometry.numNodesLoading > 0;
    loads = [];
    return pending;
  },
  render() {
    renderer.render(scene, camera);
  },
  gl() {
    return renderer.getContext();
  },
  pick(x, y) {
    const ray = new Raycaster();
    ray.setFromCamera(new Vector2((x / WIDTH) * 2 - 1, -(y / HEIGHT) * 2 + 1), camera);
    const hit = Potree.pick([cloud], renderer, camera, ray.ray, { pickWindowSize: 9 });
    return hit ? hit.position.toArray() : null;
  },
});
