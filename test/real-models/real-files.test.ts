// Every real file of the BIM_MODELS folder (written by other people's exporters, with
// their quirks: no storeys, georeferenced coordinates, grids, IFC2X3) loads in the 3D
// viewer with what its MANIFEST.tsv says it holds: its spaces and grids, and a box.
import { assert, assertEqual } from '../support/assert';
import { createViewer, removeViewer } from '../support/viewer';
import type { BimViewer3d } from '../../src/elements/bim-viewer-3d';

interface ManifestRow {
  filename: string;
  ifc_schema: string;
  n_IFCSPACE: string;
  n_IFCGRID: string;
}

async function manifest(): Promise<ManifestRow[]> {
  const res = await fetch('/models/MANIFEST.tsv');
  assertEqual(res.status, 200, 'the BIM_MODELS folder has a MANIFEST.tsv');
  const [header, ...lines] = (await res.text()).split(/\r?\n/).filter((l) => l.trim());
  const columns = header.split('\t');
  return lines.map((line) => Object.fromEntries(line.split('\t').map((cell, i) => [columns[i], cell])) as unknown as ManifestRow);
}

describe('real models from BIM_MODELS in the 3D viewer', function () {
  let el: BimViewer3d;
  before(async () => {
    el = await createViewer(480, 360);
  });
  after(() => removeViewer(el));

  it('every file of the manifest loads, with its spaces and grids', async () => {
    const rows = await manifest();
    assert(rows.length >= 8, `${rows.length} models listed`);
    for (const [i, row] of rows.entries()) {
      if (i > 0) await el.unloadModel('real');
      await el.loadModel(`/models/${encodeURIComponent(row.filename)}`, { modelType: 'bim', modelId: 'real' });
      const products = (await el.getProducts(await el.each())).filter(Boolean);
      assert(products.length > 0, `${row.filename}: objects drawn`);
      const spaces = products.filter((p) => p!.type === 'IfcSpace').length;
      assertEqual(spaces, Number(row.n_IFCSPACE), `${row.filename}: spaces`);
      assertEqual((await el.getGrids()).length, Number(row.n_IFCGRID), `${row.filename}: grids`);
      const [info] = await el.modelInfo('real');
      const { min, max } = info.boundingBox;
      const size = [max.x - min.x, max.y - min.y, max.z - min.z];
      assert(size.every((d) => d > 0 && d < 1e4), `${row.filename}: a box of a building (${size.map((d) => d.toFixed(1))} m)`);
    }
  });
});
