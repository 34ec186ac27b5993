import { BufferAttribute, BufferGeometry, Group, Mesh, Box3, Matrix4, Sphere, Vector3 } from 'three';
import type { BatchMaterials } from './batch-material.js';
import { RANGE_STRIDE, type GeometryChunk, type OpenResult } from '../ifc/protocol.js';
import type { GridData } from '../ifc/grids.js';
import { expressIdOf, objectId } from '../data/object-ids.js';
import type { SpatialNode } from '../types.js';

const IDENTITY = new Matrix4();

/** One batch of triangles, drawn by two meshes over the same geometry (opaque and see-through pass). */
export interface Batch {
  geometry: BufferGeometry;
  opaque: Mesh;
  translucent: Mesh;
  /** Glass and other surfaces that are see-through in the file itself. */
  transparent: boolean;
  /** Per piece (RANGE_STRIDE numbers): object index (global), first index, index count; largest object first. */
  ranges: Uint32Array;
  /** Per piece: its object's size in the chunk (metres, descending), for MovingDetail. */
  sizes: Float32Array;
}

/**
 * A loaded IFC model in the scene: its batches, and the mapping between its object ids
 * and the global object indices that the state texture and picking use. Objects get
 * their indices as their first geometry arrives, so chunks may come in any order.
 */
export class SceneModel {
  readonly group = new Group();
  readonly batches: Batch[] = [];
  /** Per local object (global index - firstIndex): its express id. */
  readonly expressIds: number[] = [];
  /** Per local object: its IFC type name. */
  readonly types: string[] = [];
  /** Per local object: min xyz, max xyz in viewer coordinates (grown as geometry arrives). */
  boxes = new Float32Array(0);
  /** What the worker read when it opened the model. */
  opened: OpenResult | null = null;
  /** Read from the worker the first time it is asked for. */
  spatial?: Promise<SpatialNode | null>;
  private readonly indexOfExpress = new Map<number, number>();
  /** Object index to its pieces: [batch, offset in the batch's ranges] pairs. */
  private pieces = new Map<number, number[]>();

  constructor(
    readonly id: string,
    readonly name: string,
    readonly key: number,
    readonly objectIdBase: string,
    /** Global index of this model's first object. */
    readonly firstIndex: number,
    private readonly materials: BatchMaterials,
  ) {
    this.group.name = `model:${id}`;
    this.group.matrixAutoUpdate = false;
  }

  /** Places the model by `matrix` (viewer coordinates), as transformModel asks. */
  setMatrix(matrix: Matrix4) {
    this.group.matrix.copy(matrix);
    this.group.updateMatrixWorld(true);
  }

  get matrix(): Matrix4 {
    return this.group.matrix;
  }

  get count() {
    return this.expressIds.length;
  }

  get grids(): GridData[] {
    return this.opened?.grids ?? [];
  }

  /**
   * Adds a streamed chunk: its objects take their global indices (objects seen for the
   * first time the next free ones). Returns the global indices of the objects it added.
   */
  addChunk(chunk: GeometryChunk): [first: number, end: number] {
    const first = this.firstIndex + this.count;
    const global = new Uint32Array(chunk.expressIds.length);
    for (let i = 0; i < global.length; i++) global[i] = this.place(chunk.expressIds[i], chunk.types[i], chunk.boxes, i * 6);
    const objects = chunk.objects;
    for (let i = 0; i < objects.length; i++) objects[i] = global[objects[i]];
    const ranges = chunk.ranges;
    for (let i = 0; i < ranges.length; i += RANGE_STRIDE) ranges[i] = global[ranges[i]];
    const geometry = batchGeometry(chunk);
    // From the objects' boxes, not from every position (three's way): a few numbers per object instead of a pass over the vertices.
    geometry.boundingBox = boxOfObjects(chunk.boxes);
    geometry.boundingSphere = geometry.boundingBox.getBoundingSphere(new Sphere());
    const opaque = new Mesh(geometry, chunk.closed ? this.materials.solid : this.materials.opaque);
    const translucent = new Mesh(geometry, this.materials.translucent);
    // After the section caps (render orders 1..6), which must draw before the model.
    opaque.renderOrder = 10;
    translucent.renderOrder = 11;
    for (const mesh of [opaque, translucent]) {
      mesh.matrixAutoUpdate = false;
      this.group.add(mesh);
    }
    const batch = this.batches.length;
    this.batches.push({ geometry, opaque, translucent, transparent: chunk.transparent, ranges, sizes: chunk.sizes });
    for (let i = 0; i < ranges.length; i += RANGE_STRIDE) {
      const list = this.pieces.get(ranges[i]);
      if (list) list.push(batch, i);
      else this.pieces.set(ranges[i], [batch, i]);
    }
    return [first, this.firstIndex + this.count];
  }

  /** The global index of an object (a new one when it is new here), its box grown by `box[o..o+5]`. */
  private place(expressId: number, type: number, box: Float32Array, o: number): number {
    let index = this.indexOfExpress.get(expressId);
    let b: number;
    if (index === undefined) {
      b = this.count * 6;
      if (b + 6 > this.boxes.length) {
        const grown = new Float32Array(Math.max(96, this.boxes.length * 2));
        grown.set(this.boxes);
        this.boxes = grown;
      }
      index = this.firstIndex + this.count;
      this.indexOfExpress.set(expressId, index);
      this.expressIds.push(expressId);
      this.types.push(this.opened?.typeNames[type] ?? '');
      this.boxes.set(box.subarray(o, o + 6), b);
      return index;
    }
    b = (index - this.firstIndex) * 6;
    for (let k = 0; k < 3; k++) {
      this.boxes[b + k] = Math.min(this.boxes[b + k], box[o + k]);
      this.boxes[b + 3 + k] = Math.max(this.boxes[b + 3 + k], box[o + 3 + k]);
    }
    return index;
  }

