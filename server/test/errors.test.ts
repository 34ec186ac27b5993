import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { sampleFile } from '../../samples/files.js';
import { ADMIN, api, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';

/**
 * Bad input gets a clear 4xx with the JSON error body `{error: {code, name, message}}`,
 * never a 500: paging, filters, unknown ids, missing parameters, bodies that do not
 * parse or are too large, uploads over the limit or empty, other people's projects,
 * members without the admin role, callback URIs that are not the application's.
 */
const LIMIT = 100_000;
const OTHER = { email: 'other@example.com', password: 'another long password' };
const MEMBER = { email: 'member@example.com', password: 'a member password' };

type Answer = { status: number; text: string; json: any; headers: Headers }; // eslint-disable-line @typescript-eslint/no-explicit-any

function assertError(answer: Answer, status: number, what: string) {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text}`);
  assert.match(answer.headers.get('content-type') ?? '', /application\/json/, what);
  assert.equal(typeof answer.json?.error?.code, 'number', `${what}: ${answer.text}`);
  assert.equal(typeof answer.json.error.name, 'string', what);
  assert.ok(typeof answer.json.error.message === 'string' && answer.json.error.message.length > 0, what);
}

describe('v1 API: bad input', () => {
  let server: TestServer;
  let app: OAuthApp;
  let bearer: string;
  let v1: ReturnType<typeof api>;
  let project: { id: string; name: string };
  let model: { id: string };
  let empty: { id: string };
  let importToken: string;
  let products: { objectId: number; type: string }[];
  const cabin = readFileSync(sampleFile('cabin').ifc);

  /** Any request, the body as given (a string is sent as it is). */
  const raw = async (method: string, pathAndQuery: string, body?: string | Uint8Array, contentType?: string, token = bearer): Promise<Answer> => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (contentType) headers['Content-Type'] = contentType;
    // A request the server leaves hanging fails here, not at the test runner's end.
    const answer = await fetch(`${server.url}/1.0${pathAndQuery}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await answer.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: answer.status, text, json, headers: answer.headers };
  };
  const uploadsOf = (modelId: string) => {
    const folder = path.join(server.dataDir, 'blobs', 'uploads', modelId);
    return existsSync(folder) ? readdirSync(folder) : [];
  };

  before(async () => {
    const env = serverEnv(newDataDir(), { MAX_UPLOAD_BYTES: String(LIMIT) });
    app = cli(env, 'app', 'add', '--name', 'Errors', '--redirect-uri', 'http://127.0.0.1:9/cb');
    // The server makes its first user only when there is none: with the others made here first, the admin too.
    cli(env, 'user', 'add', '--email', ADMIN.email, '--password', ADMIN.password);
    cli(env, 'user', 'add', '--email', OTHER.email, '--password', OTHER.password);
    cli(env, 'user', 'add', '--email', MEMBER.email, '--password', MEMBER.password);
    server = await startServer(env);
    bearer = (await signInAs(server.url, app)).access_token;
    v1 = api(server.url, bearer);
    project = (await v1.post('/projects/new', { name: 'Errors' })).json;
    model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Cabin' })).json;
    empty = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'No revision' })).json;
    importToken = (await v1.upload(model.id, 'cabin.ifc', cabin)).json.token;
    const status = await v1.waitForImport(importToken);
    assert.equal(status.json.result, 'success', JSON.stringify(status.json));
    products = (await v1.get(`/revision/products?model_id=${model.id}&per_page=1000`)).json;
    assert.ok(products.length > 5);
  });

  after(async () => {
    if (process.env.SHOW_SERVER_OUTPUT) console.log(server.output());
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });

  it('refuses bad paging with 400', async () => {
    const lists = [`/revision/products?model_id=${model.id}`, `/project/products?project_id=${project.id}`];
    for (const list of lists) {
      for (const paging of ['per_page=1001', 'per_page=0', 'per_page=-1', 'per_page=abc', 'per_page=1.5', 'page=0', 'page=-3', 'page=abc', 'page=', 'page=100000000000000000000', 'page=1e300']) {
        assertError(await raw('GET', `${list}&${paging}`), 400, `GET ${list}&${paging}`);
        assertError(await raw('POST', `${list}&${paging}`, '{}', 'application/json'), 400, `POST ${list}&${paging}`);
      }
      assert.equal((await raw('GET', `${list}&per_page=1000`)).status, 200);
      assert.deepEqual((await raw('GET', `${list}&per_page=1000&page=99999`)).json, []);
    }
  });

  it('refuses a bad product filter with 400', async () => {
    const list = `/revision/products?model_id=${model.id}`;
    const ids = (n: number) => Array.from({ length: n }, (_, i) => products[0].objectId + i);
    assertError(await raw('POST', list, JSON.stringify({ objectId: ids(101) }), 'application/json'), 400, '101 objectIds');
    assertError(await raw('POST', `/project/products?project_id=${project.id}`, JSON.stringify({ objectId: ids(101) }), 'application/json'), 400, '101 objectIds, project');
    assert.equal((await raw('POST', list, JSON.stringify({ objectId: ids(100) }), 'application/json')).status, 200);
    const bad: unknown[] = [
      { type: ['Wall'] },
      { type: ['IfcWall; DROP TABLE products'] },
      { type: [''] },
      { type: ['IfcNoSuchEntity'] },
      { type: ['IfcPropertySet'] },
      { type: [3] },
      { objectId: ['x'] },
      { objectId: [1.5] },
      { objectId: [1e30] },
      { objectId: [-1e30] },
      { attributes: 'yes please' },
      [1, 2],
      'IfcWall',
    ];
    for (const body of bad) assertError(await raw('POST', list, JSON.stringify(body), 'application/json'), 400, JSON.stringify(body));
    const walls = await raw('POST', list, JSON.stringify({ type: ['IfcWall', 'IFCPROJECT', 'ifcwallstandardcase'] }), 'application/json');
    assert.equal(walls.status, 200, walls.text);
    assert.ok(walls.json.length > 0);
    for (const objectId of ['1e30', '99999999999999999999', '-99999999999999999999', 'abc', '1.5']) {
      assertError(await raw('GET', `/revision/product?model_id=${model.id}&object_id=${objectId}`), 400, `object_id=${objectId}`);
      assertError(await raw('GET', `/project/product?project_id=${project.id}&object_id=${objectId}`), 400, `project object_id=${objectId}`);
    }
    for (const revision of ['0', '-1', 'abc', '99999999999', '1.5']) {
      assertError(await raw('GET', `/revision?model_id=${model.id}&revision_id=${revision}`), 400, `revision_id=${revision}`);
      assertError(await raw('GET', `/revision/products?model_id=${model.id}&revision_id=${revision}`), 400, `products revision_id=${revision}`);
    }
  });

  it('answers unknown ids with 404', async () => {
    const nope = '0123456789abcdef0123456789abcdef';
    const unknownObject = products.at(-1)!.objectId + 1_000_000;
    const cases: [string, string, string?][] = [
      ['GET', `/project?project_id=${nope}`],
      ['PUT', `/project?project_id=${nope}`, '{"name":"x"}'],
      ['DELETE', `/project?project_id=${nope}`],
      ['GET', `/models?project_id=${nope}`],
      ['POST', `/models/new?project_id=${nope}`, '{"name":"x"}'],
      ['GET', `/project/products?project_id=${nope}`],
      ['POST', `/project/products?project_id=${nope}`, '{}'],
      ['GET', `/project/product?project_id=${nope}&object_id=1`],
      ['GET', `/project/product?project_id=${project.id}&object_id=${unknownObject}`],
      ['POST', `/project/product?project_id=${project.id}&object_id=${unknownObject}`, '{"attributes":true}'],
      ['GET', `/model?model_id=${nope}`],
      ['PUT', `/model?model_id=${nope}`, '{"name":"x"}'],
      ['DELETE', `/model?model_id=${nope}`],
      ['GET', `/revisions?model_id=${nope}`],
      ['GET', `/revision?model_id=${nope}`],
      ['GET', `/revision?model_id=${model.id}&revision_id=99`],
      ['GET', `/revision?model_id=${empty.id}`],
      ['GET', `/revision/export?model_id=${model.id}&revision_id=99`],
      ['GET', `/revision/export?model_id=${empty.id}`],
      ['GET', `/revision/products?model_id=${model.id}&revision_id=99`],
      ['GET', `/revision/products?model_id=${empty.id}`],
      ['GET', `/revision/product?model_id=${model.id}&object_id=${unknownObject}`],
      ['POST', `/revision/product?model_id=${model.id}&object_id=${unknownObject}`, '{"definedBy":true}'],
      ['GET', `/revision/product?model_id=${model.id}&revision_id=99&object_id=${products[0].objectId}`],
      ['GET', `/model/import/status?token=${nope}`],
    ];
    for (const [method, p, body] of cases) assertError(await raw(method, p, body, body ? 'application/json' : undefined), 404, `${method} ${p}`);
    const upload = await raw('PUT', `/model/import?model_id=${nope}&file_name=a.ifc`, cabin, 'application/octet-stream');
    assertError(upload, 404, 'upload to an unknown model');
    assertError(await raw('GET', '/no-such-resource'), 404, 'unknown path');
  });

  it('answers a missing required query parameter with 400', async () => {
    const cases: [string, string, string?][] = [
      ['GET', '/project'],
      ['PUT', '/project', '{"name":"x"}'],
      ['DELETE', '/project'],
      ['GET', '/models'],
      ['POST', '/models/new', '{"name":"x"}'],
      ['GET', '/model'],
      ['GET', '/revisions'],
      ['GET', '/revision'],
      ['GET', '/revision/export'],
      ['GET', '/revision/products'],
      ['POST', '/revision/products', '{}'],
      ['GET', `/revision/product?model_id=${model.id}`],
      ['GET', `/project/product?project_id=${project.id}`],
      ['GET', '/project/products'],
      ['GET', '/model/import/status'],
      ['GET', '/project?project_id='],
    ];
    for (const [method, p, body] of cases) assertError(await raw(method, p, body, body ? 'application/json' : undefined), 400, `${method} ${p}`);
    assertError(await raw('PUT', `/model/import?model_id=${model.id}`, cabin, 'application/octet-stream'), 400, 'upload without file_name');
    assertError(await raw('PUT', `/model/import?file_name=a.ifc`, cabin, 'application/octet-stream'), 400, 'upload without model_id');
  });

  it('refuses malformed, wrong and oversized bodies', async () => {
    for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
      assertError(await raw('POST', '/projects/new', '{"name": "unfinished', type), 400, `malformed JSON as ${type}`);
      assertError(await raw('POST', '/projects/new', '{}', type), 400, `no name as ${type}`);
      assertError(await raw('POST', '/projects/new', '{"name": ""}', type), 400, `empty name as ${type}`);
      assertError(await raw('POST', '/projects/new', JSON.stringify({ name: 'x'.repeat(256) }), type), 400, `long name as ${type}`);
      assertError(await raw('POST', `/revision/products?model_id=${model.id}`, '{"type": [', type), 400, `malformed filter as ${type}`);
      const big = JSON.stringify({ name: 'big', padding: 'x'.repeat(1.5 * 2 ** 20) });
      assertError(await raw('POST', '/projects/new', big, type), 413, `1.5 MB body as ${type}`);
      assertError(await raw('PUT', `/project?project_id=${project.id}`, big, type), 413, `1.5 MB rename as ${type}`);
    }
    assertError(await raw('POST', '/projects/new', '<name>x</name>', 'application/xml'), 415, 'application/xml');
    assertError(await raw('POST', '/projects/new', 'name=x', 'text/plain'), 400, 'text/plain (a string, not an object)');
    assertError(await raw('POST', '/projects/new', 'null', 'application/json'), 400, 'null body');
    // Nothing of the refused bodies became a project.
    assert.deepEqual((await v1.get('/projects')).json.map((p: { name: string }) => p.name), ['Errors']);
    assert.equal((await v1.get(`/project?project_id=${project.id}`)).json.name, 'Errors');
    // The seed's label with a JSON body, and real key/value pairs, both work.
    const labelled = await raw('POST', '/projects/new', '{"name":"Labelled"}', 'application/x-www-form-urlencoded');
    assert.equal(labelled.status, 200, labelled.text);
    assert.equal(labelled.json.name, 'Labelled');
    const pairs = await raw('POST', '/projects/new', 'name=Pairs', 'application/x-www-form-urlencoded');
    assert.equal(pairs.status, 200, pairs.text);
    assert.equal(pairs.json.name, 'Pairs');
    for (const p of [labelled.json, pairs.json]) assert.equal((await v1.delete(`/project?project_id=${p.id}`)).status, 204);
  });

  it('refuses an upload over MAX_UPLOAD_BYTES with 413 and keeps nothing of it', async () => {
    const target = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Too large' })).json;
    const tooLarge = Buffer.concat([cabin, Buffer.alloc(LIMIT + 1 - cabin.length, 0x20)]);
    for (const body of [tooLarge, Buffer.alloc(LIMIT * 30, 0x20)]) {
      const answer = await raw('PUT', `/model/import?model_id=${target.id}&file_name=big.ifc`, body, 'application/octet-stream');
      assertError(answer, 413, `${body.length} bytes`);
    }
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(uploadsOf(target.id), []);
    assert.deepEqual((await v1.get(`/revisions?model_id=${target.id}`)).json, []);
    // At the limit itself the upload is taken.
    const atLimit = await raw('PUT', `/model/import?model_id=${target.id}&file_name=limit.ifc`, tooLarge.subarray(0, LIMIT), 'application/octet-stream');
    assert.equal(atLimit.status, 200, atLimit.text);
    assert.equal(uploadsOf(target.id).length, 1);
    assert.equal((await v1.waitForImport(atLimit.json.token)).status, 200);
  });

  it('keeps nothing of an upload the client broke off', async () => {
    const target = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Broken off' })).json;
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `PUT /1.0/model/import?model_id=${target.id}&file_name=cut.ifc HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bearer}\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Length: ${LIMIT}\r\n\r\n`,
    );
    socket.write(cabin.subarray(0, 20_000));
    await new Promise((r) => setTimeout(r, 300));
    assert.match(uploadsOf(target.id).join(), /\.partial$/, 'the upload is under way');
    socket.destroy();
    await new Promise((r) => setTimeout(r, 700));
    assert.deepEqual(uploadsOf(target.id), [], 'no file and no partial file');
    assert.deepEqual((await v1.get(`/revisions?model_id=${target.id}`)).json, []);
  });

  it('refuses an empty upload with 400 and keeps nothing of it', async () => {
    const target = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Empty' })).json;
    for (const type of ['application/octet-stream', undefined]) {
      assertError(await raw('PUT', `/model/import?model_id=${target.id}&file_name=empty.ifc`, '', type), 400, `empty body (${type})`);
      assertError(await raw('PUT', `/model/import?model_id=${target.id}&file_name=empty.ifc`, undefined, type), 400, `no body (${type})`);
    }
    assert.deepEqual(uploadsOf(target.id), []);
    assert.deepEqual((await v1.get(`/revisions?model_id=${target.id}`)).json, []);
  });

  it('takes the file under any content type, and exports it as sent', async () => {
    const target = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Types' })).json;
    let revision = 0;
    for (const type of [undefined, 'application/octet-stream', 'application/x-www-form-urlencoded', 'application/json', 'text/plain', 'application/x-step']) {
      const answer = await raw('PUT', `/model/import?model_id=${target.id}&file_name=cabin.ifc`, cabin, type);
      assert.equal(answer.status, 200, `${type}: ${answer.text}`);
      const status = await v1.waitForImport(answer.json.token);
      assert.equal(status.json.result, 'success', `${type}: ${JSON.stringify(status.json)}`);
      assert.equal(status.json.revision_id, ++revision);
      const exported = await fetch(`${server.url}/1.0/revision/export?model_id=${target.id}&revision_id=${revision}`, { headers: { Authorization: `Bearer ${bearer}` } });
      assert.deepEqual(Buffer.from(await exported.arrayBuffer()), cabin, String(type));
    }
  });

  it('refuses a callback_uri that is not the application\'s registered callback', async () => {
    const target = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Callbacks' })).json;
    for (const callback of ['http://127.0.0.1:9/other', 'http://evil.example/cb', 'https://127.0.0.1:9/cb', 'http://127.0.0.1:10/cb', 'http://127.0.0.1:9/cb#x', 'not a url', '/cb']) {
      const answer = await raw('PUT', `/model/import?${new URLSearchParams({ model_id: target.id, file_name: 'cabin.ifc', callback_uri: callback })}`, cabin, 'application/octet-stream');
      assertError(answer, 400, callback);
    }
    assert.deepEqual(uploadsOf(target.id), []);
    const good = await raw('PUT', `/model/import?${new URLSearchParams({ model_id: target.id, file_name: 'cabin.ifc', callback_uri: `${app.redirect_uri}?mine=1` })}`, cabin, 'application/octet-stream');
    assert.equal(good.status, 200, good.text);
    assert.equal((await v1.waitForImport(good.json.token)).json.result, 'success');
  });

  it("shows another user's project to no one else: 404 everywhere, and not listed", async () => {
    const other = api(server.url, (await signInAs(server.url, app, OTHER)).access_token);
    const revisionProduct = products[0].objectId;
    const reads = [
      `/project?project_id=${project.id}`,
      `/models?project_id=${project.id}`,
      `/model?model_id=${model.id}`,
      `/revisions?model_id=${model.id}`,
      `/revision?model_id=${model.id}`,
      `/revision?model_id=${model.id}&revision_id=1`,
      `/revision/export?model_id=${model.id}`,
      `/revision/products?model_id=${model.id}`,
      `/revision/product?model_id=${model.id}&object_id=${revisionProduct}`,
      `/project/products?project_id=${project.id}`,
      `/project/product?project_id=${project.id}&object_id=${revisionProduct}`,
      `/model/import/status?token=${importToken}`,
    ];
    for (const p of reads) assertError(await other.get(p), 404, `GET ${p}`);
    assertError(await other.post(`/revision/products?model_id=${model.id}`, {}), 404, 'POST /revision/products');
    assertError(await other.post(`/project/products?project_id=${project.id}`, {}), 404, 'POST /project/products');
    assertError(await other.post(`/revision/product?model_id=${model.id}&object_id=${revisionProduct}`, { attributes: true }), 404, 'POST /revision/product');
    assertError(await other.put(`/project?project_id=${project.id}`, { name: 'Taken' }), 404, 'PUT /project');
    assertError(await other.put(`/model?model_id=${model.id}`, { name: 'Taken' }), 404, 'PUT /model');
    assertError(await other.post(`/models/new?project_id=${project.id}`, { name: 'Intruder' }), 404, 'POST /models/new');
    assertError(await other.delete(`/model?model_id=${model.id}`), 404, 'DELETE /model');
    assertError(await other.delete(`/project?project_id=${project.id}`), 404, 'DELETE /project');
    const upload = await other.upload(model.id, 'intruder.ifc', cabin);
    assert.equal(upload.status, 404);
    assert.deepEqual((await other.get('/projects')).json, []);
    // Their own project is theirs alone, and ours is untouched.
    const theirs = (await other.post('/projects/new', { name: 'Theirs' })).json;
    assert.deepEqual((await other.get('/projects')).json, [theirs]);
    assert.equal((await v1.get(`/project?project_id=${theirs.id}`)).status, 404);
    assert.ok(!(await v1.get('/projects')).json.some((p: { id: string }) => p.id === theirs.id));
    assert.equal((await v1.get(`/project?project_id=${project.id}`)).json.name, 'Errors');
    assert.equal((await v1.get(`/model?model_id=${model.id}`)).json.name, 'Cabin');
    assert.equal((await v1.get(`/revisions?model_id=${model.id}`)).json.length, 1);
  });

  // Last: the cli needs the data folder, so the server stops for it and starts again on the same folder.
  it('lets a member read but not rename or delete the project (403)', async () => {
    await server.stop();
    const added = cli(server.env, 'member', 'add', '--project', project.id, '--email', MEMBER.email, '--role', 'member');
    assert.equal(added.role, 'member');
    assert.throws(() => cli(server.env, 'member', 'add', '--project', project.id, '--email', 'nobody@example.com', '--role', 'member'), /nobody@example.com/);
    assert.throws(() => cli(server.env, 'member', 'add', '--project', project.id, '--email', MEMBER.email, '--role', 'owner'), /usage/);
    server = await startServer(server.env);
    const member = api(server.url, (await signInAs(server.url, app, MEMBER)).access_token);
    assert.deepEqual((await member.get('/projects')).json, [{ id: project.id, name: 'Errors' }]);
    assert.equal((await member.get(`/revision/products?model_id=${model.id}`)).status, 200);
    assertError(await member.put(`/project?project_id=${project.id}`, { name: 'Renamed by a member' }), 403, 'member renames');
    assertError(await member.delete(`/project?project_id=${project.id}`), 403, 'member deletes the project');
    assertError(await member.delete(`/model?model_id=${model.id}`), 403, 'member deletes a model');
    // The token from before the restart still works, and nothing changed.
    v1 = api(server.url, bearer);
    assert.equal((await v1.get(`/project?project_id=${project.id}`)).json.name, 'Errors');
    assert.equal((await v1.get(`/model?model_id=${model.id}`)).status, 200);
    assert.equal((await v1.get(`/revisions?model_id=${model.id}`)).json.length, 1);
  });
});
