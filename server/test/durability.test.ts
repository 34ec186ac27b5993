import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sampleFile } from '../../samples/files.js';
import { api, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, waitForOutput, type OAuthApp, type TestServer } from './harness.js';
import { READERS_WARMED_UP } from '../platform.js';

/**
 * What a data folder survives: a server killed (SIGKILL) in the middle of an import, a
 * second server started on the folder, a clean stop and restart. One folder throughout;
 * each test leaves a server running on it for the next.
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
type Product = { objectId: number; globalId: string; type: string; parent: number; name: string };

describe('durability of a data folder', () => {
  let server: TestServer;
  let app: OAuthApp;
  let bearer: string;
  let v1: ReturnType<typeof api>;
  const env = serverEnv(newDataDir(), { JOB_LEASE_MS: '2000' });
  const office = readFileSync(sampleFile('office-2k').ifc);
  /** Big enough that its processing (a few seconds) is surely under way a second after the upload. */
  const big = readFileSync(sampleFile('office-8k').ifc);

  const restart = async (how: 'stop' | 'kill') => {
    await server[how]();
    if (how === 'stop') assert.equal(server.process.exitCode, 0, server.output());
    server = await startServer(env);
    v1 = api(server.url, bearer);
  };

  /** Every product of a revision, page by page. */
  const allProducts = async (modelId: string, revision?: number): Promise<Product[]> => {
    const all: Product[] = [];
    for (let page = 1; ; page++) {
      const answer = await v1.get(`/revision/products?model_id=${modelId}${revision ? `&revision_id=${revision}` : ''}&per_page=1000&page=${page}`);
      assert.equal(answer.status, 200, answer.text);
      all.push(...answer.json);
      if (answer.json.length < 1000) return all;
    }
  };

  before(async () => {
    app = cli(env, 'app', 'add', '--name', 'Durability', '--redirect-uri', 'http://127.0.0.1:9/cb');
    server = await startServer(env);
    bearer = (await signInAs(server.url, app)).access_token;
    v1 = api(server.url, bearer);
  });

  after(async () => {
    if (process.env.SHOW_SERVER_OUTPUT) console.log(server?.output());
    await server?.stop();
    removeDataDir(env.DATA_DIR!);
  });

  it('finishes an import whose server was killed (SIGKILL) mid-processing: one revision, no duplicates, or an error; never stuck', async () => {
    const project = (await v1.post('/projects/new', { name: 'Killed' })).json;
    const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Office' })).json;
    const upload = await v1.upload(model.id, 'office-8k.ifc', big);
    assert.equal(upload.status, 200, JSON.stringify(upload.json));
    // The upload is stored and queued; the in-process runner takes it at once. Kill while it reads.
    await new Promise((r) => setTimeout(r, 1000));
    const before = await v1.get(`/model/import/status?token=${upload.json.token}`);
    assert.equal(before.json.result, 'running', 'processing took less than a second: use a larger sample');
    await restart('kill');

    const done = await v1.waitForImport(upload.json.token, 180_000);
    assert.equal(done.status, 200);
    assert.ok(['success', 'error'].includes(done.json.result), JSON.stringify(done.json));
    const revisions = (await v1.get(`/revisions?model_id=${model.id}`)).json;
    if (done.json.result === 'error') {
      assert.deepEqual(revisions, [], 'a failed import leaves no revision');
      assert.ok(done.json.error);
      return;
    }
    assert.equal(done.json.revision_id, 1);
    assert.equal(revisions.length, 1, JSON.stringify(revisions));
    const products = await allProducts(model.id);
    assert.equal(new Set(products.map((p) => p.objectId)).size, products.length, 'no product twice');
    assert.equal(new Set(products.map((p) => p.globalId)).size, products.length, 'no GlobalId twice');

    // The same file imported on a server nobody killed gives as many products, the same ones.
    const clean = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Clean' })).json;
    const cleanDone = await v1.waitForImport((await v1.upload(clean.id, 'office-8k.ifc', big)).json.token, 180_000);
    assert.equal(cleanDone.json.result, 'success', JSON.stringify(cleanDone.json));
    const cleanProducts = await allProducts(clean.id);
    assert.equal(products.length, cleanProducts.length);
    assert.ok(products.length > 5000);
    assert.deepEqual(products.map((p) => p.globalId).sort(), cleanProducts.map((p) => p.globalId).sort());
    // The project's current set: both models, each once.
    const projectProducts: Product[] = [];
    for (let page = 1; ; page++) {
      const list = (await v1.get(`/project/products?project_id=${project.id}&per_page=1000&page=${page}`)).json;
      projectProducts.push(...list);
      if (list.length < 1000) break;
    }
    assert.equal(projectProducts.length, 2 * cleanProducts.length);
  });

  if (onPostgres) {
    it('lets a second server share the PostgreSQL database with the first', async () => {
      const second = await startServer(env);
      try {
        const other = api(second.url, bearer);
        const project = (await other.post('/projects/new', { name: 'Made on the second' })).json;
        assert.equal((await v1.get(`/project?project_id=${project.id}`)).json.name, 'Made on the second');
      } finally {
        await second.stop();
      }
    });
  } else {
    it('refuses a second server on the same folder, naming the folder; the first keeps working', async () => {
      const second = startServer(env);
      // The command line takes the same lock (stop the server first, says cli.ts).
      assert.throws(() => cli(env, 'user', 'add', '--email', 'late@example.com', '--password', 'a long password'), (error: Error) => {
        assert.match(error.message, /in use/);
        assert.ok(error.message.includes(env.DATA_DIR!), error.message);
        return true;
      });
      await assert.rejects(second, (error: Error) => {
        assert.match(error.message, /server exited \(\d+\) before listening/);
        assert.match(error.message, /in use by another server process/);
        assert.ok(error.message.includes(env.DATA_DIR!), error.message);
        return true;
      });
      const project = (await v1.post('/projects/new', { name: 'Still working' })).json;
      assert.equal(project.name, 'Still working');
      assert.equal((await v1.get(`/project?project_id=${project.id}`)).json.name, 'Still working');
      const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Cabin' })).json;
      const done = await v1.waitForImport((await v1.upload(model.id, 'cabin.ifc', readFileSync(sampleFile('cabin').ifc))).json.token);
      assert.equal(done.json.result, 'success', JSON.stringify(done.json));
    });
  }

  it('keeps projects, models, revisions and products across a clean stop and restart', async () => {
    const project = (await v1.post('/projects/new', { name: 'Kept' })).json;
    const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Office' })).json;
    for (const comment of ['first', 'second']) {
      const done = await v1.waitForImport((await v1.upload(model.id, 'office-2k.ifc', office, { comment })).json.token, 180_000);
      assert.equal(done.json.result, 'success', JSON.stringify(done.json));
    }
    const seen = async () => ({
      projects: (await v1.get('/projects')).json,
      models: (await v1.get(`/models?project_id=${project.id}`)).json,
      revisions: (await v1.get(`/revisions?model_id=${model.id}`)).json,
      first: await allProducts(model.id, 1),
      second: await allProducts(model.id, 2),
      wall: (await v1.post(`/revision/products?model_id=${model.id}&revision_id=1&per_page=3`, { type: ['IfcWall'], attributes: true, definedBy: true })).json,
    });
    const beforeStop = await seen();
    assert.equal(beforeStop.revisions.length, 2);
    assert.ok(beforeStop.first.length > 1000);
    assert.ok(beforeStop.wall.length > 0 && beforeStop.wall[0].definedBy.length > 0);

    const stopping = Date.now();
    await restart('stop');
    assert.ok(Date.now() - stopping < 60_000);
    assert.deepEqual(await seen(), beforeStop);
    const exported = await fetch(`${server.url}/1.0/revision/export?model_id=${model.id}&revision_id=2`, { headers: { Authorization: `Bearer ${bearer}` } });
    assert.deepEqual(Buffer.from(await exported.arrayBuffer()), office);
  });
});

describe('a server as it runs by default', () => {
  it('starts its IFC reader threads with the process, warmed up, and imports with them', async () => {
    const env = serverEnv(newDataDir(), { READER_WARM_UP: '1' });
    const app = cli(env, 'app', 'add', '--name', 'Warm', '--redirect-uri', 'http://127.0.0.1:9/cb');
    const server = await startServer(env);
    try {
      await waitForOutput(server, READERS_WARMED_UP);
      const v1 = api(server.url, (await signInAs(server.url, app)).access_token);
      const project = (await v1.post('/projects/new', { name: 'Warm' })).json;
      const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Cabin' })).json;
      const done = await v1.waitForImport((await v1.upload(model.id, 'cabin.ifc', readFileSync(sampleFile('cabin').ifc))).json.token);
      assert.equal(done.json.result, 'success', JSON.stringify(done.json));
    } finally {
      await server.stop();
      removeDataDir(env.DATA_DIR!);
    }
  });
});
