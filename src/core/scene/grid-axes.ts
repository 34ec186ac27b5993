import {
  BufferGeometry,
  DoubleSide,
  Float32BufferAttribute,
  Group,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  Vector3,
} from 'three';
import type { GridData } from '../ifc/grids.js';
import type { Labels } from './labels.js';

export interface AxisState {
  visible: boolean;
  /** Draws the axis as a vertical curtain through the building's height. */
  extrudeCurve: boolean;
}

export interface GridInfo {
  id: string;
  name: string;
  type: string;
  modelId: string;
  axes: { id: string; length: number }[];
}

interface Axis {
  id: string;
  tag: string;
  modelId: string;
  /** Viewer coordinates before the model's transform. */
  points: Vector3[];
  length: number;
  state: AxisState;
  curtain?: Mesh<BufferGeometry, MeshBasicMaterial>;
}

/**
 * The IfcGrid axes of the loaded models: lines with their tags at both ends, each axis
 * shown or hidden on its own, optionally extruded into a curtain over the building's
 * height, and points along them (calculatePointOnAxis).
 */
export class GridAxes {
  readonly group = new Group();
  private readonly axes = new Map<string, Axis>();
  private readonly grids: GridInfo[] = [];
  private readonly modelGroups = new Map<string, Group>();
  private readonly lineMaterial = new LineBasicMaterial({ color: '#2f6db3' });
  private readonly curtainMaterial = new MeshBasicMaterial({ color: '#2f6db3', transparent: true, opacity: 0.12, side: DoubleSide, depthWrite: false });

  constructor(private readonly labels: Labels) {
    this.group.name = 'grids';
  }

  /** Adds a model's grids; `origin` is the viewer origin (IFC coordinates). */
  add(modelId: string, grids: GridData[], origin: Vector3, matrix: Matrix4) {
    const group = new Group();
    group.matrixAutoUpdate = false;
    group.matrix.copy(matrix);
    // All axes of a model in one draw call, rebuilt when an axis is shown or hidden.
    const lines = new LineSegments(new BufferGeometry(), this.lineMaterial);
    lines.name = 'grid-axes';
    group.add(lines);
    this.group.add(group);
    this.modelGroups.set(modelId, group);
    for (const grid of grids) {
      const info: GridInfo = { id: grid.objectId, name: grid.name, type: grid.type, modelId, axes: [] };
      for (const data of grid.axes) {
        const points: Vector3[] = [];
        for (let i = 0; i < data.points.length; i += 3) points.push(new Vector3(data.points[i], data.points[i + 1], data.points[i + 2]).sub(origin));
        let length = 0;
        for (let i = 1; i < points.length; i++) length += points[i].distanceTo(points[i - 1]);
        const axis: Axis = { id: data.objectId, tag: data.tag, modelId, points, length, state: { visible: true, extrudeCurve: false } };
        this.axes.set(axis.id, axis);
        info.axes.push({ id: axis.id, length });
        this.placeTags(axis);
      }
      this.grids.push(info);
    }
    this.rebuildLines(modelId);
  }

  /**
   * Draws a made-up axis and its tag once, from a camera that sees them, so that the grid
   * and tag shaders are compiled before a model with grids needs them (in its first frame).
   */
  compileShaders(draw: (camera: PerspectiveCamera) => void) {
    const id = 'compile-shaders';
    this.add(id, [{ objectId: '0', name: '', type: 'NOTDEFINED', axes: [{ objectId: '0', tag: 'A', points: [0, 0, 0, 1, 0, 0] }] }], new Vector3(), new Matrix4());
    const camera = new PerspectiveCamera(60, 1, 0.1, 10);
    camera.up.set(0, 0, 1);
    camera.position.set(0.5, -2, 1);
    camera.lookAt(0.5, 0, 0);
    camera.updateMatrixWorld();
    try {
      draw(camera);
    } finally {
      this.remove(id);
    }
  }

  remove(modelId: string) {
    for (const axis of [...this.axes.values()].filter((a) => a.modelId === modelId)) {
      axis.curtain?.geometry.dispose();
      this.labels.removeAll(`grid:${axis.id}:`);
      this.axes.delete(axis.id);
    }
    (this.modelGroups.get(modelId)?.getObjectByName('grid-axes') as LineSegments | undefined)?.geometry.dispose();
    this.modelGroups.get(modelId)?.removeFromParent();
    this.modelGroups.delete(modelId);
    for (let i = this.grids.length - 1; i >= 0; i--) if (this.grids[i].modelId === modelId) this.grids.splice(i, 1);
  }

