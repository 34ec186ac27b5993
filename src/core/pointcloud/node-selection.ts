import { Box3, Frustum, Matrix4, Sphere, Vector3, type OrthographicCamera, type PerspectiveCamera, type Plane } from 'three';
import type { OctreeNode } from './octree-node.js';

/** Nodes smaller than this on screen (their bounding sphere's radius, pixels) are not shown. */
export const MIN_NODE_PIXELS = 40;

/** One cloud as the selection sees it. */
export interface SelectionCloud {
  root: OctreeNode;
  /** The cloud's placement (transformModel) in viewer coordinates. */
  matrix: Matrix4;
}

export interface SelectionView {
  camera: PerspectiveCamera | OrthographicCamera;
  /** The canvas height, CSS pixels. */
  height: number;
  /** Points shown at most, over all clouds. */
  budget: number;
  /** The viewer's clipping planes: a node wholly on the cut side is not shown. */
  clipping: Plane[];
}

export interface Selection {
  /** Loaded nodes to draw, within the budget. */
  visible: OctreeNode[];
  /** Nodes that would be drawn once loaded, nearest to the camera first. */
  wanted: OctreeNode[];
  /** Points in `visible`. */
  points: number;
}

interface Candidate {
  node: OctreeNode;
  /** Radius on screen, pixels: the larger, the sooner. */
  weight: number;
  distance: number;
}

/**
 * Which nodes to show (Potree's rule): from the roots down, the largest on screen first,
 * each node only below a shown parent, until the point budget is spent. Nodes outside the
 * view, wholly clipped away, or smaller than MIN_NODE_PIXELS are left out. A node not yet
 * loaded is wanted instead of shown, and its children wait for it.
 */
export function selectNodes(clouds: SelectionCloud[], view: SelectionView): Selection {
  const { camera, height, budget, clipping } = view;
  camera.updateMatrixWorld();
  const frustum = new Frustum().setFromProjectionMatrix(new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
  const eye = camera.getWorldPosition(new Vector3());
  const queue = new LargestFirst();
  const box = new Box3();
  const sphere = new Sphere();
  const consider = (node: OctreeNode, matrix: Matrix4) => {
    box.copy(node.box).applyMatrix4(matrix);
    if (!frustum.intersectsBox(box)) return;
    if (clipping.some((plane) => wholeOnCutSide(box, plane))) return;
    box.getBoundingSphere(sphere);
    const distance = Math.max(sphere.center.distanceTo(eye), 1e-6);
    const weight = screenRadius(camera, sphere.radius, distance, height);
    if (weight < MIN_NODE_PIXELS && node.parent) return;
    queue.push({ node, weight, distance });
  };
  const matrices = new Map<OctreeNode, Matrix4>();
  for (const { root, matrix } of clouds) {
    matrices.set(root, matrix);
    consider(root, matrix);
  }
  const visible: OctreeNode[] = [];
  const wanted: Candidate[] = [];
  let points = 0;
  while (queue.size) {
    const best = queue.pop();
    const { node } = best;
    if (points + node.numPoints > budget) break;
    if (!node.loaded) {
      if (!node.failed) wanted.push(best);
      continue;
    }
    points += node.numPoints;
    visible.push(node);
    const matrix = matrices.get(rootOf(node))!;
    for (const child of node.children) if (child) consider(child, matrix);
  }
  wanted.sort((a, b) => a.distance - b.distance);
  return { visible, wanted: wanted.map((c) => c.node), points };
}

/** The radius of a sphere on screen, pixels. */
function screenRadius(camera: PerspectiveCamera | OrthographicCamera, radius: number, distance: number, height: number): number {
  if ((camera as OrthographicCamera).isOrthographicCamera) {
    const o = camera as OrthographicCamera;
    return (radius / ((o.top - o.bottom) / o.zoom)) * height;
  }
  const fov = ((camera as PerspectiveCamera).fov * Math.PI) / 180;
  return (radius / (Math.tan(fov / 2) * distance)) * (height / 2);
}

/** Whether every corner of `box` is on the side `plane` cuts away (three keeps the side its normal points to). */
function wholeOnCutSide(box: Box3, plane: Plane): boolean {
  const corner = new Vector3();
  for (let i = 0; i < 8; i++) {
    corner.set(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z);
    if (plane.distanceToPoint(corner) >= 0) return false;
  }
  return true;
}

/** A binary heap of candidates, largest weight on top (a tree has thousands of nodes). */
class LargestFirst {
  private readonly items: Candidate[] = [];

  get size() {
    return this.items.length;
  }

  push(item: Candidate) {
    const { items } = this;
    items.push(item);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (items[parent].weight >= items[i].weight) break;
      [items[parent], items[i]] = [items[i], items[parent]];
      i = parent;
    }
  }

  pop(): Candidate {
    const { items } = this;
    const top = items[0];
    const last = items.pop()!;
    if (items.length) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let largest = i;
        if (l < items.length && items[l].weight > items[largest].weight) largest = l;
        if (r < items.length && items[r].weight > items[largest].weight) largest = r;
        if (largest === i) break;
        [items[largest], items[i]] = [items[i], items[largest]];
        i = largest;
      }
    }
    return top;
  }
}

function rootOf(node: OctreeNode): OctreeNode {
  let n = node;
  while (n.parent) n = n.parent;
  return n;
}
