import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { IFCPRODUCT, IFCRELATIONSHIP, IFCDOOR, type IfcAPI } from 'web-ifc';
import { sampleFile } from '../../../samples/files.js';
import { bimModelsFolder } from '../../../scripts/bim-models.mjs';
import { openModel } from '../../../src/core/ifc/web-ifc-engine.js';
import { StepModel } from '../../../src/core/ifc/step-model.js';
import { doorSymbols } from '../../../src/core/plan/plan-symbols.js';
import { readUnits } from '../../../src/core/ifc/units.js';
import { startWebIfc } from '../../jobs/read-ifc.js';

/**
 * StepModel (src/core/ifc/step-model.ts) answers the import's products thread from the
 * file's bytes where web-ifc would answer with the file open. Checked against web-ifc on
 * the generated and the real models: the lines of every type (and with their subtypes),
 * every line's type, the lines themselves, and the doors' plan symbols, whose placements
 * both now work out from lines (checked here against web-ifc's GetWorldTransformMatrix).
 */

/** The mismatches between web-ifc with the file open and a StepModel of it (at most 5 of each kind). */
function compare(ifc: IfcAPI, model: number, step: StepModel): string[] {
  const out: string[] = [];
  const miss = (what: string) => void (out.length < 20 && out.push(what));
  if (step.GetModelSchema() !== ifc.GetModelSchema(model)) miss(`schema ${step.GetModelSchema()} against ${ifc.GetModelSchema(model)}`);
  const max = ifc.GetMaxExpressID(model);
  if (step.GetMaxExpressID() !== max) miss(`max express id ${step.GetMaxExpressID()} against ${max}`);
  const types = new Set<number>();
  for (let id = 0; id <= max + 1; id++) {
    const type = ifc.GetLineType(model, id);
    if (step.GetLineType(0, id) !== type) miss(`#${id}: type ${step.GetLineType(0, id)} against ${type}`);
    if (type) types.add(type);
  }
  const ids = (vector: { size(): number; get(i: number): number }) => Array.from({ length: vector.size() }, (_, i) => vector.get(i));
  for (const type of types) {
    if (ids(step.GetLineIDsWithType(0, type)).join() !== ids(ifc.GetLineIDsWithType(model, type)).join()) miss(`lines of type ${type}`);
  }
  for (const type of [IFCPRODUCT, IFCRELATIONSHIP]) {
    if (ids(step.GetLineIDsWithType(0, type, true)).join() !== ids(ifc.GetLineIDsWithType(model, type, true)).join()) miss(`lines of type ${type} and its subtypes`);
  }
  // Every line of small files, every 7th of bigger ones.
  const every = max > 20_000 ? 7 : 1;
  for (let id = 1; id <= max; id += every) {
    if (JSON.stringify(step.GetLine(0, id, false)) !== JSON.stringify(ifc.GetLine(model, id, false))) miss(`line #${id}`);
    if (ifc.GetLineType(model, id) && JSON.stringify(step.GetRawLineData(0, id)) !== JSON.stringify(ifc.GetRawLineData(model, id))) miss(`raw line #${id}`);
  }
  return out;
}

/** Each door's placement z (metres) as web-ifc places it, against the symbols' (read through `step`). */
function doorHeights(ifc: IfcAPI, model: number, step: StepModel): { doors: number; mismatches: string[] } {
  const units = readUnits(ifc, model);
  const symbols = doorSymbols(step, 0, readUnits(step, 0));
  assert.deepEqual(symbols, doorSymbols(ifc, model, units), 'the same symbols through web-ifc\'s lines');
  const mismatches: string[] = [];
  symbols.owners.forEach((door, i) => {
    const placement = ifc.GetLine(model, door, false).ObjectPlacement?.value;
    const z = ifc.GetWorldTransformMatrix(model, placement)[14] * units.length;
    if (Math.abs(z - symbols.z[i]) > 1e-9 * Math.max(1, Math.abs(z))) mismatches.push(`door #${door}: z ${symbols.z[i]} against ${z}`);
  });
  return { doors: symbols.owners.length, mismatches };
}

async function withBoth<T>(bytes: Uint8Array, fn: (ifc: IfcAPI, model: number, step: StepModel) => T): Promise<T> {
  const ifc = await startWebIfc();
  const model = openModel(ifc, bytes.slice());
  const step = new StepModel(ifc, bytes);
  try {
    return fn(ifc, model, step);
  } finally {
    step.close();
    ifc.CloseModel(model);
  }
}

describe('StepModel: a model\'s lines without web-ifc opening the file', () => {
  for (const name of ['house', 'house-ifc2x3', 'office-2k']) {
    it(`answers as web-ifc does on the generated ${name}, and never opens it in web-ifc`, async () => {
      await withBoth(new Uint8Array(readFileSync(sampleFile(name).ifc)), (ifc, model, step) => {
        assert.deepEqual(compare(ifc, model, step), []);
        const { doors, mismatches } = doorHeights(ifc, model, step);
        assert.ok(doors > 0 || ifc.GetLineIDsWithType(model, IFCDOOR).size() === 0);
        assert.deepEqual(mismatches, []);
        assert.equal(step.openedInWebIfc, false);
      });
    });
  }

  const real = bimModelsFolder();
  it(`answers as web-ifc does on every real model (${real ?? 'BIM_MODELS not found: none'})`, async () => {
    const files = real ? readdirSync(real).filter((f) => f.toLowerCase().endsWith('.ifc')) : [];
    let doors = 0;
    for (const file of files) {
      await withBoth(new Uint8Array(readFileSync(path.join(real!, file))), (ifc, model, step) => {
        assert.deepEqual(compare(ifc, model, step), [], file);
        const heights = doorHeights(ifc, model, step);
        assert.deepEqual(heights.mismatches, [], file);
        doors += heights.doors;
      });
    }
    if (files.length) assert.ok(doors > 10, `${doors} doors`);
  });

  it('opens the file in web-ifc for a line JavaScript leaves to it, and closes it', async () => {
    const text = readFileSync(sampleFile('house').ifc, 'utf8').replace(/\nENDSEC;\s*END-ISO-10303-21;\s*$/, "\n#999999=IFCPROPERTYSINGLEVALUE('binary',$,IFCBINARY(\"0ABC\"),$);\nENDSEC;\nEND-ISO-10303-21;\n");
    await withBoth(new TextEncoder().encode(text), (ifc, model, step) => {
      assert.equal(step.GetLine(0, 12345678, false), undefined, 'a line the file does not have');
      assert.equal(step.openedInWebIfc, false);
      assert.deepEqual(step.GetLine(0, 999999, false), ifc.GetLine(model, 999999, false));
      assert.equal(step.openedInWebIfc, true);
      step.close();
      assert.equal(step.openedInWebIfc, false);
    });
  });

  it('refuses what web-ifc\'s open refuses, with the same words', async () => {
    const ifc = await startWebIfc();
    const house = readFileSync(sampleFile('house').ifc, 'utf8');
    for (const bad of [house.replace("FILE_SCHEMA(('IFC4'));", "FILE_SCHEMA(('IFC9X'));"), house.slice(0, house.length / 2), 'not IFC at all', '']) {
      const bytes = new TextEncoder().encode(bad);
      let expected = '';
      try {
        ifc.CloseModel(openModel(ifc, bytes.slice()));
      } catch (e) {
        expected = (e as Error).message;
      }
      assert.ok(expected, 'web-ifc refuses it');
      assert.throws(() => new StepModel(ifc, bytes), { message: expected });
    }
  });
});
