// One processing run in a process of its own, for bench/server.mjs: `raw` is raw web-ifc
// (Init, open, StreamAllMeshes with every geometry's vertices and indices copied out, and
// GetLine of every product: the yardstick), `ours` is the import's reading as the
// server runs it (server/jobs/ifc-reader.ts: two threads, each opening the file with the
// viewer's STEP checks; one reads every product with its attributes and every definition,
// the other writes the scene and plans to files). Ours' threads start and warm up before the
// clock (as a running server's do when it starts: server/jobs/warm-up.ts; each thread's
// start registers tsx and loads the reader's modules, about a second here, and its warm-up
// takes about another); raw web-ifc's Init is in its clock.
// With `warm`, each first reads the same file twice before the clock (raw web-ifc's Init
// included): the work of a file once the code is compiled and optimised, as on a server
// that has read a few files (one small warm-up model leaves the code half optimised).
//   node --import tsx bench/server/read-once.ts raw|ours file.ifc [warm]
// Prints {ms, peakBytes, products} and, for ours, the scene's bytes and gzipped bytes
// beside the IFC's gzipped bytes (measured after the clock stops).
import { readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IFCPRODUCT, IFCPROJECT, IfcAPI, InheritanceDef, SchemaNames } from 'web-ifc';
import { IfcReaderThreads } from '../../server/jobs/ifc-reader.js';

const [mode, file, warm] = process.argv.slice(2);
const bytes = readFileSync(file);

function peakBytes(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

let webIfc: IfcAPI | undefined;

async function raw(bytes: Uint8Array): Promise<number> {
  const api = webIfc ?? (webIfc = new IfcAPI());
  if (!api.wasmModule) await api.Init(undefined, true);
  const model = api.OpenModel(bytes, { COORDINATE_TO_ORIGIN: false });
  api.StreamAllMeshes(model, (mesh) => {
    for (let i = 0; i < mesh.geometries.size(); i++) {
      const geometry = api.GetGeometry(model, mesh.geometries.get(i).geometryExpressID);
      api.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize());
      api.GetIndexArray(geometry.GetIndexData(), geometry.GetIndexDataSize());
      geometry.delete();
    }
  });
  const schema = SchemaNames.findIndex((names) => names?.includes(api.GetModelSchema(model)));
  const types = [IFCPROJECT, IFCPRODUCT, ...((InheritanceDef as Record<number, Record<number, number[]>>)[schema]?.[IFCPRODUCT] ?? [])];
  let products = 0;
  for (const type of types) {
    const ids = api.GetLineIDsWithType(model, type, false);
    for (let i = 0; i < ids.size(); i++, products++) api.GetLine(model, ids.get(i), false);
  }
  api.CloseModel(model);
  return products;
}

const files = { scene: path.join(tmpdir(), `bench-scene-${process.pid}`), plans: path.join(tmpdir(), `bench-plans-${process.pid}`) };
const reader = mode === 'raw' ? undefined : new IfcReaderThreads();
await reader?.start();
const ours = async (bytes: Uint8Array) => (await reader!.read(new Uint8Array(bytes), 2 ** 32, async () => {}, files)).products;
for (let i = 0; warm && i < 2; i++) await (mode === 'raw' ? raw : ours)(bytes);

try {
  const start = performance.now();
  const products = mode === 'raw' ? await raw(bytes) : await ours(bytes);
  const ms = performance.now() - start;
  const peak = peakBytes();
  const sizes = mode === 'raw' ? {} : { sceneBytes: readFileSync(files.scene).length, sceneGzipBytes: gzipSync(readFileSync(files.scene)).length, ifcGzipBytes: gzipSync(bytes).length };
  process.stdout.write(`${JSON.stringify({ ms, peakBytes: peak, products, ...sizes })}\n`);
} finally {
  await reader?.close();
  for (const file of Object.values(files)) rmSync(file, { force: true });
}
