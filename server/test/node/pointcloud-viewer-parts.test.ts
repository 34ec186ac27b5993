import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BufferAttribute, BufferGeometry, Matrix4, PerspectiveCamera, Plane, Points, Ray, Vector3 } from 'three';
import { NodeType, encodeHierarchy, type HierarchyEntry, type PointCloudMetadata } from '../../../src/core/formats/pointcloud.js';
import { buildOctree, eachNode, updateOctantLevels, type OctreeNode } from '../../../src/core/pointcloud/octree-node.js';
import { selectNodes } from '../../../src/core/pointcloud/node-selection.js';
import { pickPoint } from '../../../src/core/pointcloud/point-picking.js';

// The viewer's point cloud parts that need no WebGL (src/core/pointcloud/): the tree from a
// hierarchy (proxies included), which nodes show under a budget and in which order they are
// read, the octants' levels of detail, and picking. test/pointcloud-*.test.ts draw them.

const entry = (name: string, type: number, childMask: number, numPoints: number, byteOffset = 0, byteSize = 0): HierarchyEntry => ({ name, type, childMask, numPoints, byteOffset, byteSize });

/** A 16 m cube at the origin: the root (1000 points) and its eight children (1000 each), children behind a proxy chunk when `proxy`. */
function tree(proxy = false): { root: OctreeNode; metadata: PointCloudMetadata } {
  const children = Array.from({ length: 8 }, (_, i) => entry(`r${i}`, NodeType.Leaf, 0, 1000, 1000 * (i + 1), 1000));
  let hierarchy: Uint8Array;
  let firstChunkSize: number;
  if (proxy) {
    // Child 3 lives in a chunk of its own.
    const first = encodeHierarchy([entry('r', NodeType.Normal, 0xff, 1000, 0, 1000), ...children.map((c, i) => (i === 3 ? entry('r3', NodeType.Proxy, 0, 1000, 9 * 22, 22) : c))]);
    const own = encodeHierarchy([children[3]]);
    hierarchy = new Uint8Array([...first, ...own]);
    firstChunkSize = first.length;
  } else {
    hierarchy = encodeHierarchy([entry('r', NodeType.Normal, 0xff, 1000, 0, 1000), ...children]);
    firstChunkSize = hierarchy.length;
  }
  const metadata = {
    points: 9000,
    spacing: 0.125,
    hierarchy: { firstChunkSize, stepSize: 1, depth: 1 },
    boundingBox: { min: [0, 0, 0], max: [16, 16, 16] },
  } as unknown as PointCloudMetadata;
  return { root: buildOctree(hierarchy, metadata, new Vector3()), metadata };
}

function loadAll(root: OctreeNode) {
  for (const node of eachNode(root)) node.points = new Points();
}

function camera(at: [number, number, number], look: [number, number, number]) {
  const c = new PerspectiveCamera(60, 4 / 3, 0.1, 1000);
  c.up.set(0, 0, 1);
  c.position.set(...at);
  c.lookAt(...look);
  c.updateMatrixWorld();
  return c;
}

