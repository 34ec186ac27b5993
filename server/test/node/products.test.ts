import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sampleFile } from '../../../samples/files.js';
import { StepModel } from '../../../src/core/ifc/step-model.js';
import { ProductReader } from '../../../src/core/ifc/products.js';
import { startWebIfc, withModel } from '../../jobs/read-ifc.js';

describe('ProductReader', () => {
  it('keeps at most its cache size of entities read, and gives the same records as a reader that keeps all; knows its listed products', async () => {
    const bytes = new Uint8Array(readFileSync(sampleFile('house').ifc));
    await withModel(bytes, async (ifc, model) => {
      const step = new StepModel(ifc, bytes);
      const small = new ProductReader(step, 0, '1000', { entityCacheSize: 8 });
      const all = new ProductReader(step, 0, '1000', { entityCacheSize: Infinity });
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

  it('writes the Entity values\' object ids as numbers when asked (the REST API\'s), the same records otherwise', async () => {
    const bytes = new Uint8Array(readFileSync(sampleFile('house').ifc));
    const base = String(2 ** 40);
    const step = new StepModel(await startWebIfc(), bytes);
    const strings = new ProductReader(step, 0, base);
    const numbers = new ProductReader(step, 0, base, { numericEntityIds: true });
    const options = { attributes: true, definedBy: true };
    let entities = 0;
    // The string records with every Entity value's id made a number, by a walk of their own.
    const numeric = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(numeric);
      if (!value || typeof value !== 'object') return value;
      const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numeric(v)]));
      if ((value as { type?: unknown }).type === 'Entity') {
        entities++;
        (out.value as { objectId: unknown }).objectId = Number((value as { value: { objectId: string } }).value.objectId);
      }
      return out;
    };
    for (const id of strings.productIds()) {
      const record = numbers.product(id, options)!;
      assert.deepEqual(record, numeric(strings.product(id, options)), `#${id}`);
      assert.equal(typeof record.objectId, 'string', 'the product\'s own id stays the viewer\'s');
    }
    assert.ok(entities > 1000, `${entities} Entity values compared`);
    step.close();
  });
});
