// `npm run scene -- model.ifc [model.scene] [--plans model.plans]`: converts an IFC file
// into the scene format the 3D viewer loads without web-ifc, and with `--plans` also its
// storey plans for the 2D viewer (docs/SCENE-FORMAT.md): the conversions the platform's
// import runs. Prints what it wrote, as JSON.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createIfcApi, openModel } from '../src/core/ifc/web-ifc-engine.js';
import { writeScene } from '../src/core/ifc/scene-converter.js';
import { extractPlan } from '../src/core/plan/extract-plan.js';
import { MeshCollector } from '../src/core/plan/meshes.js';
import { DEFAULT_PLAN_OPTIONS } from '../src/core/plan/protocol.js';
import { checksums } from '../src/core/formats/checksum.js';
import { encodePlans } from '../src/core/formats/plans.js';

const args = process.argv.slice(2);
const plansAt = args.indexOf('--plans');
const plans = plansAt >= 0 ? args.splice(plansAt, 2)[1] : undefined;
const [input, output = input?.replace(/\.ifc$/i, '') + '.scene'] = args;
if (!input || input.startsWith('-') || (plansAt >= 0 && !plans)) {
  process.stderr.write('usage: npm run scene -- model.ifc [model.scene] [--plans model.plans]\n');
  process.exit(2);
}
const start = performance.now();
try {
  await checksums();
  const ifc = await createIfcApi(createRequire(import.meta.url).resolve('web-ifc/web-ifc-node.wasm'));
  const model = openModel(ifc, readFileSync(input));
  const fd = openSync(output, 'w');
  // The plans' meshes are collected in the scene's pass over the geometry.
  const meshes = plans ? new MeshCollector() : undefined;
  let end;
  try {
    end = writeScene(ifc, model, (bytes) => void writeSync(fd, bytes), { onPiece: meshes?.add });
  } finally {
    closeSync(fd);
    if (!end) rmSync(output, { force: true }); // no half-written scene left behind
  }
  const ms = Math.round(performance.now() - start);
  if (plans) writeFileSync(plans, encodePlans(extractPlan(ifc, model, '0', DEFAULT_PLAN_OPTIONS, { meshes })));
  const planned = plans ? { plans, plansBytes: statSync(plans).size, plansMs: Math.round(performance.now() - start) - ms } : {};
  process.stdout.write(`${JSON.stringify({ input, output, bytes: statSync(output).size, ...end, ms, ...planned })}\n`);
} catch (error) {
  process.stderr.write(`${input}: ${(error as Error).message}\n`);
  process.exit(1);
}
