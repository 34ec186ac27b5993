import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type TestServer } from './harness.js';
import { bcfClient, type BcfAnswer } from './bcf-client.js';

/**
 * Writes that arrive together (issue 22, part 5; `npm run soak -- load` is the long run):
 * a hundred topics and a hundred viewpoints posted at once are all answered 2xx and all
 * stored, numbered without gaps or repeats; the same guid posted twice at once is one
 * 201 and one 409, never a 500. On PostgreSQL the requests really run side by side
 * (a pool of connections); on PGlite one after another.
 */
const AT_ONCE = 100;
/** A 1x1 PNG (the snapshot), written here byte by byte. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Another snapshot: the same image with bytes after its end (a PNG all the same to the server). */
const OTHER_PNG = Buffer.concat([PNG, Buffer.from('another snapshot')]);

const viewpoint = (guid: string, i: number, snapshot = PNG) => ({
  guid,
  perspective_camera: { camera_view_point: { x: i, y: 2, z: 3 }, camera_direction: { x: 0, y: 1, z: 0 }, camera_up_vector: { x: 0, y: 0, z: 1 }, field_of_view: 60, aspect_ratio: 1.5 },
  snapshot: { snapshot_type: 'png', snapshot_data: snapshot.toString('base64') },
  components: { selection: [{ ifc_guid: `0${String(i).padStart(21, 'A')}` }], visibility: { default_visibility: true } },
});

/** The statuses of the answers, counted: `{201: 99, 409: 1}`. */
const statuses = (answers: BcfAnswer[]) => answers.reduce<Record<number, number>>((counts, a) => ({ ...counts, [a.status]: (counts[a.status] ?? 0) + 1 }), {});

describe('concurrent writes', () => {
  let server: TestServer;
  let bcf: ReturnType<typeof bcfClient>;
  let board: string;

  before(async () => {
    const env = serverEnv(newDataDir());
    const app = cli(env, 'app', 'add', '--name', 'concurrent', '--redirect-uri', 'http://127.0.0.1:9/cb');
    server = await startServer(env);
    bcf = bcfClient(server.url, (await signInAs(server.url, app)).access_token);
    const created = await bcf('POST', '/2.0/projects', { name: 'Concurrent' });
    assert.equal(created.status, 201, created.text);
    board = created.json.project_id;
  });

  after(async () => {
    await server.stop();
    removeDataDir(server.dataDir);
  });

  const newTopic = async (title: string) => {
    const answer = await bcf('POST', `/3.0/projects/${board}/topics`, { title });
    assert.equal(answer.status, 201, answer.text);
    return answer.json.guid as string;
  };

  it(`numbers ${AT_ONCE} topics created at once 1 to ${AT_ONCE}, each once`, async () => {
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => bcf('POST', `/3.0/projects/${board}/topics`, { title: `Topic ${i}` })));
    assert.deepEqual(statuses(answers), { 201: AT_ONCE }, answers.find((a) => a.status !== 201)?.text);
    const numbers = answers.map((a) => a.json.platform_issue_number as number).sort((a, b) => a - b);
    assert.deepEqual(numbers, Array.from({ length: AT_ONCE }, (_, i) => i + 1));
    const listed = await bcf('GET', `/3.0/projects/${board}/topics?$filter=${encodeURIComponent("title ne ''")}&$top=500`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(new Set(listed.json.map((t: { guid: string }) => t.guid)), new Set(answers.map((a) => a.json.guid)));
  });

  it(`stores every one of ${AT_ONCE} viewpoints posted at once on one topic, with its snapshot and event`, async () => {
    const topic = await newTopic('Many viewpoints');
    const guids = Array.from({ length: AT_ONCE }, () => randomUUID());
    const answers = await Promise.all(guids.map((guid, i) => bcf('POST', `/2.1/projects/${board}/topics/${topic}/viewpoints`, viewpoint(guid, i))));
    assert.deepEqual(statuses(answers), { 201: AT_ONCE }, answers.find((a) => a.status !== 201)?.text);
    const listed = await bcf('GET', `/2.1/projects/${board}/topics/${topic}/viewpoints`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.json.map((v: { guid: string }) => v.guid).sort(), [...guids].sort());
    const snapshots = await Promise.all(guids.map((guid) => bcf('GET', `/2.1/projects/${board}/topics/${topic}/viewpoints/${guid}/snapshot`)));
    for (const snapshot of snapshots) assert.deepEqual(snapshot.bytes, PNG);
    const events = await bcf('GET', `/3.0/projects/${board}/topics/${topic}/events`);
    assert.equal(events.status, 200, events.text);
    assert.equal(events.json.filter((e: { actions: { type: string }[] }) => e.actions.some((x) => x.type === 'viewpoint_added')).length, AT_ONCE);
  });

  it('answers the same guid posted twice at once with one 201 and one 409, never a 500, and keeps what the 201 sent', async () => {
    const topic = await newTopic('Twice');
    const pairs = 20;
    const topicGuids = Array.from({ length: pairs }, () => randomUUID());
    const viewpointGuids = Array.from({ length: pairs }, () => randomUUID());
    const answers = await Promise.all([
      ...topicGuids.flatMap((guid) => [0, 1].map(() => bcf('POST', `/2.1/projects/${board}/topics`, { guid, title: 'Posted twice' }))),
      ...viewpointGuids.flatMap((guid, i) => [PNG, OTHER_PNG].map((snapshot) => bcf('POST', `/2.1/projects/${board}/topics/${topic}/viewpoints`, viewpoint(guid, i, snapshot)))),
    ]);
    assert.deepEqual(statuses(answers), { 201: 2 * pairs, 409: 2 * pairs }, answers.find((a) => a.status >= 500)?.text);
    for (const conflict of answers.filter((a) => a.status === 409)) assert.match(conflict.json.message, /exists/);
    const listed = await bcf('GET', `/2.1/projects/${board}/topics/${topic}/viewpoints`);
    assert.deepEqual(listed.json.map((v: { guid: string }) => v.guid).sort(), [...viewpointGuids].sort());
    // The request answered 409 changed nothing: each snapshot is the one its 201 sent.
    const posted = answers.slice(2 * pairs);
    for (const [i, guid] of viewpointGuids.entries()) {
      const sent = posted[2 * i].status === 201 ? PNG : OTHER_PNG;
      const stored = await bcf('GET', `/2.1/projects/${board}/topics/${topic}/viewpoints/${guid}/snapshot`);
      assert.deepEqual(stored.bytes, sent, `the snapshot of viewpoint ${i}`);
    }
  });
});
