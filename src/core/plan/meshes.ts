import type { IfcAPI } from 'web-ifc';
import { featureEdges } from './feature-edges.js';
import { ifcPoint } from '../ifc/web-ifc-frame.js';
import { forEachGeometry, type FlatMesh } from '../ifc/web-ifc-engine.js';

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
  /** x, y, z per vertex. */
  positions: Float64Array;
  indices: Uint32Array;
  /** Pairs of vertex indices: the edges a drawing shows. */
  edges: Uint32Array;
  minX: number;
  minY: number;
  minZ: number;
  maxX: number;
  maxY: number;
  maxZ: number;
}

export class MeshCollector {
  readonly pieces: MeshPiece[] = [];
  private readonly edgeCache = new Map<number, Uint32Array>();

  constructor(private readonly api: IfcAPI, private readonly modelID: number, private readonly withEdges: boolean) {}

  /** The callback for web-ifc's StreamAllMeshes / StreamAllMeshesWithTypes. */
  /** Milliseconds spent here (not in web-ifc), for benchmarks. */
  ownTime = 0;

  readonly onMesh = (mesh: FlatMesh) => {
    forEachGeometry(this.api, this.modelID, mesh, (vertices, triangles, piece) => {
      const start = performance.now();
      this.add(mesh.expressID, piece.geometryExpressID, vertices, triangles, piece.flatTransformation);
      this.ownTime += performance.now() - start;
    });
  };

  private add(owner: number, geometryId: number, vertices: Float32Array, triangles: Uint32Array, m: ArrayLike<number>) {
    const count = vertices.length / 6;
    const positions = new Float64Array(count * 3);
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
    const p = new Float64Array(3);
    for (let v = 0; v < count; v++) {
      ifcPoint(vertices, v * 6, m, p);
      const px = p[0], py = p[1], pz = p[2];
      positions[v * 3] = px;
      positions[v * 3 + 1] = py;
      positions[v * 3 + 2] = pz;
      if (px < minX) minX = px;
      if (py < minY) minY = py;
      if (pz < minZ) minZ = pz;
      if (px > maxX) maxX = px;
      if (py > maxY) maxY = py;
      if (pz > maxZ) maxZ = pz;
    }
    let edges: Uint32Array = new Uint32Array(0);
    if (this.withEdges) {
      const cached = this.edgeCache.get(geometryId);
      edges = cached ?? featureEdges(vertices, triangles);
      if (!cached) this.edgeCache.set(geometryId, edges);
    }
    this.pieces.push({ owner, positions, indices: triangles.slice(), edges, minX, minY, minZ, maxX, maxY, maxZ });
  }
}
