import { BufferGeometry, Color, Group, LineBasicMaterial, LineSegments, Mesh, MeshBasicMaterial, SphereGeometry, Vector2, Vector3, Line3, type Camera } from 'three';
import type { Labels } from './labels.js';

export type MeasureMode = 'laser' | 'dimension';

/** A finished measurement, in viewer coordinates. */
export interface Measurement {
  mode: MeasureMode;
  start: Vector3;
  end: Vector3;
  distance: number;
}

/** Snapping reach in pixels: vertices first, then edges. */
const VERTEX_SNAP_PX = 12;
const EDGE_SNAP_PX = 8;
const AXIS_COLORS = [new Color('#d6423a'), new Color('#3aa14a'), new Color('#3a6ad6')];

/** `1.234 m` */
export function metres(value: number): string {
  return `${value.toFixed(3)} m`;
}

/**
 * Measuring by clicking two points on surfaces. `laser`: the straight distance between
 * them; `dimension`: its x, y and z parts as axis-aligned lines. Points snap to a vertex
 * or an edge of the surface that was hit when the click is within a few pixels of it.
 */
export class Measure {
  readonly group = new Group();
  enabled = false;
  mode: MeasureMode = 'laser';
  readonly measurements: Measurement[] = [];
  private first: Vector3 | null = null;
  private readonly marker: Mesh<SphereGeometry, MeshBasicMaterial>;
  private readonly lineMaterial = new LineBasicMaterial({ color: '#f5a623', depthTest: false });
  private readonly axisMaterials = AXIS_COLORS.map((color) => new LineBasicMaterial({ color, depthTest: false }));

  constructor(private readonly labels: Labels) {
    this.group.name = 'measure';
    this.marker = new Mesh(new SphereGeometry(1, 16, 12), new MeshBasicMaterial({ color: '#f5a623', depthTest: false }));
    this.marker.visible = false;
    this.marker.renderOrder = 25;
    this.group.add(this.marker);
  }

  enable(mode?: MeasureMode) {
    if (mode) this.mode = mode;
    this.enabled = true;
  }

  disable() {
    this.enabled = false;
    this.first = null;
    this.marker.visible = false;
  }

  clear() {
    for (const child of [...this.group.children]) if (child !== this.marker) {
      child.removeFromParent();
      (child as LineSegments).geometry?.dispose();
    }
    this.measurements.length = 0;
    this.labels.removeAll('measure:');
    this.first = null;
    this.marker.visible = false;
  }

  /** A click on a surface point: the first point, or the second that completes a measurement. */
  click(point: Vector3) {
    if (!this.first) {
      this.first = point.clone();
      this.marker.position.copy(point);
      this.marker.visible = true;
      return;
    }
    const measurement: Measurement = { mode: this.mode, start: this.first, end: point.clone(), distance: this.first.distanceTo(point) };
    this.first = null;
    this.marker.visible = false;
    this.measurements.push(measurement);
    this.draw(measurement, this.measurements.length - 1);
  }

  /** Keeps the first-point marker a few pixels wide. */
  update(camera: Camera, metresPerPixel: (depth: number) => number) {
    if (this.marker.visible) this.marker.scale.setScalar(metresPerPixel(this.marker.position.distanceTo(camera.position)) * 5);
  }

  dispose() {
    this.clear();
    this.marker.geometry.dispose();
    this.marker.material.dispose();
    this.lineMaterial.dispose();
    this.axisMaterials.forEach((m) => m.dispose());
  }

  private draw(m: Measurement, index: number) {
    const id = `measure:${index}`;
    if (m.mode === 'laser') {
      this.line([m.start, m.end], this.lineMaterial);
      this.labels.set(id, metres(m.distance), m.start.clone().lerp(m.end, 0.5));
      return;
    }
    // Dimension: along x, then y, then z, each with its own length.
    const corners = [m.start, new Vector3(m.end.x, m.start.y, m.start.z), new Vector3(m.end.x, m.end.y, m.start.z), m.end];
    for (let axis = 0; axis < 3; axis++) {
      const [a, b] = [corners[axis], corners[axis + 1]];
      const length = a.distanceTo(b);
      if (length < 1e-6) continue;
      this.line([a, b], this.axisMaterials[axis]);
      this.labels.set(`${id}:${'xyz'[axis]}`, metres(length), a.clone().lerp(b, 0.5));
    }
  }

  private line(points: Vector3[], material: LineBasicMaterial) {
    const line = new LineSegments(new BufferGeometry().setFromPoints(points), material);
    line.renderOrder = 24;
    this.group.add(line);
  }
}

/**
 * The point a measurement should use for a hit: the nearest vertex on screen within a
 * few pixels, else the nearest point on an edge within a few pixels, else the hit
 * itself. `triangles` are the hit object's triangles around the hit.
 */
export function snap(hit: Vector3, triangles: [Vector3, Vector3, Vector3][], toScreen: (p: Vector3) => Vector2): Vector3 {
  const cursor = toScreen(hit);
  let best: Vector3 | null = null;
  let bestPx = VERTEX_SNAP_PX;
  for (const vertex of triangles.flat()) {
    const px = toScreen(vertex).distanceTo(cursor);
    if (px < bestPx) {
      bestPx = px;
      best = vertex;
    }
  }
  if (best) return best.clone();
  bestPx = EDGE_SNAP_PX;
  for (const triangle of triangles) {
    for (let i = 0; i < 3; i++) {
      const onEdge = new Line3(triangle[i], triangle[(i + 1) % 3]).closestPointToPoint(hit, true, new Vector3());
      const px = toScreen(onEdge).distanceTo(cursor);
      if (px < bestPx) {
        bestPx = px;
        best = onEdge;
      }
    }
  }
  return best ?? hit.clone();
}
