import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { sampleFile } from '../../samples/files.js';
import { ADMIN, api, authorize, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';
import { setUp } from './authorization-setup.js';
import { images, oauth, PRINCIPALS, ROWS, viewpointBody, type Call, type Fixtures, type Principal, type Row } from './authorization-matrix.js';
import { soaking, writeSoakFigures } from './soak.js';

/**
 * Wrong users (issue 22, part 3): every endpoint of /openapi.json x seven principals
 * (authorization-matrix.ts) with the exact status each, and no answer to someone outside
 * a project that carries anything of it (ids, names) in its body or headers.
 */
const MEMBER = { email: 'member@example.com', password: 'a member password' };
const STRANGER = { email: 'stranger@example.com', password: 'a stranger password' };
/** Distinct strings that must never reach the wrong people. */
const SECRET = randomBytes(4).toString('hex');
const EVIL = 'https://evil.example';

/** The soak part's figures (bench/results/soak/authorization.json), filled by both suites. */
const figures = { endpoints: 0, principals: PRINCIPALS.length, checks: 0, wrongStatus: 0, leaks: 0, corsChecked: 0, corsWrong: 0, preflights: 0, rateLimited: 0 } as Record<string, number>;
after(() => {
  if (soaking()) writeSoakFigures('authorization', figures);
});

type Answer = { status: number; text: string; headers: Headers };

/** A 1 x 1 PNG, for snapshots and bitmaps. */
function png(): string {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from([0, 200, 40, 40]))), chunk('IEND', Buffer.alloc(0))]).toString('base64');
}

