import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { sampleFile } from '../../samples/files.js';
import { avatarColour } from '../services/avatars.js';
import { ADMIN, api, authorize, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';

/**
 * What real clients of the platform call besides the seeds' resources (docs/V2.md, "What
 * clients call"): OAuth with `prompt=none` and refresh tokens, the user and their avatar,
 * projects with owner and image, IFC products by type with pages, and viewer tokens
 * asked for with an empty body, read from other origins.
 */
const STRANGER = { email: 'sam@example.com', password: 'stranger password 1' };
const ORIGIN = 'https://client.example';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The bytes are one well-formed SVG document: its root element's attributes. */
function svgRoot(text: string): Record<string, string> {
  assert.equal(XMLValidator.validate(text), true, `not well-formed XML: ${text.slice(0, 200)}`);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text);
  assert.ok(parsed.svg, 'the root element is <svg>');
  assert.equal(parsed.svg.xmlns, 'http://www.w3.org/2000/svg');
  return parsed.svg;
}

describe('v2 API: what clients call', () => {
  let server: TestServer;
  let app: OAuthApp;
  let other: OAuthApp;
  let project: { id: string; name: string };
  let empty: { id: string };
  let strangers: { id: string };
  let houseModel: { id: string };
  let adminName: string;
  let strangerToken: string;
  const house = readFileSync(sampleFile('house').ifc);

  /** The client's own token store: it refreshes and retries once on a 401, as a v2 client does. */
  const client = { access: '', refresh: '', refreshes: 0 };
  async function tokenRequest(form: Record<string, string>) {
    const answer = await fetch(`${server.url}/oauth2/token`, { method: 'POST', body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, ...form }) });
    return { status: answer.status, json: (await answer.json()) as Json };
  }
  async function refresh() {
    const answer = await tokenRequest({ grant_type: 'refresh_token', refresh_token: client.refresh });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    client.access = answer.json.access_token;
    client.refresh = answer.json.refresh_token;
    client.refreshes++;
  }
  async function v2(pathAndQuery: string, init: RequestInit = {}, retried = false): Promise<{ status: number; json: Json; headers: Headers }> {
    const headers = { ...(init.headers as Record<string, string>), Authorization: `Bearer ${client.access}` };
    const answer = await fetch(`${server.url}/v2${pathAndQuery}`, { ...init, headers });
    if (answer.status === 401 && !retried) {
      await refresh();
      return v2(pathAndQuery, init, true);
    }
    const text = await answer.text();
    return { status: answer.status, json: text ? JSON.parse(text) : undefined, headers: answer.headers };
  }
  const as = (token: string, pathAndQuery: string) => fetch(`${server.url}/v2${pathAndQuery}`, { headers: { Authorization: `Bearer ${token}` } });
  const assertError = async (answer: Response | { status: number; json: Json }, status: number, code: number, message?: string | RegExp) => {
    const json = answer instanceof Response ? await answer.json() : answer.json;
    assert.equal(answer.status, status, JSON.stringify(json));
    assert.equal(json.error.code, code);
    if (typeof message === 'string') assert.equal(json.error.message, message);
    else if (message) assert.match(json.error.message, message);
  };

  before(async () => {
    const env = serverEnv(newDataDir());
    app = cli(env, 'app', 'add', '--name', 'A v2 client', '--redirect-uri', 'http://127.0.0.1:9/callback');
    other = cli(env, 'app', 'add', '--name', 'Other', '--redirect-uri', 'http://127.0.0.1:9/other');
    adminName = 'Ada Lovelace';
    cli(env, 'user', 'add', '--email', ADMIN.email, '--password', ADMIN.password, '--name', adminName);
    cli(env, 'user', 'add', '--email', STRANGER.email, '--password', STRANGER.password, '--name', 'Sam Stranger');
    server = await startServer(env);
    strangerToken = (await signInAs(server.url, app, STRANGER)).access_token;
    const stranger = api(server.url, strangerToken);
    strangers = (await stranger.post('/projects/new', { name: "Sam's" })).json;
  });

  after(async () => {
    if (process.env.SHOW_SERVER_OUTPUT) console.log(server.output());
    await server.stop();
    removeDataDir(server.dataDir);
  });

  it('a client written against the v2 API signs in with OAuth, refreshes its token, lists projects and spaces (IfcSpace products), and gets viewer tokens', async () => {
    // Sign in at seed 001's auth info endpoints.
    const query = new URLSearchParams({ client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', state: 's1' });
    const code = await authorize(server.url, query, ADMIN, '/oauth2/authorize');
    const issued = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: app.redirect_uri });
    assert.equal(issued.status, 200, JSON.stringify(issued.json));
    assert.ok(issued.json.refresh_token);
    Object.assign(client, { access: issued.json.access_token, refresh: issued.json.refresh_token });

    // A project with the house, through v1.
    const v1 = api(server.url, client.access);
    project = (await v1.post('/projects/new', { name: 'Client house' })).json;
    houseModel = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'House' })).json;
    const done = await v1.waitForImport((await v1.upload(houseModel.id, 'house.ifc', house)).json.token);
    assert.equal(done.json.result, 'success', JSON.stringify(done.json));
    empty = (await v1.post('/projects/new', { name: 'No models yet' })).json;

    // Refresh tokens rotate: the old refresh token and its access token are refused after use.
    const [oldAccess, oldRefresh] = [client.access, client.refresh];
    await refresh();
    assert.notEqual(client.access, oldAccess);
    assert.notEqual(client.refresh, oldRefresh);
    const replay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: oldRefresh });
    assert.equal(replay.status, 400);
    assert.equal(replay.json.error, 'invalid_grant');
    assert.equal((await as(oldAccess, '/user')).status, 401);

    // The client's stored token is stale: it gets a 401, refreshes and retries.
    client.access = oldAccess;
    const me = await v2('/user');
    assert.equal(me.status, 200);
    assert.equal(client.refreshes, 2);
    assert.equal(me.json.name, adminName);
    assert.equal(me.json.username, ADMIN.email);
    assert.equal(me.json.avatarUrl, `${server.url}/v2/users/${me.json.id}/avatar`);

    // Projects the user sees, with their creator and picture.
    const projects = await v2('/projects');
    assert.equal(projects.status, 200);
    assert.deepEqual(projects.json.map((p: Json) => p.name), ['Client house', 'No models yet']);
    assert.equal(projects.headers.get('x-total-count'), '2');
    const listed = projects.json[0];
    assert.equal(listed.id, project.id);
    assert.deepEqual(listed.owner, { id: me.json.id, name: adminName });
    assert.match(listed.imageUrl, new RegExp(`^${server.url}/v2/projects/${project.id}/image\\?v=[\\w-]{16}$`));
    assert.equal(projects.json[1].imageUrl, undefined, 'a project without models has no picture');
    assert.deepEqual((await v2(`/projects/${project.id}`)).json, listed);

    // Its spaces: the IfcSpace products of its current revisions, as v1 has them.
    const spaces = await v2(`/projects/${project.id}/ifc/products?ifcType=IfcSpace&pageSize=1000`);
    assert.equal(spaces.status, 200);
    const v1Spaces = (await api(server.url, client.access).post(`/project/products?project_id=${project.id}&per_page=1000`, { type: ['IfcSpace'], attributes: true })).json;
    assert.ok(v1Spaces.length >= 2, `the house has spaces (${v1Spaces.length})`);
    assert.equal(spaces.json.length, v1Spaces.length);
    assert.equal(spaces.headers.get('x-total-count'), String(v1Spaces.length));
    for (const [i, space] of spaces.json.entries()) {
      assert.deepEqual(Object.keys(space), ['objectId', 'ifcType', 'attributes']);
      assert.equal(typeof space.objectId, 'number');
      assert.equal(space.objectId, v1Spaces[i].objectId);
      assert.equal(space.ifcType.toLowerCase(), 'ifcspace');
      assert.equal(space.attributes.Name.value, v1Spaces[i].name);
      assert.equal(space.attributes.GlobalId.value, v1Spaces[i].globalId);
      assert.deepEqual(space.attributes, v1Spaces[i].attributes);
    }
    const one = await v2(`/projects/${project.id}/ifc/products/${spaces.json[0].objectId}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.json, spaces.json[0]);

    // Viewer tokens, asked for with no body at all, and read from another origin.
    for (const [kind, resource] of [['viewer3d', 'data'], ['viewer2d', 'geometry']]) {
      const token = await fetch(`${server.url}/v2/projects/${project.id}/${kind}/token`, { method: 'POST', headers: { Authorization: `Bearer ${client.access}` } });
      assert.equal(token.status, 201, await token.clone().text());
      const { url } = (await token.json()) as Json;
      assert.match(url, new RegExp(`^${server.url}/v2/projects/${project.id}/${kind}/${resource}\\?token=`));
      const manifest = await fetch(url, { headers: { Origin: ORIGIN } });
      assert.equal(manifest.status, 200);
      assert.equal(manifest.headers.get('access-control-allow-origin'), '*');
      const { models } = (await manifest.json()) as Json;
      assert.deepEqual(models.map((m: Json) => m.id), [houseModel.id]);
    }
  });

  it('prompt=none: without a session the chain ends on the sign-in page; with a session and earlier consent it redirects with a code at once', async () => {
    const query = (extra: Record<string, string> = {}) =>
      new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, redirect_uri: app.redirect_uri, response_type: 'code', state: 'st', prompt: 'none', ...extra });
    /** Follows redirects as the client's server does (its own requests), carrying cookies; resolves with where the chain ends. */
    const follow = async (start: string, cookie?: string) => {
      let url = start;
      const seen: string[] = [];
      for (let i = 0; i < 10; i++) {
        seen.push(url);
        if (!url.startsWith(server.url)) return { url, seen, answer: undefined };
        const answer = await fetch(url, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });
        if (answer.status < 300 || answer.status >= 400) return { url, seen, answer };
        url = new URL(answer.headers.get('location')!, url).href;
      }
      throw new Error(`too many redirects: ${seen.join(' -> ')}`);
    };

    // No session: the end of the chain is the sign-in page, never an error redirect.
    const start = `${server.url}/oauth2/authorize?${query()}`;
    const anonymous = await follow(start);
    assert.ok(anonymous.answer, `ended outside the platform: ${anonymous.seen.join(' -> ')}`);
    assert.equal(anonymous.answer.status, 200);
    assert.match(anonymous.answer.headers.get('content-type')!, /^text\/html/);
    const page = await anonymous.answer.text();
    assert.match(page, /<form method="post"/);
    assert.match(page, /name="password"/);
    assert.doesNotMatch(page, new RegExp(app.client_secret), 'the secret is not echoed into the page');
    assert.ok(!anonymous.seen.some((u) => /error=login_required/.test(u)));

    // The browser signs in on that page: a session cookie, HttpOnly, and the code.
    const form = new URLSearchParams(query());
    form.delete('client_secret');
    form.delete('prompt');
    Object.entries({ email: ADMIN.email, password: ADMIN.password, decision: 'allow' }).forEach(([k, v]) => form.set(k, v));
    const signedIn = await fetch(`${server.url}/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    assert.equal(signedIn.status, 302);
    assert.ok(new URL(signedIn.headers.get('location')!).searchParams.get('code'));
    const setCookie = signedIn.headers.get('set-cookie')!;
    assert.match(setCookie, /^platform_session=[\w-]{20,};/);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
    const cookie = setCookie.split(';')[0];

    // With the session and the consent given: a code at once, which gives working tokens.
    const again = await follow(`${server.url}/oauth2/authorize?${query()}`, cookie);
    assert.equal(again.answer, undefined, `stayed on the platform: ${again.seen.join(' -> ')}`);
    const back = new URL(again.url);
    assert.equal(`${back.origin}${back.pathname}`, app.redirect_uri);
    assert.equal(back.searchParams.get('state'), 'st');
    const code = back.searchParams.get('code')!;
    assert.ok(code);
    const tokens = await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, grant_type: 'authorization_code', code, redirect_uri: app.redirect_uri }),
    });
    assert.equal(tokens.status, 200);
    const { access_token } = (await tokens.json()) as Json;
    assert.equal(((await (await as(access_token, '/user')).json()) as Json).name, adminName);

    // prompt=login asks again; a forged or unknown session is no session.
    assert.equal((await follow(`${server.url}/oauth2/authorize?${query({ prompt: 'login' })}`, cookie)).answer?.status, 200);
    assert.equal((await follow(start, 'platform_session=forged')).answer?.status, 200);

    // Another application the user has not allowed yet: the page, even with the session.
    const otherQuery = new URLSearchParams({ client_id: other.client_id, redirect_uri: other.redirect_uri, response_type: 'code', prompt: 'none' });
    const otherChain = await follow(`${server.url}/oauth2/authorize?${otherQuery}`, cookie);
    assert.equal(otherChain.answer?.status, 200);
    assert.match(await otherChain.answer!.text(), /Sign in to allow <strong>Other<\/strong>/);
  });

  it("serves the user's avatar and the project's image as pictures that load without a token", async () => {
    const me = (await v2('/user')).json;
    const avatar = await fetch(me.avatarUrl);
    assert.equal(avatar.status, 200);
    assert.equal(avatar.headers.get('content-type'), 'image/svg+xml');
    assert.match(avatar.headers.get('cache-control')!, /max-age=\d+/);
    const avatarSvg = await avatar.text();
    const root = svgRoot(avatarSvg);
    assert.equal(root.width, '64');
    assert.match(avatarSvg, />AL<\/text>/, 'the initials of Ada Lovelace');
    assert.equal(svgRoot(await (await fetch(`${me.avatarUrl}?size=200`)).text()).width, '200');
    // Another user: other initials, and each picture in its own user's colour, a hue from a
    // hash of the id (services/avatars.ts). Two random ids share a hue 1 time in 360, so
    // comparing the two pictures' colours failed now and then; each is checked exactly.
    const other = (await (await as(strangerToken, '/user')).json()) as Json;
    const otherSvg = await (await fetch(other.avatarUrl)).text();
    assert.match(otherSvg, />SS<\/text>/);
    const fill = (svg: string) => /<circle [^>]*fill="([^"]+)"/.exec(svg)?.[1];
    assert.notEqual(me.id, other.id);
    assert.equal(fill(avatarSvg), avatarColour(me.id));
    assert.equal(fill(otherSvg), avatarColour(other.id));
    assert.notEqual(avatarColour('user-a'), avatarColour('user-b'), 'the colour follows the id');
    for (const size of ['0', '15', '513', '100000', 'big', '-1']) await assertError(await fetch(`${me.avatarUrl}?size=${size}`), 400, 24);
    await assertError(await fetch(`${server.url}/v2/users/${'0'.repeat(32)}/avatar`), 404, 20, `User (${'0'.repeat(32)}) not found`);

    const { imageUrl } = (await v2(`/projects/${project.id}`)).json;
    const image = await fetch(imageUrl, { headers: { Origin: ORIGIN } });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/svg+xml');
    assert.equal(image.headers.get('access-control-allow-origin'), '*');
    assert.match(image.headers.get('cache-control')!, /immutable/);
    const etag = image.headers.get('etag')!;
    const imageSvg = await image.text();
    const drawn = svgRoot(imageSvg);
    assert.ok(Number(drawn.width) > 0 && Number(drawn.height) > 0 && Math.max(Number(drawn.width), Number(drawn.height)) === 512);
    assert.ok((imageSvg.match(/<path /g) ?? []).length >= 5, 'the storey drawn: spaces and walls');
    assert.match(imageSvg, /M[\d.]+ [\d.]+L/);
    // Kept beside the plans, and the same the next time.
    const stored = readdirSync(path.join(server.dataDir, 'blobs/scenes', houseModel.id)).filter((f) => f.endsWith('.image.svg'));
    assert.equal(stored.length, 1);
    assert.equal(await (await fetch(imageUrl)).text(), imageSvg);
    assert.equal((await fetch(imageUrl, { headers: { 'If-None-Match': etag } })).status, 304);
    // With the Bearer token instead of the version; without either a 401; another version a 404.
    const withBearer = await as(client.access, `/projects/${project.id}/image`);
    assert.equal(withBearer.status, 200);
    assert.equal(withBearer.headers.get('cache-control'), 'private, no-cache');
    assert.equal(await withBearer.text(), imageSvg);
    await assertError(await fetch(`${server.url}/v2/projects/${project.id}/image`), 401, 401);
    await assertError(await fetch(`${server.url}/v2/projects/${project.id}/image?v=AAAAAAAAAAAAAAAA`), 404, 20);
    await assertError(await as(client.access, `/projects/${empty.id}/image`), 404, 20);
    await assertError(await as(client.access, `/projects/${strangers.id}/image`), 404, 20, `Project (${strangers.id}) not found`);
    await assertError(await as('not-a-token', `/projects/${project.id}/image`), 401, 401);
  });

  it('pages products by pageSize with Link headers, takes several IFC types, and refuses bad paging and types', async () => {
    const base = `/projects/${project.id}/ifc/products`;
    const all = (await v2(`${base}?ifcType=IfcSpace&pageSize=1000`)).json;
    const total = all.length;
    const pages: Json[] = [];
    let next: string | undefined = `${server.url}/v2${base}?ifcType=ifcspace&pageSize=1`;
    let first = true;
    while (next) {
      const answer = await fetch(next, { headers: { Authorization: `Bearer ${client.access}` } });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('x-total-count'), String(total));
      const link = answer.headers.get('link') ?? '';
      if (first) assert.match(link, new RegExp(`rel="last"`));
      first = false;
      pages.push(...((await answer.json()) as Json));
      next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
      assert.ok(pages.length <= total, 'the pages end');
    }
    assert.deepEqual(pages, all, 'one at a time, the same products in the same order');
    const beyond = await v2(`${base}?ifcType=IfcSpace&pageSize=10&page=1000`);
    assert.equal(beyond.status, 200);
    assert.deepEqual(beyond.json, []);
    assert.match(beyond.headers.get('link')!, /rel="first"/);

    // Several types, any case; the whole project without a type.
    const walls = (await v2(`${base}?ifcType=IFCWALL&pageSize=1000`)).json;
    assert.ok(walls.length > 0);
    const both = await v2(`${base}?ifcType=IfcSpace,%20ifcwall&pageSize=1000`);
    assert.equal(both.json.length, walls.length + total);
    assert.deepEqual(both.json.map((p: Json) => p.objectId), [...both.json.map((p: Json) => p.objectId)].sort((a, b) => a - b));
    const everything = await v2(`${base}?pageSize=5`);
    assert.equal(everything.json.length, 5);
    assert.ok(Number(everything.headers.get('x-total-count')) > walls.length + total);

    for (const bad of ['pageSize=0', 'pageSize=1001', 'pageSize=ten', 'page=0', 'page=-1', 'ifcType=Wall', 'ifcType=IfcWall;drop', 'ifcType=', 'sort=name']) {
      await assertError(await v2(`${base}?${bad}`), 400, 24);
    }
    await assertError(await v2(`${base}?ifcType=IfcNoSuchType`), 400, 24, /IfcNoSuchType/);
    await assertError(await v2(`${base}?ifcType=IfcPropertySet`), 400, 24);
    await assertError(await v2('/projects?pageSize=0'), 400, 24);
    const onePage = await v2('/projects?pageSize=1&page=2');
    assert.deepEqual(onePage.json.map((p: Json) => p.name), ['No models yet']);
    assert.match(onePage.headers.get('link')!, /rel="prev"/);
    assert.doesNotMatch(onePage.headers.get('link')!, /rel="next"/);
  });

  it("answers unknown ids and a stranger's project with the documented 404", async () => {
    const unknown = '0123456789abcdef0123456789abcdef';
    for (const id of [unknown, strangers.id]) {
      for (const p of [`/projects/${id}`, `/projects/${id}/ifc/products`, `/projects/${id}/ifc/products?ifcType=IfcSpace`, `/projects/${id}/ifc/products/1`]) {
        await assertError(await v2(p), 404, 20, `Project (${id}) not found`);
      }
      await assertError(await v2(`/projects/${id}/viewer3d/token`, { method: 'POST' }), 404, 20, `Project (${id}) not found`);
    }
    assert.ok(!(await v2('/projects')).json.some((p: Json) => p.id === strangers.id));
    await assertError(await v2(`/projects/${project.id}/ifc/products/1`), 404, 20, 'Product (1) not found');
    await assertError(await v2(`/projects/${project.id}/ifc/products/${Number.MAX_SAFE_INTEGER}`), 404, 20);
    for (const bad of ['abc', '-1', '1.5', '99999999999999999999']) await assertError(await v2(`/projects/${project.id}/ifc/products/${bad}`), 400, 24);
    await assertError(await v2(`/projects/${'x'.repeat(65)}`), 400, 24);
    // No token at all: 401 with the JSON body and the challenge.
    const anonymous = await fetch(`${server.url}/v2/user`);
    assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="platform"');
    await assertError(anonymous, 401, 401);
  });

  it('takes viewer token requests with an empty body and serves their data URLs to other origins', async () => {
    const tokenUrl = (kind: string) => `${server.url}/v2/projects/${project.id}/${kind}/token`;
    const auth = { Authorization: `Bearer ${client.access}` };
    const variants: [string, RequestInit][] = [
      ['no body, no Content-Type', { headers: auth }],
      ['JSON with an empty body', { headers: { ...auth, 'Content-Type': 'application/json' }, body: '' }],
      ['JSON with white space', { headers: { ...auth, 'Content-Type': 'application/json; charset=utf-8' }, body: ' \n' }],
      ['an empty object', { headers: { ...auth, 'Content-Type': 'application/json' }, body: '{}' }],
      ['null', { headers: { ...auth, 'Content-Type': 'application/json' }, body: 'null' }],
    ];
    for (const kind of ['viewer3d', 'viewer2d']) {
      for (const [label, init] of variants) {
        const answer = await fetch(tokenUrl(kind), { method: 'POST', ...init });
        assert.equal(answer.status, 201, `${kind}, ${label}: ${await answer.clone().text()}`);
        const { url, expiresAt } = (await answer.json()) as Json;
        assert.ok(url.startsWith(`${server.url}/v2/projects/${project.id}/${kind}/`), url);
        assert.ok(Date.parse(expiresAt) > Date.now());
      }
      // A body that is not JSON, or JSON of another shape: 400, not 500.
      for (const body of ['{', '[]', '{"models": [{}]}', '{"colour": 1}']) {
        await assertError(await fetch(tokenUrl(kind), { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body }), 400, 24);
      }
    }

    // Every URL a viewer on another origin reads carries Access-Control-Allow-Origin, its errors included.
    const { url } = (await (await fetch(tokenUrl('viewer3d'), { method: 'POST', headers: auth })).json()) as Json;
    const manifest = await fetch(url, { headers: { Origin: ORIGIN } });
    assert.equal(manifest.headers.get('access-control-allow-origin'), '*');
    const { models } = (await manifest.json()) as Json;
    const urls = [...models[0].formats.map((f: Json) => f.url), models[0].products];
    assert.ok(urls.length >= 3);
    for (const u of urls) {
      const answer = await fetch(new URL(u, url), { headers: { Origin: ORIGIN } });
      assert.equal(answer.status, 200, u);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', u);
      await answer.arrayBuffer();
    }
    const expired = await fetch(url.replace(/token=[^&]+/, 'token=unknown'), { headers: { Origin: ORIGIN } });
    assert.equal(expired.status, 401);
    assert.equal(expired.headers.get('access-control-allow-origin'), '*');
  });
});
