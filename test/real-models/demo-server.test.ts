// The demo backend's catalogue with the BIM_MODELS folder (default ../shared/models): its
// real models are projects of their own after the samples, served at /models/<file>. The
// samples and everything that needs no folder: test/demo-server.test.ts.
import { assert, assertDeepEqual, assertEqual } from '../support/assert';
import { REAL_MODELS } from '../support/real-models';
import { head, postToken, type Manifest } from '../support/demo-server';

/** How many samples come first in the catalogue (samples/variants.js): the real models' bases start after them. */
const SAMPLE_COUNT = 5;

const FILES = Object.values(REAL_MODELS).map((url) => decodeURIComponent(url.slice('/models/'.length)));

/** A real model's id in the catalogue: its file name, lower case, without .ifc, runs of other characters as '-'. */
const idOf = (file: string) => file.replace(/\.ifc$/i, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

async function manifest(project: string): Promise<Manifest> {
  const token = await postToken(project);
  assertEqual(token.status, 201, `status of POST token for ${project}`);
  const res = await fetch(((await token.json()) as { url: string }).url);
  assertEqual(res.status, 200, `manifest of ${project}`);
  return (await res.json()) as Manifest;
}

describe('demo backend: the real models of BIM_MODELS', () => {
  it('lists each file of the folder as a project of its own, after the samples, in file name order', async () => {
    const bases: bigint[] = [];
    for (const file of FILES) {
      const { models } = await manifest(idOf(file));
      assertEqual(models.length, 1, `models of project ${idOf(file)}`);
      const [model] = models;
      assertEqual(model.id, idOf(file));
      assertEqual(model.name, file.replace(/\.ifc$/i, ''));
      const processed = `/scenes/models/${file.replace(/\.ifc$/i, '')}`;
      assertDeepEqual({ formats: model.formats, products: model.products }, {
        formats: [
          { type: 'application/vnd.platform.scene', url: `${processed}.scene` },
          { type: 'application/vnd.platform.plans', url: `${processed}.plans` },
          { type: 'application/x-step', url: `/models/${encodeURIComponent(file)}` },
        ],
        products: `${processed}.products?base=${model.objectIdBase}`,
      });
      const base = BigInt(model.objectIdBase);
      assert(base % 2n ** 32n === 0n && base >= BigInt(SAMPLE_COUNT) << 32n, `${file}: objectIdBase ${model.objectIdBase} after the samples'`);
      bases.push(base);
    }
    // the folder is read in sorted order: bases grow with the file names
    const sorted = [...FILES].sort();
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [bases[FILES.indexOf(sorted[i - 1])], bases[FILES.indexOf(sorted[i])]];
      assert(a < b, `${sorted[i - 1]} (${a}) before ${sorted[i]} (${b})`);
    }
  });

  it('serves the files of the folder at /models/<file>; a file it lacks is a 404 that names the folder', async () => {
    for (const url of Object.values(REAL_MODELS)) {
      const res = await fetch(url);
      assertEqual(res.status, 200, `status of ${url}`);
      assertEqual(res.headers.get('content-type'), 'application/x-step', `content-type of ${url}`);
      assert((await head(res)).startsWith('ISO-10303-21;'), `${url} is IFC text`);
    }
    const missing = await fetch('/models/no-such-model.ifc');
    assertEqual(missing.status, 404);
    assert((await missing.text()).includes('not in the BIM_MODELS folder'), 'the 404 says where the file was looked for');
  });

  it('keeps real models out of the sample projects', async () => {
    const { models } = await manifest('all-samples');
    assert(models.every((m) => m.formats.every((f) => /^\/(scenes\/)?samples\//.test(f.url))), `all-samples: ${models.map((m) => m.id).join(', ')}`);
    const res = await postToken('demo', { models: [idOf(FILES[0])] });
    assertEqual(res.status, 404, 'a real model is no model of project demo');
    assertEqual(((await res.json()) as { error: { message: string } }).error.message, `Model (${idOf(FILES[0])}) not found`);
  });
});