describe('point clouds in the viewer: the octree', () => {
  it('builds the tree from a hierarchy, a proxy chunk in its place', () => {
    for (const proxy of [false, true]) {
      const { root } = tree(proxy);
      const names = [...eachNode(root)].map((n) => n.name).sort();
      assert.deepEqual(names, ['r', 'r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
      const r3 = root.children[3]!;
      assert.equal(r3.level, 1);
      assert.equal(r3.entry.type, NodeType.Leaf, 'the proxy is replaced by its chunk\'s node');
      assert.equal(r3.entry.byteOffset, 4000);
      // Child 3 = 0b011: low x, high y, high z.
      assert.deepEqual(r3.box.min.toArray(), [0, 8, 8]);
      assert.deepEqual(r3.box.max.toArray(), [8, 16, 16]);
    }
  });

  it('refuses a proxy whose chunk lies outside the hierarchy', () => {
    const first = encodeHierarchy([entry('r', NodeType.Normal, 1, 10), entry('r0', NodeType.Proxy, 0, 10, 500, 22)]);
    const metadata = { hierarchy: { firstChunkSize: first.length }, boundingBox: { min: [0, 0, 0], max: [1, 1, 1] } } as unknown as PointCloudMetadata;
    assert.throws(() => buildOctree(first, metadata, new Vector3()), /outside the hierarchy/);
  });
});

describe('point clouds in the viewer: the node selection', () => {
  const view = { height: 600, budget: 1e9, clipping: [] as Plane[] };

  it('shows what fits in the budget, largest on screen first, below a shown parent', () => {
    const { root } = tree();
    loadAll(root);
    const cam = camera([4, 4, 30], [4, 4, 0]); // above the low-x, low-y quarter
    const all = selectNodes([{ root, matrix: new Matrix4() }], { ...view, camera: cam });
    assert.equal(all.visible.length, 9);
    assert.equal(all.points, 9000);
    const some = selectNodes([{ root, matrix: new Matrix4() }], { ...view, camera: cam, budget: 3500 });
    assert.equal(some.points, 3000);
    assert.equal(some.visible[0], root);
    // The child right under the camera (x and y low, z high) is the largest on screen, then one next to it.
    assert.equal(some.visible[1].name, 'r1');
    assert.ok(['r3', 'r5'].includes(some.visible[2].name), some.visible[2].name);
    const none = selectNodes([{ root, matrix: new Matrix4() }], { ...view, camera: cam, budget: 999 });
    assert.equal(none.visible.length, 0, 'not even the root fits');
  });

  it('wants the unloaded children nearest first, and none outside the view or cut away', () => {
    const { root } = tree();
    root.points = new Points();
    const cam = camera([1, 1, 1.5], [16, 16, 0]);
    const { wanted, visible } = selectNodes([{ root, matrix: new Matrix4() }], { ...view, camera: cam });
    assert.deepEqual(visible, [root]);
    assert.equal(wanted[0].name, 'r0', 'the child the camera is in comes first');
    const distance = (n: OctreeNode) => n.box.distanceToPoint(cam.position);
    for (let i = 1; i < wanted.length; i++) assert.ok(distance(wanted[i - 1]) <= distance(wanted[i]), 'nearest first');
    // A plane keeping x < 7.9 (three keeps the side its normal points to).
    const cut = selectNodes([{ root, matrix: new Matrix4() }], { ...view, camera: cam, clipping: [new Plane(new Vector3(-1, 0, 0), 7.9)] });
    assert.ok(cut.wanted.length > 0 && cut.wanted.every((n) => n.box.min.x < 7.9), `only nodes at x < 7.9: ${cut.wanted.map((n) => n.name)}`);
    // Looking away: nothing but the root (never culled by size) is considered.
    const away = selectNodes([{ root, matrix: new Matrix4() }], { ...view, camera: camera([8, 8, 40], [8, 8, 80]) });
    assert.equal(away.visible.length + away.wanted.length, 0);
  });

  it('gives each octant the level drawn there', () => {
    const { root } = tree();
    loadAll(root);
    for (const node of eachNode(root)) node.drawn = false;
    root.drawn = true;
    root.children[5]!.drawn = true;
    updateOctantLevels([root, root.children[5]!]);
    assert.equal(root.octantLevels[5], 1, 'where the child shows, its level');
    assert.equal(root.octantLevels[0], 0, 'elsewhere, the root\'s');
    assert.deepEqual([...root.children[5]!.octantLevels], [1, 1, 1, 1, 1, 1, 1, 1]);
  });
});

describe('point clouds in the viewer: picking', () => {
  function node(positions: number[], at: [number, number, number] = [0, 0, 0]) {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(positions), 3));
    const points = new Points(geometry);
    points.position.set(...at);
    points.updateMatrixWorld(true);
    return points;
  }
  const perPixel = (depth: number) => depth * 0.002;
  const ray = new Ray(new Vector3(0, 0, 10), new Vector3(0, 0, -1));

  it('takes the point nearest the eye among those at the cursor', () => {
    const hit = pickPoint(ray, [node([0.01, 0, 0, 0, 0.01, 5, 3, 3, 8])], perPixel, [], () => false);
    assert.ok(hit);
    assert.deepEqual(hit.point.toArray().map((v) => Math.round(v * 1000) / 1000), [0, 0.01, 5]);
    assert.equal(hit.distance, 5);
  });

  it('skips points off the ray, cut away, or of a hidden class, and places nodes', () => {
    assert.equal(pickPoint(ray, [node([0.5, 0, 0])], perPixel, [], () => false), null, 'half a metre off at 10 m: 25 pixels');
    const keepBelow = new Plane(new Vector3(0, 0, -1), 2); // keeps z < 2
    const hit = pickPoint(ray, [node([0, 0, 5, 0, 0, 1])], perPixel, [keepBelow], () => false);
    assert.equal(hit?.point.z, 1);
    const moved = pickPoint(ray, [node([-100, -100, 0], [100, 100, 3])], perPixel, [], () => false);
    assert.deepEqual(moved?.point.toArray(), [0, 0, 3]);
    const geometry = node([0, 0, 5, 0, 0, 1]);
    geometry.geometry.setAttribute('classification', new BufferAttribute(new Uint8Array([6, 2]), 1));
    assert.equal(pickPoint(ray, [geometry], perPixel, [], (c) => c === 6)?.point.z, 1);
  });
});
