/**
 * The edges a drawing shows of a triangle mesh: outline edges (used by one triangle),
 * creases (where the two triangles meet at more than 25 degrees), and non-manifold edges.
 * Edges inside a flat face (the triangulation's diagonals) and between the facets of a
 * smooth curved surface are left out.
 *
 * web-ifc repeats a vertex for every face it belongs to, so vertices are first welded
 * by their exact float bits (copies are bit-identical); this needs no tolerance.
 * Works on one geometry in its own coordinates: the result holds for every placement.
 * Called for every geometry of a model, so its tables are kept between calls and
 * cleared by generation stamps rather than reallocated.
 */

const CREASE_COS = Math.cos((25 * Math.PI) / 180);

let weldTable = new Int32Array(0);
let weldStamp = new Uint32Array(0);
let edgeA = new Int32Array(0);
let edgeB = new Int32Array(0);
let edgeTri = new Int32Array(0);
let edgeUses = new Uint8Array(0);
let edgeCrease = new Uint8Array(0);
let edgeEnds = new Uint32Array(0);
let edgeStamp = new Uint32Array(0);
let normals = new Float64Array(0);
let weld = new Uint32Array(0);
let generation = 0;

function capacity(n: number): number {
  let size = 1024;
  while (size < n * 2) size <<= 1;
  return size;
}

/**
 * `vertices`: web-ifc's interleaved position+normal array (stride 6); `triangles`:
 * indices into it. Returns pairs of vertex indices (into `vertices`), one pair per edge.
 */
export function featureEdges(vertices: Float32Array, triangles: Uint32Array, creaseCos = CREASE_COS): Uint32Array {
  const count = vertices.length / 6;
  const triCount = triangles.length / 3;
  generation = (generation + 1) >>> 0 || 1;
  const gen = generation;

  // Weld: vertex index -> first vertex with the same position bits.
  const weldSize = capacity(count);
  if (weldTable.length < weldSize) {
    weldTable = new Int32Array(weldSize);
    weldStamp = new Uint32Array(weldSize);
  }
  if (weld.length < count) weld = new Uint32Array(capacity(count));
  const bits = new Uint32Array(vertices.buffer, vertices.byteOffset, vertices.length);
  const weldMask = weldSize - 1;
  for (let v = 0; v < count; v++) {
    const x = bits[v * 6], y = bits[v * 6 + 1], z = bits[v * 6 + 2];
    let h = (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & weldMask;
    for (;;) {
      if (weldStamp[h] !== gen) {
        weldStamp[h] = gen;
        weldTable[h] = v;
        weld[v] = v;
        break;
      }
      const found = weldTable[h];
      if (bits[found * 6] === x && bits[found * 6 + 1] === y && bits[found * 6 + 2] === z) {
        weld[v] = found;
        break;
      }
      h = (h + 1) & weldMask;
    }
  }

  // Triangle normals.
  if (normals.length < triCount * 3) normals = new Float64Array(capacity(triCount) * 3);
  for (let t = 0; t < triCount; t++) {
    const a = triangles[t * 3] * 6, b = triangles[t * 3 + 1] * 6, c = triangles[t * 3 + 2] * 6;
    const ux = vertices[b] - vertices[a], uy = vertices[b + 1] - vertices[a + 1], uz = vertices[b + 2] - vertices[a + 2];
    const vx = vertices[c] - vertices[a], vy = vertices[c + 1] - vertices[a + 1], vz = vertices[c + 2] - vertices[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1; // not Math.hypot: it allocated for its arguments
    normals[t * 3] = nx / len;
    normals[t * 3 + 1] = ny / len;
    normals[t * 3 + 2] = nz / len;
  }

  // Undirected welded edges -> first triangle, use count, crease flag.
  const edgeSize = capacity(triangles.length);
  if (edgeA.length < edgeSize) {
    edgeA = new Int32Array(edgeSize);
    edgeB = new Int32Array(edgeSize);
    edgeTri = new Int32Array(edgeSize);
    edgeUses = new Uint8Array(edgeSize);
    edgeCrease = new Uint8Array(edgeSize);
    edgeEnds = new Uint32Array(edgeSize * 2);
    edgeStamp = new Uint32Array(edgeSize);
  }
  const edgeMask = edgeSize - 1;
  const used: number[] = [];
  for (let t = 0; t < triCount; t++) {
    for (let k = 0; k < 3; k++) {
      const i = triangles[t * 3 + k], j = triangles[t * 3 + ((k + 1) % 3)];
      const wi = weld[i], wj = weld[j];
      if (wi === wj) continue;
      const a = wi < wj ? wi : wj, b = wi < wj ? wj : wi;
      let h = (Math.imul(a, 73856093) ^ Math.imul(b, 19349663)) & edgeMask;
      for (;;) {
        if (edgeStamp[h] !== gen) {
          edgeStamp[h] = gen;
          edgeA[h] = a;
          edgeB[h] = b;
          edgeTri[h] = t;
          edgeUses[h] = 1;
          edgeCrease[h] = 0;
          edgeEnds[h * 2] = i;
          edgeEnds[h * 2 + 1] = j;
          used.push(h);
          break;
        }
        if (edgeA[h] === a && edgeB[h] === b) {
          if (edgeUses[h] < 255) edgeUses[h]++;
          const f = edgeTri[h];
          const dot = normals[f * 3] * normals[t * 3] + normals[f * 3 + 1] * normals[t * 3 + 1] + normals[f * 3 + 2] * normals[t * 3 + 2];
          if (dot < creaseCos) edgeCrease[h] = 1;
          break;
        }
        h = (h + 1) & edgeMask;
      }
    }
  }

  let n = 0;
  for (const h of used) if (edgeUses[h] !== 2 || edgeCrease[h]) n++;
  const out = new Uint32Array(n * 2);
  let o = 0;
  for (const h of used) {
    if (edgeUses[h] === 2 && !edgeCrease[h]) continue;
    out[o++] = edgeEnds[h * 2];
    out[o++] = edgeEnds[h * 2 + 1];
  }
  return out;
}
