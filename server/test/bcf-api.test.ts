import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ADMIN, authorize, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';
import { bcfSchemas, expectStatus } from './bcf-schemas.js';
import { bcfClient as client } from './bcf-client.js';

/**
 * The BCF API (seed 001) as a client sees it, in each of its versions: the version list
 * and auth info without a token, the current user, issue boards, extensions with the
 * state rules, topics with the create-topic defaults and checks, OData lists and 3.0's
 * events. Every answer is checked against buildingSMART's JSON schemas of its version.
 */
const MEMBER = { email: 'member@example.com', password: 'a member password' };
const STRANGER = { email: 'stranger@example.com', password: 'a stranger password' };

describe('BCF API', () => {
  let server: TestServer;
  let app: OAuthApp;
  let admin: ReturnType<typeof client>;
  let member: ReturnType<typeof client>;
  let stranger: ReturnType<typeof client>;
  let board: { project_id: string; platform_project_id: string };
  const check = bcfSchemas();

  const expect = expectStatus(check);

  before(async () => {
    const env = serverEnv(newDataDir());
    app = cli(env, 'app', 'add', '--name', 'BCF client', '--redirect-uri', 'http://127.0.0.1:9/cb');
    for (const user of [ADMIN, MEMBER, STRANGER]) cli(env, 'user', 'add', '--email', user.email, '--password', user.password, '--name', user.email.split('@')[0]);
    server = await startServer(env);
    admin = client(server.url, (await signInAs(server.url, app)).access_token);
    board = expect(await admin('POST', '/2.0/projects', { name: 'Coordination' }), 201, 'a board');
    // The cli needs the data folder: the server stops for it and starts again on the same folder.
    await server.stop();
    cli(env, 'member', 'add', '--project', board.platform_project_id, '--email', MEMBER.email, '--role', 'member');
    server = await startServer(env);
    admin = client(server.url, (await signInAs(server.url, app)).access_token);
    member = client(server.url, (await signInAs(server.url, app, MEMBER)).access_token);
    stranger = client(server.url, (await signInAs(server.url, app, STRANGER)).access_token);
  });

  after(async () => {
    await server.stop();
    removeDataDir(server.dataDir);
  });

  it('lists its versions and auth info without a token, and the current user with one', async () => {
    const anonymous = client(server.url);
    const versions = expect(await anonymous('GET', '/versions'), 200, 'versions');
    check('2.1', 'Public/versions_GET.json', versions);
    check('foundation', 'versions_GET.json', versions);
    assert.deepEqual(versions.versions.map((v: { version_id: string }) => v.version_id), ['2.0', '2.1', '3.0']);
    check('2.0', 'Public/version_GET.json', expect(await anonymous('GET', '/version'), 200, '2.0 version'));
    const auth20 = expect(await anonymous('GET', '/auth'), 200, '2.0 auth');
    check('2.0', 'Authentication/auth_GET.json', auth20);
    assert.equal(auth20.oauth2_token_url, `${server.url}/oauth2/token`);
    for (const version of ['2.1', '3.0']) {
      const auth = expect(await anonymous('GET', `/${version}/auth`), 200, `${version} auth`);
      check(version === '3.0' ? 'foundation' : '2.1', version === '3.0' ? 'auth_GET.json' : 'Authentication/auth_GET.json', auth);
      assert.equal(auth.oauth2_auth_url, `${server.url}/oauth2/authorize`);
      assert.equal(auth.http_basic_supported, false);
      assert.deepEqual(auth.supported_oauth2_flows, ['authorization_code_grant']);
    }
    // A client follows the auth info (seed 001: seed 000's flow at /oauth2): the sign-in page, the code, the token.
    const page = await fetch(`${auth20.oauth2_auth_url}?client_id=${app.client_id}&redirect_uri=${encodeURIComponent(app.redirect_uri)}&response_type=code`);
    assert.equal(page.status, 200);
    const code = await authorize(server.url, new URLSearchParams({ client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', state: 's' }), MEMBER, new URL(auth20.oauth2_auth_url).pathname);
    const grant = await fetch(auth20.oauth2_token_url, { method: 'POST', body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, code, grant_type: 'authorization_code' }) });
    assert.equal(grant.status, 200);
    const viaAuthInfo = client(server.url, ((await grant.json()) as { access_token: string }).access_token);
    assert.equal(expect(await viaAuthInfo('GET', '/3.0/current-user'), 200, 'signed in through the auth info').id, MEMBER.email);
    for (const version of ['2.0', '2.1', '3.0']) {
      const user = expect(await member('GET', `/${version}/current-user`), 200, `${version} current user`);
      assert.deepEqual(user, { id: MEMBER.email, name: 'member' });
      if (version !== '2.0') check(version === '3.0' ? 'foundation' : '2.1', version === '3.0' ? 'user_GET.json' : 'User/user_GET.json', user);
      const missing = expect(await anonymous('GET', `/${version}/current-user`), 401, `${version} without a token`);
      assert.match(missing.message, /Bearer/);
      expect(await client(server.url, 'not-a-token')('GET', `/${version}/projects`), 401, `${version} with a bad token`);
    }
  });

  it('creates, lists, renames and archives issue boards, which only the platform project\'s members see', async () => {
    const inProject = expect(await admin('POST', '/2.0/projects', { name: 'Second board', platform_project_id: board.platform_project_id }), 201, 'a second board');
    assert.equal(inProject.platform_project_id, board.platform_project_id);
    check('2.0', 'Project/project_GET.json', inProject);
    for (const version of ['2.0', '2.1', '3.0'] as const) {
      const boards = expect(await member('GET', `/${version}/projects?platform_project_id=${board.platform_project_id}`), 200, `${version} boards`);
      assert.deepEqual(boards.map((b: { name: string }) => b.name), ['Coordination', 'Second board']);
      for (const b of boards) check(version, 'Project/project_GET.json', b);
      const one = expect(await member('GET', `/${version}/projects/${board.project_id}?includeAuthorization=true`), 200, `${version} board`);
      check(version, 'Project/project_GET.json', one);
      assert.equal(one.platform_project_name, 'Coordination');
      if (version !== '2.0') assert.equal(one.platform_issue_board_name, 'Coordination');
      if (version === '3.0') assert.deepEqual(one.authorization.project_actions, ['update', 'createTopic', 'createDocument']);
    }
    assert.deepEqual(expect(await stranger('GET', '/2.1/projects'), 200, 'a stranger\'s boards'), []);
    expect(await stranger('GET', `/3.0/projects/${board.project_id}`), 404, 'another project\'s board');
    expect(await admin('GET', '/3.0/projects/not-a-uuid'), 404, 'a malformed id');
    expect(await admin('POST', '/2.0/projects', { name: 'x', platform_project_id: 'nope' }), 404, 'an unknown platform project');
    expect(await admin('POST', '/2.0/projects', {}), 400, 'no name');

    const renamed = expect(await member('PUT', `/2.1/projects/${inProject.project_id}`, { name: 'Renamed' }), 200, 'rename');
    check('2.1', 'Project/project_GET.json', renamed);
    assert.equal(renamed.name, 'Renamed');
    expect(await member('PUT', `/3.0/projects/${inProject.project_id}`, { name: 'Renamed', platform_archived: true }), 200, 'archive');
    const names = async (archived: string) => (expect(await member('GET', `/3.0/projects?platform_archived=${archived}`), 200, archived) as { name: string }[]).map((b) => b.name);
    assert.deepEqual(await names('not-archived'), ['Coordination']);
    assert.deepEqual(await names('archived'), ['Renamed']);
    assert.deepEqual(await names('all'), ['Coordination', 'Renamed']);
    expect(await member('GET', '/3.0/projects?platform_archived=maybe'), 400, 'an unknown archive filter');
  });

  it('serves the extensions, and edits statuses and types within the rules', async () => {
    const base = `/3.0/projects/${board.project_id}/extensions`;
    for (const version of ['2.0', '2.1', '3.0'] as const) {
      const extensions = expect(await member('GET', `/${version}/projects/${board.project_id}/extensions`), 200, `${version} extensions`);
      check(version, 'Project/extensions_GET.json', extensions);
      assert.deepEqual(extensions.user_id_type, [ADMIN.email, MEMBER.email]);
      assert.deepEqual(extensions.topic_status, ['Open', 'In Progress', 'Resolved', 'Closed']);
    }
    assert.deepEqual(expect(await member('GET', `${base}/users`), 200, 'users'), [{ id: ADMIN.email, name: 'admin' }, { id: MEMBER.email, name: 'member' }]);

    // Statuses: defaults, a duplicate, renaming (topics follow), rule 2.
    assert.deepEqual(expect(await member('POST', `${base}/statuses`, { name: 'Blocked' }), 201, 'a status'), { name: 'Blocked', color: '#000000', type: 'open' });
    expect(await member('POST', `${base}/statuses`, { name: 'Blocked' }), 409, 'the same status again');
    expect(await member('POST', `${base}/statuses`, { name: 'Odd', type: 'maybe' }), 400, 'an unknown status type');
    expect(await member('POST', `${base}/statuses`, { name: 'Odd', color: 'red' }), 400, 'a colour that is not hexadecimal');
    const topic = expect(await member('POST', `/3.0/projects/${board.project_id}/topics`, { title: 'Blocked door', topic_status: 'Blocked' }), 201, 'a topic');
    assert.deepEqual(expect(await member('PUT', `${base}/statuses`, { existingName: 'Blocked', name: 'On hold', color: '#123456' }), 200, 'rename'), { name: 'On hold', color: '#123456', type: 'open' });
    assert.equal(expect(await member('GET', `/3.0/projects/${board.project_id}/topics/${topic.guid}`), 200, 'the topic').topic_status, 'On hold');
    expect(await member('DELETE', `${base}/statuses`, { name: 'On hold' }), 400, 'a status in use');
    expect(await member('DELETE', `${base}/statuses`, { name: 'Nope' }), 404, 'an unknown status');
    for (const name of ['In Progress', 'Open']) expect(await member('PUT', `${base}/statuses`, { existingName: name, type: 'closed' }), 200, `${name} closed`);
    const lastOpen = expect(await member('PUT', `${base}/statuses`, { existingName: 'On hold', type: 'closed' }), 400, 'the last open status made closed');
    assert.match(lastOpen.message, /last open status/);
    expect(await member('DELETE', `/3.0/projects/${board.project_id}/topics/${topic.guid}`), 204, 'the topic deleted');
    expect(await member('DELETE', `${base}/statuses`, { name: 'On hold' }), 400, 'the last open status deleted');
    expect(await member('PUT', `${base}/statuses`, { existingName: 'Open', type: 'open' }), 200, 'Open reopened');
    expect(await member('DELETE', `${base}/statuses?name=${encodeURIComponent('On hold')}`), 204, 'a status deleted by query');
    assert.deepEqual((expect(await member('GET', `${base}/statuses?include-unlinked=true`), 200, 'statuses') as { name: string }[]).map((s) => s.name), ['Open', 'In Progress', 'Resolved', 'Closed']);

    // Types: rule 3.
    assert.deepEqual(expect(await member('POST', `${base}/types`, { name: 'Fault', color: '#ff0000' }), 201, 'a type'), { name: 'Fault', color: '#FF0000' });
    for (const name of ['Issue', 'Clash', 'Request', 'Remark']) expect(await member('DELETE', `${base}/types`, { name }), 204, `${name} deleted`);
    expect(await member('DELETE', `${base}/types`, { name: 'Fault' }), 400, 'the last type');
    expect(await member('PUT', `${base}/types`, { existingName: 'Fault', name: 'Issue' }), 200, 'renamed');
    assert.deepEqual(expect(await member('GET', `${base}/types`), 200, 'types'), [{ name: 'Issue', color: '#FF0000' }]);
    expect(await member('PUT', `${base}/types/link`, { name: 'Issue', unlinkedName: 'Imported' }), 404, 'linking a type that is not unlinked');
    expect(await member('PUT', `${base}/users/link`, { existingUserId: MEMBER.email, unlinkedUser: 'someone@elsewhere' }), 404, 'linking a user that is not unlinked');
    expect(await stranger('GET', `${base}/statuses`), 404, 'a stranger');
  });

  describe('topics', () => {
    let topics: string;
    before(async () => {
      const fresh = expect(await admin('POST', '/2.0/projects', { name: 'Topics', platform_project_id: board.platform_project_id }), 201, 'a board for topics');
      topics = `/projects/${fresh.project_id}/topics`;
    });

    it('creates topics with the defaults and refuses values the board does not have, listing those it has', async () => {
      const created = expect(await member('POST', `/3.0${topics}`, { title: 'Wall too thin', labels: ['Structure'], assigned_to: ADMIN.email.toUpperCase(), due_date: '2030-01-02T03:04:05.000+0100' }), 201, 'a topic');
      check('3.0', 'Collaboration/Topic/topic_GET.json', created);
      assert.equal(created.topic_type, 'Issue');
      assert.equal(created.topic_status, 'Open');
      assert.equal(created.assigned_to, ADMIN.email);
      assert.equal(created.creation_author, MEMBER.email);
      assert.equal(created.due_date, '2030-01-02T02:04:05.000+0000');
      assert.match(created.creation_date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
      assert.equal(created.platform_issue_number, 1);
      assert.equal(created.server_assigned_id, '1');
      assert.deepEqual(created.platform_assigned_to.user, { ref: created.platform_assigned_to.user.ref, email: ADMIN.email, name: 'admin' });
      for (const version of ['2.0', '2.1'] as const) {
        const read = expect(await member('GET', `/${version}${topics}/${created.guid}?includeAuthorization=true`), 200, `${version} read`);
        check(version, 'Collaboration/Topic/topic_GET.json', read);
        if (version === '2.1') assert.deepEqual(read.authorization.topic_status, ['Open', 'In Progress', 'Resolved', 'Closed']);
      }

      const refused = [
        [{ title: 'x', topic_status: 'Done' }, /topic_status.*"Done".*"Open", "In Progress", "Resolved", "Closed"/],
        [{ title: 'x', topic_type: 'Bug' }, /topic_type.*"Issue", "Clash"/],
        [{ title: 'x', labels: ['Nope'] }, /labels.*Nope.*"Architecture"/],
        [{ title: 'x', priority: 'Urgent' }, /priority.*"Low"/],
        [{ title: 'x', stage: 'Demolition' }, /stage/],
        [{ title: 'x', assigned_to: STRANGER.email }, /assigned_to.*not a user of the board/],
        [{ title: 'x', due_date: 'soon' }, /due_date/],
        [{ title: 'x', index: 1.5 }, /index/],
        [{ title: 'x', guid: 'abc' }, /guid.*UUID/],
        [{ title: '' }, /title/],
        [{}, /title/],
      ] as const;
      for (const [body, message] of refused) assert.match(expect(await member('POST', `/3.0${topics}`, body), 400, JSON.stringify(body)).message, message);
      expect(await member('POST', `/2.1${topics}`, { title: 'x', reference_links: ['a', 'b'] }), 400, 'two reference links in 2.1');
      const guid = randomUUID();
      expect(await member('POST', `/2.1${topics}`, { title: 'Given guid', guid }), 201, 'a topic with its guid');
      expect(await member('POST', `/3.0${topics}`, { title: 'Again', guid }), 409, 'the same guid again');
      expect(await stranger('POST', `/3.0${topics}`, { title: 'x' }), 404, 'a stranger\'s topic');
      expect(await member('GET', `/3.0${topics}/${randomUUID()}`), 404, 'an unknown topic');
    });

    it('replaces a topic, records what changed as 3.0 events, and lets only its author or an admin delete it', async () => {
      const created = expect(await member('POST', `/3.0${topics}`, { title: 'Duct clash', topic_type: 'Clash', priority: 'High', labels: ['MEP'] }), 201, 'a topic');
      const updated = expect(await admin('PUT', `/3.0${topics}/${created.guid}`, { title: 'Duct clash at grid B', topic_status: 'In Progress', labels: ['MEP', 'Coordination'] }), 200, 'update');
      check('3.0', 'Collaboration/Topic/topic_GET.json', updated);
      assert.equal(updated.topic_type, 'Clash', 'kept when absent');
      assert.equal(updated.priority, undefined, 'cleared when absent');
      assert.equal(updated.modified_author, ADMIN.email);
      const events = expect(await member('GET', `/3.0${topics}/${created.guid}/events`), 200, 'events');
      for (const event of events) check('3.0', 'Collaboration/Events/topic_event_GET.json', event);
      assert.deepEqual(events.map((e: { author: string; actions: unknown[] }) => [e.author, e.actions]), [
        [MEMBER.email, [{ type: 'topic_created' }]],
        [ADMIN.email, [{ type: 'title_updated', value: 'Duct clash at grid B' }, { type: 'status_updated', value: 'In Progress' }, { type: 'priority_removed' }, { type: 'label_added', value: 'Coordination' }]],
      ]);
      expect(await member('GET', `/2.1${topics}/${created.guid}/events`), 404, 'events before 3.0');
      expect(await member('PUT', `/3.0${topics}/${created.guid}`, { title: 'x', topic_status: 'Nope' }), 400, 'an unknown status');

      const byAdmin = expect(await admin('POST', `/3.0${topics}`, { title: 'Admin\'s' }), 201, 'an admin\'s topic');
      const asMember = expect(await member('GET', `/3.0${topics}/${byAdmin.guid}?includeAuthorization=true`), 200, 'read');
      assert.ok(!asMember.authorization.topic_actions.includes('delete'), 'a member may not delete another\'s topic');
      expect(await member('DELETE', `/3.0${topics}/${byAdmin.guid}`), 403, 'deleting another\'s topic');
      expect(await admin('DELETE', `/3.0${topics}/${created.guid}`), 204, 'an admin deletes a member\'s');
      expect(await member('GET', `/3.0${topics}/${created.guid}`), 404, 'deleted');
    });

    it('lists topics with OData: filters, order, paging and selection', async () => {
      const board2 = expect(await admin('POST', '/2.0/projects', { name: 'OData', platform_project_id: board.platform_project_id }), 201, 'a board');
      const path = `/projects/${board2.project_id}/topics`;
      const rows = [
        { title: 'A', topic_status: 'Open', labels: ['MEP'], index: 3, creation_date: '2024-01-01T10:00:00.000+0000', assigned_to: MEMBER.email },
        { title: 'B', topic_status: 'Closed', labels: ['Structure', 'MEP'], index: 1, creation_date: '2024-02-01T10:00:00.000+0000' },
        { title: 'C', topic_status: 'Open', labels: [], index: 2, creation_date: '2024-03-01T10:00:00.000+0000', stage: 'Design' },
        { title: 'D\'s "50%"', topic_status: 'Resolved', labels: ['Architecture'], creation_date: '2024-04-01T10:00:00.000+0000' },
      ];
      for (const row of rows) expect(await admin('POST', `/2.1${path}`, row), 201, row.title);
      const titles = async (version: string, query: string) => {
        const list = expect(await member('GET', `/${version}${path}?${query}`), 200, query);
        for (const topic of list) check(version as '2.1', 'Collaboration/Topic/topic_GET.json', topic, query);
        return list.map((t: { title: string }) => t.title);
      };
      const q = (options: Record<string, string>) => new URLSearchParams(options).toString();
      assert.deepEqual(await titles('2.0', ''), ['A', 'B', 'C', 'D\'s "50%"'], '2.0 lists without a filter');
      assert.match(expect(await member('GET', `/2.1${path}`), 400, 'no filter in 2.1').message, /needs a \$filter/);
      assert.deepEqual(await titles('2.1', q({ $filter: "topic_status eq 'Open'" })), ['A', 'C']);
      assert.deepEqual(await titles('2.1', q({ $filter: "contains(labels, 'MEP') and topic_status ne 'Closed'" })), ['A']);
      assert.deepEqual(await titles('3.0', q({ $filter: "labels/any(label: label eq 'MEP' or label eq 'Architecture')" })), ['A', 'B', 'D\'s "50%"']);
      assert.deepEqual(await titles('3.0', q({ $filter: 'creation_date gt 2024-02-01T11:00:00+02:00' })), ['B', 'C', 'D\'s "50%"'], 'a date with an offset: 09:00Z');
      assert.deepEqual(await titles('3.0', q({ $filter: 'creation_date gt 2024-02-01T10:00:00.000+0000 and creation_date lt 2024-04-01T00:00:00Z' })), ['C'], 'BCF\'s own date form');
      assert.deepEqual(await titles('3.0', q({ $filter: `assigned_to eq '${MEMBER.email.toUpperCase()}' or stage eq 'Design'` })), ['A', 'C']);
      assert.deepEqual(await titles('3.0', q({ $filter: "not (topic_status eq 'Open') and index ge 1" })), ['B']);
      assert.deepEqual(await titles('3.0', q({ $filter: "contains(title, '50%')" })), ['D\'s "50%"']);
      assert.deepEqual(await titles('3.0', q({ $filter: "title eq 'D''s \"50%\"'" })), ['D\'s "50%"']);
      assert.deepEqual(await titles('3.0', q({ $filter: 'index ge 0', $orderby: 'index desc' })), ['A', 'C', 'B']);
      assert.deepEqual(await titles('3.0', q({ $filter: "topic_status ne 'x'", $orderby: 'creation_date desc', $top: '2', $skip: '1' })), ['C', 'B']);
      const selected = expect(await member('GET', `/3.0${path}?${q({ $filter: "title eq 'A'", $select: 'title,creation_author,assigned_to' })}`), 200, '$select');
      assert.deepEqual(Object.keys(selected[0]).sort(), ['assigned_to', 'creation_author', 'guid', 'platform_assigned_to', 'platform_issue_number', 'title']);

      const refused = [
        [{ $filter: "colour eq 'red'" }, /unknown field "colour"/],
        [{ $filter: "topic_status eq 'Open' xor true" }, /not valid OData/],
        [{ $filter: "labels eq 'MEP'" }, /contains\(labels/],
        [{ $filter: "creation_date gt 'yesterday'" }, /date-time/],
        [{ $filter: 'index eq null and title gt 3' }, /title is compared with a string/],
        [{ $filter: "topic_status eq 'Open'", $orderby: 'title' }, /sorted by/],
        [{ $filter: "topic_status eq 'Open'", $top: '501' }, /\$top/],
        [{ $filter: "topic_status eq 'Open'", $select: 'title,colour' }, /unknown field\(s\) colour/],
      ] as const;
      for (const [options, message] of refused) assert.match(expect(await member('GET', `/3.0${path}?${q(options)}`), 400, JSON.stringify(options)).message, message);
    });
  });
});
