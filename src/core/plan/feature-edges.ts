/**
 * The edges a drawing shows of a triangle mesh: outline edges (used by one triangle),
 * creases (where the two triangles meet at more than `angle`), and non-manifold edges.
 * Edges inside a flat face (the triangulation's diagonals) and between the facets of a
 * smooth curved surface are left out.
 *
 * web-ifc repeats a vertex for every face it belongs to, so vertices are first welded
 * by their exact float bits (copies are bit-identical); this needs no tolerance.
 * Works on one geometry in its own coordinates: the result holds for every placement.
 */

const CREASE_COS = Math.cos((25 * Math.PI) / 180);

/**
 * `vertices`: web-ifc's interleaved position+normal array (stride 6); `triangles`:
 * indices into it. Returns pairs of vertex indices (into `vertices`), one pair per edge.
 */
export function featureEdges(vertices: Float32Array, triangles: Uint32Array, creaseCos = CREASE_COS): Uint32Array {
  const count = vertices.length / 6;
  const weld = weldVertices(vertices, count);
  const triCount = triangles.length / 3;
  // Triangle normals (unnormalised, then normalised).
  const normals = new Float64Array(triCount * 3);
  for (let t = 0; t < triCount; t++) {
    const a = triangles[t * 3] * 6, b = triangles[t * 3 + 1] * 6, c = triangles[t * 3 + 2] * 6;
    const ux = vertices[b] - vertices[a], uy = vertices[b + 1] - vertices[a + 1], uz = vertices[b + 2] - vertices[a + 2];
    const vx = vertices[c] - vertices[a], vy = vertices[c + 1] - vertices[a + 1], vz = vertices[c + 2] - vertices[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz) || 1;
    normals[t * 3] = nx / len;
    normals[t * 3 + 1] = ny / len;
    normals[t * 3 + 2] = nz / len;
  }
  // Undirected welded edges -> first triangle, use count, crease flag.
  const edges = new EdgeTable(triangles.length);
  for (let t = 0; t < triCount; t++) {
    for (let k = 0; k < 3; k++) {
      const i = triangles[t * 3 + k], j = triangles[t * 3 + ((k + 1) % 3)];
      const a = weld[i], b = weld[j];
      if (a === b) continue;
      edges.visit(a < b ? a : b, a < b ? b : a, t, i, j, normals, creaseCos);
    }
  }
  return edges.features();
}

/** Vertex index -> index of the first vertex with the same position bits. */
function weldVertices(vertices: Float32Array, count: number): Uint32Array {
  const bits = new Uint32Array(vertices.buffer, vertices.byteOffset, vertices.length);
  let size = 1;
  while (size < count * 2) size <<= 1;
  const table = new Int32Array(size).fill(-1);
  const weld = new Uint32Array(count);
  const mask = size - 1;
  for (let v = 0; v < count; v++) {
    const x = bits[v * 6], y = bits[v * 6 + 1], z = bits[v * 6 + 2];
    let h = (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & mask;
    for (;;) {
      const found = table[h];
      if (found < 0) {
        table[h] = v;
        weld[v] = v;
        break;
      }
      if (bits[found * 6] === x && bits[found * 6 + 1] === y && bits[found * 6 + 2] === z) {
        weld[v] = found;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return weld;
}

/** Open-addressing table of undirected edges keyed by welded vertex pairs. */
class EdgeTable {
  private readonly keysA: Int32Array;
  private readonly keysB: Int32Array;
  private readonly firstTri: Int32Array;
  private readonly uses: Uint8Array;
  private readonly crease: Uint8Array;
  /** The original (unwelded) vertex indices of the edge's first use. */
  private readonly ends: Uint32Array;
  private readonly mask: number;

  constructor(expected: number) {
    let size = 1;
    while (size < expected * 2) size <<= 1;
    this.mask = size - 1;
    this.keysA = new Int32Array(size).fill(-1);
    this.keysB = new Int32Array(size);
    this.firstTri = new Int32Array(size);
    this.uses = new Uint8Array(size);
    this.crease = new Uint8Array(size);
    this.ends = new Uint32Array(size * 2);
  }

  visit(a: number, b: number, t: number, i: number, j: number, normals: Float64Array, creaseCos: number) {
    let h = (Math.imul(a, 73856093) ^ Math.imul(b, 19349663)) & this.mask;
    for (;;) {
      if (this.keysA[h] < 0) {
        this.keysA[h] = a;
        this.keysB[h] = b;
        this.firstTri[h] = t;
        this.uses[h] = 1;
        this.ends[h * 2] = i;
        this.ends[h * 2 + 1] = j;
        return;
      }
      if (this.keysA[h] === a && this.keysB[h] === b) {
        if (this.uses[h] < 255) this.uses[h]++;
        const f = this.firstTri[h];
        const dot = normals[f * 3] * normals[t * 3] + normals[f * 3 + 1] * normals[t * 3 + 1] + normals[f * 3 + 2] * normals[t * 3 + 2];
        if (dot < creaseCos) this.crease[h] = 1;
        return;
      }
      h = (h + 1) & this.mask;
    }
  }

  features(): Uint32Array {
    const out: number[] = [];
    for (let h = 0; h <= this.mask; h++) {
      if (this.keysA[h] < 0) continue;
      if (this.uses[h] === 2 && !this.crease[h]) continue;
      out.push(this.ends[h * 2], this.ends[h * 2 + 1]);
    }
    return new Uint32Array(out);
  }
}
