// `npm run scene -- model.ifc [model.scene]`: converts an IFC file into the scene format
// the 3D viewer loads without web-ifc (docs/SCENE-FORMAT.md), the same conversion the
// platform's import runs. Prints what it wrote, as JSON.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createIfcApi, openModel } from '../src/core/ifc/web-ifc-engine.js';
import { writeScene } from '../src/core/ifc/scene-converter.js';

const [input, output = input?.replace(/\.ifc$/i, '') + '.scene'] = process.argv.slice(2);
if (!input || input.startsWith('-')) {
  process.stderr.write('usage: npm run scene -- model.ifc [model.scene]\n');
  process.exit(2);
}
const start = performance.now();
try {
  const ifc = await createIfcApi(createRequire(import.meta.url).resolve('web-ifc/web-ifc-node.wasm'));
  const model = openModel(ifc, readFileSync(input));
  const fd = openSync(output, 'w');
  let end;
  try {
    end = writeScene(ifc, model, (bytes) => void writeSync(fd, bytes));
  } finally {
    closeSync(fd);
    if (!end) rmSync(output, { force: true }); // no half-written scene left behind
  }
  process.stdout.write(`${JSON.stringify({ input, output, bytes: statSync(output).size, ...end, ms: Math.round(performance.now() - start) })}\n`);
} catch (error) {
  process.stderr.write(`${input}: ${(error as Error).message}\n`);
  process.exit(1);
}
