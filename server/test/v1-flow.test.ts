import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IFCWALL, IfcAPI } from 'web-ifc';
import { sampleFile } from '../../samples/files.js';
import { OPENAPI_FILE } from '../openapi.js';
import { api, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';

/**
 * A client that follows seed 000 from start to end: register, authorize, token, project,
 * model, import (with a callback), status, revisions, products with attributes and
 * property sets, export. The products are checked against web-ifc reading the same file.
 */
describe('v1 API: the seed-000 client flow', () => {
  let server: TestServer;
  let app: OAuthApp;
  let callbacks: string[] = [];
  let callbackServer: Server;
  const house = readFileSync(sampleFile('house').ifc);

  before(async () => {
    callbackServer = createServer((req, res) => {
      callbacks.push(req.url!);
      res.end('ok');
    });
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    const env = serverEnv(newDataDir());
    app = cli(env, 'app', 'add', '--name', 'Seed client', '--redirect-uri', `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`);
    server = await startServer(env);
  });

  after(async () => {
    if (process.env.SHOW_SERVER_OUTPUT) console.log(server.output());
    await server.stop();
    callbackServer.close();
    removeDataDir(server.dataDir);
  });

  it('imports an IFC and serves its revision, products and export', async () => {
    const { access_token } = await signInAs(server.url, app);
    assert.ok(access_token.length <= 255);
    const v1 = api(server.url, access_token);

    const project = (await v1.post('/projects/new', { name: 'Flow project' })).json;
    assert.equal(project.name, 'Flow project');
    assert.match(project.id, /^[0-9a-f]{32}$/);
    assert.deepEqual((await v1.get('/projects')).json, [project]);
    const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'House' })).json;
    assert.deepEqual((await v1.get(`/models?project_id=${project.id}`)).json, [model]);

    const upload = await v1.upload(model.id, 'house.ifc', house, { callback_uri: `${app.redirect_uri}?import=1` });
    assert.equal(upload.status, 200, JSON.stringify(upload.json));
    const token = upload.json.token;
    const running = await v1.get(`/model/import/status?token=${token}`);
    assert.equal(running.status, 200);
    assert.equal(running.json.model_id, model.id);
    assert.equal(running.json.project_id, project.id);
    assert.equal(running.json.file_name, 'house.ifc');
    assert.equal(running.json.comment, 'upload of house.ifc');
    // Not a revision for readers until processing succeeded.
    if (running.json.result === 'running') assert.equal((await v1.get(`/revisions?model_id=${model.id}`)).json.length, 0);

    const done = await v1.waitForImport(token);
    assert.equal(done.json.result, 'success', JSON.stringify(done.json));
    assert.equal(done.json.revision_id, 1);
    for (let i = 0; i < 50 && callbacks.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(callbacks.length, 1);
    const called = new URL(callbacks[0], 'http://x');
    assert.equal(called.pathname, '/callback');
    assert.equal(called.searchParams.get('import'), '1');
    assert.equal(called.searchParams.get('token'), token);
    assert.equal(called.searchParams.get('result'), 'success');

    const revisions = (await v1.get(`/revisions?model_id=${model.id}`)).json;
    assert.equal(revisions.length, 1);
    assert.equal(revisions[0].id, 1);
    assert.equal(revisions[0].comment, 'upload of house.ifc');
    assert.match(String(revisions[0].timestamp), /^\d{13}$/);
    assert.deepEqual((await v1.get(`/revision?model_id=${model.id}`)).json, revisions[0]);

    const exported = await fetch(`${server.url}/1.0/revision/export?model_id=${model.id}&revision_id=1`, { headers: { Authorization: `Bearer ${access_token}` } });
    assert.equal(exported.status, 200);
    assert.deepEqual(Buffer.from(await exported.arrayBuffer()), house);

    // The products are web-ifc's IfcProducts and the IfcProject, ids = base + express id.
    const ifc = new IfcAPI();
    await ifc.Init(undefined, true);
    const modelID = ifc.OpenModel(house);
    const all = [];
    for (let page = 1; ; page++) {
      const list = (await v1.get(`/revision/products?model_id=${model.id}&per_page=7&page=${page}`)).json;
      all.push(...list);
      if (list.length < 7) break;
    }
    const walls = ifc.GetLineIDsWithType(modelID, IFCWALL, false);
    const base = all[0].objectId - all[0].objectId % 2 ** 32;
    assert.ok(base >= 2 ** 32);
    const wallIds = new Set(Array.from({ length: walls.size() }, (_, i) => base + walls.get(i)));
    assert.ok(wallIds.size > 0);
    assert.deepEqual(new Set(all.filter((p) => p.type.toLowerCase() === 'ifcwall').map((p) => p.objectId)), wallIds);
    const projectRecord = all.find((p) => p.type === 'IfcProject');
    assert.equal(projectRecord.parent, 0);
    for (const p of all) {
      assert.deepEqual(Object.keys(p).sort(), ['description', 'globalId', 'name', 'objectId', 'parent', 'type']);
      const line = ifc.GetLine(modelID, p.objectId - base);
      assert.equal(p.globalId, line.GlobalId.value);
    }
    assert.deepEqual(all.map((p) => p.objectId), [...all.map((p) => p.objectId)].sort((a, b) => a - b));

    // Filter by type and ids, with attributes and property sets.
    const wall = [...wallIds][0];
    const filtered = (await v1.post(`/revision/products?model_id=${model.id}`, { type: ['IFCWALL'], objectId: [wall, projectRecord.objectId], attributes: true, definedBy: true })).json;
    assert.equal(filtered.length, 1);
    assert.equal(filtered[0].objectId, wall);
    assert.equal(filtered[0].attributes.GlobalId.type, 'String');
    assert.equal(filtered[0].attributes.GlobalId.value, filtered[0].globalId);
    assert.ok(filtered[0].definedBy.length > 0, 'a wall of the sample house has property sets');
    for (const d of filtered[0].definedBy) {
      assert.equal(d.type, 'Entity');
      assert.equal(typeof d.value.objectId, 'number');
      assert.match(d.value.type, /^Ifc/);
    }
    const one = (await v1.post(`/revision/product?model_id=${model.id}&object_id=${wall}`, { attributes: true, definedBy: true })).json;
    assert.deepEqual(one, filtered[0]);
    const basic = (await v1.get(`/revision/product?model_id=${model.id}&object_id=${wall}`)).json;
    assert.deepEqual(Object.keys(basic).sort(), ['description', 'globalId', 'name', 'objectId', 'parent', 'type']);

    // Project level: the current set of revisions.
    const projectProducts = (await v1.get(`/project/products?project_id=${project.id}&per_page=1000`)).json;
    assert.deepEqual(projectProducts.map((p: { objectId: number }) => p.objectId), all.map((p) => p.objectId));
    assert.deepEqual((await v1.get(`/project/product?project_id=${project.id}&object_id=${wall}`)).json, basic);
    ifc.CloseModel(modelID);
  });

  it('numbers revisions per model, lists the current set per project, and renames and deletes', async () => {
    const v1 = api(server.url, (await signInAs(server.url, app)).access_token);
    const project = (await v1.post('/projects/new', { name: 'Two models' })).json;
    const a = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'A' })).json;
    const b = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'B' })).json;
    const tokens = [(await v1.upload(a.id, 'a1.ifc', house)).json.token, (await v1.upload(a.id, 'a2.ifc', house)).json.token, (await v1.upload(b.id, 'b1.ifc', house)).json.token];
    const results = await Promise.all(tokens.map((t) => v1.waitForImport(t)));
    assert.deepEqual(results.map((r) => r.json.revision_id), [1, 2, 1]);
    const current = (await v1.get(`/project/products?project_id=${project.id}&per_page=1000`)).json;
    const a2 = (await v1.get(`/revision/products?model_id=${a.id}&revision_id=2&per_page=1000`)).json;
    const b1 = (await v1.get(`/revision/products?model_id=${b.id}&per_page=1000`)).json;
    assert.equal(current.length, a2.length + b1.length);
    assert.deepEqual(new Set(current.map((p: { objectId: number }) => p.objectId)), new Set([...a2, ...b1].map((p) => p.objectId)));

    assert.deepEqual((await v1.put(`/model?model_id=${a.id}`, { name: 'A renamed' })).json, { id: a.id, name: 'A renamed' });
    assert.deepEqual((await v1.put(`/project?project_id=${project.id}`, { name: 'Renamed' })).json, { id: project.id, name: 'Renamed' });
    // Deleting removes the files too: each upload and the scene and plans processing wrote.
    const files = (modelId: string) =>
      ['uploads', 'scenes'].flatMap((kind) => {
        const dir = path.join(server.dataDir, 'blobs', kind, modelId);
        return existsSync(dir) ? readdirSync(dir).map((f) => `${kind}/${f}`) : [];
      });
    assert.equal(files(b.id).length, 3, String(files(b.id)));
    assert.equal(files(a.id).length, 6, String(files(a.id)));
    assert.equal((await v1.delete(`/model?model_id=${b.id}`)).status, 204);
    assert.equal((await v1.get(`/model?model_id=${b.id}`)).status, 404);
    assert.deepEqual(files(b.id), []);
    assert.equal((await v1.delete(`/project?project_id=${project.id}`)).status, 204);
    assert.equal((await v1.get(`/project?project_id=${project.id}`)).status, 404);
    assert.deepEqual(files(a.id), []);
    assert.equal((await v1.get(`/revision?model_id=${a.id}`)).status, 404);
  });

  it('serves the OpenAPI description that docs/openapi.json holds (npm run openapi)', async () => {
    const served = await (await fetch(`${server.url}/openapi.json`)).json();
    assert.deepEqual(served, JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')), 'docs/openapi.json is out of date: npm run openapi');
    assert.ok(served.paths['/1.0/revision/products'].post.security.length > 0);
  });

  it('says why an import failed and makes no revision', async () => {
    const v1 = api(server.url, (await signInAs(server.url, app)).access_token);
    const project = (await v1.post('/projects/new', { name: 'Bad files' })).json;
    const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'M' })).json;
    const cases: [string, string | Uint8Array, RegExp][] = [
      ['not-ifc.ifc', 'hello, this is not a building', /Not an IFC file/],
      ['truncated.ifc', house.subarray(0, Math.floor(house.length / 2)), /truncated/],
    ];
    for (const [name, bytes, reason] of cases) {
      const { json } = await v1.upload(model.id, name, bytes);
      const status = await v1.waitForImport(json.token);
      assert.equal(status.json.result, 'error', name);
      assert.match(status.json.error, reason, name);
      assert.equal(status.json.revision_id, undefined);
    }
    assert.deepEqual((await v1.get(`/revisions?model_id=${model.id}`)).json, []);
  });
});
