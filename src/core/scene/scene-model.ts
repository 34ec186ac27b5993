import { BufferAttribute, BufferGeometry, Group, Mesh, Box3, Vector3, type Matrix4, type Material } from 'three';
import type { GeometryChunk, OpenResult } from '../ifc/protocol.js';
import type { GridData } from '../ifc/grids.js';
import { objectId } from '../data/object-ids.js';
import type { SpatialNode } from '../types.js';

/** One batch of triangles, drawn by two meshes over the same geometry (opaque and see-through pass). */
export interface Batch {
  geometry: BufferGeometry;
  opaque: Mesh;
  translucent: Mesh;
  /** Glass and other surfaces that are see-through in the file itself. */
  transparent: boolean;
  /** Per piece: object index (global), first index, index count. */
  ranges: Uint32Array;
}

/**
 * A loaded IFC model in the scene: its batches, and the mapping between its object ids
 * and the global object indices that the state texture and picking use.
 */
export class SceneModel {
  readonly group = new Group();
  readonly batches: Batch[] = [];
  expressIds: Uint32Array = new Uint32Array(0);
  types: string[] = [];
  /** Per local object: min xyz, max xyz in viewer coordinates. */
  boxes: Float32Array = new Float32Array(0);
  spatial: SpatialNode | null = null;
  grids: GridData[] = [];
  schema = '';
  private readonly idToIndex = new Map<string, number>();
  /** Object index to its pieces in the batches: [batch, first, count] triples. */
  private pieces = new Map<number, number[]>();

  constructor(
    readonly id: string,
    readonly name: string,
    readonly key: number,
    readonly objectIdBase: string,
    /** Global index of this model's first object. */
    readonly firstIndex: number,
    private readonly materials: { opaque: Material; translucent: Material },
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

  /** Adds a streamed chunk, shifting its object indices to global ones. Returns the highest index used. */
  addChunk(chunk: GeometryChunk): number {
    const objects = chunk.objects;
    let max = 0;
    for (let i = 0; i < objects.length; i++) {
      const index = objects[i] + this.firstIndex;
      objects[i] = index;
      if (index > max) max = index;
    }
    const ranges = chunk.ranges;
    for (let i = 0; i < ranges.length; i += 3) ranges[i] += this.firstIndex;
    const geometry = batchGeometry(chunk);
    geometry.computeBoundingSphere();
    geometry.computeBoundingBox();
    const opaque = new Mesh(geometry, this.materials.opaque);
    const translucent = new Mesh(geometry, this.materials.translucent);
    // After the section caps (render orders 1..6), which must draw before the model.
    opaque.renderOrder = 10;
    translucent.renderOrder = 11;
    for (const mesh of [opaque, translucent]) {
      mesh.matrixAutoUpdate = false;
      this.group.add(mesh);
    }
    const batch = this.batches.length;
    this.batches.push({ geometry, opaque, translucent, transparent: chunk.transparent, ranges });
    for (let i = 0; i < ranges.length; i += 3) {
      const list = this.pieces.get(ranges[i]);
      if (list) list.push(batch, ranges[i + 1], ranges[i + 2]);
      else this.pieces.set(ranges[i], [batch, ranges[i + 1], ranges[i + 2]]);
    }
    return max;
  }

  /** Takes the worker's summary once every chunk has arrived. */
  finish(result: OpenResult) {
    this.expressIds = result.expressIds;
    this.types = result.types;
    this.boxes = result.boxes;
    this.spatial = result.spatial;
    this.grids = result.grids;
    this.schema = result.schema;
    for (let i = 0; i < this.expressIds.length; i++) this.idToIndex.set(objectId(this.objectIdBase, this.expressIds[i]), this.firstIndex + i);
  }

  /** Global index of an object id, or undefined when this model has no geometry for it. */
  indexOf(id: string): number | undefined {
    return this.idToIndex.get(id);
  }

  objectIdAt(index: number): string {
    return objectId(this.objectIdBase, this.expressIds[index - this.firstIndex]);
  }

  has(index: number) {
    return index >= this.firstIndex && index < this.firstIndex + this.count;
  }

  /** Object ids of this model in index order. */
  objectIds(): string[] {
    return [...this.idToIndex.keys()];
  }

  /** Grows `box` by the object's box (viewer coordinates, after the model's transform). */
  expandBox(index: number, box: Box3) {
    const o = (index - this.firstIndex) * 6;
    const b = this.boxes;
    if (!(b[o] <= b[o + 3])) return;
    box.union(new Box3(new Vector3(b[o], b[o + 1], b[o + 2]), new Vector3(b[o + 3], b[o + 4], b[o + 5])).applyMatrix4(this.group.matrix));
  }

  /** Calls `fn` with each triangle of an object, in the model's own coordinates (the vectors are reused). */
  forEachTriangle(index: number, fn: (a: Vector3, b: Vector3, c: Vector3) => void) {
    const pieces = this.pieces.get(index) ?? [];
    const a = new Vector3(), b = new Vector3(), c = new Vector3();
    for (let p = 0; p < pieces.length; p += 3) {
      const geometry = this.batches[pieces[p]].geometry;
      const positions = geometry.getAttribute('position').array as Float32Array;
      const indices = geometry.getIndex()!.array as Uint32Array;
      const end = pieces[p + 1] + pieces[p + 2];
      for (let i = pieces[p + 1]; i < end; i += 3) {
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
    this.idToIndex.clear();
  }
}

/** The geometry of a batch: the attribute layout every batch material expects. */
export function batchGeometry(chunk: Pick<GeometryChunk, 'positions' | 'normals' | 'colors' | 'objects' | 'indices'>): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(chunk.positions, 3));
  geometry.setAttribute('normal', freeAfterUpload(new BufferAttribute(chunk.normals, 3, true)));
  geometry.setAttribute('rgba', freeAfterUpload(new BufferAttribute(chunk.colors, 4, true)));
  geometry.setAttribute('objectIndex', freeAfterUpload(new BufferAttribute(chunk.objects, 1)));
  geometry.setIndex(new BufferAttribute(chunk.indices, 1));
  return geometry;
}

/** Colours and object indices are needed on the GPU only: let the JS copy go once uploaded. */
function freeAfterUpload(attribute: BufferAttribute): BufferAttribute {
  attribute.onUpload(function (this: BufferAttribute) {
    (this as { array: ArrayLike<number> }).array = new (this.array.constructor as Float32ArrayConstructor)(0); // eslint-disable-line
  });
  return attribute;
}
