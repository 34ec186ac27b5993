import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sampleFile } from '../../../samples/files.js';
import { StepModel } from '../../../src/core/ifc/step-model.js';
import { ProductReader } from '../../../src/core/ifc/products.js';
import { withModel } from '../../jobs/read-ifc.js';

describe('ProductReader', () => {
  it('keeps at most its cache size of entities read, and gives the same records as a reader that keeps all; knows its listed products', async () => {
    const bytes = new Uint8Array(readFileSync(sampleFile('house').ifc));
    await withModel(bytes, async (ifc, model) => {
      const step = new StepModel(ifc, bytes);
      const small = new ProductReader(step, 0, '1000', 8);
      const all = new ProductReader(step, 0, '1000', Infinity);
      const options = { attributes: true, definedBy: true };
      for (const id of all.productIds()) {
        assert.deepEqual(small.product(id, options), all.product(id, options), `#${id}`);
        assert.ok(small.cachedEntities <= 8, `${small.cachedEntities} entities kept`);
      }
      // Else the bound was never reached, and the comparison proves nothing.
      assert.ok(all.cachedEntities > 100, `${all.cachedEntities} entities read`);
      // Once listed, products are known by their ids, as web-ifc's line types tell them.
      const fresh = new ProductReader(ifc, model, '1000');
      for (let id = 1; id <= ifc.GetMaxExpressID(model) + 1; id++) assert.equal(all.isProduct(id), fresh.isProduct(id), `#${id}`);
    });
  });
});
