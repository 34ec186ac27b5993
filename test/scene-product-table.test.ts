// The scene's product table as the page keeps it (src/core/loaders/product-table.ts):
// typed columns and text columns sliced on demand answer what the parsed table did.
import { assertDeepEqual, assertEqual } from './support/assert';
import { ProductTable } from '../src/core/loaders/product-table';
import type { SceneProducts } from '../src/core/formats/scene';

const columns = (expressIds: number[]): SceneProducts => ({
  spatial: null,
  expressIds,
  parents: expressIds.map((id, i) => (i === 0 ? 0 : expressIds[0])),
  globalIds: expressIds.map((id) => `0${id}`.padEnd(22, 'x')),
  types: expressIds.map((id) => (id % 2 ? 'IfcWall' : 'IfcDoor')),
  names: expressIds.map((id) => (id === 7 ? '' : `näme ${id}`)),
  descriptions: expressIds.map((id) => (id % 3 ? null : `description of ${id}`)),
});

describe('the scene product table', () => {
  for (const [order, ids] of [['sorted', [1, 3, 7, 12, 40, 41]], ['unsorted', [40, 3, 12, 1, 41, 7]]] as const) {
    it(`answers every row, by express id and by GlobalId, as the columns had it (${order})`, () => {
      const products = columns([...ids]);
      const table = new ProductTable(products);
      assertEqual(table.size, ids.length);
      ids.forEach((id, i) => {
        const row = table.rowOf(id)!;
        assertDeepEqual(table.row(row), {
          expressId: id,
          parent: products.parents[i],
          globalId: products.globalIds[i],
          type: products.types[i],
          name: products.names[i],
          description: products.descriptions[i],
        }, `row of ${id}`);
        assertEqual(table.expressIdOf(products.globalIds[i]), id, `express id of ${products.globalIds[i]}`);
      });
      for (const missing of [0, 2, 13, 42, 1e9]) assertEqual(table.rowOf(missing), undefined, `no row for ${missing}`);
      assertEqual(table.expressIdOf('no such GlobalId'), undefined);
    });
  }
});
