import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sampleFile } from '../../samples/files.js';
import { ADMIN, api, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';
import { bcfSchemas, expectStatus } from './bcf-schemas.js';
import { bcfClient as client } from './bcf-client.js';

/**
 * The BCF API's collaboration resources (seed 001) as a client sees them: viewpoints with
 * snapshots, bitmaps, components and model references (against a model imported through
 * the v1 API), comments linked to viewpoints, documents and document references, related
 * topics, and the 3.0 events they leave. Every answer is checked against buildingSMART's
 * JSON schemas of its version.
 */
const MEMBER = { email: 'member@example.com', password: 'a member password' };
const STRANGER = { email: 'stranger@example.com', password: 'a stranger password' };
/** The server's upload limit in this test: documents beyond it are refused (413). */
const UPLOAD_LIMIT = 2_000_000;

/** A 1x1 PNG, and bytes that start as a JPEG does. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64), Buffer.from([0xff, 0xd9])]);
const BITMAP = Buffer.concat([PNG.subarray(0, 8), randomBytes(32)]);

const point = (x: number, y: number, z: number) => ({ x, y, z });

describe('BCF API: comments, viewpoints, documents, related topics', () => {
  let server: TestServer;
  let app: OAuthApp;
  let admin: ReturnType<typeof client>;
  let member: ReturnType<typeof client>;
  let stranger: ReturnType<typeof client>;
  let board: { project_id: string; platform_project_id: string };
  let P: string;
  let model: { id: string };
  let emptyModel: { id: string };
  let wallGuid: string;
  const check = bcfSchemas();

  const expect = expectStatus(check);
  const topic = async (title: string) => expect(await member('POST', `/3.0/projects/${board.project_id}/topics`, { title }), 201, title).guid as string;

  before(async () => {
    const env = serverEnv(newDataDir(), { MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT) });
    app = cli(env, 'app', 'add', '--name', 'BCF client', '--redirect-uri', 'http://127.0.0.1:9/cb');
    for (const user of [ADMIN, MEMBER, STRANGER]) cli(env, 'user', 'add', '--email', user.email, '--password', user.password, '--name', user.email.split('@')[0]);
    server = await startServer(env);
    const adminToken = (await signInAs(server.url, app)).access_token;
    board = expect(await client(server.url, adminToken)('POST', '/2.0/projects', { name: 'Coordination' }), 201, 'a board');
    // A model of the board's platform project with one revision, for the model references.
    const v1 = api(server.url, adminToken);
    const ifc = readFileSync(sampleFile('house').ifc);
    wallGuid = /IFCWALL\('([^']{22})'/.exec(ifc.toString('latin1'))![1];
    model = (await v1.post(`/models/new?project_id=${board.platform_project_id}`, { name: 'House' })).json;
    emptyModel = (await v1.post(`/models/new?project_id=${board.platform_project_id}`, { name: 'Empty' })).json;
    const upload = await v1.upload(model.id, 'house.ifc', ifc);
    assert.equal(upload.status, 200, JSON.stringify(upload.json));
    assert.equal((await v1.waitForImport(upload.json.token)).json.result, 'success');
    // The cli needs the data folder: the server stops for it and starts again on the same folder.
    await server.stop();
    cli(env, 'member', 'add', '--project', board.platform_project_id, '--email', MEMBER.email, '--role', 'member');
    server = await startServer(env);
    admin = client(server.url, (await signInAs(server.url, app)).access_token);
    member = client(server.url, (await signInAs(server.url, app, MEMBER)).access_token);
    stranger = client(server.url, (await signInAs(server.url, app, STRANGER)).access_token);
    P = `/projects/${board.project_id}`;
  });

  after(async () => {
    await server.stop();
    removeDataDir(server.dataDir);
  });

  describe('viewpoints', () => {
    // Made once the sample's wall GlobalId is known.
    const perspectiveOf = () => ({
      index: 1,
      perspective_camera: { camera_view_point: point(10, -5.5, 1.7), camera_direction: point(-1, 0.5, 0), camera_up_vector: point(0, 0, 1), field_of_view: 60 },
      lines: [{ start_point: point(0, 0, 0), end_point: point(1, 2, 3) }],
      clipping_planes: [{ location: point(0, 0, 3), direction: point(0, 0, 1) }],
      bitmaps: [{ bitmap_type: 'png', bitmap_data: BITMAP.toString('base64'), location: point(1, 1, 1), normal: point(0, -1, 0), up: point(0, 0, 1), height: 2.5 }],
      snapshot: { snapshot_type: 'png', snapshot_data: PNG.toString('base64') },
      components: {
        selection: [{ ifc_guid: wallGuid, originating_system: 'Generator', authoring_tool_id: '42' }],
        coloring: [{ color: '#80FF0000', components: [{ ifc_guid: wallGuid }] }, { color: '00ff00', components: [{ ifc_guid: '0000000000000000000000' }] }],
        visibility: { default_visibility: false, exceptions: [{ ifc_guid: wallGuid }], view_setup_hints: { spaces_visible: false, space_boundaries_visible: false, openings_visible: true } },
      },
    });
    let perspective: ReturnType<typeof perspectiveOf>;
    before(() => {
      perspective = perspectiveOf();
    });
    const orthogonal = {
      orthogonal_camera: { camera_view_point: point(0, 0, 50), camera_direction: point(0, 0, -1), camera_up_vector: point(0, 1, 0), view_to_world_scale: 25 },
      snapshot: { snapshot_type: 'jpg', snapshot_data: JPG.toString('base64') },
    };

    it('stores a perspective viewpoint and serves it back with its snapshot, bitmap, components and best-guess models', async () => {
      const t = await topic('Wall at grid A');
      const vp = `/3.0${P}/topics/${t}/viewpoints`;
      const created = expect(await member('POST', vp, perspective), 201, 'a viewpoint');
      check('3.0', 'Collaboration/Viewpoint/viewpoint_GET.json', created);
      assert.match(created.guid, /^[0-9a-f-]{36}$/);
      assert.match(created.bitmaps[0].guid, /^[0-9a-f-]{36}$/);
      const { bitmap_data: _b, ...bitmap } = perspective.bitmaps[0];
      const expected = { ...perspective, guid: created.guid, snapshot: { snapshot_type: 'png' }, bitmaps: [{ ...bitmap, guid: created.bitmaps[0].guid }], authorization: { viewpoint_actions: ['delete'] } };
      assert.deepEqual(created, expected);
      assert.deepEqual(expect(await member('GET', `${vp}/${created.guid}`), 200, 'read'), expected);
      const list = expect(await member('GET', vp), 200, 'list');
      assert.deepEqual(list, [expected]);

      const snapshot = await member('GET', `${vp}/${created.guid}/snapshot`);
      assert.equal(snapshot.status, 200);
      assert.equal(snapshot.headers.get('content-type'), 'image/png');
      assert.deepEqual(snapshot.bytes, PNG);
      const image = await member('GET', `${vp}/${created.guid}/bitmaps/${created.bitmaps[0].guid}`);
      assert.equal(image.headers.get('content-type'), 'image/png');
      assert.deepEqual(image.bytes, BITMAP);
      expect(await member('GET', `${vp}/${created.guid}/bitmaps/${randomUUID()}`), 404, 'an unknown bitmap');

      const selection = expect(await member('GET', `${vp}/${created.guid}/selection`), 200, 'selection');
      check('3.0', 'Collaboration/Viewpoint/selection_GET.json', selection);
      assert.deepEqual(selection, { selection: perspective.components.selection });
      const coloring = expect(await member('GET', `${vp}/${created.guid}/coloring`), 200, 'coloring');
      check('3.0', 'Collaboration/Viewpoint/coloring_GET.json', coloring);
      assert.deepEqual(coloring, { coloring: perspective.components.coloring });
      const visibility = expect(await member('GET', `${vp}/${created.guid}/visibility`), 200, 'visibility');
      check('3.0', 'Collaboration/Viewpoint/visibility_GET.json', visibility);
      assert.deepEqual(visibility, { visibility: perspective.components.visibility });

      // Model references: the wall's GlobalId is in the imported model's revision 1.
      assert.deepEqual(expect(await member('GET', `${vp}/${created.guid}/models`), 200, 'models'), [{ modelRef: model.id, revisionRef: '1' }]);
      assert.deepEqual(expect(await member('PUT', `/2.1${P}/topics/${t}/viewpoints/${created.guid}/models`, [{ modelRef: model.id }]), 200, 'models set'), [{ modelRef: model.id, revisionRef: '1' }]);
      assert.deepEqual(expect(await member('PUT', `${vp}/${created.guid}/models`, []), 200, 'models cleared'), []);
      assert.deepEqual(expect(await member('GET', `${vp}/${created.guid}/models`), 200, 'models'), []);
      assert.match(expect(await member('PUT', `${vp}/${created.guid}/models`, [{ modelRef: emptyModel.id }]), 400, 'a model without revisions').message, /no revision/);
      assert.match(expect(await member('PUT', `${vp}/${created.guid}/models`, [{ modelRef: 'nope' }]), 400, 'an unknown model').message, /not a model/);
      expect(await member('PUT', `${vp}/${created.guid}/models`, [{ modelRef: model.id, revisionRef: '7' }]), 400, 'an unknown revision');
      expect(await member('PUT', `${vp}/${created.guid}/models`, [{ revisionRef: '1' }]), 400, 'no modelRef');
      assert.deepEqual(expect(await member('PUT', `${vp}/${created.guid}/models`, [{ modelRef: model.id, revisionRef: '1' }]), 200, 'with its revision'), [{ modelRef: model.id, revisionRef: '1' }]);

      // The other versions' shapes.
      const v21 = expect(await member('GET', `/2.1${P}/topics/${t}/viewpoints/${created.guid}`), 200, '2.1 read');
      check('2.1', 'Collaboration/Viewpoint/viewpoint_GET.json', v21);
      assert.deepEqual(v21.perspective_camera, perspective.perspective_camera);
      const v20 = expect(await member('GET', `/2.0${P}/topics/${t}/viewpoints/${created.guid}`), 200, '2.0 read');
      check('2.0', 'Collaboration/Viewpoint/viewpoint_GET.json', v20);
      assert.deepEqual(v20.lines, { line: perspective.lines });
      assert.deepEqual(v20.clipping_planes, { clipping_plane: perspective.clipping_planes });
      for (const v of expect(await member('GET', `/2.0${P}/topics/${t}/viewpoints`), 200, '2.0 list')) check('2.0', 'Collaboration/Viewpoint/viewpoint_GET.json', v);
      const components = expect(await member('GET', `/2.0${P}/topics/${t}/viewpoints/${created.guid}/components`), 200, '2.0 components');
      for (const c of components) check('2.1', 'Collaboration/Viewpoint/component.json', c, '2.0 component');
      for (const c of components) check('2.0', 'Collaboration/Component/component_PUT.json', c, '2.0 component');
      assert.deepEqual(components, [
        { ifc_guid: wallGuid, originating_system: 'Generator', authoring_tool_id: '42', selected: true, visible: true, color: '#80FF0000' },
        { ifc_guid: '0000000000000000000000', selected: false, visible: false, color: '00ff00' },
      ]);

      const events = expect(await member('GET', `/3.0${P}/topics/${t}/events`), 200, 'events');
      for (const event of events) check('3.0', 'Collaboration/Events/topic_event_GET.json', event);
      assert.deepEqual(events.at(-1).actions, [{ type: 'viewpoint_added', value: created.guid }]);
    });

    it('stores an orthogonal viewpoint with a JPEG snapshot, one without a snapshot, 2.0\'s wrapped lists, and deletes viewpoints in 3.0', async () => {
      const t = await topic('Roof plan');
      const vp = `/3.0${P}/topics/${t}/viewpoints`;
      const ortho = expect(await member('POST', vp, orthogonal), 201, 'orthogonal');
      check('3.0', 'Collaboration/Viewpoint/viewpoint_GET.json', ortho);
      assert.deepEqual(ortho, { guid: ortho.guid, orthogonal_camera: orthogonal.orthogonal_camera, snapshot: { snapshot_type: 'jpg' }, authorization: { viewpoint_actions: ['delete'] } });
      const jpeg = await member('GET', `${vp}/${ortho.guid}/snapshot`);
      assert.equal(jpeg.headers.get('content-type'), 'image/jpeg');
      assert.deepEqual(jpeg.bytes, JPG);
      assert.deepEqual(expect(await member('GET', `${vp}/${ortho.guid}/models`), 200, 'no components, no models'), []);
      assert.deepEqual(expect(await member('GET', `${vp}/${ortho.guid}/selection`), 200, 'no selection'), { selection: [] });

      const guid = randomUUID();
      const bare = expect(await member('POST', `/2.1${P}/topics/${t}/viewpoints`, { guid, perspective_camera: perspective.perspective_camera }), 201, 'no snapshot');
      check('2.1', 'Collaboration/Viewpoint/viewpoint_GET.json', bare);
      assert.equal(bare.guid, guid);
      assert.deepEqual(bare.snapshot, {});
      expect(await member('GET', `${vp}/${guid}/snapshot`), 404, 'no snapshot to serve');
      expect(await member('POST', vp, { guid }), 409, 'the same guid again');

      const wrapped = expect(await member('POST', `/2.0${P}/topics/${t}/viewpoints`, { lines: { line: perspective.lines }, clipping_planes: { clipping_plane: [] } }), 201, '2.0 wrapped lists');
      check('2.0', 'Collaboration/Viewpoint/viewpoint_GET.json', wrapped);
      assert.deepEqual(expect(await member('GET', `${vp}/${wrapped.guid}`), 200, 'read in 3.0').lines, perspective.lines);

      // A comment showing the viewpoint loses the link when it goes.
      const comment = expect(await member('POST', `/3.0${P}/topics/${t}/comments`, { comment: 'See the roof', viewpoint_guid: ortho.guid }), 201, 'a comment');
      expect(await member('DELETE', `/2.1${P}/topics/${t}/viewpoints/${ortho.guid}`), 404, 'no delete before 3.0');
      expect(await member('DELETE', `${vp}/${ortho.guid}`), 204, 'deleted');
      expect(await member('GET', `${vp}/${ortho.guid}`), 404, 'gone');
      expect(await member('GET', `${vp}/${ortho.guid}/snapshot`), 404, 'its snapshot gone');
      assert.equal(expect(await member('GET', `/3.0${P}/topics/${t}/comments/${comment.guid}`), 200, 'the comment').viewpoint_guid, undefined);
      assert.deepEqual(expect(await member('GET', vp), 200, 'list').map((v: { guid: string }) => v.guid), [guid, wrapped.guid]);
    });

    it('refuses malformed viewpoints, naming the field, and hides them from strangers', async () => {
      const t = await topic('Refusals');
      const vp = `/3.0${P}/topics/${t}/viewpoints`;
      const refused: [unknown, number, RegExp][] = [
        [{ components: { ...perspective.components, coloring: [{ color: 'red', components: [] }] } }, 400, /color/],
        [{ components: { ...perspective.components, coloring: [{ color: '#12345', components: [] }] } }, 400, /color/],
        [{ perspective_camera: { ...perspective.perspective_camera, field_of_view: 'wide' } }, 400, /field_of_view/],
        [{ perspective_camera: { camera_view_point: point(0, 0, 0) } }, 400, /camera_direction|perspective_camera/],
        [{ lines: [{ start_point: point(0, 0, 0) }] }, 400, /end_point|lines/],
        [{ components: { selection: [] } }, 400, /visibility/],
        [{ snapshot: { snapshot_type: 'gif', snapshot_data: '' } }, 400, /snapshot_type/],
        [{ snapshot: { snapshot_type: 'png', snapshot_data: 'not base64!' } }, 400, /snapshot_data/],
        [{ snapshot: { snapshot_type: 'png', snapshot_data: JPG.toString('base64') } }, 400, /not a PNG/],
        [{ bitmaps: [{ ...perspective.bitmaps[0], height: undefined }] }, 400, /height/],
        [{ index: 1.5 }, 400, /index/],
        [{ guid: 'abc' }, 400, /guid/],
      ];
      for (const [body, status, message] of refused) assert.match(expect(await member('POST', vp, body), status, JSON.stringify(body).slice(0, 100)).message, message);
      // JSON's 1e400 parses as Infinity, which no column keeps (api/unstorable-values.ts).
      const infinite = await member('POST', vp, '{"orthogonal_camera": {"camera_view_point": {"x": 1e400, "y": 0, "z": 0}, "camera_direction": {"x": 0, "y": 0, "z": -1}, "camera_up_vector": {"x": 0, "y": 1, "z": 0}, "view_to_world_scale": 1}}', { 'Content-Type': 'application/json' });
      assert.match(expect(infinite, 400, 'an infinite coordinate').message, /orthogonal_camera\/camera_view_point\/x is a number too large/);
      const huge = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]).toString('base64');
      expect(await member('POST', vp, { snapshot: { snapshot_type: 'png', snapshot_data: huge } }), 413, 'a snapshot over 10 MB');
      assert.deepEqual(expect(await member('GET', vp), 200, 'list'), []);
      expect(await member('GET', `${vp}/not-a-guid`), 404, 'a malformed guid');
      expect(await member('GET', `${vp}/${randomUUID()}/visibility`), 404, 'an unknown viewpoint');
      expect(await member('POST', `/3.0${P}/topics/${randomUUID()}/viewpoints`, {}), 404, 'an unknown topic');
      expect(await stranger('GET', vp), 404, 'a stranger');
      expect(await stranger('POST', vp, {}), 404, 'a stranger posting');
    });
  });

  describe('comments', () => {
    it('creates, lists, replaces and deletes comments linked to viewpoints, with their authorization', async () => {
      const t = await topic('Discussed');
      const base = `/3.0${P}/topics/${t}/comments`;
      const viewpoint = expect(await member('POST', `/3.0${P}/topics/${t}/viewpoints`, {}), 201, 'a viewpoint').guid;
      const first = expect(await member('POST', base, { comment: 'First', viewpoint_guid: viewpoint }), 201, 'a comment');
      check('3.0', 'Collaboration/Comment/comment_GET.json', first);
      assert.deepEqual(first, { guid: first.guid, date: first.date, author: MEMBER.email, comment: 'First', topic_guid: t, viewpoint_guid: viewpoint });
      assert.match(first.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
      const guid = randomUUID();
      const second = expect(await admin('POST', base, { comment: 'Second', guid }), 201, 'an admin\'s comment with its guid');
      assert.equal(second.guid, guid);
      expect(await member('POST', base, { comment: 'Again', guid }), 409, 'the same guid');
      const elsewhere = await topic('Elsewhere');
      expect(await member('POST', `/3.0${P}/topics/${elsewhere}/comments`, { comment: 'Again', guid }), 409, 'the same guid in another topic of the board');
      assert.match(expect(await member('POST', base, { comment: 'x', viewpoint_guid: randomUUID() }), 400, 'an unknown viewpoint').message, /viewpoint_guid/);
      const otherViewpoint = expect(await member('POST', `/3.0${P}/topics/${elsewhere}/viewpoints`, {}), 201, 'another topic\'s viewpoint').guid;
      expect(await member('POST', base, { comment: 'x', viewpoint_guid: otherViewpoint }), 400, 'another topic\'s viewpoint');
      assert.match(expect(await member('POST', base, {}), 400, 'no comment').message, /comment/);
      expect(await member('POST', base, { comment: 'x', viewpoint_guid: 'abc' }), 400, 'a malformed viewpoint guid');

      // 2.1's replies, 2.0's status.
      const reply = expect(await member('POST', `/2.1${P}/topics/${t}/comments`, { comment: 'Reply', reply_to_comment_guid: first.guid }), 201, 'a reply');
      check('2.1', 'Collaboration/Comment/comment_GET.json', reply);
      assert.equal(reply.reply_to_comment_guid, first.guid);
      expect(await member('POST', `/2.1${P}/topics/${t}/comments`, { comment: 'x', reply_to_comment_guid: randomUUID() }), 400, 'a reply to nothing');
      const in20 = expect(await member('GET', `/2.0${P}/topics/${t}/comments`), 200, '2.0 list');
      for (const c of in20) check('2.0', 'Collaboration/Comment/comment_GET.json', c);
      assert.deepEqual(in20.map((c: { comment: string; status: string }) => [c.comment, c.status]), [['First', 'Open'], ['Second', 'Open'], ['Reply', 'Open']]);
      const in30 = expect(await member('GET', `${base}?includeAuthorization=true`), 200, '3.0 list');
      for (const c of in30) check('3.0', 'Collaboration/Comment/comment_GET.json', c);
      assert.equal(in30[2].reply_to_comment_guid, undefined, '3.0 has no replies');
      assert.deepEqual(in30.map((c: { authorization: { comment_actions: string[] } }) => c.authorization.comment_actions), [['update', 'delete'], [], ['update', 'delete']]);
      const asAdmin = expect(await admin('GET', `/2.1${P}/topics/${t}/comments/${first.guid}?includeAuthorization=true`), 200, 'an admin reads');
      check('2.1', 'Collaboration/Comment/comment_GET.json', asAdmin);
      assert.deepEqual(asAdmin.authorization.comment_actions, ['update', 'delete']);

      // Replacing: the author or an admin; an empty viewpoint_guid clears the link.
      expect(await member('PUT', `${base}/${second.guid}`, { comment: 'Mine now' }), 403, 'another\'s comment');
      expect(await member('DELETE', `${base}/${second.guid}`), 403, 'deleting another\'s comment');
      const kept = expect(await member('PUT', `${base}/${first.guid}`, { comment: 'First, edited' }), 200, 'edited');
      check('3.0', 'Collaboration/Comment/comment_GET.json', kept);
      assert.equal(kept.viewpoint_guid, viewpoint, 'kept when absent');
      assert.equal(kept.modified_author, MEMBER.email);
      assert.match(kept.modified_date, /\+0000$/);
      const cleared = expect(await admin('PUT', `${base}/${first.guid}`, { comment: 'By the admin', viewpoint_guid: '' }), 200, 'an admin edits');
      assert.equal(cleared.viewpoint_guid, undefined);
      assert.equal(cleared.modified_author, ADMIN.email);
      assert.equal(cleared.author, MEMBER.email);
      expect(await member('PUT', `${base}/${first.guid}`, { comment: 'x', viewpoint_guid: randomUUID() }), 400, 'an unknown viewpoint');
      expect(await member('PUT', `${base}/${first.guid}`, {}), 400, 'no comment');
      assert.deepEqual(expect(await member('GET', `${base}/${first.guid}`), 200, 'read').comment, 'By the admin');

      const events = expect(await member('GET', `/3.0${P}/topics/${t}/events`), 200, 'events');
      for (const event of events) check('3.0', 'Collaboration/Events/topic_event_GET.json', event);
      assert.deepEqual(events.filter((e: { actions: { type: string }[] }) => e.actions[0].type === 'comment_added').map((e: { actions: { value: string }[] }) => e.actions[0].value), [first.guid, second.guid, reply.guid]);

      expect(await admin('DELETE', `${base}/${first.guid}`), 204, 'an admin deletes a member\'s comment');
      expect(await member('GET', `${base}/${first.guid}`), 404, 'gone');
      assert.equal(expect(await member('GET', `/2.1${P}/topics/${t}/comments/${reply.guid}`), 200, 'the reply').reply_to_comment_guid, undefined);
      expect(await member('GET', `${base}/not-a-guid`), 404, 'a malformed guid');
      expect(await member('DELETE', `${base}/${randomUUID()}`), 404, 'an unknown comment');
      expect(await stranger('GET', base), 404, 'a stranger');
      expect(await stranger('POST', base, { comment: 'x' }), 404, 'a stranger posting');
      assert.equal(expect(await member('GET', `/3.0${P}/topics/${t}`), 200, 'the topic').platform_comments_size, 2);
    });
  });

  describe('documents and document references', () => {
    it('uploads documents as the body and serves them byte for byte', async () => {
      const bytes = randomBytes(300_000);
      const docs = `/3.0${P}/documents`;
      const pdf = expect(await member('POST', `${docs}?filename=${encodeURIComponent('Spec sheet.pdf')}`, bytes, { 'Content-Type': 'application/octet-stream' }), 201, 'a document');
      check('3.0', 'Collaboration/Document/document_GET.json', pdf);
      assert.equal(pdf.filename, 'Spec sheet.pdf');
      const name = 'Prüfbericht "Nord" 1.xlsx';
      const xlsx = expect(await member('POST', docs, Buffer.from('sheet'), { 'Content-Type': 'text/plain', 'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}` }), 201, 'named by Content-Disposition');
      assert.equal(xlsx.filename, name);
      const plain = expect(await member('POST', docs, Buffer.from('notes'), { 'Content-Disposition': 'attachment; filename="notes"' }), 201, 'a plain filename');

      const list = expect(await member('GET', docs), 200, 'list');
      for (const d of list) check('3.0', 'Collaboration/Document/document_GET.json', d);
      assert.deepEqual(list, [pdf, xlsx, plain]);
      const download = await member('GET', `${docs}/${pdf.guid}`);
      assert.equal(download.status, 200);
      assert.equal(download.headers.get('content-type'), 'application/pdf');
      assert.equal(download.headers.get('content-disposition'), 'attachment; filename="Spec sheet.pdf"; filename*=UTF-8\'\'Spec%20sheet.pdf');
      assert.deepEqual(download.bytes, bytes);
      const sheet = await member('GET', `${docs}/${xlsx.guid}`);
      assert.equal(sheet.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      assert.equal(sheet.headers.get('content-disposition'), `attachment; filename="Pr_fbericht _Nord_ 1.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`);
      assert.equal((await member('GET', `${docs}/${plain.guid}`)).headers.get('content-type'), 'application/octet-stream');

      assert.match(expect(await member('POST', docs, Buffer.from('x'), { 'Content-Type': 'application/octet-stream' }), 400, 'no file name').message, /filename/);
      expect(await member('POST', `${docs}?filename=a%2Fb.txt`, Buffer.from('x')), 400, 'a folder in the name');
      expect(await member('POST', `${docs}?filename=empty.txt`, Buffer.alloc(0), { 'Content-Type': 'application/octet-stream' }), 400, 'an empty body');
      expect(await member('POST', `${docs}?filename=big.bin`, randomBytes(UPLOAD_LIMIT + 1), { 'Content-Type': 'application/octet-stream' }), 413, 'over the upload limit');
      assert.equal(expect(await member('GET', docs), 200, 'list').length, 3, 'nothing kept of the refused ones');
      expect(await member('GET', `${docs}/${randomUUID()}`), 404, 'an unknown document');
      expect(await member('GET', `${docs}/nope`), 404, 'a malformed guid');
      expect(await member('GET', `/2.1${P}/documents`), 404, 'documents before 3.0');
      expect(await stranger('GET', docs), 404, 'a stranger');
      expect(await stranger('POST', `${docs}?filename=x.txt`, Buffer.from('x')), 404, 'a stranger uploading');
    });

    it('references a document or a URL from a topic', async () => {
      const t = await topic('Referenced');
      const doc = expect(await member('POST', `/3.0${P}/documents?filename=ref.txt`, Buffer.from('ref')), 201, 'a document');
      const refs = `/3.0${P}/topics/${t}/document_references`;
      const byDoc = expect(await member('POST', refs, { document_guid: doc.guid, description: 'The spec' }), 201, 'by document');
      check('3.0', 'Collaboration/DocumentReference/document_reference_GET.json', byDoc);
      assert.deepEqual(byDoc, { guid: byDoc.guid, document_guid: doc.guid, description: 'The spec' });
      const guid = randomUUID();
      const byUrl = expect(await member('POST', refs, { guid, url: 'https://example.com/a.pdf' }), 201, 'by URL');
      assert.deepEqual(byUrl, { guid, url: 'https://example.com/a.pdf' });
      expect(await member('POST', refs, { guid, url: 'https://example.com/b.pdf' }), 409, 'the same guid');
      assert.match(expect(await member('POST', refs, { document_guid: doc.guid, url: 'https://example.com' }), 400, 'both').message, /not both/);
      expect(await member('POST', refs, { description: 'neither' }), 400, 'neither');
      assert.match(expect(await member('POST', refs, { document_guid: randomUUID() }), 400, 'an unknown document').message, /not a document/);
      expect(await member('POST', refs, { document_guid: 'abc' }), 400, 'a malformed document guid');
      expect(await member('POST', refs, { url: { href: 'x' } }), 400, 'an object as URL');

      const list = expect(await member('GET', refs), 200, 'list');
      for (const r of list) check('3.0', 'Collaboration/DocumentReference/document_reference_GET.json', r);
      assert.deepEqual(new Set(list.map((r: { guid: string }) => r.guid)), new Set([byDoc.guid, guid]));
      const switched = expect(await member('PUT', `${refs}/${byDoc.guid}`, { url: 'https://example.com/c', description: 'Moved' }), 200, 'replaced');
      check('3.0', 'Collaboration/DocumentReference/document_reference_GET.json', switched);
      assert.deepEqual(switched, { guid: byDoc.guid, url: 'https://example.com/c', description: 'Moved' });
      expect(await member('PUT', `${refs}/${byDoc.guid}`, {}), 400, 'replaced by nothing');
      expect(await member('DELETE', `${refs}/${guid}`), 204, 'deleted');
      assert.deepEqual(expect(await member('GET', refs), 200, 'list').map((r: { guid: string }) => r.guid), [byDoc.guid]);
      expect(await member('PUT', `${refs}/${guid}`, { url: 'x' }), 404, 'a deleted reference');
      expect(await member('GET', `/2.1${P}/topics/${t}/document_references`), 404, 'before 3.0');
      expect(await stranger('GET', refs), 404, 'a stranger');
    });
  });

  describe('related topics', () => {
    it('replaces a topic\'s related topics with topics of the same board', async () => {
      const [a, b, c] = [await topic('A'), await topic('B'), await topic('C')];
      const related = `/3.0${P}/topics/${a}/related_topics`;
      assert.deepEqual(expect(await member('GET', related), 200, 'none yet'), []);
      const set = expect(await member('PUT', related, [{ related_topic_guid: b }, { related_topic_guid: c.toUpperCase() }]), 200, 'set');
      for (const r of set) check('3.0', 'Collaboration/RelatedTopic/related_topic_GET.json', r);
      assert.deepEqual(set, [{ related_topic_guid: b }, { related_topic_guid: c }]);
      for (const version of ['2.0', '2.1'] as const) {
        const list = expect(await member('GET', `/${version}${P}/topics/${a}/related_topics`), 200, `${version} list`);
        for (const r of list) check(version, 'Collaboration/RelatedTopic/related_topic_GET.json', r);
        assert.deepEqual(list, set);
      }
      assert.match(expect(await member('PUT', related, [{ related_topic_guid: a }]), 400, 'itself').message, /itself/);
      assert.match(expect(await member('PUT', related, [{ related_topic_guid: randomUUID() }]), 400, 'an unknown topic').message, /not a topic/);
      const other = expect(await admin('POST', '/2.0/projects', { name: 'Other', platform_project_id: board.platform_project_id }), 201, 'another board');
      const foreign = expect(await member('POST', `/3.0/projects/${other.project_id}/topics`, { title: 'Foreign' }), 201, 'a topic of another board').guid;
      expect(await member('PUT', related, [{ related_topic_guid: foreign }]), 400, 'another board\'s topic');
      expect(await member('PUT', related, [{ related_topic_guid: 'abc' }]), 400, 'a malformed guid');
      expect(await member('PUT', related, [{}]), 400, 'no guid');
      expect(await member('PUT', related, { related_topic_guid: b }), 400, 'not an array');
      assert.deepEqual(expect(await member('GET', related), 200, 'unchanged by the refusals'), set);
      expect(await member('DELETE', `/3.0${P}/topics/${c}`), 204, 'c deleted');
      assert.deepEqual(expect(await member('GET', related), 200, 'without the deleted topic'), [{ related_topic_guid: b }]);
      assert.deepEqual(expect(await member('PUT', `/2.1${P}/topics/${a}/related_topics`, []), 200, 'cleared'), []);
      expect(await member('GET', `/3.0${P}/topics/${randomUUID()}/related_topics`), 404, 'an unknown topic');
      expect(await stranger('GET', related), 404, 'a stranger');
    });
  });
});
