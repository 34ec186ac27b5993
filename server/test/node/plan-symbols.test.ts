import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sampleFile } from '../../../samples/files.js';
import { StepModel } from '../../../src/core/ifc/step-model.js';
import { readUnits } from '../../../src/core/ifc/units.js';
import { doorSymbols } from '../../../src/core/plan/plan-symbols.js';
import { withModel } from '../../jobs/read-ifc.js';

describe('doorSymbols', () => {
  it('gives the same symbols with a cache of two lines as with one that keeps every line, reading lines again instead of keeping them', async () => {
    const bytes = new Uint8Array(readFileSync(sampleFile('office-2k').ifc));
    await withModel(bytes, async (ifc, model) => {
      const step = new StepModel(ifc, bytes);
      const line = (id: number) => step.GetLine(0, id, false);
      const counted = () => {
        const reads: number[] = [];
        return { reads, read: (id: number) => (reads.push(id), line(id)) };
      };
      const units = readUnits(ifc, model);
      const small = counted(), all = counted();
      const symbols = doorSymbols(ifc, model, units, small.read, 2);
      assert.deepEqual(symbols, doorSymbols(ifc, model, units, all.read, Infinity));
      assert.ok(symbols.owners.length > 10, `${symbols.owners.length} doors with symbols`);
      // Kept all, each line is read once; kept two, the door types' shared lines are read again.
      assert.equal(all.reads.length, new Set(all.reads).size);
      assert.ok(small.reads.length > all.reads.length, `${small.reads.length} reads against ${all.reads.length}`);
    });
  });
});
