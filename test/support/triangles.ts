// Triangles per object two ways, to hold one against the other: as the IFC worker's chunks
// carry them (what the viewer draws and picks on) and as web-ifc on the page gives them.
import type { FlatMesh, IfcAPI } from 'web-ifc';
import type { BimViewer3d } from '../../src/elements/bim-viewer-3d';
import { RANGE_STRIDE } from '../../src/core/ifc/protocol';
import { assert, assertEqual } from './assert';
import { streamModel } from './ifc';

export interface TriangleSum {
  triangles: number;
  area: number;
}

export function triangleArea(a: number[], b: number[], c: number[]): number {
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  return Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]) / 2;
}

/** Per express id, the triangles of the chunks the worker streams for `bytes`; and how many positions they carry. */
export async function chunkTriangles(bytes: ArrayBuffer): Promise<{ objects: Map<number, TriangleSum>; positions: number }> {
  const objects = new Map<number, TriangleSum>();
  let positions = 0;
  await streamModel(bytes.slice(0), (chunk) => {
    const { ranges, positions: p, indices } = chunk;
    positions += p.length / 3;
    assert(indices instanceof Uint16Array, 'chunks of pieces of a few thousand positions have 16-bit indices');
    for (let r = 0; r < ranges.length; r += RANGE_STRIDE) {
      const sum = objects.get(chunk.expressIds[ranges[r]]) ?? { triangles: 0, area: 0 };
      for (let i = ranges[r + 1]; i < ranges[r + 1] + ranges[r + 2]; i += 3) {
        const [a, b, c] = [0, 1, 2].map((k) => Array.from(p.subarray(indices[i + k] * 3, indices[i + k] * 3 + 3)));
        sum.triangles++;
        sum.area += triangleArea(a, b, c);
      }
      objects.set(chunk.expressIds[ranges[r]], sum);
    }
  });
  return { objects, positions };
}

/** web-ifc's triangles of one streamed mesh, placed by each geometry's own matrix; with the vertices read. */
export function meshTriangles(api: IfcAPI, modelID: number, mesh: FlatMesh): TriangleSum & { vertices: number } {
  const out = { triangles: 0, area: 0, vertices: 0 };
  for (let g = 0; g < mesh.geometries.size(); g++) {
    const placed = mesh.geometries.get(g);
    const geometry = api.GetGeometry(modelID, placed.geometryExpressID);
    const v = api.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize());
    const t = api.GetIndexArray(geometry.GetIndexData(), geometry.GetIndexDataSize());
    const m = placed.flatTransformation;
    const at = (i: number) => [0, 1, 2].map((k) => m[k] * v[i * 6] + m[4 + k] * v[i * 6 + 1] + m[8 + k] * v[i * 6 + 2]);
    for (let i = 0; i < t.length; i += 3) out.area += triangleArea(at(t[i]), at(t[i + 1]), at(t[i + 2]));
    out.triangles += t.length / 3;
    out.vertices += v.length / 6;
    geometry.delete();
  }
  return out;
}

/** In a 320 x 240 viewer that has drawn its first model (`name`): colours and object numbers have left the page, positions and indices stay, and picking hits. */
export function assertDrawnTrianglesKept(el: BimViewer3d, name: string) {
  const core = (el as unknown as { core: { models: { batches: { geometry: { attributes: Record<string, { array: ArrayLike<number> }>; index: { array: ArrayLike<number> } } }[] }[]; pickAt(x: number, y: number): { index: number } | null } }).core;
  const batches = core.models[0].batches;
  assert(batches.length > 0, `${name} has batches`);
  for (const { geometry } of batches) {
    assertEqual(geometry.attributes.rgba.array.length, 0, 'colours are released');
    assertEqual(geometry.attributes.objectIndex.array.length, 0, 'object numbers are released');
    assert(geometry.attributes.position.array.length > 0 && geometry.index.array.length > 0, 'positions and indices stay');
  }
  assert(core.pickAt(160, 120) !== null, 'the centre of the view picks an object');
}
