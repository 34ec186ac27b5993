// The demo's embedded backend (demo/server/token-api.ts), through vite like the demo:
// token URLs, manifests, the v2 error bodies, the pages it renders and the sample files.
// Only the generated samples here: the real models of the BIM_MODELS folder are in
// test/real-models/demo-server.test.ts.
import { assert, assertDeepEqual, assertEqual } from './support/assert';
import { truthOf, type Truth } from './support/samples';
import { head, postToken, type Manifest } from './support/demo-server';

/** The catalogue's samples (samples/variants.js), in its order: model i has objectIdBase i x 2^32. */
const SAMPLE_IDS = ['house', 'cabin', 'house-ifc2x3', 'house-ifc4x3', 'house-georeferenced'];

async function tokenUrl(project: string, body?: unknown): Promise<string> {
  const res = await postToken(project, body);
  assertEqual(res.status, 201, `status of POST token for ${project}`);
  const json = (await res.json()) as { url: string };
  return json.url;
}

/** What the demo's manifest lists for a sample: its scene, plans and IFC, and its product records. */
function sampleFormats(id: string, objectIdBase: string) {
  return {
    formats: [
      { type: 'application/vnd.platform.scene', url: `/scenes/samples/${id}.scene` },
      { type: 'application/vnd.platform.plans', url: `/scenes/samples/${id}.plans` },
      { type: 'application/x-step', url: `/samples/${id}.ifc` },
    ],
    products: `/scenes/samples/${id}.products?base=${objectIdBase}`,
  };
}

const ifcUrl = (model: Manifest['models'][number]) => model.formats.find((f) => f.type === 'application/x-step')!.url;

async function manifest(url: string): Promise<Manifest> {
  const res = await fetch(url);
  assertEqual(res.status, 200, `status of ${url}`);
  assert(res.headers.get('content-type')?.startsWith('application/json'), `content-type ${res.headers.get('content-type')}`);
  return (await res.json()) as Manifest;
}

async function assertApiError(res: Response, status: number, error: { code: number; name: string; message?: string }) {
  assertEqual(res.status, status, `status of ${res.url}`);
  assert(res.headers.get('content-type')?.startsWith('application/json'), `content-type ${res.headers.get('content-type')}`);
  const body = (await res.json()) as { error: { code: number; name: string; message: string } };
  assertEqual(body.error.code, error.code, 'error.code');
  assertEqual(body.error.name, error.name, 'error.name');
  assertEqual(typeof body.error.message, 'string', 'error.message');
  if (error.message !== undefined) assertEqual(body.error.message, error.message, 'error.message');
}

