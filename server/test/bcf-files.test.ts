import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';
import { bcfSchemas } from './bcf-schemas.js';
import { bcfClient } from './bcf-client.js';
import { bcfFolder, comparable, testCases } from './bcf-archives.js';
import { readBcf } from '../services/bcf/bcf-xml/read.js';
import type { BcfArchive } from '../services/bcf/bcf-xml/archive.js';

/**
 * BCF-XML through the platform: every one of buildingSMART's test cases is imported into a
 * board, read through the BCF API (each answer valid against the official schema),
 * exported as 2.1 and 3.0 and imported again, with nothing lost: topics, comments,
 * viewpoints with their snapshots, document references with their documents, related
 * topics, labels, due dates. Values the board lacks become unlinked extension entries,
 * which linking merges; bad files import nothing.
 */
const MEMBER = { email: 'architect@example.com', password: 'a member password' };

describe('BCF files', () => {
  let server: TestServer;
  let app: OAuthApp;
  let token: string;
  let projectId: string;
  const check = bcfSchemas();

  const call = (method: string, url: string, body?: unknown, contentType?: string) => bcfClient(server.url, token)(method, url, body, contentType ? { 'Content-Type': contentType } : {});
  const ok = async (status: number, answer: ReturnType<typeof call>, what: string) => {
    const a = await answer;
    assert.equal(a.status, status, `${what}: ${a.status} ${a.text.slice(0, 300)}`);
    return a;
  };
  const newBoard = async (name: string): Promise<string> => (await ok(201, call('POST', '/2.0/projects', { name, platform_project_id: projectId }), 'a board')).json.project_id;
  const importFile = (board: string, bytes: Uint8Array) => call('POST', `/3.0/projects/${board}/import`, bytes, 'application/octet-stream');
  /**
   * What the server keeps of a file: the topics as the version holds them, related topics
   * as a set, its own issue numbers, user ids without case (a member's is written as the
   * platform has it).
   */
  const kept = (archive: BcfArchive, version: '2.1' | '3.0') =>
    comparable(archive, version)
      .map((t) => ({
        ...t,
        server_assigned_id: undefined,
        related_topics: [...t.related_topics].sort(),
        creation_author: t.creation_author.toLowerCase(),
        modified_author: t.modified_author?.toLowerCase(),
        assigned_to: t.assigned_to?.toLowerCase(),
        comments: t.comments
          .map((c) => ({ ...c, author: c.author.toLowerCase(), modified_author: c.modified_author?.toLowerCase() }))
          .sort((a, b) => (a.date ?? 0) - (b.date ?? 0) || a.guid.localeCompare(b.guid)),
        document_references: [...t.document_references].sort((a, b) => a.guid.localeCompare(b.guid)),
        // Viewpoints written in one transaction have one creation time: the API lists them by guid (their `index` keeps an order).
        viewpoints: [...t.viewpoints].sort((a, b) => a.guid.localeCompare(b.guid)),
      }))
      .sort((a, b) => a.guid.localeCompare(b.guid));
  /** Topic by topic and field by field, so that a difference names its place. */
  const assertKept = (actual: BcfArchive, expected: BcfArchive, version: '2.1' | '3.0', what: string) => {
    const [a, e] = [kept(actual, version), kept(expected, version)];
    assert.deepEqual(a.map((t) => t.guid), e.map((t) => t.guid), `${what}: the topics`);
    for (const [i, topic] of e.entries()) {
      for (const key of Object.keys(topic) as (keyof typeof topic)[]) assert.deepEqual(a[i][key], topic[key], `${what}: topic ${topic.guid}, ${key}`);
    }
  };

  before(async () => {
    const env = serverEnv(newDataDir());
    app = cli(env, 'app', 'add', '--name', 'BCF files', '--redirect-uri', 'http://127.0.0.1:9/cb');
    cli(env, 'user', 'add', '--email', ADMIN.email, '--password', ADMIN.password);
    cli(env, 'user', 'add', '--email', MEMBER.email, '--password', MEMBER.password, '--name', 'Architect');
    server = await startServer(env);
    token = (await signInAs(server.url, app)).access_token;
    projectId = (await ok(201, call('POST', '/2.0/projects', { name: 'BCF files' }), 'a project')).json.platform_project_id;
    // The member joins the project with the cli, which needs the data folder.
    await server.stop();
    cli(env, 'member', 'add', '--project', projectId, '--email', MEMBER.email, '--role', 'member');
    server = await startServer(env);
    token = (await signInAs(server.url, app)).access_token;
  });

  after(async () => {
    await server.stop();
    removeDataDir(server.dataDir);
  });

  for (const file of testCases()) {
    const name = path.relative(path.join(bcfFolder(), 'test-cases'), file);
    it(`imports ${name}, serves it through the API, and exports it as 2.1 and 3.0 with nothing lost`, async () => {
      const bytes = new Uint8Array(readFileSync(file));
      const original = readBcf(bytes);
      const board = await newBoard(name);
      const summary = (await ok(201, importFile(board, bytes), 'import')).json;
      assert.equal(summary.topics, original.topics.length);
      assert.equal(summary.viewpoints, original.topics.reduce((n, t) => n + t.viewpoints.length, 0));

      const topics = (await ok(200, call('GET', `/3.0/projects/${board}/topics?$filter=${encodeURIComponent('platform_issue_number ge 1')}`), 'topics')).json;
      assert.deepEqual(topics.map((t: { guid: string }) => t.guid).sort(), original.topics.map((t) => t.guid).sort());
      for (const topic of topics) {
        check('3.0', 'Collaboration/Topic/topic_GET.json', topic, name);
        const source = original.topics.find((t) => t.guid === topic.guid)!;
        assert.equal(topic.title, source.title);
        assert.deepEqual(topic.labels, source.labels);
        assert.equal(topic.platform_imported_by, ADMIN.email);
        const comments = (await ok(200, call('GET', `/3.0/projects/${board}/topics/${topic.guid}/comments`), 'comments')).json;
        for (const comment of comments) check('3.0', 'Collaboration/Comment/comment_GET.json', comment, name);
        assert.deepEqual(comments.map((c: { comment: string }) => c.comment), [...source.comments].sort((a, b) => Date.parse(a.date) - Date.parse(b.date) || a.guid.localeCompare(b.guid)).map((c) => c.comment));
        const viewpoints = (await ok(200, call('GET', `/3.0/projects/${board}/topics/${topic.guid}/viewpoints`), 'viewpoints')).json;
        for (const viewpoint of viewpoints) {
          check('3.0', 'Collaboration/Viewpoint/viewpoint_GET.json', viewpoint, name);
          const snapshot = source.viewpoints.find((v) => v.guid === viewpoint.guid)!.snapshot;
          if (snapshot) assert.ok((await ok(200, call('GET', `/3.0/projects/${board}/topics/${topic.guid}/viewpoints/${viewpoint.guid}/snapshot`), 'snapshot')).bytes.equals(snapshot.bytes), 'the snapshot, byte for byte');
        }
      }

      for (const version of ['2.1', '3.0'] as const) {
        const exported = await ok(200, call('GET', `/3.0/projects/${board}/export?version=${version}`), `export ${version}`);
        assert.match(exported.headers.get('content-disposition') ?? '', /\.bcf/);
        const archive = readBcf(exported.bytes);
        assert.equal(archive.version, version);
        assertKept(archive, original, version, `${name}: exported as ${version}`);
        // And that file, imported into another board, exports the same again.
        const again = await newBoard(`${name} (${version})`);
        await ok(201, importFile(again, exported.bytes), `import of the ${version} export`);
        const twice = readBcf((await ok(200, call('GET', `/3.0/projects/${again}/export?version=${version}`), 'export again')).bytes);
        assertKept(twice, original, version, `${name}: through ${version} twice`);
      }
    });
  }

  it('records values the board lacks as unlinked entries, which linking merges into the board\'s own', async () => {
    const file = testCases().find((f) => f.includes('Document reference internal'))!;
    const board = await newBoard('Linking');
    const summary = (await ok(201, importFile(board, new Uint8Array(readFileSync(file))), 'import')).json;
    // The file's extensions and its topic's values, less what the board has (Architect@example.com is a member).
    assert.deepEqual(summary.added.status, ['OPEN', 'IN_PROGRESS', 'SOLVED', 'CLOSED']);
    assert.ok(summary.added.type.includes('ERROR'), summary.added.type);
    assert.ok(summary.added.user.includes('OtherUser@doe.com') && !summary.added.user.some((u: string) => u.toLowerCase() === MEMBER.email), summary.added.user);
    const base = `/3.0/projects/${board}/extensions`;
    const statuses = (await ok(200, call('GET', `${base}/statuses?include-unlinked=true`), 'statuses')).json;
    assert.deepEqual(statuses.find((s: { name: string }) => s.name === 'OPEN'), { name: 'OPEN', unlinked: true });
    assert.ok(!(await ok(200, call('GET', `${base}/statuses`), 'linked statuses')).json.some((s: { name: string }) => s.name === 'OPEN'));
    const [topic] = (await ok(200, call('GET', `/3.0/projects/${board}/topics?$filter=${encodeURIComponent("topic_status eq 'OPEN'")}`), 'topics')).json;
    assert.equal(topic.creation_author, MEMBER.email, 'Architect@example.com is the member, matched without case');
    // Rule 1: an unlinked status is refused in a topic.
    assert.equal((await call('PUT', `/3.0/projects/${board}/topics/${topic.guid}`, { title: topic.title, topic_status: 'OPEN' })).status, 400);

    assert.deepEqual((await ok(200, call('PUT', `${base}/statuses/link`, { name: 'Open', unlinkedName: 'OPEN' }), 'link status')).json, { name: 'Open', color: '#D32F2F', type: 'open' });
    assert.deepEqual((await ok(200, call('PUT', `${base}/types/link`, { name: 'Issue', unlinkedName: 'ERROR' }), 'link type')).json, { name: 'Issue', color: '#D32F2F' });
    assert.deepEqual((await ok(200, call('PUT', `${base}/users/link`, { existingUserId: ADMIN.email, unlinkedUser: 'OtherUser@doe.com' }), 'link user')).json, { id: ADMIN.email, name: ADMIN.email });
    const linked = (await ok(200, call('GET', `/3.0/projects/${board}/topics/${topic.guid}`), 'topic')).json;
    assert.deepEqual([linked.topic_status, linked.topic_type, linked.assigned_to], ['Open', 'Issue', ADMIN.email]);
    for (const [kind, merged] of [['statuses', 'OPEN'], ['types', 'ERROR'], ['users', 'OtherUser@doe.com']]) {
      const all = (await ok(200, call('GET', `${base}/${kind}?include-unlinked=true`), kind)).json;
      assert.ok(!all.some((e: { name: string; id?: string }) => (e.id ?? e.name) === merged), `${merged} merged away`);
      assert.ok(all.some((e: { unlinked?: boolean }) => e.unlinked), `the other unlinked ${kind} stay`);
    }
    assert.equal((await call('PUT', `${base}/statuses/link`, { name: 'Open', unlinkedName: 'OPEN' })).status, 404, 'linked already');
  });

  it('removes the files of a deleted topic, and of every board of a deleted project', async () => {
    const created = (await ok(201, call('POST', '/2.0/projects', { name: 'To delete' }), 'a board in a new project')).json;
    const file = testCases().find((f) => f.includes('MaximumInformation') && f.includes('v2.1'))!;
    await ok(201, importFile(created.project_id, new Uint8Array(readFileSync(file))), 'import');
    const folder = path.join(server.dataDir, 'blobs', 'bcf', created.project_id);
    const files = () => (existsSync(folder) ? readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0);
    const before = files();
    assert.ok(before >= 3, `${before} files: snapshots, bitmaps, documents`);
    const [topic] = readBcf(new Uint8Array(readFileSync(file))).topics.filter((t) => t.viewpoints.some((v) => v.snapshot));
    await ok(204, call('DELETE', `/3.0/projects/${created.project_id}/topics/${topic.guid}`), 'delete the topic');
    assert.ok(files() < before, 'its viewpoint images are gone');
    const v1 = await fetch(`${server.url}/1.0/project?project_id=${created.platform_project_id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    assert.equal(v1.status, 204);
    assert.equal(files(), 0, 'nothing of the board is left');
  });

  it('imports nothing of a file that is not BCF or whose topics the board has, and says why', async () => {
    const board = await newBoard('Refusals');
    const count = async () => (await ok(200, call('GET', `/3.0/projects/${board}/topics?$filter=${encodeURIComponent('platform_issue_number ge 1')}`), 'topics')).json.length;
    const notZip = await importFile(board, new TextEncoder().encode('ISO-10303-21;'));
    assert.equal(notZip.status, 400);
    assert.match(notZip.json.message, /not a zip/);
    const file = new Uint8Array(readFileSync(testCases().find((f) => f.includes('MaximumInformation') && f.includes('v2.1'))!));
    await ok(201, importFile(board, file), 'the first import');
    const topics = await count();
    const twice = await importFile(board, file);
    assert.equal(twice.status, 409);
    assert.match(twice.json.message, /has the topic/);
    assert.equal(await count(), topics, 'nothing more');
    const json = await call('POST', `/3.0/projects/${board}/import`, { file: 'x' });
    assert.equal(json.status, 415);
    assert.equal((await call('GET', `/3.0/projects/${board}/export?version=4.0`)).status, 400);
    assert.equal((await call('GET', `/3.0/projects/${await newBoard('Empty')}/export`)).status, 400, 'no topics to export');
  });
});
