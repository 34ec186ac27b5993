import assert from 'node:assert/strict';
import { send, type RawAnswer, type RawRequest } from './fuzz-http.js';
import type { Known } from './fuzz-requests.js';
import { problemsOf } from './fuzz-checks.js';

/**
 * The documented limits (README, "Reliability"), each just under (taken) and just over
 * (its 4xx with the JSON error body): JSON and form bodies, uploads, the URL, the header
 * block, path parameters, query parameters.
 */
export const LIMITS = {
  jsonBody: 1 << 20,
  formBody: 1 << 20,
  oauthFormBody: 64 * 1024,
  url: 8 * 1024,
  headers: 16 * 1024,
  pathParameter: 100,
  idParameter: 64,
};

export async function checkLimits(base: string, known: Known, uploadLimit: number): Promise<void> {
  const bearer: [string, string] = ['Authorization', `Bearer ${known.token}`];
  const e = { path: '/v2/projects/{project}' };
  const project = known.valuesFor(e, 'project', 'path')[0];
  const model = known.valuesFor(e, 'model_id', 'query')[0];
  const board = known.valuesFor({ ...e, path: '/bcf/3.0/projects/{project_id}' }, 'project_id', 'path')[0];
  const [library, item] = [known.valuesFor(e, 'library', 'path')[0], known.valuesFor(e, 'item', 'path')[0]];

  const expect = async (request: RawRequest, status: number, what: string, message?: RegExp): Promise<RawAnswer> => {
    const answer = await send(base, request);
    const target = Buffer.from(request.target).toString('latin1');
    assert.equal(answer.status, status, `${what}: ${answer.head.split('\r\n')[0]} ${answer.body.toString().slice(0, 300)}`);
    if (status >= 400) {
      assert.deepEqual(problemsOf(target, answer), [], what);
      if (message) assert.match(JSON.parse(answer.body.toString()).error.message, message, what);
    }
    return answer;
  };
  const json = (n: number) => Buffer.from(JSON.stringify({ name: 'x', description: 'd'.repeat(n - JSON.stringify({ name: 'x', description: '' }).length) }));

  // JSON bodies: 1 MiB (Fastify's bodyLimit, server/app.ts); the schema's own maxLength answers first below it.
  const libraries = `/v2/projects/${project}/libraries`;
  assert.equal(json(LIMITS.jsonBody).length, LIMITS.jsonBody);
  await expect({ method: 'POST', target: libraries, headers: [bearer, ['Content-Type', 'application/json']], body: json(LIMITS.jsonBody) }, 400, 'a 1 MiB JSON body (the description over its 10,000 characters)', /description/);
  await expect({ method: 'POST', target: libraries, headers: [bearer, ['Content-Type', 'application/json']], body: json(LIMITS.jsonBody + 1) }, 413, 'a JSON body over 1 MiB');
  await expect({ method: 'POST', target: `/bcf/3.0/projects/${board}/topics`, headers: [bearer, ['Content-Type', 'application/json']], body: Buffer.from(JSON.stringify({ title: 't'.repeat(LIMITS.jsonBody) })) }, 413, 'a BCF body over 1 MiB');
  // v1's form-labelled bodies: 1 MiB too; OAuth's forms 64 KiB.
  await expect({ method: 'POST', target: '/1.0/projects/new', headers: [bearer, ['Content-Type', 'application/x-www-form-urlencoded']], body: Buffer.alloc(LIMITS.formBody + 1, 'a') }, 413, 'a v1 form body over 1 MiB');
  await expect({ method: 'POST', target: '/oauth2/token', headers: [['Content-Type', 'application/x-www-form-urlencoded']], body: Buffer.alloc(LIMITS.oauthFormBody + 1, 'a') }, 413, 'an OAuth form over 64 KiB');

  // Uploads: MAX_UPLOAD_BYTES (server/config.ts), streamed, refused once past it.
  const ifc = (n: number) => Buffer.concat([Buffer.from('ISO-10303-21;\n'), Buffer.alloc(n - 14, ' ')]);
  const octets: [string, string] = ['Content-Type', 'application/octet-stream'];
  await expect({ method: 'PUT', target: `/1.0/model/import?model_id=${model}&file_name=big.ifc`, headers: [bearer, octets], body: ifc(uploadLimit + 1) }, 413, 'an import over MAX_UPLOAD_BYTES');
  await expect({ method: 'POST', target: `/v2/projects/${project}/libraries/${library}/items/${item}/files?filename=big.bin`, headers: [bearer, octets], body: ifc(uploadLimit + 1) }, 413, 'a library file over MAX_UPLOAD_BYTES');
  await expect({ method: 'POST', target: `/bcf/3.0/projects/${board}/documents?filename=big.bin`, headers: [bearer, octets], body: ifc(uploadLimit + 1) }, 413, 'a BCF document over MAX_UPLOAD_BYTES');
  await expect({ method: 'POST', target: `/v2/projects/${project}/libraries/${library}/items/${item}/files?filename=fits.bin`, headers: [bearer, octets], body: ifc(uploadLimit) }, 201, 'a library file of MAX_UPLOAD_BYTES');

  // The URL: MAX_URL_BYTES (server/config.ts), 414 past it, whatever the route.
  const padTo = (prefix: string, n: number) => prefix + 'a'.repeat(n - prefix.length);
  await expect({ method: 'GET', target: padTo(`/1.0/projects?x=`, LIMITS.url), headers: [bearer] }, 200, 'a URL of MAX_URL_BYTES');
  for (const prefix of ['/1.0/projects?x=', `/bcf/3.0/projects/${board}/topics?$filter=`, '/v2/projects/', '/no/such/route?']) {
    await expect({ method: 'GET', target: padTo(prefix, LIMITS.url + 1), headers: [bearer] }, 414, `a URL over MAX_URL_BYTES: ${prefix}`, /URL|path segment/);
  }
  // The header block (the request line too): Node's 16 KiB, 431 with the same JSON body.
  await expect({ method: 'GET', target: '/1.0/projects', headers: [bearer, ['X-Big', 'h'.repeat(LIMITS.headers)]] }, 431, 'headers over 16 KiB');
  // A request Node's parser refuses answers with the JSON body too.
  await expect({ method: 'GET', target: '/1.0/pro jects', headers: [bearer] }, 400, 'a space in the path');
  await expect({ method: 'POST', target: '/1.0/projects/new', headers: [bearer, ['Content-Length', 'abc']], body: Buffer.from('{}') }, 400, 'a Content-Length that is no number');

  // Path parameters: ids at most 64 characters (400, the schema), segments over 100 the router's 414.
  await expect({ method: 'GET', target: `/v2/projects/${'a'.repeat(LIMITS.idParameter + 1)}`, headers: [bearer] }, 400, 'an id over 64 characters', /64/);
  await expect({ method: 'GET', target: `/v2/projects/${'a'.repeat(LIMITS.pathParameter + 1)}`, headers: [bearer] }, 414, 'a path segment over 100 characters', /100/);
  await expect({ method: 'GET', target: `/bcf/3.0/projects/${'a'.repeat(LIMITS.pathParameter + 1)}`, headers: [bearer] }, 414, 'a BCF path segment over 100 characters', /100/);
  // Query parameters: each schema's maxLength.
  await expect({ method: 'GET', target: `/bcf/3.0/projects/${board}/topics?$filter=${'a'.repeat(4001)}`, headers: [bearer] }, 400, 'a $filter over 4000 characters', /4000/);
}
