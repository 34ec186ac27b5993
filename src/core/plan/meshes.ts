import { IFCSPACE, type IfcAPI } from 'web-ifc';
import { featureEdges } from './feature-edges.js';
import { forEachGeometry, streamMeshes } from '../ifc/web-ifc-engine.js';
import { GeometryCache } from '../ifc/geometry-cache.js';
import { StreamPlan } from '../ifc/stream-plan.js';
import type { PieceListener } from '../ifc/geometry-stream.js';

/**
 * Triangle meshes of a model in IFC world coordinates (metres, z up, double
 * precision), one piece per placed geometry, with what a plan needs of each: its
 * bounds and its drawing edges (feature-edges.ts).
 *
 * web-ifc's frame is y up: a vertex v placed by the column-major matrix m is at
 * IFC (x, y, z) = (w.x, -w.z, w.y) with w = m v (as in core/ifc/geometry-batcher.ts).
 */
export interface MeshPiece {
  /** Express id of the object. */
  owner: number;
  /**
   * x, y, z per vertex, the piece's from `base` on, in an array many pieces share: an
   * array or a view per piece made 740k objects on office-200k, half a second of garbage
   * collection in its geometry pass.
   */
  positions: Float64Array;
  /** Where the piece's first vertex begins in `positions` (its x). */
  base: number;
  /** Triangles, three vertex numbers each, counted in `positions` (past `base` already): `indices[start..end)`, shared likewise. */
  indices: Uint32Array;
  start: number;
  end: number;
  /** Pairs of the piece's own vertex numbers (0 is the one at `base`): the edges a drawing shows. */
  edges: Uint32Array;
  minX: number;
  minY: number;
  minZ: number;
  maxX: number;
  maxY: number;
  maxZ: number;
}

/**
 * Collects the pieces a plan is drawn from, in the order of the model's stream plan
 * (core/ifc/stream-plan.ts), whoever streams them: `collectMeshes` on its own, or the
 * scene converter's geometry pass, which visits the same pieces in the same order, so a
 * processed plan is the plan the 2D viewer's worker extracts.
 */
export class MeshCollector {
  /** Every piece but the spaces', with drawing edges. */
  readonly elements: MeshPiece[] = [];
  /** The spaces' pieces (no edges: their footprints are drawn instead). */
  readonly spaces: MeshPiece[] = [];
  /** Milliseconds spent here (not in web-ifc), for benchmarks. */
  ownTime = 0;
  private readonly edgeCache = new Map<number, Uint32Array>();
  /** Each object's type code, as its pieces came (an object's pieces come together). */
  private readonly types = new Map<number, number>();
  private lastOwner = -1;
  private readonly positionSlab = new Slab(Float64Array);
  private readonly indexSlab = new Slab(Uint32Array);

  /** One placed geometry (a GeometryStream's `onPiece`). */
  readonly add: PieceListener = (owner, type, geometryId, vertices, triangles, m) => {
    const start = performance.now();
    if (owner !== this.lastOwner) this.types.set((this.lastOwner = owner), type);
    const count = vertices.length / 6;
    const base = this.positionSlab.take(count * 3);
    const positions = this.positionSlab.block;
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    // As ifcPoint (web-ifc-frame.ts) places a vertex, inlined with the matrix in locals: 18 % of the collector's time (office-200k: 371k pieces, 12.8M vertices).
    const m0 = m[0], m1 = m[1], m2 = m[2], m4 = m[4], m5 = m[5], m6 = m[6], m8 = m[8], m9 = m[9], m10 = m[10], m12 = m[12], m13 = m[13], m14 = m[14];
    for (let v = 0; v < count; v++) {
      const x = vertices[v * 6], y = vertices[v * 6 + 1], z = vertices[v * 6 + 2];
      const px = m0 * x + m4 * y + m8 * z + m12;
      const py = -(m2 * x + m6 * y + m10 * z + m14);
      const pz = m1 * x + m5 * y + m9 * z + m13;
      positions[base + v * 3] = px;
      positions[base + v * 3 + 1] = py;
      positions[base + v * 3 + 2] = pz;
      if (px < minX) minX = px;
      if (py < minY) minY = py;
      if (pz < minZ) minZ = pz;
      if (px > maxX) maxX = px;
      if (py > maxY) maxY = py;
      if (pz > maxZ) maxZ = pz;
    }
    const space = type === IFCSPACE;
    let edges: Uint32Array = NO_EDGES;
    if (!space) {
      const cached = this.edgeCache.get(geometryId);
      edges = cached ?? featureEdges(vertices, triangles);
      if (!cached) this.edgeCache.set(geometryId, edges);
    }
    const first = this.indexSlab.take(triangles.length);
    const indices = this.indexSlab.block;
    const offset = base / 3;
    for (let i = 0; i < triangles.length; i++) indices[first + i] = triangles[i] + offset;
    (space ? this.spaces : this.elements).push({ owner, positions, base, indices, start: first, end: first + triangles.length, edges, minX, minY, minZ, maxX, maxY, maxZ });
    this.ownTime += performance.now() - start;
  };

  /** The type code an object's pieces came with, or undefined when none came. */
  typeCode(owner: number): number | undefined {
    return this.types.get(owner);
  }
}

const NO_EDGES = new Uint32Array(0);

/**
 * Room in big arrays for the pieces' values: hundreds of thousands of small typed
 * arrays, each with a buffer of its own, cost more to allocate and collect than their
 * values to compute (office-200k: 1.7 -> 1.0 s). Blocks double from 64 k values to 1 M,
 * so a small model holds little.
 */
class Slab<T extends Float64Array | Uint32Array> {
  /** The block the last `take` carved from. */
  block: T;
  private used = 0;

  constructor(private readonly type: { new (length: number): T }) {
    this.block = new type(1 << 16);
  }

  /** Room for `length` values in `block` (a new one when the last is full): where they begin. */
  take(length: number): number {
    if (this.used + length > this.block.length) {
      this.block = new this.type(Math.max(length, Math.min(this.block.length * 2, 1 << 20)));
      this.used = 0;
    }
    this.used += length;
    return this.used - length;
  }
}

/** Every piece of an open model, streamed from web-ifc in its stream plan's order. */
export function collectMeshes(api: IfcAPI, modelID: number): MeshCollector {
  const plan = new StreamPlan(api, modelID, null);
  const meshes = new MeshCollector();
  const geometries = new GeometryCache();
  streamMeshes(api, modelID, Array.from(plan.ids), (mesh, index: number) => {
    forEachGeometry(api, modelID, mesh, (vertices, triangles, piece) => {
      meshes.add(mesh.expressID, plan.types[index], piece.geometryExpressID, vertices, triangles, piece.flatTransformation);
    }, geometries);
  });
  return meshes;
}
