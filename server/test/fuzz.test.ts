import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { sampleFile } from '../../samples/files.js';
import { api, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';
import { soaking, writeSoakFigures } from './soak.js';
import { describeEndpoint, endpointsOf, type Endpoint } from './fuzz-endpoints.js';
import { send, type RawRequest } from './fuzz-http.js';
import { badRequests, describeRequest, type Known } from './fuzz-requests.js';
import { plantedOutside, problemsOf, type Problem } from './fuzz-checks.js';
import { checkLimits } from './fuzz-limits.js';
import { foundCases } from './fuzz-found.js';
import { badArchives } from './fuzz-archives.js';

/**
 * Bad requests to every endpoint the running server lists in GET /openapi.json (issue 22,
 * part 2), property-based with fast-check: broken path parameters, queries, bodies,
 * headers and upload file names, on a server holding real data (a model with an imported
 * revision, a BCF board with a topic, viewpoint, comment, document and reference, a custom
 * field, a library with an item and a file, a shared collection), so a case reaches the
 * code behind the schemas. Never a 5xx, never a crash or a hang, every 4xx says what was
 * wrong, no header injected, no file written outside the data folder; the limits answer
 * as documented (fuzz-limits.ts). `npm test` runs a few cases per endpoint; SOAK=1 many
 * and writes the figures. A failure prints fast-check's seed and counterexample: rerun
 * with FUZZ_SEED=<seed> (FUZZ_PATH=<path>, FUZZ_ONLY='<METHOD> <path>[,...]') to replay it.
 */
const UPLOAD_LIMIT = 200_000;
const RUNS = Number(process.env.FUZZ_RUNS ?? (soaking() ? 60 : 4));
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ONLY = process.env.FUZZ_ONLY;

describe('bad requests to every endpoint (fuzz)', { timeout: 60 * 60_000 }, () => {
  let server: TestServer;
  let app: OAuthApp;
  let known: Known;
  let endpoints: Endpoint[];
  const marker = `fuzzmark${randomBytes(6).toString('hex')}`;
  const figures = { endpoints: 0, requests: 0, status2xx: 0, status3xx: 0, status4xx: 0, status5xx: 0, crashes: 0, hangs: 0, resets: 0, unclear4xx: 0, headersInjected: 0, filesOutside: 0, archives: 0, seed: SEED, runsPerEndpoint: RUNS };
  const byPart: Record<string, number> = {};

  before(async () => {
    const env = serverEnv(newDataDir(), { MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT) });
    app = cli(env, 'app', 'add', '--name', 'Fuzz', '--redirect-uri', 'http://127.0.0.1:9/cb');
    server = await startServer(env);
    const token = (await signInAs(server.url, app)).access_token;
    known = await realData(server.url, token, marker, app);
    endpoints = order(await endpointsOf(server.url)).filter((e) => !ONLY || ONLY.split(',').some((only) => describeEndpoint(e) === only.trim()));
    process.stdout.write(`# fuzz: ${endpoints.length} endpoints, ${RUNS} runs each, seed ${SEED}\n`);
  });

  after(async () => {
    if (process.env.SHOW_SERVER_OUTPUT) console.log(server?.output());
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
    process.stdout.write(`# fuzz figures: ${JSON.stringify({ ...figures, byPart })}\n`);
    writeSoakFigures('fuzz', { ...figures, ...Object.fromEntries(Object.entries(byPart).map(([k, v]) => [`requests${k.replace(/(^| )(\w)/g, (_, _s, c: string) => c.toUpperCase())}`, v])) });
  });

  /** Restarts a server that died (counted as a crash), so the other endpoints are still fuzzed. */
  async function alive(): Promise<boolean> {
    const answering = await fetch(`${server.url}/bcf/versions`, { signal: AbortSignal.timeout(30_000) }).then((a) => a.status === 200, () => false);
    if (answering && server.process.exitCode === null) return true;
    figures.crashes++;
    process.stdout.write(`# the server died or stopped answering:\n${server.output().slice(-3000)}\n`);
    await server.kill();
    server = await startServer(server.env);
    return false;
  }

  // First: the fuzz deletes the real data at its end.
  it('answers requests over each limit with the limit\'s 4xx', async () => {
    await checkLimits(server.url, known, UPLOAD_LIMIT);
    assert.ok(await alive());
  });

  it('answers the requests it once answered wrongly as it should (a clear 4xx, unless said otherwise)', async () => {
    const wrong: string[] = [];
    for (const { what, request, status } of foundCases(known)) {
      const answer = await send(server.url, request);
      const problems = problemsOf(Buffer.from(request.target).toString('latin1'), answer);
      if ((status ? answer.status !== status : answer.status < 400 || answer.status >= 500) || problems.length) wrong.push(`${what}: ${answer.head.split('\r\n')[0]} ${answer.body.toString().slice(0, 300)}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('imports no bad BCF file with a 5xx or an unclear 4xx, and stays up', async () => {
    // A sound file to break: the board exported as it is (its topic, viewpoint, comment, document).
    const board = known.valuesFor({ path: '/bcf/3.0/projects/{project_id}/import' }, 'project_id', 'path')[0];
    for (const version of ['2.1', '3.0']) {
      const exported = await fetch(`${server.url}/bcf/${version}/projects/${board}/export?version=${version}`, { headers: { Authorization: `Bearer ${known.token}` } });
      assert.equal(exported.status, 200, `export ${version}: ${exported.status === 200 ? '' : await exported.text()}`);
      const sound = new Uint8Array(await exported.arrayBuffer());
      const property = fc.asyncProperty(badArchives(sound, marker), async (archive) => {
        const target = `/bcf/${version}/projects/${board}/import`;
        const answer = await send(server.url, { method: 'POST', target, headers: [['Authorization', `Bearer ${known.token}`], ['Content-Type', 'application/octet-stream']], body: Buffer.from(archive.bytes) });
        figures.archives++;
        const problems = problemsOf(target, answer);
        if (answer.status >= 500) figures.status5xx++;
        if (problems.some((p) => p.problem === 'unclear 4xx')) figures.unclear4xx++;
        if (problems.length) throw new Error(`${archive.what}\n  -> ${problems.map((p) => `${p.problem}: ${p.detail}`).join('\n  -> ')}`);
      });
      try {
        await fc.assert(property, { numRuns: soaking() ? RUNS * 2 : RUNS * 4, seed: seedFor(version), path: process.env.FUZZ_PATH });
      } finally {
        assert.ok(await alive(), 'the server died importing a bad BCF file');
      }
    }
  });

  it('never answers a bad request with a 5xx, an unclear 4xx or an injected header, and stays up', async (t) => {
    let exported = false;
    for (const endpoint of endpoints) {
      if (endpoint.method === 'DELETE' && !exported) {
        exported = true;
        // Before the deletes: whatever the fuzz got past the checks and stored must read back out.
        await t.test('the board the fuzz wrote to still exports', async () => {
          const board = known.valuesFor({ path: '/bcf/3.0/projects/{project_id}/export' }, 'project_id', 'path')[0];
          for (const version of ['2.1', '3.0']) {
            const answer = await fetch(`${server.url}/bcf/${version}/projects/${board}/export?version=${version}`, { headers: { Authorization: `Bearer ${known.token}` } });
            assert.equal(answer.status, 200, `export ${version}: ${answer.status === 200 ? '' : await answer.text()}`);
          }
        });
      }
      figures.endpoints++;
      await t.test(describeEndpoint(endpoint), async () => {
        const property = fc.asyncProperty(badRequests(endpoint, known), async (c) => {
          const target = Buffer.from(c.request.target).toString('latin1');
          let answer;
          try {
            answer = await send(server.url, c.request);
          } catch (error) {
            // Refused early, the rest of a request over a limit unread: the server's close may reach us as a reset first.
            if (/ECONNRESET|EPIPE/.test(String(error)) && oversized(c.request)) return void figures.resets++;
            figures.hangs += /hung/.test(String(error)) ? 1 : 0;
            throw new Error(`${c.part}: ${describeRequest(c.request)}: ${(error as Error).message}`);
          }
          figures.requests++;
          byPart[c.part] = (byPart[c.part] ?? 0) + 1;
          const tens = Math.floor(answer.status / 100);
          if (tens >= 2 && tens <= 5) figures[`status${tens}xx` as 'status2xx']++;
          const problems = problemsOf(target, answer);
          const count: Record<Problem, keyof typeof figures> = { '5xx': 'status5xx', 'unclear 4xx': 'unclear4xx', 'header injected': 'headersInjected' };
          for (const p of problems) if (p.problem !== '5xx') (figures[count[p.problem]] as number)++;
          if (server.process.exitCode !== null) throw new Error(`the server exited (${server.process.exitCode}) after ${describeRequest(c.request)}`);
          if (problems.length) throw new Error(`${c.part}: ${describeRequest(c.request)}\n  -> ${problems.map((p) => `${p.problem}: ${p.detail}`).join('\n  -> ')}`);
        });
        try {
          // A seed of its own per endpoint (from the run's and its name): one seed for all would draw the same kinds of case everywhere.
          await fc.assert(property, { numRuns: RUNS, seed: seedFor(describeEndpoint(endpoint)), path: process.env.FUZZ_PATH, interruptAfterTimeLimit: soaking() ? 120_000 : 30_000 });
        } finally {
          assert.ok(await alive(), `the server died while ${describeEndpoint(endpoint)} was fuzzed`);
        }
      });
    }
    if (!ONLY) assert.ok(figures.endpoints > 150, `only ${figures.endpoints} endpoints in /openapi.json`);
  });

  it('writes no file outside its data folder, whatever file name a request gives', () => {
    const planted = plantedOutside(marker, server.dataDir);
    figures.filesOutside = planted.length;
    assert.deepEqual(planted, [], 'files named by a request were written outside the data folder');
  });

});

/**
 * Over the header block's 16 KiB, or a body over one socket read (64 KiB): a request the
 * server may refuse before reading it all, and whose unread rest makes its close a reset.
 */
function oversized(request: RawRequest): boolean {
  const headers = request.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, request.target.length);
  return headers > 16 * 1024 || (request.body?.length ?? 0) > 64 * 1024;
}

/** The run's seed mixed with a name (FNV-1a): FUZZ_SEED and FUZZ_ONLY replay one endpoint's cases. */
function seedFor(name: string): number {
  let hash = 0x811c9dc5 ^ SEED;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** Reads first, then writes, then deletes, deepest first: the real ids stay real as long as possible. */
function order(endpoints: Endpoint[]): Endpoint[] {
  const rank = (e: Endpoint) => (e.method === 'DELETE' ? 2 : e.method === 'GET' ? 0 : 1);
  const depth = (e: Endpoint) => e.path.split('/').length;
  return [...endpoints].sort((a, b) => rank(a) - rank(b) || (rank(a) === 2 ? depth(b) - depth(a) : 0));
}

/** Real data of every kind an endpoint takes an id of; the ids by parameter name. */
async function realData(base: string, token: string, marker: string, app: OAuthApp): Promise<Known> {
  const v1 = api(base, token);
  const call = async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const answer = await fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { 'Content-Type': type } : {}) }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await answer.text();
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const project = (await v1.post('/projects/new', { name: 'Fuzzed' })).json.id as string;
  const model = (await v1.post(`/models/new?project_id=${project}`, { name: 'Cabin' })).json.id as string;
  const importToken = (await v1.upload(model, 'cabin.ifc', readFileSync(sampleFile('cabin').ifc))).json.token as string;
  assert.equal((await v1.waitForImport(importToken)).json.result, 'success');
  const revision = String((await v1.get(`/revisions?model_id=${model}`)).json[0].id);
  const objectId = String((await v1.get(`/revision/products?model_id=${model}&per_page=1`)).json[0].objectId);
  const user = (await call('GET', '/v2/user')).id as string;

  const board = (await call('POST', '/bcf/2.0/projects', { name: 'Fuzzed board', platform_project_id: project })).project_id as string;
  const bcf = `/bcf/3.0/projects/${board}`;
  const topic = (await call('POST', `${bcf}/topics`, { title: 'A door' })).guid as string;
  const point = (x: number, y: number, z: number) => ({ x, y, z });
  const viewpoint = (await call('POST', `${bcf}/topics/${topic}/viewpoints`, { perspective_camera: { camera_view_point: point(10, -5, 2), camera_direction: point(-1, 0.5, 0), camera_up_vector: point(0, 0, 1), field_of_view: 60 } })).guid as string;
  const comment = (await call('POST', `${bcf}/topics/${topic}/comments`, { comment: 'See here', viewpoint_guid: viewpoint })).guid as string;
  const document = (await call('POST', `${bcf}/documents?filename=notes.txt`, 'some notes', 'text/plain')).guid as string;
  const reference = (await call('POST', `${bcf}/topics/${topic}/document_references`, { document_guid: document, description: 'notes' })).guid as string;

  const v2 = `/v2/projects/${project}`;
  const field = (await call('POST', `${v2}/custom-fields`, { name: 'Cost', type: 'text' })).id as string;
  const library = (await call('POST', `${v2}/libraries`, { name: 'Drawings' })).id as string;
  const item = (await call('POST', `${v2}/libraries/${library}/items`, { name: 'Plan' })).id as string;
  const file = (await call('POST', `${v2}/libraries/${library}/items/${item}/files?filename=plan.txt`, 'a plan', 'application/octet-stream')).id as string;
  const collection = (await call('POST', `${v2}/libraries/collections`, { name: 'Issued', items: [{ libraryId: library, libraryItemId: item }] })).id as string;
  const shared = await call('PATCH', `${v2}/libraries/collections/${collection}`, { shareExpiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() });
  const shareToken = String(shared.shareUrl).split('/').at(-1)!;

  const ids: Record<string, string> = { project, model, revision, objectId, user, board, topic, viewpoint, comment, document, reference, field, library, item, file, collection, shareToken, importToken };
  const byName: Record<string, (e: Pick<Endpoint, 'path'>, where: 'path' | 'query') => string | undefined> = {
    project: () => project,
    project_id: (e, where) => (e.path.startsWith('/bcf/') && where === 'path' ? board : project),
    platform_project_id: () => project,
    topic_guid: () => topic,
    viewpoint_guid: () => viewpoint,
    comment_guid: () => comment,
    document_guid: () => document,
    document_reference_guid: () => reference,
    library: () => library,
    item: () => item,
    file: () => file,
    collection: () => collection,
    id: (e) => (e.path.includes('custom-fields') ? field : e.path.includes('boards') ? board : undefined),
    user: () => user,
    token: (e) => (e.path.startsWith('/v2/shared') ? shareToken : importToken),
    model_id: () => model,
    revision_id: () => revision,
    object_id: () => objectId,
    objectId: () => objectId,
    client_id: () => app.client_id,
    redirect_uri: () => app.redirect_uri,
  };
  return {
    token,
    marker,
    allIds: Object.values(ids),
    valuesFor: (e, name, where) => {
      const value = byName[name]?.(e, where);
      return value === undefined ? [] : [value];
    },
  };
}
