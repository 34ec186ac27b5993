import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { sampleFile } from '../../samples/files.js';
import { RecordKind, SceneReader, SCENE_MEDIA_TYPE } from '../../src/core/formats/scene.js';
import { checksums } from '../../src/core/formats/checksum.js';
import { decodePlans, PLANS_MEDIA_TYPE } from '../../src/core/formats/plans.js';
import { api, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type TestServer } from './harness.js';

/** The viewers' tokens: v2 viewer3d/viewer2d token, data and geometry URLs, file URLs, and seed 000's beta 2D access. */
describe('viewer tokens', () => {
  let server: TestServer;
  let bearer: string;
  let v1: ReturnType<typeof api>;
  let project: { id: string };
  let model: { id: string };
  let other: { id: string };
  const house = readFileSync(sampleFile('house').ifc);
  const cabin = readFileSync(sampleFile('cabin').ifc);

  const post = (path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  before(async () => {
    const env = serverEnv(newDataDir());
    const app = cli(env, 'app', 'add', '--name', 'Tokens', '--redirect-uri', 'http://127.0.0.1:9/cb');
    server = await startServer(env);
    bearer = (await signInAs(server.url, app)).access_token;
    v1 = api(server.url, bearer);
    project = (await v1.post('/projects/new', { name: 'Tokens' })).json;
    model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'House' })).json;
    other = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Cabin' })).json;
    for (const [m, bytes] of [[model, house], [model, cabin], [other, cabin]] as const) {
      const status = await v1.waitForImport((await v1.upload(m.id, 'f.ifc', bytes)).json.token);
      assert.equal(status.json.result, 'success');
    }
  });

  after(async () => {
    await server.stop();
    removeDataDir(server.dataDir);
  });

  it('gives a 3D data URL whose manifest lists the latest revisions and serves their files', async () => {
    const answer = await post(`/v2/projects/${project.id}/viewer3d/token`);
    assert.equal(answer.status, 201);
    const { url, expiresAt } = (await answer.json()) as { url: string; expiresAt: string };
    assert.match(url, new RegExp(`^${server.url}/v2/projects/${project.id}/viewer3d/data\\?token=`));
    assert.ok(Date.parse(expiresAt) > Date.now() + 23 * 3600_000);
    const manifest = await fetch(url);
    assert.equal(manifest.headers.get('access-control-allow-origin'), '*');
    const { models } = (await manifest.json()) as { models: { id: string; name: string; revision: number; objectIdBase: string; formats: { type: string; url: string }[] }[] };
    assert.deepEqual(models.map((m) => [m.id, m.name, m.revision]).sort(), [[model.id, 'House', 2], [other.id, 'Cabin', 1]].sort());
    const products = (await v1.get(`/revision/products?model_id=${model.id}&per_page=1`)).json;
    const houseEntry = models.find((m) => m.id === model.id)!;
    assert.equal(Number(houseEntry.objectIdBase), products[0].objectId - (products[0].objectId % 2 ** 32), 'the viewer and the REST API agree on object ids');
    assert.deepEqual(houseEntry.formats.map((f) => f.type), [SCENE_MEDIA_TYPE, PLANS_MEDIA_TYPE, 'application/x-step'], 'the processed formats first: the viewers take the first they read');
    const file = await fetch(new URL(houseEntry.formats[2].url, url));
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), cabin, 'revision 2 of the house model is the cabin upload');

    // The scene processing wrote: whole, of the cabin, every product in it.
    const scene = await fetch(new URL(houseEntry.formats[0].url, url));
    assert.equal(scene.status, 200);
    assert.equal(scene.headers.get('content-type'), SCENE_MEDIA_TYPE);
    const bytes = new Uint8Array(await scene.arrayBuffer());
    await checksums();
    const reader = new SceneReader();
    const records = reader.push(bytes);
    reader.finish();
    // Stored gzipped: sent as stored to a client that takes gzip, unpacked for one that does not.
    const raw = (encoding?: string) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        get(new URL(houseEntry.formats[0].url, url), { headers: encoding ? { 'Accept-Encoding': encoding } : {} }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d)).on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) })).on('error', reject);
        }).on('error', reject);
      });
    const packed = await raw('gzip, deflate');
    assert.equal(packed.headers['content-encoding'], 'gzip');
    assert.equal(Number(packed.headers['content-length']), packed.body.length);
    assert.ok(packed.body.length < bytes.length / 2, `${packed.body.length} bytes gzipped of ${bytes.length}`);
    assert.deepEqual(new Uint8Array(gunzipSync(packed.body)), bytes);
    const plain = await raw();
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.deepEqual(new Uint8Array(plain.body), bytes);
    const table = records.find((r) => r.kind === RecordKind.Products)!;
    const count = (await v1.post(`/revision/products?model_id=${model.id}&per_page=1000`, {})).json.length;
    assert.equal(table.kind === RecordKind.Products && table.products.expressIds.length, count);
    assert.ok(records.filter((r) => r.kind === RecordKind.Chunk).length > 0);

    // The plans processing wrote: the cabin's storeys and spaces, the revision's object ids.
    const plansFile = await fetch(new URL(houseEntry.formats[1].url, url));
    assert.equal(plansFile.status, 200);
    assert.equal(plansFile.headers.get('content-type'), PLANS_MEDIA_TYPE);
    const plans = decodePlans(new Uint8Array(await plansFile.arrayBuffer()), houseEntry.objectIdBase);
    const truth = JSON.parse(readFileSync(sampleFile('cabin').truth, 'utf8')) as { storeys: { name: string }[]; spaces: { id: number }[] };
    assert.deepEqual(plans.storeys.map((s) => s.name), truth.storeys.map((s) => s.name));
    assert.deepEqual(plans.spaces.map((s) => s.objectId).sort(), truth.spaces.map((s) => String(BigInt(houseEntry.objectIdBase) + BigInt(s.id))).sort());
  });

  it('gives each model\'s product records by object ids or by page, as the v1 API has them, and the scene\'s unpacked size', async () => {
    const { url } = (await (await post(`/v2/projects/${project.id}/viewer3d/token`, { models: [other.id] })).json()) as { url: string };
    const { models } = (await (await fetch(url)).json()) as { models: { id: string; products: string; formats: { type: string; url: string; size?: number }[] }[] };
    const [entry] = models;
    const scene = new Uint8Array(await (await fetch(new URL(entry.formats[0].url, url))).arrayBuffer());
    assert.equal(entry.formats[0].size, scene.length, 'the scene\'s size unpacked');
    assert.equal(entry.formats.find((f) => f.type === 'application/x-step')?.size, cabin.length, 'the IFC\'s size');
    const v1Products = (await v1.post(`/revision/products?model_id=${other.id}&per_page=1000`, { attributes: true, definedBy: true })).json as { objectId: number }[];
    const products = new URL(entry.products, url);
    const ids = v1Products.slice(2, 7).map((p) => p.objectId);
    products.search += `&ids=${ids.join(',')}&attributes=true&definedBy=true`;
    const byIds = await fetch(products);
    assert.equal(byIds.status, 200);
    assert.equal(byIds.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await byIds.json(), v1Products.slice(2, 7), 'the records of the v1 API, attributes and definitions included');
    const page = new URL(entry.products, url);
    page.search += '&page=2&per_page=3';
    assert.deepEqual(((await (await fetch(page)).json()) as { objectId: number }[]).map((p) => p.objectId), v1Products.slice(3, 6).map((p) => p.objectId), 'the basic records of page 2');
    const bad = new URL(entry.products, url);
    bad.search += '&ids=1,x';
    const refused = await fetch(bad);
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /ids/);
    const elsewhere = new URL(entry.products, url);
    elsewhere.searchParams.set('model', model.id);
    assert.equal((await fetch(elsewhere)).status, 404, 'a model the token does not grant');
    elsewhere.searchParams.set('token', 'nope');
    assert.equal((await fetch(elsewhere)).status, 401);
  });

  it('grants only the revisions it was issued for, of its own project and kind', async () => {
    const { url } = (await (await post(`/v2/projects/${project.id}/viewer3d/token`, { models: [model.id], revisions: [1] })).json()) as { url: string };
    const { models } = (await (await fetch(url)).json()) as { models: { id: string; revision: number; formats: { url: string }[] }[] };
    assert.deepEqual(models.map((m) => [m.id, m.revision]), [[model.id, 1]]);
    const file = new URL(models[0].formats.at(-1)!.url, url);
    assert.deepEqual(Buffer.from(await (await fetch(file)).arrayBuffer()), house);
    file.searchParams.set('model', other.id);
    assert.equal((await fetch(file)).status, 404, 'a model the token does not grant');
    const token = new URL(url).searchParams.get('token');
    assert.equal((await fetch(`${server.url}/v2/projects/${project.id}/viewer2d/geometry?token=${token}`)).status, 401, 'a 3D token is no 2D token');
    assert.equal((await fetch(`${server.url}/v2/projects/other/viewer3d/data?token=${token}`)).status, 401);
    const unknown = await fetch(`${server.url}/v2/projects/${project.id}/viewer3d/data?token=nope`);
    assert.equal(unknown.status, 401);
    assert.equal(((await unknown.json()) as { error: { name: string } }).error.name, 'UNAUTHORIZED');
  });

  it('gives 2D tokens of 60 minutes, refuses expired tokens, unknown projects and no sign-in', async () => {
    const answer = await post(`/v2/projects/${project.id}/viewer2d/token`, { models: [other.id] });
    assert.equal(answer.status, 201);
    const { url, expiresAt } = (await answer.json()) as { url: string; expiresAt: string };
    assert.match(url, /\/viewer2d\/geometry\?token=/);
    const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
    assert.ok(minutes > 59 && minutes <= 60, `${minutes} minutes`);
    assert.equal((await fetch(url)).status, 200);

    const expired = (await (await post(`/v2/projects/${project.id}/viewer3d/token`, { expiresIn: -1 })).json()) as { url: string };
    assert.equal((await fetch(expired.url)).status, 401);
    // Found by the request fuzz: an expiry two thousand years back was a 500.
    const farBack = await post(`/v2/projects/${project.id}/viewer3d/token`, { expiresIn: -63931531503.106026 });
    assert.equal(farBack.status, 400);
    assert.match(((await farBack.json()) as { error: { message: string } }).error.message, /expiresIn/);
    const unknown = await post('/v2/projects/no-such-project/viewer3d/token');
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { message: string } }).error.message, 'Project (no-such-project) not found');
    assert.equal((await fetch(`${server.url}/v2/projects/${project.id}/viewer3d/token`, { method: 'POST' })).status, 401);
    assert.equal((await post(`/v2/projects/${project.id}/viewer3d/token`, { models: ['no-such-model'] })).status, 404);
  });

  it('answers the beta 2D access with a token, its geometry URL and the active model', async () => {
    const byModel = await post(`/beta/viewer2d/access?model_id=${other.id}`);
    assert.equal(byModel.status, 200);
    const access = (await byModel.json()) as { token: string; url: string; modelId: string };
    assert.equal(access.modelId, other.id);
    assert.equal(new URL(access.url).searchParams.get('token'), access.token);
    const { models } = (await (await fetch(access.url)).json()) as { models: { id: string }[] };
    assert.deepEqual(models.map((m) => m.id), [other.id]);

    const byProject = (await (await post(`/beta/viewer2d/access?project_id=${project.id}`)).json()) as { modelId: string };
    assert.ok([model.id, other.id].includes(byProject.modelId));
    const revision = (await (await post(`/beta/viewer2d/access?model_id=${model.id}&revision_id=1`)).json()) as { url: string };
    assert.deepEqual(((await (await fetch(revision.url)).json()) as { models: { revision: number }[] }).models.map((m) => m.revision), [1]);
    assert.equal((await post('/beta/viewer2d/access')).status, 400);
    assert.equal((await post(`/beta/viewer2d/access?model_id=${model.id}&revision_id=9`)).status, 404);
  });
});