describe('demo backend: 3D viewer tokens', () => {
  it('POST .../viewer3d/token answers a fresh absolute data URL', async () => {
    const res = await postToken('demo');
    assertEqual(res.status, 201);
    const body = (await res.json()) as { url: string; expiresAt: string };
    const url = new URL(body.url);
    assertEqual(url.origin, location.origin, 'token URL origin');
    assertEqual(url.pathname, '/v2/projects/demo/viewer3d/data');
    assert(/^[0-9a-f]{32}$/.test(url.searchParams.get('token') ?? ''), `token ${url.searchParams.get('token')}`);
    const hours = (Date.parse(body.expiresAt) - Date.now()) / 3_600_000;
    assert(hours > 23 && hours <= 24, `3D token lives ${hours} hours`);
    assert(body.url !== (await tokenUrl('demo')), 'two requests give two tokens');
  });

  it('GET .../viewer3d/data answers a manifest whose formats fetch the sample house: scene, plans, IFC', async () => {
    const url = await tokenUrl('demo');
    const { models } = await manifest(url);
    assertEqual(models.length, 1, 'models of project demo');
    const [house] = models;
    const truth = await truthOf('/samples/house.ifc');
    assertEqual(house.id, 'house');
    assertEqual(house.name, truth.project.name);
    assertEqual(typeof house.revision, 'number');
    assertEqual(house.objectIdBase, '0');
    assertDeepEqual({ formats: house.formats, products: house.products }, sampleFormats('house', '0'));
    for (const [format, magic] of [[house.formats[0], 'BIMSCENE'], [house.formats[1], 'BIMPLANS']] as const) {
      const res = await fetch(new URL(format.url, url));
      assertEqual(res.status, 200, `status of ${format.url}`);
      assertEqual(res.headers.get('content-type'), format.type, `content-type of ${format.url}`);
      assertEqual(new TextDecoder().decode((await res.arrayBuffer()).slice(0, 8)), magic, `${format.url} starts with its magic number`);
    }
    const ifc = await fetch(new URL(ifcUrl(house), url));
    assertEqual(ifc.status, 200, `status of ${ifcUrl(house)}`);
    const text = await ifc.text();
    assert(text.startsWith('ISO-10303-21;'), 'the house\'s format URL gives IFC text');
    assert(text.includes(`'${truth.project.guid}'`), 'the file the truth describes (its project GlobalId)');
  });

  it('the samples come first, each a project of its own, with objectIdBase index x 2^32 whatever the BIM_MODELS folder holds', async () => {
    for (const [i, id] of SAMPLE_IDS.entries()) {
      const { models } = await manifest(await tokenUrl(id));
      assertEqual(models.length, 1, `models of project ${id}`);
      const [model] = models;
      assertEqual(model.id, id);
      assertEqual(model.name, (await truthOf(`/samples/${id}.ifc`)).project.name, `name of ${id}`);
      assertEqual(model.objectIdBase, (BigInt(i) << 32n).toString(), `objectIdBase of ${id}`);
      assertDeepEqual({ formats: model.formats, products: model.products }, sampleFormats(id, model.objectIdBase));
    }
  });

  it('project "all-samples" lists every sample with distinct objectIdBases and working URLs', async () => {
    const url = await tokenUrl('all-samples');
    const { models } = await manifest(url);
    assertDeepEqual(models.map((m) => m.id), SAMPLE_IDS, 'the samples, in the catalogue\'s order');
    const bases = models.map((m) => m.objectIdBase);
    assertEqual(new Set(bases).size, bases.length, `objectIdBases ${bases.join(', ')}`);
    for (const base of bases) assert(/^\d+$/.test(base) && BigInt(base) % 2n ** 32n === 0n, `objectIdBase ${base}`);
    for (const model of models) {
      const res = await fetch(new URL(ifcUrl(model), url));
      assertEqual(res.status, 200, `status of ${ifcUrl(model)}`);
      const header = await head(res, 300);
      assert(header.startsWith('ISO-10303-21;'), `${ifcUrl(model)} is IFC text`);
      const { schema } = await truthOf(ifcUrl(model));
      assert(header.includes(`FILE_SCHEMA(('${schema}'))`), `${ifcUrl(model)} is ${schema}: ${header}`);
    }
  });

  it('a body {"models": [...]} picks models of the project, in that order', async () => {
    const { models } = await manifest(await tokenUrl('all-samples', { models: ['cabin', 'house'] }));
    assertDeepEqual(
      models.map((m) => m.id),
      ['cabin', 'house'],
    );
    const single = await manifest(await tokenUrl('cabin'));
    assertEqual(single.models[0].objectIdBase, models[0].objectIdBase, 'a model keeps its objectIdBase in every project');
  });

  it('unknown project: 404 with the v2 NOT_FOUND error', async () => {
    await assertApiError(await postToken('no-such-project'), 404, {
      code: 20,
      name: 'NOT_FOUND',
      message: 'Project (no-such-project) not found',
    });
    await assertApiError(await fetch('/v2/projects/no-such-project/viewer3d/data?token=0123'), 404, {
      code: 20,
      name: 'NOT_FOUND',
      message: 'Project (no-such-project) not found',
    });
  });

  it('unknown, missing, expired or foreign tokens: 401 with a JSON error', async () => {
    const unauthorized = { code: 401, name: 'UNAUTHORIZED', message: 'Token expired or unknown' };
    await assertApiError(await fetch('/v2/projects/demo/viewer3d/data?token=00000000000000000000000000000000'), 401, unauthorized);
    await assertApiError(await fetch('/v2/projects/demo/viewer3d/data'), 401, unauthorized);
    await assertApiError(await fetch(await tokenUrl('demo', { expiresIn: -1 })), 401, unauthorized);
    const foreign = new URL(await tokenUrl('house'));
    foreign.pathname = '/v2/projects/demo/viewer3d/data';
    await assertApiError(await fetch(foreign), 401, unauthorized);
  });

  it('bad requests: 400, unknown model 404, wrong method 405', async () => {
    await assertApiError(await postToken('demo', '{not json'), 400, { code: 24, name: 'BAD_REQUEST' });
    await assertApiError(await postToken('demo', { models: 'house' }), 400, { code: 24, name: 'BAD_REQUEST' });
    await assertApiError(await postToken('demo', { models: ['cabin'] }), 404, {
      code: 20,
      name: 'NOT_FOUND',
      message: 'Model (cabin) not found',
    });
    await assertApiError(await fetch('/v2/projects/demo/viewer3d/token'), 405, { code: 405, name: 'METHOD_NOT_ALLOWED' });
  });
});