/** Any request with an optional Bearer token; the answer's text whatever its type. */
export async function send(base: string, method: string, call: Call, token?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (token && !call.noBearer) h.Authorization = `Bearer ${token}`;
  let body: string | Uint8Array | undefined;
  if (call.body !== undefined) {
    if (call.contentType) {
      body = call.body as string | Uint8Array;
      h['Content-Type'] = call.contentType;
    } else {
      body = JSON.stringify(call.body);
      h['Content-Type'] = 'application/json';
    }
  }
  const answer = await fetch(`${base}${call.url}`, { method, headers: h, body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
  const text = Buffer.from(await answer.arrayBuffer()).toString('latin1');
  return { status: answer.status, text, headers: answer.headers };
}

describe('authorization matrix', () => {
  let server: TestServer;
  let app: OAuthApp;
  let thief: OAuthApp;
  const tokens = {} as Record<Exclude<Principal, 'none' | 'viewer'>, string>;
  const f = {} as Fixtures;
  /** What P (the project under test) and Q (the stranger's) are called: what must not leak. */
  const names = { project: `Project P ${SECRET}`, model: `Model P ${SECRET}`, board: `Board P ${SECRET}`, topic: `Topic P ${SECRET}`, their: `Project Q ${SECRET}`, theirBoard: `Board Q ${SECRET}`, theirTopic: `Topic Q ${SECRET}` };
  const their = { project: '', board: '', topic: '', model: '' };

  const bcf = async (who: keyof typeof tokens, method: string, path: string, body?: unknown, contentType?: string) => {
    const answer = await send(server.url, method, { url: path, body, contentType }, tokens[who]);
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
    return answer.text ? JSON.parse(answer.text) : undefined;
  };

  before(async () => {
    images.png = png();
    const env = serverEnv(newDataDir());
    // Users, applications, both projects (the member in P) and the owner's expired token, in one process before the server starts.
    const setup = await setUp(env, {
      users: [ADMIN, MEMBER, STRANGER],
      // Another application with the same callback: only its credentials differ (it also tries to redeem the first one's codes).
      apps: [{ name: 'Matrix', redirectUri: 'http://127.0.0.1:9/cb' }, { name: 'Another application', redirectUri: 'http://127.0.0.1:9/cb' }],
      projects: [{ name: names.project, owner: ADMIN.email, members: [{ email: MEMBER.email, role: 'member' }] }, { name: names.their, owner: STRANGER.email }],
      expired: [{ email: ADMIN.email, app: 0 }],
    });
    [app, thief] = setup.apps;
    oauth.clientId = app.client_id;
    oauth.clientSecret = app.client_secret;
    [f.project, their.project] = setup.projects;
    tokens.expired = setup.expired[0];
    server = await startServer(env);
    [tokens.admin, tokens.member, tokens.stranger, tokens.otherApp] = (
      await Promise.all([signInAs(server.url, app), signInAs(server.url, app, MEMBER), signInAs(server.url, app, STRANGER), signInAs(server.url, thief)])
    ).map((t) => t.access_token);
    const admin = api(server.url, tokens.admin);
    const stranger = api(server.url, tokens.stranger);
    f.board = (await bcf('admin', 'POST', '/bcf/2.0/projects', { name: names.board, platform_project_id: f.project })).project_id;
    f.boardName = names.board;
    their.board = (await bcf('stranger', 'POST', '/bcf/2.0/projects', { name: names.theirBoard, platform_project_id: their.project })).project_id;

    // Models with a processed revision in both projects (viewer tokens need one).
    const cabin = readFileSync(sampleFile('cabin').ifc);
    f.model = (await admin.post(`/models/new?project_id=${f.project}`, { name: names.model })).json.id;
    their.model = (await stranger.post(`/models/new?project_id=${their.project}`, { name: `Model Q ${SECRET}` })).json.id;
    f.uploads = (await admin.post(`/models/new?project_id=${f.project}`, { name: 'Uploads' })).json.id;
    f.importToken = (await admin.upload(f.model, 'cabin.ifc', cabin)).json.token;
    const theirImport = (await stranger.upload(their.model, 'cabin.ifc', cabin)).json.token;
    assert.equal((await admin.waitForImport(f.importToken)).json.result, 'success');
    assert.equal((await stranger.waitForImport(theirImport)).json.result, 'success');
    f.objectId = (await admin.get(`/revision/products?model_id=${f.model}&per_page=1`)).json[0].objectId;

    // Issues: a topic with a comment, a viewpoint (snapshot and bitmap), a document and a reference; the stranger's topic.
    const B = `/bcf/3.0/projects/${f.board}`;
    f.topic = (await bcf('admin', 'POST', `${B}/topics`, { title: names.topic })).guid;
    their.topic = (await send(server.url, 'POST', { url: `/bcf/3.0/projects/${their.board}/topics`, body: { title: names.theirTopic } }, tokens.stranger).then((a) => JSON.parse(a.text))).guid;
    f.comment = (await bcf('admin', 'POST', `${B}/topics/${f.topic}/comments`, { comment: 'The owner\'s comment' })).guid;
    f.viewpoint = (await bcf('admin', 'POST', `${B}/topics/${f.topic}/viewpoints`, viewpointBody(true))).guid;
    f.bitmap = (await bcf('admin', 'GET', `${B}/topics/${f.topic}/viewpoints/${f.viewpoint}`)).bitmaps[0].guid;
    f.document = (await bcf('admin', 'POST', `${B}/documents?filename=spec.txt`, 'the specification', 'text/plain')).guid;
    f.reference = (await bcf('admin', 'POST', `${B}/topics/${f.topic}/document_references`, { document_guid: f.document, description: 'Spec' })).guid;
    f.bcfZip = Buffer.from((await send(server.url, 'GET', { url: `${B}/export` }, tokens.admin)).text, 'latin1');
    f.issueBoard = f.board;

    // Document libraries: a library, an item with a file, a collection members see, a shared one.
    const V = `/v2/projects/${f.project}`;
    f.library = (await bcf('admin', 'POST', `${V}/libraries`, { name: `Library P ${SECRET}` })).id;
    f.item = (await bcf('admin', 'POST', `${V}/libraries/${f.library}/items`, { name: `Item P ${SECRET}` })).id;
    f.file = (await bcf('admin', 'POST', `${V}/libraries/${f.library}/items/${f.item}/files?filename=plan.txt`, 'the plan', 'application/octet-stream')).id;
    f.collection = (await bcf('admin', 'POST', `${V}/libraries/collections`, { name: `Collection P ${SECRET}` })).id;
    await bcf('admin', 'PATCH', `${V}/libraries/collections/${f.collection}`, { visibility: 'project-members' });
    const shared = (await bcf('admin', 'POST', `${V}/libraries/collections`, { name: 'Shared', items: [{ libraryId: f.library, libraryItemId: f.item }] })).id;
    const link = await bcf('admin', 'PATCH', `${V}/libraries/collections/${shared}`, { finalized: true, shareExpiresAt: new Date(Date.now() + 3600_000).toISOString() });
    f.shareToken = link.shareUrl.split('/').pop();
    f.sharedFile = f.file;
    f.field = (await bcf('admin', 'POST', `${V}/custom-fields`, { name: `Field P ${SECRET}`, type: 'enumeration' })).id;
    f.userId = (await bcf('admin', 'GET', '/v2/user')).id;

    // Viewer tokens: P's of each kind, expired ones, the stranger's project's.
    const viewerToken = async (who: keyof typeof tokens, project: string, kind: string, body?: unknown) =>
      new URL((await bcf(who, 'POST', `/v2/projects/${project}/${kind}/token`, body)).url).searchParams.get('token')!;
    f.viewerTokens = {
      viewer3d: await viewerToken('admin', f.project, 'viewer3d'),
      viewer2d: await viewerToken('admin', f.project, 'viewer2d'),
      beta: (await bcf('admin', 'POST', `/beta/viewer2d/access?project_id=${f.project}`)).token,
      expired3d: await viewerToken('admin', f.project, 'viewer3d', { expiresIn: -1 }),
      expired2d: await viewerToken('admin', f.project, 'viewer2d', { expiresIn: -1 }),
      other3d: await viewerToken('stranger', their.project, 'viewer3d'),
      other2d: await viewerToken('stranger', their.project, 'viewer2d'),
    };
  });

  after(async () => {
    if (process.env.SHOW_SERVER_OUTPUT) console.log(server?.output());
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });

  it('has a row for every endpoint of /openapi.json, and no row for one that is gone', async () => {
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const endpoints = Object.entries(spec.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    const rows = ROWS.map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(endpoints.filter((e) => !rows.includes(e)), [], 'endpoints without a row in authorization-matrix.ts');
    assert.deepEqual(rows.filter((r) => !endpoints.includes(r)), [], 'rows of endpoints that do not exist');
    assert.equal(new Set(rows).size, rows.length, 'one row per endpoint');
    figures.endpoints = endpoints.length;
  });

  it('answers every principal on every endpoint the exact status, and tells wrong ones nothing of the project', async () => {
    const wrong: string[] = [];
    const leaks: string[] = [];
    const corsWrong: string[] = [];
    const secretsOfP = [f.project, names.project, f.model, names.model, f.board, names.board, f.topic, names.topic, f.library, f.item, f.collection, f.field, f.document, f.viewpoint, f.comment, SECRET_P()];
    const secretsOfQ = [their.project, names.their, their.board, names.theirBoard, their.topic, names.theirTopic, their.model];
    const freshCount = { n: 0 };
    for (const row of ROWS) {
      // Wrong principals first: they must change nothing the allowed ones then use.
      for (const who of PRINCIPALS) {
        const n = ++freshCount.n;
        let fresh: Record<string, string> = {};
        try {
          if (row.fresh?.for.includes(who)) fresh = await makeFresh(row.fresh.make, n);
        } catch (error) {
          // The owner could not make one: a call that should have been refused took something away.
          wrong.push(`${row.method} ${row.path} as ${who}: no throwaway ${row.fresh!.make} (${(error as Error).message.slice(0, 120)})`);
          continue;
        }
        const call = row.call(f, who, n, fresh);
        // A viewer token as a Bearer token: each of the three kinds.
        const bearers: [string, string | undefined][] =
          who === 'viewer' && !call.noBearer
            ? [['viewer (3D token)', f.viewerTokens.viewer3d], ['viewer (2D token)', f.viewerTokens.viewer2d], ['viewer (beta 2D access token)', f.viewerTokens.beta]]
            : [[who, who === 'none' || who === 'viewer' ? undefined : tokens[who]]];
        for (const [label, token] of bearers) {
          const answer = await send(server.url, row.method, call, token, { Origin: EVIL });
          figures.checks++;
          const what = `${row.method} ${row.path} as ${label}`;
          if (answer.status !== row.expect[who]) wrong.push(`${what}: ${answer.status}, expected ${row.expect[who]} (${answer.text.slice(0, 160)})`);
          // CORS: another origin reads only what viewers and pictures need.
          const allowOrigin = answer.headers.get('access-control-allow-origin');
          const open = row.cors === 'always' || (row.cors === 'success' && answer.status < 300);
          if (allowOrigin !== (open ? '*' : null)) corsWrong.push(`${what}: Access-Control-Allow-Origin ${allowOrigin}`);
          if (answer.headers.get('access-control-allow-credentials')) corsWrong.push(`${what}: Access-Control-Allow-Credentials`);
          // Leaks: what the caller did not send, of a project they are not in.
          const seen = `${answer.text}\n${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}`;
          const sent = `${call.url} ${typeof call.body === 'string' ? call.body : JSON.stringify(call.body ?? '')}`;
          const outsideP = !['member', 'admin', 'otherApp'].includes(who) && !row.publicFor?.includes(who);
          for (const secret of outsideP ? secretsOfP : []) if (secret && seen.includes(secret) && !sent.includes(secret)) leaks.push(`${what}: "${secret}" of P in ${answer.status} ${seen.slice(0, 200)}`);
          for (const secret of who === 'stranger' ? [] : secretsOfQ) if (secret && seen.includes(secret)) leaks.push(`${what}: "${secret}" of Q in ${answer.status} ${seen.slice(0, 200)}`);
        }
      }
    }
    figures.wrongStatus = wrong.length;
    figures.leaks = leaks.length;
    figures.corsChecked = figures.checks;
    figures.corsWrong = corsWrong.length;
    assert.deepEqual(wrong, [], 'statuses');
    assert.deepEqual(leaks, [], 'leaks');
    assert.deepEqual(corsWrong, [], 'CORS');
  });

  it('answers a cross-origin preflight only on the viewers\' file URLs, and never for a Bearer token', async () => {
    const wrong: string[] = [];
    let preflights = 0;
    for (const row of ROWS) {
      const call = row.call(f, 'admin', 0, {});
      const answer = await fetch(`${server.url}${call.url}`, {
        method: 'OPTIONS',
        headers: { Origin: EVIL, 'Access-Control-Request-Method': row.method, 'Access-Control-Request-Headers': 'authorization, content-type' },
      });
      await answer.arrayBuffer();
      preflights++;
      const allowOrigin = answer.headers.get('access-control-allow-origin');
      const viewerFile = /\/viewer(3d|2d)\/file$/.test(row.path);
      if (allowOrigin !== (viewerFile ? '*' : null)) wrong.push(`OPTIONS ${row.path} (${row.method}): Access-Control-Allow-Origin ${allowOrigin}`);
      if (/authorization/i.test(answer.headers.get('access-control-allow-headers') ?? '')) wrong.push(`OPTIONS ${row.path}: allows Authorization from another origin`);
      if (viewerFile) assert.equal(answer.headers.get('access-control-allow-headers'), 'Range', 'the viewers\' file URLs allow Range, and nothing else');
    }
    figures.preflights = preflights;
    assert.deepEqual(wrong, []);
  });

  it('refuses a replayed authorization code and revokes what its first use gave', async () => {
    const query = new URLSearchParams({ client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code' });
    const redeem = (code: string, client = app) =>
      fetch(`${server.url}/oauth2/token`, { method: 'POST', body: new URLSearchParams({ client_id: client.client_id, client_secret: client.client_secret, code, grant_type: 'authorization_code' }) });
    const code = await authorize(server.url, query, MEMBER);
    const first = await redeem(code);
    assert.equal(first.status, 200);
    const issued = (await first.json()) as { access_token: string; refresh_token: string };
    const member = api(server.url, issued.access_token);
    assert.equal((await member.get('/projects')).status, 200, 'the first use works');
    // A refresh before the replay: the refreshed tokens come from the same code.
    const refreshed = await refresh(issued.refresh_token);
    assert.equal(refreshed.status, 200);
    const rotated = (await refreshed.json()) as { access_token: string; refresh_token: string };
    const second = await redeem(code);
    assert.equal(second.status, 400, 'the second use fails');
    assert.equal(((await second.json()) as { error: string }).error, 'invalid_grant');
    assert.equal((await api(server.url, rotated.access_token).get('/projects')).status, 401, 'the tokens the code gave are revoked, refreshed ones too');
    assert.equal((await refresh(rotated.refresh_token)).status, 400, 'and cannot be refreshed');
    // A code is its application's: another application's credentials cannot redeem it.
    const stolen = await authorize(server.url, query, MEMBER);
    assert.equal((await redeem(stolen, thief)).status, 400, 'another application redeems a code');
    assert.equal((await redeem(stolen)).status, 200, 'its own application still can');
  });

  it('rotates refresh tokens: a used one is refused, with the access token it came with', async () => {
    const issued = await signInAs(server.url, app, MEMBER);
    const answer = await refresh(issued.refresh_token);
    assert.equal(answer.status, 200);
    const next = (await answer.json()) as { access_token: string; refresh_token: string };
    assert.notEqual(next.refresh_token, issued.refresh_token);
    const reused = await refresh(issued.refresh_token);
    assert.equal(reused.status, 400);
    assert.equal(((await reused.json()) as { error: string }).error, 'invalid_grant');
    assert.equal((await api(server.url, issued.access_token).get('/projects')).status, 401, 'the old access token');
    assert.equal((await api(server.url, next.access_token).get('/projects')).status, 200, 'the new one');
    // Another application cannot use this application's refresh token.
    assert.equal((await refresh(next.refresh_token, thief)).status, 400);
    assert.equal((await refresh(next.refresh_token)).status, 200, 'still its own application\'s');
  });

  const refresh = (token: string, client = app) =>
    fetch(`${server.url}/oauth2/token`, { method: 'POST', body: new URLSearchParams({ client_id: client.client_id, client_secret: client.client_secret, refresh_token: token, grant_type: 'refresh_token' }) });

  it('left the project as it was for every refused call', async () => {
    const admin = api(server.url, tokens.admin);
    assert.equal((await admin.get(`/project?project_id=${f.project}`)).json.name, names.project);
    assert.equal((await admin.get(`/model?model_id=${f.model}`)).json.name, names.model);
    assert.equal((await bcf('admin', 'GET', `/bcf/3.0/projects/${f.board}/topics/${f.topic}`)).title, names.topic);
    assert.ok((await bcf('admin', 'GET', `/bcf/3.0/projects/${f.board}/topics/${f.topic}/comments/${f.comment}`)).guid);
  });

  /** The name nothing else has (the owner's library item file name is not secret). */
  function SECRET_P() {
    return `P ${SECRET}`;
  }

  /** A throwaway resource made by the owner, for a call that deletes or renames. */
  async function makeFresh(make: NonNullable<Row['fresh']>['make'], n: number): Promise<Record<string, string>> {
    const B = `/bcf/3.0/projects/${f.board}`;
    switch (make) {
      case 'project':
        return { project: (await bcf('admin', 'POST', '/1.0/projects/new', { name: `throwaway ${n}` })).id };
      case 'model':
        return { model: (await bcf('admin', 'POST', `/1.0/models/new?project_id=${f.project}`, { name: `throwaway ${n}` })).id };
      case 'topic':
        return { topic: (await bcf('admin', 'POST', `${B}/topics`, { title: `throwaway ${n}` })).guid };
      case 'comment':
        return { comment: (await bcf('admin', 'POST', `${B}/topics/${f.topic}/comments`, { comment: `throwaway ${n}` })).guid };
      case 'viewpoint':
        return { viewpoint: (await bcf('admin', 'POST', `${B}/topics/${f.topic}/viewpoints`, viewpointBody(false))).guid };
      case 'reference':
        return { reference: (await bcf('admin', 'POST', `${B}/topics/${f.topic}/document_references`, { url: 'https://example.com/x', description: `throwaway ${n}` })).guid };
      case 'zip': {
        const elsewhere = (await bcf('admin', 'POST', '/bcf/2.0/projects', { name: `throwaway ${n}`, platform_project_id: f.project })).project_id;
        await bcf('admin', 'POST', `/bcf/3.0/projects/${elsewhere}/topics`, { title: `throwaway ${n}` });
        return { zip: Buffer.from((await send(server.url, 'GET', { url: `/bcf/3.0/projects/${elsewhere}/export` }, tokens.admin)).text, 'latin1').toString('base64') };
      }
      case 'status':
      case 'type':
        return { name: (await bcf('admin', 'POST', `${B}/extensions/${make === 'status' ? 'statuses' : 'types'}`, { name: `throwaway ${n}` })).name };
    }
  }

});

// A window long enough for limit + 2 requests on a busy machine.
const LIMITS = { signIn: 4, token: 6, viewerToken: 5, windowMs: 5000 };

/** The rate limits' server, with low limits: started at once, beside the matrix's. */
const limitsServer = (async () => {
  const env = serverEnv(newDataDir(), {
    RATE_LIMIT_SIGN_IN: String(LIMITS.signIn),
    RATE_LIMIT_TOKEN: String(LIMITS.token),
    RATE_LIMIT_VIEWER_TOKEN: String(LIMITS.viewerToken),
    RATE_LIMIT_WINDOW_MS: String(LIMITS.windowMs),
  });
  const setup = await setUp(env, { users: [ADMIN], apps: [{ name: 'Limits', redirectUri: 'http://127.0.0.1:9/cb' }], projects: [{ name: 'Limits', owner: ADMIN.email }] });
  return { server: await startServer(env), app: setup.apps[0], project: setup.projects[0] };
})();
limitsServer.catch(() => {}); // reported by the suite's before()

describe('rate limits', () => {
  let server: TestServer;
  let app: OAuthApp;
  let bearer: string;
  let project: string;
  const rounds = soaking() ? 5 : 1;

  before(async () => {
    ({ server, app, project } = await limitsServer);
    bearer = (await signInAs(server.url, app)).access_token;
  });

  after(async () => {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
    Object.assign(figures, { rateLimitRounds: rounds, signInPerWindow: LIMITS.signIn, tokenPerWindow: LIMITS.token, viewerTokenPerWindow: LIMITS.viewerToken, windowMs: LIMITS.windowMs });
  });

  /** A fresh window: the counts of what came before are gone. */
  const waitForNewWindow = () => new Promise((r) => setTimeout(r, LIMITS.windowMs + 200));

  /**
   * `limit` requests pass (whatever they answer), the next is 429 with the JSON error and
   * Retry-After, on either address; after the window, one passes again. A machine so busy
   * that the window ran out before the limit was reached tries again (three times at most):
   * that says nothing of the limit.
   */
  async function hitLimit(what: string, limit: number, request: (i: number) => Promise<Response>) {
    for (let attempt = 1; ; attempt++) {
      const start = Date.now();
      for (let i = 0; i < limit; i++) {
        const answer = await request(i);
        await answer.arrayBuffer();
        assert.notEqual(answer.status, 429, `${what}: request ${i + 1} of ${limit} refused`);
      }
      const over = await request(limit);
      if (over.status !== 429 && Date.now() - start > LIMITS.windowMs && attempt < 3) {
        await over.arrayBuffer();
        await waitForNewWindow();
        continue;
      }
      for (const [i, answer] of [[limit, over], [limit + 1, await request(limit + 1)]] as const) {
        assert.equal(answer.status, 429, `${what}: request ${i + 1} past the limit of ${limit}`);
        figures.rateLimited++;
        assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
        const body = (await answer.json()) as { error: { code: number; name: string; message: string } };
        assert.deepEqual([body.error.code, body.error.name], [429, 'TOO_MANY_REQUESTS'], what);
        const retryAfter = Number(answer.headers.get('retry-after'));
        assert.ok(retryAfter >= 1 && retryAfter <= Math.ceil(LIMITS.windowMs / 1000), `${what}: Retry-After ${answer.headers.get('retry-after')}`);
      }
      break;
    }
    await waitForNewWindow();
    const again = await request(limit + 2);
    await again.arrayBuffer();
    assert.notEqual(again.status, 429, `${what}: refused after the window`);
    // Each kind counts on its own: the next test starts at 0 of its own; a next round waits for a window without this one.
    if (rounds > 1) await waitForNewWindow();
  }

  it('limits sign-in attempts per address, both sign-in addresses together', async () => {
    for (let round = 0; round < rounds; round++) {
      await hitLimit('sign-in', LIMITS.signIn, (i) => {
        const form = new URLSearchParams({ client_id: app.client_id, response_type: 'code', email: ADMIN.email, password: i < LIMITS.signIn ? 'a wrong guess' : ADMIN.password, decision: 'allow' });
        return fetch(`${server.url}${i % 2 ? '/oauth2/authorize' : '/1.0/oauth/authorize'}`, { method: 'POST', body: form, redirect: 'manual' });
      });
    }
  });

  it('limits token requests per address, both token addresses together', async () => {
    for (let round = 0; round < rounds; round++) {
      await hitLimit('token', LIMITS.token, (i) =>
        fetch(`${server.url}${i % 2 ? '/oauth2/token' : '/1.0/oauth/access_token'}`, { method: 'POST', body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, code: `guess ${i}`, grant_type: 'authorization_code' }) }),
      );
    }
  });

  it('limits viewer tokens issued per address, 3D, 2D and beta 2D together', async () => {
    for (let round = 0; round < rounds; round++) {
      // The project has no revision: each is a 400, which counts all the same.
      await hitLimit('viewer tokens', LIMITS.viewerToken, (i) => {
        const path = [`/v2/projects/${project}/viewer3d/token`, `/v2/projects/${project}/viewer2d/token`, `/beta/viewer2d/access?project_id=${project}`][i % 3];
        return fetch(`${server.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${bearer}` } });
      });
    }
  });

  it('leaves the rest of the API alone, and people who sign in right', async () => {
    const v1 = api(server.url, bearer);
    for (let i = 0; i < 3 * LIMITS.token; i++) assert.equal((await v1.get('/projects')).status, 200);
    // Only failures count for sign-in and tokens: the test suite signs in from 127.0.0.1 all the time.
    for (let i = 0; i < 2 * Math.max(LIMITS.signIn, LIMITS.token); i++) await signInAs(server.url, app);
  });
});