  /** Global index of an object id, or undefined when this model has no geometry for it. */
  indexOf(id: string): number | undefined {
    const expressId = expressIdOf(this.objectIdBase, id);
    return expressId === null ? undefined : this.indexOfExpress.get(expressId);
  }

  objectIdAt(index: number): string {
    return objectId(this.objectIdBase, this.expressIds[index - this.firstIndex]);
  }

  has(index: number) {
    return index >= this.firstIndex && index < this.firstIndex + this.count;
  }

  /** Object ids of this model in index order. */
  objectIds(): string[] {
    return this.expressIds.map((e) => objectId(this.objectIdBase, e));
  }

  /** Distance from `point` (model coordinates) to the object's box; 0 inside it. */
  distanceTo(index: number, point: Vector3): number {
    const o = (index - this.firstIndex) * 6;
    const b = this.boxes;
    const dx = Math.max(b[o] - point.x, 0, point.x - b[o + 3]);
    const dy = Math.max(b[o + 1] - point.y, 0, point.y - b[o + 4]);
    const dz = Math.max(b[o + 2] - point.z, 0, point.z - b[o + 5]);
    return Math.hypot(dx, dy, dz);
  }

  /** Grows `box` by the object's box (viewer coordinates, after the model's transform). */
  expandBox(index: number, box: Box3) {
    const o = (index - this.firstIndex) * 6;
    const b = this.boxes;
    if (!(b[o] <= b[o + 3])) return;
    box.union(new Box3(new Vector3(b[o], b[o + 1], b[o + 2]), new Vector3(b[o + 3], b[o + 4], b[o + 5])).applyMatrix4(this.group.matrix));
  }

  /** Grows `box` by the boxes of the objects `include` accepts (viewer coordinates, after the model's transform). */
  expandBoxes(include: (index: number) => boolean, box: Box3) {
    if (!this.group.matrix.equals(IDENTITY)) {
      for (let i = this.firstIndex; i < this.firstIndex + this.count; i++) if (include(i)) this.expandBox(i, box);
      return;
    }
    // Untransformed (the usual case): one pass over the boxes, no Box3 per object.
    box.union(boxOfObjects(this.boxes, this.count, (i) => include(this.firstIndex + i)));
  }

  /** Calls `fn` with each triangle of an object, in the model's own coordinates (the vectors are reused). */
  forEachTriangle(index: number, fn: (a: Vector3, b: Vector3, c: Vector3) => void) {
    const pieces = this.pieces.get(index) ?? [];
    const a = new Vector3(), b = new Vector3(), c = new Vector3();
    for (let p = 0; p < pieces.length; p += 2) {
      const { ranges, geometry } = this.batches[pieces[p]];
      const positions = geometry.getAttribute('position').array as Float32Array;
      const indices = geometry.getIndex()!.array as Uint16Array | Uint32Array;
      const r = pieces[p + 1];
      for (let i = ranges[r + 1], end = i + ranges[r + 2]; i < end; i += 3) {
        fn(a.fromArray(positions, indices[i] * 3), b.fromArray(positions, indices[i + 1] * 3), c.fromArray(positions, indices[i + 2] * 3));
      }
    }
  }

  bounds(): Box3 {
    const box = new Box3();
    for (const batch of this.batches) if (batch.geometry.boundingBox) box.union(batch.geometry.boundingBox);
    return box.applyMatrix4(this.group.matrix);
  }

  /** Drops the geometry (to stream it again after a lost WebGL context); ids and boxes stay. */
  clearBatches(dispose = true) {
    if (dispose) for (const batch of this.batches) batch.geometry.dispose();
    this.group.clear();
    this.batches.length = 0;
    this.pieces.clear();
  }

  dispose() {
    this.clearBatches();
    this.group.removeFromParent();
    this.indexOfExpress.clear();
  }
}

/** The geometry of a batch: the attribute layout every batch material expects. */
export function batchGeometry(chunk: Pick<GeometryChunk, 'positions' | 'colors' | 'objects' | 'indices'>): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(chunk.positions, 3));
  geometry.setAttribute('rgba', freeAfterUpload(new BufferAttribute(chunk.colors, 4, true)));
  geometry.setAttribute('objectIndex', freeAfterUpload(new BufferAttribute(chunk.objects, 1)));
  geometry.setIndex(new BufferAttribute(chunk.indices, 1));
  return geometry;
}

/**
 * The box around the first `count` objects' boxes (min xyz, max xyz each) that `include`
 * accepts, leaving out boxes not grown yet; empty when there is none.
 */
function boxOfObjects(boxes: Float32Array, count = boxes.length / 6, include: (object: number) => boolean = () => true): Box3 {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0, o = 0; i < count; i++, o += 6) {
    if (!(boxes[o] <= boxes[o + 3]) || !include(i)) continue;
    for (let k = 0; k < 3; k++) {
      if (boxes[o + k] < min[k]) min[k] = boxes[o + k];
      if (boxes[o + 3 + k] > max[k]) max[k] = boxes[o + 3 + k];
    }
  }
  return new Box3(new Vector3(...min), new Vector3(...max));
}

/**
 * Colours and object numbers are needed on the GPU only (a lost context streams the model
 * again): let the JS copy go once uploaded. Positions and indices stay, for picking.
 */
function freeAfterUpload(attribute: BufferAttribute): BufferAttribute {
  attribute.onUpload(function (this: BufferAttribute) {
    (this as { array: ArrayLike<number> }).array = new (this.array.constructor as Float32ArrayConstructor)(0); // eslint-disable-line
  });
  return attribute;
}