describe('demo backend: pages and files', () => {
  it('bakes a fresh token URL into the markup page', async () => {
    const res = await fetch('/demo/markup.html?project=cabin');
    assertEqual(res.status, 200);
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const element = doc.querySelector('[data-viewer="webgl"]');
    assert(element, 'the markup page has a data-viewer="webgl" element');
    const url = element.getAttribute('data-url')!;
    assert(url.includes('/v2/projects/cabin/viewer3d/data?token='), `data-url ${url}`);
    const { models } = await manifest(url);
    assertEqual(models[0]?.id, 'cabin');
    assert(!doc.body.textContent!.includes('{{'), 'no placeholder is left');
  });

  it('serves a sample building at /samples/<name>.ifc and its truth at /samples/<name>.json', async () => {
    const json = await fetch('/samples/cabin.json');
    assertEqual(json.status, 200);
    assert(json.headers.get('content-type')?.startsWith('application/json'), `content-type ${json.headers.get('content-type')}`);
    const truth = (await json.json()) as Truth;
    assertEqual(truth.schema, 'IFC4');
    assertEqual(truth.storeys.length, 1, 'the cabin: one storey');
    assertEqual(truth.spaces.length, 1, 'the cabin: one room');
    const ifc = await fetch('/samples/cabin.ifc');
    assertEqual(ifc.status, 200);
    assertEqual(ifc.headers.get('content-type'), 'application/x-step');
    const text = await ifc.text();
    assert(text.startsWith('ISO-10303-21;') && text.includes("FILE_SCHEMA(('IFC4'))"), 'IFC4 text');
    for (const { guid } of [truth.project, ...truth.storeys, ...truth.spaces, ...truth.products]) assert(text.includes(`'${guid}'`), `GlobalId ${guid} in the file`);
    const heads = await fetch('/samples/cabin.ifc', { method: 'HEAD' });
    assertEqual(heads.status, 200, 'HEAD');
    assertEqual(Number(heads.headers.get('content-length')), new TextEncoder().encode(text).length, 'HEAD gives the length');
    // office-<size>: any size, generated on first use
    const office = await fetch('/samples/office-200.json');
    assertEqual(office.status, 200, 'office-200');
    assertEqual(((await office.json()) as Truth).project.name, 'Sample office 200');
  });

  it('answers an unknown sample name with a 404 JSON error, and a file the BIM_MODELS folder lacks with a 404', async () => {
    for (const file of ['no-such-building.ifc', 'no-such-building.json', 'office-1.ifc']) {
      const name = file.replace(/\.\w+$/, '');
      await assertApiError(await fetch(`/samples/${file}`), 404, {
        code: 20,
        name: 'NOT_FOUND',
        message: `No sample building called ${name} (samples/variants.js lists them)`,
      });
    }
    // with or without the folder
    assertEqual((await fetch('/models/no-such-model.ifc')).status, 404);
  });

  it('answers product records at a manifest\'s products URL, by object id, with attributes and property sets when asked', async () => {
    const base = 1n << 32n; // the cabin's objectIdBase
    const truth = await truthOf('/samples/cabin.ifc');
    const walls = truth.products.filter((p) => p.type === 'IfcWall').slice(0, 2);
    const ids = [...walls.map((w) => (base + BigInt(w.id)).toString()), (base + 999_999n).toString()];
    const res = await fetch(`/scenes/samples/cabin.products?base=${base}&ids=${ids.join(',')}&attributes=true&definedBy=true`);
    assertEqual(res.status, 200);
    assertEqual(res.headers.get('access-control-allow-origin'), '*', 'readable from other origins');
    const records = (await res.json()) as { objectId: string; globalId: string; type: string; attributes?: unknown; definedBy?: unknown[] }[];
    assertDeepEqual(records.map((r) => [r.objectId, r.globalId, r.type]), walls.map((w) => [(base + BigInt(w.id)).toString(), w.guid, 'IfcWall']), 'the walls, and nothing for an id that is no product');
    for (const r of records) assert(r.attributes && Array.isArray(r.definedBy), `attributes and definedBy of ${r.objectId}`);
    const basic = (await (await fetch(`/scenes/samples/cabin.products?base=${base}&ids=${ids[0]}`)).json()) as { attributes?: unknown }[];
    assertEqual(basic[0].attributes, undefined, 'no attributes unless asked');
    for (const query of [`base=${base}`, `base=x&ids=${ids[0]}`, `base=${base}&ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`]) {
      await assertApiError(await fetch(`/scenes/samples/cabin.products?${query}`), 400, { code: 24, name: 'BAD_REQUEST' });
    }
    await assertApiError(await fetch(`/scenes/samples/no-such-building.products?base=0&ids=1`), 404, { code: 20, name: 'NOT_FOUND' });
  });

  it('serves jQuery 1.12.4 under /vendor/', async () => {
    const res = await fetch('/vendor/jquery-1.12.4.min.js');
    assertEqual(res.status, 200);
    assert(res.headers.get('content-type')?.startsWith('text/javascript'), `content-type ${res.headers.get('content-type')}`);
    assert((await head(res, 200)).includes('v1.12.4'), 'it is jQuery 1.12.4');
  });

  it('answers a missing /dist/ file with a 404 that says to build', async () => {
    const res = await fetch('/dist/no-such-bundle.js');
    assertEqual(res.status, 404);
    assert((await res.text()).includes('npm run build'), 'the 404 says how to build');
  });
});
