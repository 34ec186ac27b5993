#!/usr/bin/env node
// The peers' own processed formats, converted the way each peer documents it, timed the
// way `npm run scene` times ours (engine start, reading the IFC, writing the file):
//
//   node bench/peer-formats.mjs xkt  model.ifc model.xkt    xeokit's XKT (@xeokit/xeokit-convert,
//                                                           buffers zipped: its smaller output)
//   node bench/peer-formats.mjs frag model.ifc model.frag   That Open's Fragments
//                                                           (@thatopen/fragments' IfcImporter)
//
// Prints {ms, bytes} as JSON. bench/run.mjs runs it in a child process per model.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [format, input, output] = process.argv.slice(2);

async function toXkt(source) {
  // The web-ifc xeokit-convert is made for (0.0.70, its own dependency), as its CLI takes it.
  const { convert2xkt } = await import('@xeokit/xeokit-convert');
  const { default: WebIFC } = await import(createRequire(import.meta.resolve('@xeokit/xeokit-convert')).resolve('web-ifc'));
  let xkt;
  await convert2xkt({ WebIFC, sourceData: source, sourceFormat: 'ifc', outputXKT: (data) => (xkt = data), zip: true, log: () => {} });
  return new Uint8Array(xkt);
}

async function toFragments(source) {
  const { IfcImporter } = await import('@thatopen/fragments');
  const importer = new IfcImporter();
  importer.wasm = { absolute: true, path: path.dirname(createRequire(import.meta.url).resolve('web-ifc/web-ifc-node.wasm')) + '/' };
  return importer.process({ bytes: source });
}

const convert = { xkt: toXkt, frag: toFragments }[format];
if (!convert || !input || !output) {
  process.stderr.write('usage: node bench/peer-formats.mjs xkt|frag model.ifc out\n');
  process.exit(2);
}
const start = performance.now();
const bytes = await convert(new Uint8Array(readFileSync(input)));
writeFileSync(output, bytes);
process.stdout.write(`${JSON.stringify({ ms: Math.round(performance.now() - start), bytes: bytes.byteLength })}\n`);
