import { Box3, BufferAttribute, BufferGeometry, Group, Matrix4, Points, Vector3, type ShaderMaterial } from 'three';
import { decodeNodePoints } from '../formats/pointcloud.js';
import { buildOctree, eachNode, type OctreeNode } from './octree-node.js';
import { pointMaterial, setHiddenClasses, type ColorMode, type PointUniforms } from './point-material.js';
import type { PointCloudSource } from './pointcloud-source.js';

/**
 * One loaded point cloud: its octree, and a three Group holding a Points object per loaded
 * node. A node's positions are float32 relative to its box's minimum, and the node sits at
 * that minimum less the viewer origin (doubles until the GPU): coordinates millions of
 * metres out (UTM) keep millimetres. The group carries the placement (transformModel).
 */
export class PointCloudModel {
  readonly group = new Group();
  readonly root: OctreeNode;
  readonly material: ShaderMaterial & { uniforms: PointUniforms };
  /** Attributes the file has. */
  readonly has: { rgb: boolean; intensity: boolean; classification: boolean };
  /** Points loaded and kept (shown or cached). */
  loadedPoints = 0;

  constructor(readonly id: string, readonly name: string, readonly source: PointCloudSource, readonly origin: Vector3, logDepthBufFC: { value: number }) {
    this.root = buildOctree(source.hierarchy, source.metadata, origin);
    this.group.matrixAutoUpdate = false;
    this.material = pointMaterial(logDepthBufFC);
    this.material.uniforms.spacing.value = source.metadata.spacing;
    const names = new Set(source.metadata.attributes.map((a) => a.name));
    this.has = { rgb: names.has('rgb'), intensity: names.has('intensity'), classification: names.has('classification') };
    const intensity = source.metadata.attributes.find((a) => a.name === 'intensity');
    if (intensity) this.material.uniforms.intensityRange.value.set(intensity.min[0] ?? 0, intensity.max[0] ?? 65535);
  }

  get pointCount(): number {
    return this.source.metadata.points;
  }

  get matrix(): Matrix4 {
    return this.group.matrix;
  }

  setMatrix(matrix: Matrix4) {
    this.group.matrix.copy(matrix);
    this.group.matrixWorldNeedsUpdate = true;
    this.group.updateMatrixWorld(true);
  }

  /** The points' own bounds (the metadata's tight box), placed, viewer coordinates. */
  bounds(): Box3 {
    const { min, max } = this.source.metadata.container.tightBoundingBox;
    return new Box3(new Vector3(...min).sub(this.origin), new Vector3(...max).sub(this.origin)).applyMatrix4(this.group.matrix);
  }

  /** Makes a node's Points from its records (hidden until the selection shows it). */
  addNode(node: OctreeNode, bytes: Uint8Array) {
    const decoded = decodeNodePoints(bytes, this.source.metadata, node.min);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(decoded.positions, 3));
    if (decoded.colors) geometry.setAttribute('rgb', new BufferAttribute(decoded.colors, 3, true));
    if (decoded.intensity) geometry.setAttribute('intensity', new BufferAttribute(decoded.intensity, 1));
    if (decoded.classification) geometry.setAttribute('classification', new BufferAttribute(decoded.classification, 1));
    geometry.boundingBox = new Box3(new Vector3(), node.box.getSize(new Vector3()));
    const points = new Points(geometry, this.material);
    points.name = node.name;
    points.position.copy(node.box.min);
    points.frustumCulled = false; // the node selection culls
    points.visible = false;
    points.renderOrder = 10;
    const size = node.box.max.x - node.box.min.x;
    points.onBeforeRender = () => {
      // Points as wide as the spacing of the finest level drawn around them (octree-node.ts).
      const u = this.material.uniforms;
      u.nodeSize.value = size;
      u.octantLevels.value.set(node.octantLevels);
      this.material.uniformsNeedUpdate = true;
    };
    points.updateMatrix();
    this.group.add(points);
    points.updateMatrixWorld(true);
    node.points = points;
    this.loadedPoints += decoded.count;
  }

  /** Frees a node's points (evicted from the cache). */
  dropNode(node: OctreeNode) {
    if (!node.points) return;
    this.group.remove(node.points);
    node.points.geometry.dispose();
    this.loadedPoints -= node.points.geometry.getAttribute('position').count;
    node.points = null;
  }

  /** The colour mode this cloud can draw: what it lacks falls back to intensity, then elevation. */
  setColorMode(mode: ColorMode) {
    let effective = mode;
    if (effective === 'rgb' && !this.has.rgb) effective = this.has.intensity ? 'intensity' : 'elevation';
    if (effective === 'intensity' && !this.has.intensity) effective = 'elevation';
    this.material.uniforms.mode.value = ['rgb', 'intensity', 'classification', 'elevation'].indexOf(effective);
    const box = this.bounds();
    this.material.uniforms.elevationRange.value.set(box.min.z, box.max.z);
  }

  setHiddenClasses(classes: readonly number[]) {
    setHiddenClasses(this.material, classes);
  }

  /** The Points drawn this frame. */
  shown(): Points[] {
    const out: Points[] = [];
    for (const child of this.group.children) if (child.visible) out.push(child as Points);
    return out;
  }

  dispose() {
    this.source.close();
    for (const node of eachNode(this.root)) this.dropNode(node);
    this.material.dispose();
    this.group.removeFromParent();
  }
}