  setMatrix(modelId: string, matrix: Matrix4) {
    const group = this.modelGroups.get(modelId);
    if (!group) return;
    group.matrix.copy(matrix);
    group.updateMatrixWorld(true);
    for (const axis of this.axes.values()) if (axis.modelId === modelId) this.placeTags(axis);
  }

  setModelVisible(modelId: string, visible: boolean) {
    const group = this.modelGroups.get(modelId);
    if (group) group.visible = visible;
    for (const axis of this.axes.values()) if (axis.modelId === modelId) this.placeTags(axis);
  }

  list(): GridInfo[] {
    return this.grids.map((g) => ({ ...g, axes: g.axes.map((a) => ({ ...a })) }));
  }

  has(axisId: string) {
    return this.axes.has(axisId);
  }

  state(axisId: string): AxisState {
    return { ...this.axis(axisId).state };
  }

  /** Changes an axis; the curtain spans `zRange` (viewer coordinates). */
  setState(axisId: string, state: Partial<AxisState>, zRange: [number, number]) {
    const axis = this.axis(axisId);
    axis.state = { ...axis.state, ...state };
    this.rebuildLines(axis.modelId);
    if (axis.curtain) {
      axis.curtain.removeFromParent();
      axis.curtain.geometry.dispose();
      axis.curtain = undefined;
    }
    if (axis.state.visible && axis.state.extrudeCurve) {
      axis.curtain = new Mesh(curtain(axis.points, zRange), this.curtainMaterial);
      axis.curtain.name = `grid-curtain:${axis.id}`;
      this.modelGroups.get(axis.modelId)?.add(axis.curtain);
    }
    this.placeTags(axis);
  }

  /** The point `distance` metres along the axis from its start (beyond the ends: straight on), and the direction there; viewer coordinates. */
  pointOnAxis(axisId: string, distance: number): { location: Vector3; direction: Vector3 } {
    const axis = this.axis(axisId);
    const matrix = this.modelGroups.get(axis.modelId)!.matrix;
    const points = axis.points;
    let left = distance;
    for (let i = 1; i < points.length; i++) {
      const segment = points[i].distanceTo(points[i - 1]);
      // On this segment (before the start: the first), or past the end along the last.
      if (left <= segment || i === points.length - 1) {
        const direction = points[i].clone().sub(points[i - 1]).normalize();
        const location = points[i - 1].clone().addScaledVector(direction, left);
        return { location: location.applyMatrix4(matrix), direction: direction.transformDirection(matrix) };
      }
      left -= segment;
    }
    return { location: points[0].clone().applyMatrix4(matrix), direction: new Vector3(1, 0, 0) };
  }

  dispose() {
    for (const modelId of [...this.modelGroups.keys()]) this.remove(modelId);
    this.lineMaterial.dispose();
    this.curtainMaterial.dispose();
  }

  private rebuildLines(modelId: string) {
    const lines = this.modelGroups.get(modelId)?.getObjectByName('grid-axes') as LineSegments<BufferGeometry, LineBasicMaterial> | undefined;
    if (!lines) return;
    const points: Vector3[] = [];
    for (const axis of this.axes.values()) {
      if (axis.modelId !== modelId || !axis.state.visible) continue;
      for (let i = 1; i < axis.points.length; i++) points.push(axis.points[i - 1], axis.points[i]);
    }
    lines.geometry.dispose();
    lines.geometry = new BufferGeometry().setFromPoints(points);
    lines.visible = points.length > 0; // no draw call (and no shader) for a model without grids
  }

  private axis(axisId: string): Axis {
    const axis = this.axes.get(axisId);
    if (!axis) throw new Error(`No grid axis with id "${axisId}"`);
    return axis;
  }

  /** Tags at both ends of a visible axis, where the axis is drawn. */
  private placeTags(axis: Axis) {
    const group = this.modelGroups.get(axis.modelId);
    const shown = axis.state.visible && group?.visible !== false;
    const ends = [axis.points[0], axis.points[axis.points.length - 1]];
    ends.forEach((point, i) => {
      const id = `grid:${axis.id}:${i}`;
      if (shown && axis.tag) this.labels.set(id, axis.tag, point.clone().applyMatrix4(group!.matrix));
      else this.labels.remove(id);
    });
  }
}

/** A vertical band under and over a polyline, from z0 to z1. */
function curtain(points: Vector3[], [z0, z1]: [number, number]): BufferGeometry {
  const positions: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1], b = points[i];
    positions.push(a.x, a.y, z0, b.x, b.y, z0, b.x, b.y, z1, a.x, a.y, z0, b.x, b.y, z1, a.x, a.y, z1);
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new Float32BufferAttribute(positions, 3));
  return geometry;
}
