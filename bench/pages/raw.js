// "Raw web-ifc": the floor of any web-ifc based IFC path. OpenModel, then StreamAllMeshes
// copying every placed geometry's vertices and indices out of the wasm heap (the data
// lives only during the callback). No transforms, no batching, no GPU upload, no frame:
// only load time, heap and the triangle count are measured. Main thread, single-threaded
// web-ifc (TOOLCHAIN.md), the same build and wasm as the viewers.
import { IfcAPI, LogLevel } from 'web-ifc';
import wasmUrl from 'web-ifc/web-ifc.wasm?url';
import { install } from './harness.js';

let api;
const kept = [];

install('raw-web-ifc', {
  async setup() {
    api = new IfcAPI();
    await api.Init((path) => (path.endsWith('.wasm') ? new URL(wasmUrl, location.href).href : path), true);
    api.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
  },
  async load(bytes) {
    const model = api.OpenModel(bytes, { COORDINATE_TO_ORIGIN: false });
    let triangles = 0;
    let meshes = 0;
    api.StreamAllMeshes(model, (mesh) => {
      meshes++;
      const placed = mesh.geometries;
      for (let i = 0; i < placed.size(); i++) {
        const piece = placed.get(i);
        const geometry = api.GetGeometry(model, piece.geometryExpressID);
        const vertices = api.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize()).slice();
        const indices = api.GetIndexArray(geometry.GetIndexData(), geometry.GetIndexDataSize()).slice();
        triangles += indices.length / 3;
        kept.push(vertices, indices, piece.flatTransformation.slice(), piece.color);
        geometry.delete();
      }
    });
    return { triangles, extra: { meshes } };
  },
  wasmBytes() {
    return api.wasmModule.HEAPU8.buffer.byteLength;
  },
  bounds() {
    return { min: [0, 0, 0], max: [1, 1, 1], up: 'y' };
  },
});
