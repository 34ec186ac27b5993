import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { ADMIN, authorize, cli, newDataDir, removeDataDir, serverEnv, startServer, type OAuthApp, type TestServer } from './harness.js';

/**
 * OAuth 2.0 authorization code (seed 000) at both addresses, over HTTP as a browser
 * without script and an application would speak it: the sign-in page, what must never
 * redirect, state, consent, single-use and expiring codes, client authentication, PKCE,
 * refresh tokens, and what the API answers to a missing, bad or expired token.
 */
const ADDRESSES = [
  ['/1.0/oauth/authorize', '/1.0/oauth/access_token'],
  ['/oauth2/authorize', '/oauth2/token'],
] as const;

type Answer = { status: number; headers: Headers; text: string; json: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const get = async (url: string) => answerOf(await fetch(url, { redirect: 'manual' }));
const postForm = async (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  answerOf(await fetch(url, { method: 'POST', body: new URLSearchParams(form), headers, redirect: 'manual' }));
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** The code of a consented authorization request (query: the authorization request's parameters). */
function codeFor(base: string, app: OAuthApp, authorizePath: string, extra: Record<string, string> = {}) {
  const query = new URLSearchParams({ client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', ...extra });
  return authorize(base, query, ADMIN, authorizePath);
}

/** The JSON error body every API answers with. */
function assertErrorBody(answer: Answer, status: number) {
  assert.equal(answer.status, status, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(typeof answer.json?.error?.code, 'number', answer.text);
  assert.equal(typeof answer.json.error.name, 'string');
  assert.equal(typeof answer.json.error.message, 'string');
  assert.ok(answer.json.error.message.length > 0);
}

function assertUnauthorized(answer: Answer) {
  assertErrorBody(answer, 401);
  assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer\b/, 'a 401 of the API says how to authenticate (RFC 6750)');
}

describe('OAuth 2.0 authorization code', () => {
  let server: TestServer;
  let app: OAuthApp;
  let other: OAuthApp;
  /** A server whose codes and access tokens live one second. */
  let shortLived: TestServer;
  let shortApp: OAuthApp;

  before(async () => {
    const env = serverEnv(newDataDir());
    app = cli(env, 'app', 'add', '--name', 'OAuth client', '--redirect-uri', 'http://127.0.0.1:9/callback?tenant=a');
    other = cli(env, 'app', 'add', '--name', 'Other client', '--redirect-uri', 'http://127.0.0.1:9/other');
    // Codes live 5 s: a loaded machine took over a second between a code and its exchange.
    const shortEnv = serverEnv(newDataDir(), { AUTHORIZATION_CODE_LIFETIME: '5', ACCESS_TOKEN_LIFETIME: '1' });
    shortApp = cli(shortEnv, 'app', 'add', '--name', 'Short', '--redirect-uri', 'http://127.0.0.1:9/short');
    [server, shortLived] = await Promise.all([startServer(env), startServer(shortEnv)]);
  });

  after(async () => {
    if (process.env.SHOW_SERVER_OUTPUT) console.log(server.output(), shortLived.output());
    await Promise.all([server?.stop(), shortLived?.stop()]);
    for (const s of [server, shortLived]) if (s) removeDataDir(s.dataDir);
  });

  for (const [authorizePath, tokenPath] of ADDRESSES) {
    describe(`at ${authorizePath} and ${tokenPath}`, () => {
      const authorizeUrl = (params: Record<string, string>) => `${server.url}${authorizePath}?${new URLSearchParams(params)}`;
      const token = (form: Record<string, string>, headers?: Record<string, string>) => postForm(`${server.url}${tokenPath}`, form, headers);
      const exchange = (code: string, extra: Record<string, string> = {}) =>
        token({ client_id: app.client_id, client_secret: app.client_secret, code, grant_type: 'authorization_code', ...extra });

      it('shows a sign-in form without script', async () => {
        const page = await get(authorizeUrl({ client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', state: 's1' }));
        assert.equal(page.status, 200);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(page.text, /<form method="post"/);
        assert.doesNotMatch(page.text, /<script/i);
        assert.equal(page.headers.get('location'), null);
        // The form carries the request on: its POST has everything the GET had.
        assert.match(page.text, new RegExp(`name="client_id" value="${app.client_id}"`));
        assert.match(page.text, /name="state" value="s1"/);
        assert.match(page.text, /name="password"/);
      });

      it('answers an unknown client_id or another redirect_uri with an error page, never a redirect', async () => {
        const cases: Record<string, string>[] = [
          { client_id: 'no-such-client', redirect_uri: app.redirect_uri, response_type: 'code', state: 'x' },
          { client_id: app.client_id, redirect_uri: 'http://evil.example/callback?tenant=a', response_type: 'code', state: 'x' },
          { client_id: app.client_id, redirect_uri: 'http://127.0.0.1:9/callback', response_type: 'code', state: 'x' },
          { client_id: app.client_id, redirect_uri: other.redirect_uri, response_type: 'code', state: 'x' },
          { redirect_uri: app.redirect_uri, response_type: 'code' },
        ];
        for (const params of cases) {
          for (const answer of [
            await get(authorizeUrl(params)),
            await postForm(`${server.url}${authorizePath}`, { ...params, email: ADMIN.email, password: ADMIN.password, decision: 'allow' }),
            await postForm(`${server.url}${authorizePath}`, { ...params, decision: 'deny' }),
          ]) {
            assert.equal(answer.status, 400, JSON.stringify(params));
            assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
            assert.equal(answer.headers.get('location'), null, JSON.stringify(params));
            assert.doesNotMatch(answer.text, /<script/i);
          }
        }
      });

      it('returns state unchanged, and works without one', async () => {
        const state = 'a b/c?d=e&f+g%h~=';
        const form = { client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', state, email: ADMIN.email, password: ADMIN.password, decision: 'allow' };
        const answer = await postForm(`${server.url}${authorizePath}`, form);
        assert.equal(answer.status, 302, answer.text);
        const location = new URL(answer.headers.get('location')!);
        assert.equal(`${location.origin}${location.pathname}`, 'http://127.0.0.1:9/callback');
        assert.equal(location.searchParams.get('state'), state);
        assert.equal(location.searchParams.get('tenant'), 'a', 'the registered callback keeps its own query (RFC 6749, 3.1.2)');
        assert.ok(location.searchParams.get('code'));

        const { state: _, ...withoutState } = form;
        const plain = await postForm(`${server.url}${authorizePath}`, withoutState);
        assert.equal(plain.status, 302, plain.text);
        const plainLocation = new URL(plain.headers.get('location')!);
        assert.ok(plainLocation.searchParams.get('code'));
        assert.equal(plainLocation.searchParams.has('state'), false);
        assert.equal((await exchange(plainLocation.searchParams.get('code')!)).status, 200);
      });

      it('redirects a denial with access_denied and the state, and no code', async () => {
        const answer = await postForm(`${server.url}${authorizePath}`, { client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', state: 'st-9', decision: 'deny' });
        assert.equal(answer.status, 302);
        const location = new URL(answer.headers.get('location')!);
        assert.equal(`${location.origin}${location.pathname}`, 'http://127.0.0.1:9/callback');
        assert.equal(location.searchParams.get('error'), 'access_denied');
        assert.equal(location.searchParams.get('state'), 'st-9');
        assert.equal(location.searchParams.has('code'), false);
      });

      it('answers a wrong password with 401 and the form again, without a code', async () => {
        for (const [email, password] of [[ADMIN.email, 'not the password'], ['nobody@example.com', ADMIN.password], [ADMIN.email, '']]) {
          const answer = await postForm(`${server.url}${authorizePath}`, { client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', state: 's', email, password, decision: 'allow' });
          assert.equal(answer.status, 401, `${email} / ${password}`);
          assert.equal(answer.headers.get('location'), null);
          assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
          assert.match(answer.text, /<form method="post"/);
          assert.match(answer.text, /Wrong e-mail or password/);
          assert.doesNotMatch(answer.text, /code=/);
          assert.doesNotMatch(answer.text, /<script/i);
        }
      });

      it('takes a code once, from the application it was issued to', async () => {
        const code = await codeFor(server.url, app, authorizePath, { state: 'once' });
        const first = await exchange(code);
        assert.equal(first.status, 200, first.text);
        assert.equal(first.json.token_type, 'Bearer');
        assert.ok(first.json.access_token.length <= 255, 'seed 000: an access token has at most 255 characters');
        assert.ok(first.json.refresh_token);
        assert.ok(first.json.expires_in > 0);
        assert.equal(first.headers.get('cache-control'), 'no-store');
        const second = await exchange(code);
        assert.equal(second.status, 400);
        assert.equal(second.json.error, 'invalid_grant');

        const stolen = await codeFor(server.url, app, authorizePath);
        const byOther = await token({ client_id: other.client_id, client_secret: other.client_secret, code: stolen, grant_type: 'authorization_code' });
        assert.equal(byOther.status, 400);
        assert.equal(byOther.json.error, 'invalid_grant');
        const unknown = await exchange(randomBytes(32).toString('base64url'));
        assert.equal(unknown.status, 400);
        assert.equal(unknown.json.error, 'invalid_grant');
      });

      it('takes the client secret in the body or in HTTP Basic, and refuses a wrong one', async () => {
        const inBody = await exchange(await codeFor(server.url, app, authorizePath));
        assert.equal(inBody.status, 200, inBody.text);
        const code = await codeFor(server.url, app, authorizePath);
        const inBasic = await token({ code, grant_type: 'authorization_code' }, { Authorization: basic(app.client_id, app.client_secret) });
        assert.equal(inBasic.status, 200, inBasic.text);
        assert.notEqual(inBasic.json.access_token, inBody.json.access_token);

        const wrongBasic = await token({ code: await codeFor(server.url, app, authorizePath), grant_type: 'authorization_code' }, { Authorization: basic(app.client_id, 'wrong-secret') });
        assert.equal(wrongBasic.status, 401);
        assert.equal(wrongBasic.json.error, 'invalid_client');
        assert.match(wrongBasic.headers.get('www-authenticate') ?? '', /^Basic/);
        const wrongBody = await exchange(await codeFor(server.url, app, authorizePath), { client_secret: 'wrong-secret' });
        assert.ok([400, 401].includes(wrongBody.status), wrongBody.text);
        assert.equal(wrongBody.json.error, 'invalid_client');
        const otherSecret = await exchange(await codeFor(server.url, app, authorizePath), { client_secret: other.client_secret });
        assert.equal(otherSecret.json.error, 'invalid_client');
        // A confidential application always authenticates, PKCE or not.
        const { verifier, challenge } = pkcePair();
        const noSecret = await token({ client_id: app.client_id, code: await codeFor(server.url, app, authorizePath, { code_challenge: challenge, code_challenge_method: 'S256' }), grant_type: 'authorization_code', code_verifier: verifier });
        assert.ok([400, 401].includes(noSecret.status), noSecret.text);
        assert.equal(noSecret.json.error, 'invalid_client');
      });

      it('checks the PKCE S256 verifier', async () => {
        const { verifier, challenge } = pkcePair();
        const withChallenge = { code_challenge: challenge, code_challenge_method: 'S256' };
        const missing = await exchange(await codeFor(server.url, app, authorizePath, withChallenge));
        assert.equal(missing.status, 400, missing.text);
        assert.equal(missing.json.error, 'invalid_grant');
        const wrong = await exchange(await codeFor(server.url, app, authorizePath, withChallenge), { code_verifier: pkcePair().verifier });
        assert.equal(wrong.status, 400, wrong.text);
        assert.equal(wrong.json.error, 'invalid_grant');
        const right = await exchange(await codeFor(server.url, app, authorizePath, withChallenge), { code_verifier: verifier });
        assert.equal(right.status, 200, right.text);
        // A code with a challenge fails for good after a wrong verifier (no guessing).
        const code = await codeFor(server.url, app, authorizePath, withChallenge);
        assert.equal((await exchange(code, { code_verifier: pkcePair().verifier })).status, 400);
        assert.equal((await exchange(code, { code_verifier: verifier })).status, 400);
        // A verifier for a code that had no challenge is refused too.
        const stray = await exchange(await codeFor(server.url, app, authorizePath), { code_verifier: verifier });
        assert.equal(stray.status, 400);
      });

      it('exchanges a refresh token once for a new access token', async () => {
        const first = (await exchange(await codeFor(server.url, app, authorizePath))).json;
        const refresh = () => token({ client_id: app.client_id, client_secret: app.client_secret, grant_type: 'refresh_token', refresh_token: first.refresh_token });
        const second = await refresh();
        assert.equal(second.status, 200, second.text);
        assert.notEqual(second.json.access_token, first.access_token);
        assert.ok(second.json.access_token.length <= 255);
        assert.ok(second.json.refresh_token && second.json.refresh_token !== first.refresh_token);
        const projects = await fetch(`${server.url}/1.0/projects`, { headers: { Authorization: `Bearer ${second.json.access_token}` } });
        assert.equal(projects.status, 200);
        const again = await refresh();
        assert.equal(again.status, 400);
        assert.equal(again.json.error, 'invalid_grant');
        // The new refresh token works, for its own application only.
        const byOther = await token({ client_id: other.client_id, client_secret: other.client_secret, grant_type: 'refresh_token', refresh_token: second.json.refresh_token });
        assert.equal(byOther.status, 400);
        assert.equal(byOther.json.error, 'invalid_grant');
        const third = await token({ grant_type: 'refresh_token', refresh_token: second.json.refresh_token }, { Authorization: basic(app.client_id, app.client_secret) });
        assert.equal(third.status, 200, third.text);
      });

      it('takes a token request without redirect_uri (seed 000), and checks one that is sent', async () => {
        const without = await exchange(await codeFor(server.url, app, authorizePath));
        assert.equal(without.status, 200, without.text);
        const same = await exchange(await codeFor(server.url, app, authorizePath), { redirect_uri: app.redirect_uri });
        assert.equal(same.status, 200, same.text);
        const mismatch = await exchange(await codeFor(server.url, app, authorizePath), { redirect_uri: 'http://127.0.0.1:9/elsewhere' });
        assert.equal(mismatch.status, 400, mismatch.text);
        assert.match(mismatch.json.error, /^invalid_(request|grant)$/);
        assert.equal(mismatch.json.access_token, undefined);
      });
    });
  }

  it('answers API calls without a valid token with 401, WWW-Authenticate and the JSON error body', async () => {
    const headers: (Record<string, string> | undefined)[] = [
      undefined,
      { Authorization: '' },
      { Authorization: 'Bearer' },
      { Authorization: 'Bearer two words' },
      { Authorization: `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}` },
      { Authorization: `Bearer ${'x'.repeat(300)}` },
      { Authorization: `Bearer ${randomBytes(32).toString('base64url')}` },
      { Authorization: 'Bearer \u00e9t\u00e9' },
    ];
    for (const h of headers) {
      for (const [method, path] of [['GET', '/1.0/projects'], ['POST', '/1.0/projects/new'], ['GET', '/1.0/project?project_id=x'], ['PUT', '/1.0/model/import?model_id=x&file_name=a.ifc']]) {
        const answer = await answerOf(await fetch(`${server.url}${path}`, { method, headers: h, body: method === 'GET' ? undefined : '{"name":"x"}' }));
        assertUnauthorized(answer);
      }
    }
  });

  it('refuses an expired code with invalid_grant', async () => {
    const code = await codeFor(shortLived.url, shortApp, '/1.0/oauth/authorize');
    await new Promise((r) => setTimeout(r, 6100));
    const answer = await postForm(`${shortLived.url}/1.0/oauth/access_token`, { client_id: shortApp.client_id, client_secret: shortApp.client_secret, code, grant_type: 'authorization_code' });
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.json.error, 'invalid_grant');
  });

  it('refuses an expired access token with 401, and its refresh token still gives a new one', async () => {
    const code = await codeFor(shortLived.url, shortApp, '/oauth2/authorize');
    const issued = await postForm(`${shortLived.url}/oauth2/token`, { client_id: shortApp.client_id, client_secret: shortApp.client_secret, code, grant_type: 'authorization_code' });
    assert.equal(issued.status, 200, issued.text);
    // The library rounds the second left down, and leaves expires_in out when that is 0.
    assert.ok((issued.json.expires_in ?? 0) <= 1, issued.text);
    const call = (accessToken: string) => fetch(`${shortLived.url}/1.0/projects`, { headers: { Authorization: `Bearer ${accessToken}` } }).then(answerOf);
    await new Promise((r) => setTimeout(r, 2100));
    assertUnauthorized(await call(issued.json.access_token));
    const refreshed = await postForm(`${shortLived.url}/oauth2/token`, { client_id: shortApp.client_id, client_secret: shortApp.client_secret, grant_type: 'refresh_token', refresh_token: issued.json.refresh_token });
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal((await call(refreshed.json.access_token)).status, 200);
  });

  for (const revokePath of ['/1.0/oauth/revoke', '/oauth2/revoke']) {
    it(`revokes at ${revokePath}: an access or a refresh token ends its whole grant; another client's or an unknown token changes nothing`, async () => {
      const issue = async () => {
        const answer = await postForm(`${server.url}/oauth2/token`, { client_id: app.client_id, client_secret: app.client_secret, code: await codeFor(server.url, app, '/oauth2/authorize'), grant_type: 'authorization_code' });
        assert.equal(answer.status, 200, answer.text);
        return answer.json as { access_token: string; refresh_token: string };
      };
      const call = (accessToken: string) => fetch(`${server.url}/1.0/projects`, { headers: { Authorization: `Bearer ${accessToken}` } }).then(answerOf);
      const refresh = (refreshToken: string) => postForm(`${server.url}/oauth2/token`, { client_id: app.client_id, client_secret: app.client_secret, grant_type: 'refresh_token', refresh_token: refreshToken });
      const revoke = (form: Record<string, string>, headers?: Record<string, string>) => postForm(`${server.url}${revokePath}`, form, headers);

      // The access token, the secret in the body: neither token of the grant works after.
      const first = await issue();
      const revoked = await revoke({ client_id: app.client_id, client_secret: app.client_secret, token: first.access_token });
      assert.equal(revoked.status, 200, revoked.text);
      assert.equal(revoked.headers.get('cache-control'), 'no-store');
      assertUnauthorized(await call(first.access_token));
      assert.equal((await refresh(first.refresh_token)).json?.error, 'invalid_grant');

      // The refresh token, the client in HTTP Basic, with a hint.
      const second = await issue();
      assert.equal((await revoke({ token: second.refresh_token, token_type_hint: 'refresh_token' }, { Authorization: basic(app.client_id, app.client_secret) })).status, 200);
      assertUnauthorized(await call(second.access_token));
      assert.equal((await refresh(second.refresh_token)).json?.error, 'invalid_grant');

      // Another client's token, an unknown one, one already revoked: answered alike, and the other's grant lives on.
      const third = await issue();
      for (const token of [third.access_token, 'no-such-token', first.access_token]) {
        const answer = await revoke({ client_id: other.client_id, client_secret: other.client_secret, token });
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(answer.json, {});
      }
      assert.equal((await call(third.access_token)).status, 200);

      // A wrong secret or no client: 401 invalid_client, saying how to authenticate; no token: 400.
      for (const [form, headers] of [
        [{ client_id: app.client_id, client_secret: 'wrong', token: third.access_token }, {}],
        [{ token: third.access_token }, {}],
        [{ token: third.access_token }, { Authorization: basic(app.client_id, 'wrong') }],
      ] as [Record<string, string>, Record<string, string>][]) {
        const answer = await revoke(form, headers);
        assert.equal(answer.status, 401, answer.text);
        assert.equal(answer.json?.error, 'invalid_client');
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Basic/);
      }
      const missing = await revoke({ client_id: app.client_id, client_secret: app.client_secret });
      assert.equal(missing.status, 400, missing.text);
      assert.equal(missing.json?.error, 'invalid_request');
      assert.equal((await call(third.access_token)).status, 200, 'refused revocations revoked nothing');
    });
  }

  it('signs a browser out at /oauth2/sign-out: its session ends, and the next authorization asks for the password', async () => {
    const query = new URLSearchParams({ client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', state: 'so' });
    const form = new URLSearchParams(query);
    Object.entries({ email: ADMIN.email, password: ADMIN.password, decision: 'allow' }).forEach(([k, v]) => form.set(k, v));
    const signedIn = await fetch(`${server.url}/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    assert.equal(signedIn.status, 302);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
    const authorizeWith = (headers: Record<string, string>) => fetch(`${server.url}/oauth2/authorize?${query}`, { redirect: 'manual', headers });
    assert.equal((await authorizeWith({ Cookie: cookie })).status, 302, 'the session gives a code at once');

    const out = await fetch(`${server.url}/oauth2/sign-out`, { method: 'POST', headers: { Cookie: cookie } });
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /^platform_session=;.*Max-Age=0/);
    const after = await authorizeWith({ Cookie: cookie });
    assert.equal(after.status, 200, 'the old cookie is no session any more');
    assert.match(await after.text(), /name="password"/);
    // Signing out without a session is no error.
    assert.equal((await fetch(`${server.url}/oauth2/sign-out`, { method: 'POST' })).status, 204);
  });
});
