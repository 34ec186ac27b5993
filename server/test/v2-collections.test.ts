import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { bcfClient, type BcfAnswer as Answer } from './bcf-client.js';
import { ADMIN, api, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';

/**
 * Document libraries and library item collections (seed 002; docs/V2.md, "Document
 * libraries and collections") as clients see them over HTTP: libraries, items, file
 * revisions (upload, list, download, 413), collections with every list filter (each
 * with data it keeps and data it drops), following the latest revision or not,
 * visibility, finalizing, the public share link until it expires, and every error row
 * of the seed with its status, code, name and message.
 */
const MEMBER = { email: 'member@example.com', password: 'a member password' };
const STRANGER = { email: 'stranger@example.com', password: 'a stranger password' };
const UPLOAD_LIMIT = 100_000;
const UNKNOWN = 'f'.repeat(32);

/** A v2 client: `(method, path under /v2, body?, headers?)`; JSON bodies as JSON, bytes as they are. */
const client = (base: string, token?: string) => bcfClient(base, token, '/v2');
type Client = ReturnType<typeof client>;

const expect = (answer: Answer, status: number, what: string) => {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.json;
};
/** The one error body, exactly. */
const expectError = (answer: Answer, status: number, code: number, name: string, message: string | RegExp, what: string) => {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  assert.deepEqual(Object.keys(answer.json), ['error'], what);
  assert.equal(answer.json.error.code, code, what);
  assert.equal(answer.json.error.name, name, what);
  if (typeof message === 'string') assert.equal(answer.json.error.message, message, what);
  else assert.match(answer.json.error.message, message, what);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sorted = (ids: string[]) => [...ids].sort();

describe('v2: document libraries and library item collections', () => {
  let server: TestServer;
  let app: OAuthApp;
  let admin: Client;
  let member: Client;
  let stranger: Client;
  let anonymous: Client;
  let memberId: string;
  let adminId: string;
  /** Projects: P (most tests), F (list filters), D (deleted at the end); the member is in P and F. */
  let P: string;
  let F: string;
  let D: string;

  const upload = (who: Client, project: string, library: string, item: string, bytes: Buffer, filename: string | undefined, headers: Record<string, string> = {}) =>
    who('POST', `/projects/${project}/libraries/${library}/items/${item}/files${filename === undefined ? '' : `?filename=${encodeURIComponent(filename)}`}`, bytes, { 'Content-Type': 'application/octet-stream', ...headers });

  before(async () => {
    const env = serverEnv(newDataDir(), { MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT) });
    app = cli(env, 'app', 'add', '--name', 'Library client', '--redirect-uri', 'http://127.0.0.1:9/cb');
    adminId = cli(env, 'user', 'add', '--email', ADMIN.email, '--password', ADMIN.password, '--name', 'admin').id;
    memberId = cli(env, 'user', 'add', '--email', MEMBER.email, '--password', MEMBER.password, '--name', 'member').id;
    cli(env, 'user', 'add', '--email', STRANGER.email, '--password', STRANGER.password, '--name', 'stranger');
    server = await startServer(env);
    const v1 = api(server.url, (await signInAs(server.url, app)).access_token);
    [P, F, D] = await Promise.all(['Libraries', 'Filters', 'Doomed'].map(async (name) => (await v1.post('/projects/new', { name })).json.id as string));
    // The cli needs the data folder: the server stops for it and starts again on the same folder.
    await server.stop();
    for (const project of [P, F]) cli(env, 'member', 'add', '--project', project, '--email', MEMBER.email, '--role', 'member');
    server = await startServer(env);
    admin = client(server.url, (await signInAs(server.url, app)).access_token);
    member = client(server.url, (await signInAs(server.url, app, MEMBER)).access_token);
    stranger = client(server.url, (await signInAs(server.url, app, STRANGER)).access_token);
    anonymous = client(server.url);
  });

  after(async () => {
    await server.stop();
    removeDataDir(server.dataDir);
  });

  // Shared by the tests below, in order.
  let drawings: { id: string };
  let specs: { id: string };
  let plan: { id: string; libraryId: string };
  let spec: { id: string };
  let empty: { id: string };
  const bytes1 = randomBytes(5000);
  const bytes2 = randomBytes(7000);
  let rev1: { id: string };
  let rev2: { id: string };
  let specFile: { id: string };

  describe('libraries and items', () => {
    it('creates libraries (admins only), lists and reads them', async () => {
      expectError(await member('POST', `/projects/${P}/libraries`, { name: 'Mine' }), 403, 100, 'INSUFFICIENT_PRIVILEGE', 'Insufficient privilege', 'a member creating a library');
      drawings = expect(await admin('POST', `/projects/${P}/libraries`, { name: 'Drawings', description: 'Issued drawings' }), 201, 'library');
      specs = expect(await admin('POST', `/projects/${P}/libraries`, { name: 'Specifications' }), 201, 'library 2');
      assert.match(drawings.id, /^[0-9a-f]{32}$/);
      assert.deepEqual(Object.keys(drawings).sort(), ['createdAt', 'createdBy', 'description', 'id', 'name']);
      assert.equal((drawings as any).createdBy, adminId); // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.equal((specs as any).description, ''); // eslint-disable-line @typescript-eslint/no-explicit-any
      const list = expect(await member('GET', `/projects/${P}/libraries`), 200, 'list');
      assert.deepEqual(list.map((l: { id: string }) => l.id), [drawings.id, specs.id]);
      assert.deepEqual(expect(await member('GET', `/projects/${P}/libraries/${drawings.id}`), 200, 'read'), drawings);
      expect(await member('GET', `/projects/${F}/libraries`), 200, 'another project');
      assert.deepEqual((await member('GET', `/projects/${F}/libraries`)).json, []);
    });

    it('refuses bad library requests with the one error body', async () => {
      expectError(await member('GET', `/projects/${P}/libraries/${UNKNOWN}`), 404, 20, 'NOT_FOUND', `Library (${UNKNOWN}) not found`, 'unknown library');
      expectError(await member('GET', `/projects/${F}/libraries/${drawings.id}`), 404, 20, 'NOT_FOUND', `Library (${drawings.id}) not found`, 'library of another project');
      for (const [method, p] of [['GET', `/projects/${P}/libraries`], ['POST', `/projects/${P}/libraries`], ['GET', `/projects/${P}/libraries/${drawings.id}`], ['GET', `/projects/${P}/libraries/${drawings.id}/items`]]) {
        expectError(await stranger(method, p, method === 'POST' ? { name: 'x' } : undefined), 404, 20, 'NOT_FOUND', `Project (${P}) not found`, `${method} ${p} by a non-member`);
      }
      expectError(await admin('GET', `/projects/${UNKNOWN}/libraries`), 404, 20, 'NOT_FOUND', `Project (${UNKNOWN}) not found`, 'unknown project');
      expectError(await admin('POST', `/projects/${P}/libraries`, { description: 'no name' }), 400, 24, 'BAD_REQUEST', /name/, 'no name');
      expectError(await admin('POST', `/projects/${P}/libraries`, { name: 42 }), 400, 24, 'BAD_REQUEST', /name/, 'name not a string');
      expectError(await admin('POST', `/projects/${P}/libraries`, { name: '   ' }), 400, 24, 'BAD_REQUEST', '`name` must be a non-empty string', 'blank name');
      expectError(await admin('POST', `/projects/${P}/libraries`, { name: 'x', kind: 'documents' }), 400, 24, 'BAD_REQUEST', /additional properties/, 'unknown field');
      expectError(await anonymous('GET', `/projects/${P}/libraries`), 401, 401, 'UNAUTHORIZED', /Bearer/, 'no token');
    });

    it('lets members add items and reads them', async () => {
      plan = expect(await member('POST', `/projects/${P}/libraries/${drawings.id}/items`, { name: 'Ground floor plan' }), 201, 'item');
      spec = expect(await member('POST', `/projects/${P}/libraries/${specs.id}/items`, { name: 'Concrete', description: 'C30/37' }), 201, 'item 2');
      empty = expect(await member('POST', `/projects/${P}/libraries/${drawings.id}/items`, { name: 'Section A-A' }), 201, 'item 3');
      assert.deepEqual({ ...plan, id: undefined, createdAt: undefined }, { id: undefined, libraryId: drawings.id, name: 'Ground floor plan', description: '', latestRevision: 0, latestFileId: null, createdAt: undefined, createdBy: memberId });
      assert.deepEqual(expect(await admin('GET', `/projects/${P}/libraries/${drawings.id}/items`), 200, 'items').map((i: { id: string }) => i.id), [plan.id, empty.id]);
      assert.deepEqual(expect(await admin('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}`), 200, 'item'), plan);
      expectError(await admin('GET', `/projects/${P}/libraries/${specs.id}/items/${plan.id}`), 404, 20, 'NOT_FOUND', `Library item (${plan.id}) not found`, 'item of another library');
      expectError(await admin('GET', `/projects/${P}/libraries/${UNKNOWN}/items/${plan.id}`), 404, 20, 'NOT_FOUND', `Library (${UNKNOWN}) not found`, 'unknown library');
      expectError(await member('POST', `/projects/${P}/libraries/${drawings.id}/items`, {}), 400, 24, 'BAD_REQUEST', /name/, 'no name');
      expectError(await stranger('POST', `/projects/${P}/libraries/${drawings.id}/items`, { name: 'x' }), 404, 20, 'NOT_FOUND', `Project (${P}) not found`, 'non-member');
    });
  });

  describe('file revisions', () => {
    it('uploads revisions (name from the query or Content-Disposition), lists them newest first, downloads them byte for byte', async () => {
      rev1 = expect(await upload(member, P, drawings.id, plan.id, bytes1, 'plan-00.pdf'), 201, 'revision 1');
      assert.deepEqual({ ...rev1, id: undefined, createdAt: undefined }, { id: undefined, revision: 1, filename: 'plan-00.pdf', size: 5000, createdAt: undefined, createdBy: memberId });
      const exact = 'Grundriss Erdgeschoß "B".pdf';
      rev2 = expect(await upload(admin, P, drawings.id, plan.id, bytes2, undefined, { 'Content-Disposition': `attachment; filename="x.pdf"; filename*=UTF-8''${encodeURIComponent(exact)}` }), 201, 'revision 2');
      assert.equal((rev2 as any).revision, 2); // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.equal((rev2 as any).filename, exact); // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.equal((rev2 as any).createdBy, adminId); // eslint-disable-line @typescript-eslint/no-explicit-any
      specFile = expect(await upload(member, P, specs.id, spec.id, Buffer.from('concrete spec'), 'spec.txt'), 201, 'spec');
      const files = expect(await admin('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}/files`), 200, 'files');
      assert.deepEqual(files, [rev2, rev1]);
      assert.deepEqual(Object.keys(files[0]).sort(), ['createdAt', 'createdBy', 'filename', 'id', 'revision', 'size']);
      const item = expect(await admin('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}`), 200, 'item');
      assert.equal(item.latestRevision, 2);
      assert.equal(item.latestFileId, rev2.id);

      const one = await member('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}/files/${rev1.id}`);
      expect(one, 200, 'download 1');
      assert.ok(one.bytes.equals(bytes1), 'revision 1 byte for byte');
      assert.equal(one.headers.get('content-type'), 'application/pdf');
      assert.equal(one.headers.get('content-disposition'), `attachment; filename="plan-00.pdf"; filename*=UTF-8''plan-00.pdf`);
      const two = await member('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}/files/${rev2.id}`);
      assert.ok(two.bytes.equals(bytes2), 'revision 2 byte for byte');
      assert.equal(two.headers.get('content-disposition'), `attachment; filename="Grundriss Erdgescho_ _B_.pdf"; filename*=UTF-8''${encodeURIComponent(exact)}`);
      assert.equal(two.headers.get('x-content-type-options'), 'nosniff');
    });

    it('refuses a file over the upload limit (413), an empty body, no name, unknown ids and non-members', async () => {
      const before = expect(await admin('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}/files`), 200, 'files');
      expectError(await upload(member, P, drawings.id, plan.id, randomBytes(UPLOAD_LIMIT + 1), 'big.pdf'), 413, 413, 'PAYLOAD_TOO_LARGE', `The file is larger than the upload limit of ${UPLOAD_LIMIT} bytes`, 'too large');
      expectError(await upload(member, P, drawings.id, plan.id, Buffer.alloc(0), 'empty.pdf'), 400, 24, 'BAD_REQUEST', 'The request has no body: send the file as the body', 'empty');
      expectError(await upload(member, P, drawings.id, plan.id, Buffer.from('x'), undefined), 400, 24, 'BAD_REQUEST', /file name/, 'no name');
      expectError(await upload(member, P, drawings.id, plan.id, Buffer.from('x'), '../etc/passwd'), 400, 24, 'BAD_REQUEST', /without folders/, 'a path');
      assert.deepEqual(expect(await admin('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}/files`), 200, 'files after'), before, 'nothing kept');
      expectError(await upload(member, P, drawings.id, UNKNOWN, Buffer.from('x'), 'a.txt'), 404, 20, 'NOT_FOUND', `Library item (${UNKNOWN}) not found`, 'unknown item');
      expectError(await upload(stranger, P, drawings.id, plan.id, Buffer.from('x'), 'a.txt'), 404, 20, 'NOT_FOUND', `Project (${P}) not found`, 'non-member upload');
      expectError(await member('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}/files/${UNKNOWN}`), 404, 20, 'NOT_FOUND', `Library item file (${UNKNOWN}) not found`, 'unknown file');
      expectError(await member('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}/files/${specFile.id}`), 404, 20, 'NOT_FOUND', `Library item file (${specFile.id}) not found`, 'file of another item');
      expectError(await stranger('GET', `/projects/${P}/libraries/${drawings.id}/items/${plan.id}/files/${rev1.id}`), 404, 20, 'NOT_FOUND', `Project (${P}) not found`, 'non-member download');
    });
  });

  describe('collections', () => {
    const C = () => `/projects/${P}/libraries/collections`;
    let following: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    let pinned: any; // eslint-disable-line @typescript-eslint/no-explicit-any

    it('creates a collection (items not in the answer), reads it and lists its items', async () => {
      const items = [{ libraryId: drawings.id, libraryItemId: plan.id, fileId: rev1.id }, { libraryId: specs.id, libraryItemId: spec.id }];
      pinned = expect(await member('POST', C(), { name: 'Tender package', description: 'For bidders', items }), 201, 'create');
      assert.deepEqual(Object.keys(pinned).sort(), ['createdAt', 'createdBy', 'description', 'finalized', 'followLatestRevision', 'followers', 'id', 'name', 'shareExpiresAt', 'shareUrl', 'visibility']);
      assert.deepEqual({ ...pinned, id: undefined, createdAt: undefined }, {
        id: undefined, createdAt: undefined, name: 'Tender package', description: 'For bidders', finalized: false, followLatestRevision: false,
        visibility: 'private', createdBy: memberId, followers: [memberId], shareUrl: null, shareExpiresAt: null,
      });
      assert.match(pinned.id, /^[0-9a-f]{32}$/);
      assert.deepEqual(expect(await member('GET', `${C()}/${pinned.id}`), 200, 'read'), pinned);
      const listed = expect(await member('GET', `${C()}/${pinned.id}/items`), 200, 'items');
      assert.deepEqual(listed.map((i: any) => [i.libraryId, i.libraryItemId, i.fileId, i.createdBy]), [ // eslint-disable-line @typescript-eslint/no-explicit-any
        [drawings.id, plan.id, rev1.id, memberId],
        [specs.id, spec.id, specFile.id, memberId],
      ]);
      assert.deepEqual(Object.keys(listed[0]).sort(), ['createdAt', 'createdBy', 'fileId', 'id', 'libraryId', 'libraryItemId']);
      assert.match(listed[0].id, /^[0-9a-f]{32}$/);
      following = expect(await member('POST', C(), { name: 'Current drawings', items: [{ libraryId: drawings.id, libraryItemId: plan.id, fileId: rev1.id }], followLatestRevision: true }), 201, 'following');
      assert.equal(following.followLatestRevision, true);
      assert.deepEqual(expect(await member('GET', `${C()}/${following.id}/items`), 200, 'items').map((i: { fileId: string }) => i.fileId), [rev2.id], 'follows: the latest, not the file given');
      const bare = expect(await member('POST', C(), { name: 'Nothing yet' }), 201, 'no items');
      assert.deepEqual(expect(await member('GET', `${C()}/${bare.id}/items`), 200, 'none'), []);
    });

    it('answers the seed\'s 404s for unknown libraries, items, files and collections', async () => {
      const create = (item: object) => member('POST', C(), { name: 'x', items: [item] });
      expectError(await create({ libraryId: UNKNOWN, libraryItemId: plan.id }), 404, 20, 'NOT_FOUND', `Library (${UNKNOWN}) not found`, 'unknown library');
      expectError(await create({ libraryId: specs.id, libraryItemId: plan.id }), 404, 20, 'NOT_FOUND', `Library item (${plan.id}) not found`, 'item of another library');
      expectError(await create({ libraryId: drawings.id, libraryItemId: UNKNOWN }), 404, 20, 'NOT_FOUND', `Library item (${UNKNOWN}) not found`, 'unknown item');
      expectError(await create({ libraryId: drawings.id, libraryItemId: plan.id, fileId: specFile.id }), 404, 20, 'NOT_FOUND', `Library item file (${specFile.id}) not found`, 'file of another item');
      expectError(await create({ libraryId: drawings.id, libraryItemId: plan.id, fileId: UNKNOWN }), 404, 20, 'NOT_FOUND', `Library item file (${UNKNOWN}) not found`, 'unknown file');
      expectError(await create({ libraryId: drawings.id, libraryItemId: empty.id }), 400, 24, 'BAD_REQUEST', `Library item (${empty.id}) has no file yet: upload one before collecting it`, 'an item without files');
      expectError(await member('POST', C(), { name: 'x', items: [{ libraryId: drawings.id, libraryItemId: plan.id }, { libraryId: drawings.id, libraryItemId: plan.id }] }), 400, 24, 'BAD_REQUEST', `\`items\` lists library item (${plan.id}) more than once`, 'twice');
      expectError(await member('POST', C(), { name: 'x', items: [{ libraryItemId: plan.id }] }), 400, 24, 'BAD_REQUEST', /libraryId/, 'no libraryId');
      expectError(await member('POST', C(), { name: 'x', followLatestRevision: 'yes' }), 400, 24, 'BAD_REQUEST', /followLatestRevision/, 'not a boolean');
      expectError(await member('POST', C(), { description: 'x' }), 400, 24, 'BAD_REQUEST', /name/, 'no name');
      expectError(await member('POST', C(), { name: 'x', visibility: 'private' }), 400, 24, 'BAD_REQUEST', /additional properties/, 'not a create field');
      expectError(await member('GET', `${C()}/${UNKNOWN}`), 404, 20, 'NOT_FOUND', `Collection not found, id (${UNKNOWN})`, 'unknown collection');
      expectError(await member('GET', `${C()}/${UNKNOWN}/items`), 404, 20, 'NOT_FOUND', `Collection not found, id (${UNKNOWN})`, 'items of an unknown collection');
      expectError(await member('PATCH', `${C()}/${UNKNOWN}`, { name: 'y' }), 404, 20, 'NOT_FOUND', `Collection not found, id (${UNKNOWN})`, 'patch unknown');
      expectError(await member('GET', `/projects/${F}/libraries/collections/${pinned.id}`), 404, 20, 'NOT_FOUND', `Collection not found, id (${pinned.id})`, 'collection of another project');
      for (const [method, p, body] of [['GET', C()], ['POST', C(), { name: 'x' }], ['GET', `${C()}/${pinned.id}`], ['PATCH', `${C()}/${pinned.id}`, { name: 'y' }], ['GET', `${C()}/${pinned.id}/items`]] as [string, string, object?][]) {
        expectError(await stranger(method, p, body), 404, 20, 'NOT_FOUND', `Project (${P}) not found`, `${method} ${p} by a non-member`);
      }
    });

    it('follows the latest revision, or stays on the file given; stopping to follow keeps what it shows', async () => {
      const files = async (c: { id: string }) => expect(await admin('GET', `${C()}/${c.id}/items`), 200, 'items').map((i: { fileId: string }) => i.fileId);
      following = expect(await member('PATCH', `${C()}/${following.id}`, { visibility: 'project-members' }), 200, 'share with members');
      pinned = expect(await member('PATCH', `${C()}/${pinned.id}`, { visibility: 'project-members' }), 200, 'share with members');
      assert.deepEqual(await files(following), [rev2.id]);
      assert.deepEqual(await files(pinned), [rev1.id, specFile.id]);
      const rev3 = expect(await upload(member, P, drawings.id, plan.id, Buffer.from('third'), 'plan-02.pdf'), 201, 'revision 3');
      assert.deepEqual(await files(following), [rev3.id], 'the following collection moved to revision 3');
      assert.deepEqual(await files(pinned), [rev1.id, specFile.id], 'the other stayed');
      // Stop following: the items stay on revision 3, also after revision 4.
      following = expect(await member('PATCH', `${C()}/${following.id}`, { followLatestRevision: false }), 200, 'stop following');
      assert.equal(following.followLatestRevision, false);
      const rev4 = expect(await upload(member, P, drawings.id, plan.id, Buffer.from('fourth'), 'plan-03.pdf'), 201, 'revision 4');
      assert.deepEqual(await files(following), [rev3.id], 'stayed on revision 3');
      // Follow again: the latest.
      following = expect(await member('PATCH', `${C()}/${following.id}`, { followLatestRevision: true }), 200, 'follow again');
      assert.deepEqual(await files(following), [rev4.id]);
    });

    it('keeps private collections to their creator; others edit only as admins', async () => {
      const secret = expect(await admin('POST', C(), { name: 'Admin notes' }), 201, 'private');
      expectError(await member('GET', `${C()}/${secret.id}`), 404, 20, 'NOT_FOUND', `Collection not found, id (${secret.id})`, 'another\'s private collection');
      expectError(await member('GET', `${C()}/${secret.id}/items`), 404, 20, 'NOT_FOUND', `Collection not found, id (${secret.id})`, 'its items');
      expectError(await member('PATCH', `${C()}/${secret.id}`, { name: 'x' }), 404, 20, 'NOT_FOUND', `Collection not found, id (${secret.id})`, 'patching it');
      assert.ok(!expect(await member('GET', C()), 200, 'list').some((c: { id: string }) => c.id === secret.id), 'not listed for others');
      assert.ok(expect(await admin('GET', C()), 200, 'list').some((c: { id: string }) => c.id === secret.id), 'listed for its creator');
      const shared = expect(await admin('PATCH', `${C()}/${secret.id}`, { visibility: 'project-members' }), 200, 'members');
      assert.equal(shared.visibility, 'project-members');
      assert.equal(expect(await member('GET', `${C()}/${secret.id}`), 200, 'now visible').name, 'Admin notes');
      expectError(await member('PATCH', `${C()}/${secret.id}`, { name: 'Mine now' }), 403, 100, 'INSUFFICIENT_PRIVILEGE', 'Insufficient privilege', 'a member editing another\'s collection');
      // An admin edits a member's collection.
      assert.equal(expect(await admin('PATCH', `${C()}/${pinned.id}`, { name: 'Tender package (rev)', description: 'For all bidders' }), 200, 'admin edits').name, 'Tender package (rev)');
      assert.equal(expect(await member('GET', `${C()}/${pinned.id}`), 200, 'read').description, 'For all bidders');
      expectError(await member('PATCH', `${C()}/${pinned.id}`, { visibility: 'public' }), 400, 24, 'BAD_REQUEST', /visibility/, 'a visibility not known');
      expectError(await member('PATCH', `${C()}/${pinned.id}`, { finalized: 'true' }), 400, 24, 'BAD_REQUEST', /finalized/, 'finalized not a boolean');
    });

    it('finalizing makes a collection read-only and visible to members; edits answer 403', async () => {
      const draft = expect(await member('POST', C(), { name: 'Transmittal 001', items: [{ libraryId: drawings.id, libraryItemId: plan.id }] }), 201, 'draft');
      assert.equal(draft.visibility, 'private');
      const final = expect(await member('PATCH', `${C()}/${draft.id}`, { finalized: true, visibility: 'private' }), 200, 'finalize');
      assert.equal(final.finalized, true);
      assert.equal(final.visibility, 'project-members', 'finalizing makes it visible to project members');
      assert.equal(expect(await admin('GET', `${C()}/${draft.id}`), 200, 'the admin sees it now').finalized, true);
      for (const change of [{ name: 'Transmittal 002' }, { description: 'x' }, { finalized: false }, { finalized: true }, { visibility: 'private' }, { followLatestRevision: true }]) {
        expectError(await member('PATCH', `${C()}/${draft.id}`, change), 403, 100, 'INSUFFICIENT_PRIVILEGE', 'Insufficient privilege', `edit ${JSON.stringify(change)} of a finalized collection`);
        expectError(await admin('PATCH', `${C()}/${draft.id}`, change), 403, 100, 'INSUFFICIENT_PRIVILEGE', 'Insufficient privilege', `an admin's edit ${JSON.stringify(change)}`);
      }
      assert.deepEqual(expect(await member('GET', `${C()}/${draft.id}`), 200, 'unchanged'), final);
    });

    it('shares a collection by a public link until it expires', async () => {
      expectError(await member('PATCH', `${C()}/${pinned.id}`, { shareExpiresAt: 'tomorrow' }), 400, 24, 'BAD_REQUEST', 'Failed to parse date (tomorrow). Must be on the iso 8601 format', 'not a date');
      expectError(await member('PATCH', `${C()}/${pinned.id}`, { shareExpiresAt: '2020-01-01T00:00:00Z' }), 400, 24, 'BAD_REQUEST', '`shareExpiresAt` (2020-01-01T00:00:00Z) is not in the future', 'in the past');
      const expires = new Date(Date.now() + 2500).toISOString();
      const shared = expect(await member('PATCH', `${C()}/${pinned.id}`, { shareExpiresAt: expires }), 200, 'share');
      assert.equal(shared.shareExpiresAt, expires);
      assert.match(shared.shareUrl, new RegExp(`^${server.url}/v2/shared/collections/[A-Za-z0-9_-]{43}$`));
      const link = shared.shareUrl.slice(`${server.url}/v2`.length);
      assert.equal(expect(await admin('GET', `${C()}/${pinned.id}`), 200, 'members see the link').shareUrl, shared.shareUrl);
      const page = expect(await anonymous('GET', link), 200, 'the link without a token');
      assert.equal(page.name, 'Tender package (rev)');
      assert.equal(page.expiresAt, expires);
      assert.deepEqual(page.items.map((i: any) => [i.libraryItemId, i.name, i.fileId, i.revision, i.filename, i.size]), [ // eslint-disable-line @typescript-eslint/no-explicit-any
        [plan.id, 'Ground floor plan', rev1.id, 1, 'plan-00.pdf', 5000],
        [spec.id, 'Concrete', specFile.id, 1, 'spec.txt', 13],
      ]);
      const download = await anonymous('GET', page.items[0].url.slice(`${server.url}/v2`.length));
      expect(download, 200, 'download through the link');
      assert.ok(download.bytes.equals(bytes1), 'byte for byte');
      assert.match(download.headers.get('content-disposition')!, /^attachment; filename="plan-00.pdf"/);
      expectError(await anonymous('GET', `${link}/files/${rev2.id}`), 404, 20, 'NOT_FOUND', `Library item file (${rev2.id}) not found`, 'a file the collection does not hold');
      expectError(await anonymous('GET', '/shared/collections/not-a-token'), 404, 20, 'NOT_FOUND', 'Shared link not found', 'unknown link');
      // Extending the link keeps its address.
      const later = new Date(Date.now() + 3000).toISOString();
      assert.equal(expect(await member('PATCH', `${C()}/${pinned.id}`, { shareExpiresAt: later }), 200, 'extend').shareUrl, shared.shareUrl);
      await sleep(3300);
      expectError(await anonymous('GET', link), 410, 410, 'GONE', `The shared link expired at ${later}`, 'expired link');
      expectError(await anonymous('GET', `${link}/files/${rev1.id}`), 410, 410, 'GONE', `The shared link expired at ${later}`, 'expired download');
      const after = expect(await member('GET', `${C()}/${pinned.id}`), 200, 'after expiry');
      assert.equal(after.shareUrl, null);
      assert.equal(after.shareExpiresAt, later);
      // A finalized collection can still be shared; null ends the link (404 then).
      const final = expect(await member('POST', C(), { name: 'Issued set', items: [{ libraryId: specs.id, libraryItemId: spec.id }] }), 201, 'to finalize');
      expect(await member('PATCH', `${C()}/${final.id}`, { finalized: true }), 200, 'finalize');
      const open = expect(await member('PATCH', `${C()}/${final.id}`, { shareExpiresAt: '2999-01-01' }), 200, 'share a finalized collection');
      assert.equal(open.shareExpiresAt, '2999-01-01T00:00:00.000Z');
      const finalLink = open.shareUrl.slice(`${server.url}/v2`.length);
      expect(await anonymous('GET', finalLink), 200, 'works');
      const closed = expect(await member('PATCH', `${C()}/${final.id}`, { shareExpiresAt: null }), 200, 'end the link');
      assert.equal(closed.shareUrl, null);
      assert.equal(closed.shareExpiresAt, null);
      expectError(await anonymous('GET', finalLink), 404, 20, 'NOT_FOUND', 'Shared link not found', 'a link ended');
      // The creator's and an admin's to share; not another member's.
      const adminsOwn = expect(await admin('POST', C(), { name: 'Admin set' }), 201, 'admin set');
      expect(await admin('PATCH', `${C()}/${adminsOwn.id}`, { visibility: 'project-members' }), 200, 'visible');
      expectError(await member('PATCH', `${C()}/${adminsOwn.id}`, { shareExpiresAt: '2999-01-01' }), 403, 100, 'INSUFFICIENT_PRIVILEGE', 'Insufficient privilege', 'a member sharing another\'s collection');
      assert.match(expect(await admin('PATCH', `${C()}/${pinned.id}`, { shareExpiresAt: '2999-01-01T12:00+02:00' }), 200, 'an admin shares a member\'s collection').shareUrl, /\/v2\/shared\/collections\//);
      assert.equal((await member('GET', `${C()}/${pinned.id}`)).json.shareExpiresAt, '2999-01-01T10:00:00.000Z');
    });
  });

  describe('list filters', () => {
    const C = () => `/projects/${F}/libraries/collections`;
    const c: Record<string, { id: string; createdAt: string }> = {};
    let x1: string;
    let x2: string;
    let y1: string;
    let X: string;
    let Y: string;
    /** The ids the caller's list answers, by name of the collections made below. */
    const names = async (query: string, who: Client = member) => {
      const list = expect(await who('GET', `${C()}${query ? `?${query}` : ''}`), 200, query);
      const byId = new Map(Object.entries(c).map(([name, col]) => [col.id, name]));
      return list.map((col: { id: string }) => byId.get(col.id) ?? col.id).sort();
    };

    before(async () => {
      const lib = expect(await admin('POST', `/projects/${F}/libraries`, { name: 'Shared' }), 201, 'library');
      X = expect(await member('POST', `/projects/${F}/libraries/${lib.id}/items`, { name: 'X' }), 201, 'X').id;
      Y = expect(await member('POST', `/projects/${F}/libraries/${lib.id}/items`, { name: 'Y' }), 201, 'Y').id;
      x1 = expect(await upload(member, F, lib.id, X, Buffer.from('x1'), 'x.txt'), 201, 'x1').id;
      y1 = expect(await upload(member, F, lib.id, Y, Buffer.from('y1'), 'y.txt'), 201, 'y1').id;
      const make = async (name: string, who: Client, body: object) => {
        await sleep(30); // createdAt apart
        c[name] = expect(await who('POST', C(), { name, ...body }), 201, name);
      };
      await make('Facade drawings', admin, { items: [{ libraryId: lib.id, libraryItemId: X }] });
      await make('Structural set', member, { items: [{ libraryId: lib.id, libraryItemId: Y }], followLatestRevision: true });
      await make('FACADE details', member, { items: [{ libraryId: lib.id, libraryItemId: X }], followLatestRevision: true });
      await make('Admin private', admin, {});
      expect(await admin('PATCH', `${C()}/${c['Facade drawings'].id}`, { finalized: true }), 200, 'finalize');
      expect(await member('PATCH', `${C()}/${c['FACADE details'].id}`, { visibility: 'project-members', shareExpiresAt: '2999-01-01' }), 200, 'share');
      // X gets a second revision: the following collection moves to it, the finalized one stays on x1.
      x2 = expect(await upload(member, F, lib.id, X, Buffer.from('x2'), 'x.txt'), 201, 'x2').id;
    });

    it('lists what the caller may see (without filters)', async () => {
      assert.deepEqual(await names(''), ['FACADE details', 'Facade drawings', 'Structural set']);
      assert.deepEqual(await names('', admin), ['Admin private', 'FACADE details', 'Facade drawings']);
    });

    it('finalized', async () => {
      assert.deepEqual(await names('finalized=true'), ['Facade drawings']);
      assert.deepEqual(await names('finalized=false'), ['FACADE details', 'Structural set']);
      expectError(await member('GET', `${C()}?finalized=maybe`), 400, 24, 'BAD_REQUEST', /finalized/, 'not a boolean');
    });

    it('libraryItems', async () => {
      assert.deepEqual(await names(`libraryItems=${X}`), ['FACADE details', 'Facade drawings']);
      assert.deepEqual(await names(`libraryItems=${Y}`), ['Structural set']);
      assert.deepEqual(await names(`libraryItems=${X},${Y}`), ['FACADE details', 'Facade drawings', 'Structural set']);
      assert.deepEqual(await names(`libraryItems=${UNKNOWN}`), []);
    });

    it('files (the latest for collections that follow)', async () => {
      assert.deepEqual(await names(`files=${x1}`), ['Facade drawings']);
      assert.deepEqual(await names(`files=${x2}`), ['FACADE details']);
      assert.deepEqual(await names(`files=${y1},${x2}`), ['FACADE details', 'Structural set']);
      assert.deepEqual(await names(`files=${UNKNOWN}`), []);
    });

    it('createdAtFrom and createdAtTo (ISO 8601, at the precision given)', async () => {
      const at = c['Structural set'].createdAt;
      assert.deepEqual(await names(`createdAtFrom=${at}`), ['FACADE details', 'Structural set']);
      assert.deepEqual(await names(`createdAtTo=${at}`), ['Facade drawings', 'Structural set']);
      assert.deepEqual(await names(`createdAtFrom=${at}&createdAtTo=${at}`), ['Structural set']);
      // The same instant with an offset, and in the basic format.
      const shifted = new Date(new Date(at).getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
      assert.deepEqual(await names(`createdAtFrom=${encodeURIComponent(shifted)}`), ['FACADE details', 'Structural set']);
      const basic = at.replace(/[-:]/g, '');
      assert.deepEqual(await names(`createdAtTo=${basic}`), ['Facade drawings', 'Structural set']);
      // A day is the whole day.
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual(await names(`createdAtFrom=${today}&createdAtTo=${today}`), ['FACADE details', 'Facade drawings', 'Structural set']);
      assert.deepEqual(await names('createdAtTo=2000-01-01'), []);
      assert.deepEqual(await names('createdAtFrom=2999-01-01'), []);
      for (const bad of ['yesterday', '2026-13-01', '2026-02-30', '2026-11-24T25:00Z', '24.11.2026', '2026-11-24T10:00+25:00']) {
        for (const name of ['createdAtFrom', 'createdAtTo']) {
          expectError(await member('GET', `${C()}?${name}=${encodeURIComponent(bad)}`), 400, 24, 'BAD_REQUEST', `Failed to parse date (${bad}). Must be on the iso 8601 format`, `${name}=${bad}`);
        }
      }
    });

    it('createdBy', async () => {
      assert.deepEqual(await names(`createdBy=${memberId}`), ['FACADE details', 'Structural set']);
      assert.deepEqual(await names(`createdBy=${adminId}`), ['Facade drawings']);
      assert.deepEqual(await names(`createdBy=${adminId}`, admin), ['Admin private', 'Facade drawings']);
      assert.deepEqual(await names(`createdBy=${adminId},${memberId}`), ['FACADE details', 'Facade drawings', 'Structural set']);
    });

    it('followLatestRevision', async () => {
      assert.deepEqual(await names('followLatestRevision=true'), ['FACADE details', 'Structural set']);
      assert.deepEqual(await names('followLatestRevision=false'), ['Facade drawings']);
    });

    it('visibility', async () => {
      assert.deepEqual(await names('visibility=private'), ['Structural set']);
      assert.deepEqual(await names('visibility=project-members'), ['FACADE details', 'Facade drawings']);
      assert.deepEqual(await names('visibility=private,project-members'), ['FACADE details', 'Facade drawings', 'Structural set']);
      assert.deepEqual(await names('visibility=private', admin), ['Admin private']);
      expectError(await member('GET', `${C()}?visibility=public`), 400, 24, 'BAD_REQUEST', '`visibility` takes `private`, `project-members`, not `public`', 'unknown visibility');
    });

    it('sharedBy', async () => {
      assert.deepEqual(await names('sharedBy=link'), ['FACADE details']);
      assert.deepEqual(await names('sharedBy=not-shared'), ['Facade drawings', 'Structural set']);
      assert.deepEqual(await names('sharedBy=email'), []);
      assert.deepEqual(await names('sharedBy=email,link'), ['FACADE details']);
      expectError(await member('GET', `${C()}?sharedBy=fax`), 400, 24, 'BAD_REQUEST', '`sharedBy` takes `link`, `email`, `not-shared`, not `fax`', 'unknown way');
    });

    it('followers (creators follow; members follow and stop)', async () => {
      assert.deepEqual(await names(`followers=${memberId}`), ['FACADE details', 'Structural set']);
      assert.deepEqual(await names(`followers=${adminId}`), ['Facade drawings']);
      const followed = expect(await member('PUT', `${C()}/${c['Facade drawings'].id}/followers/me`), 200, 'follow');
      assert.deepEqual(followed.followers, sorted([adminId, memberId]));
      expect(await member('DELETE', `${C()}/${c['FACADE details'].id}/followers/me`), 200, 'stop following');
      assert.deepEqual(await names(`followers=${memberId}`), ['Facade drawings', 'Structural set']);
      assert.deepEqual(await names(`followers=${adminId},${memberId}`), ['Facade drawings', 'Structural set']);
      expectError(await member('PUT', `${C()}/${c['Admin private'].id}/followers/me`), 404, 20, 'NOT_FOUND', `Collection not found, id (${c['Admin private'].id})`, 'following another\'s private collection');
    });

    it('search (in names, case-insensitive, no wildcards)', async () => {
      assert.deepEqual(await names('search=facade'), ['FACADE details', 'Facade drawings']);
      assert.deepEqual(await names('search=SET'), ['Structural set']);
      assert.deepEqual(await names('search=%25'), []);
      assert.deepEqual(await names('search=private', admin), ['Admin private']);
    });

    it('fields=id, several filters at once, unknown filters', async () => {
      const ids = expect(await member('GET', `${C()}?fields=id`), 200, 'ids');
      assert.deepEqual(ids.map((i: object) => Object.keys(i)), [['id'], ['id'], ['id']]);
      assert.deepEqual(sorted(ids.map((i: { id: string }) => i.id)), sorted([c['Facade drawings'].id, c['Structural set'].id, c['FACADE details'].id]));
      assert.deepEqual(expect(await member('GET', `${C()}?fields=id&finalized=true`), 200, 'ids'), [{ id: c['Facade drawings'].id }]);
      expectError(await member('GET', `${C()}?fields=name`), 400, 24, 'BAD_REQUEST', '`fields` takes `id`, not `name`', 'fields=name');
      assert.deepEqual(await names('finalized=false&followLatestRevision=true&search=struct'), ['Structural set']);
      expectError(await member('GET', `${C()}?colour=red`), 400, 24, 'BAD_REQUEST', /additional properties/, 'unknown filter');
    });
  });

  it('deleting a project deletes its library files', async () => {
    const lib = expect(await admin('POST', `/projects/${D}/libraries`, { name: 'Doomed' }), 201, 'library');
    const item = expect(await admin('POST', `/projects/${D}/libraries/${lib.id}/items`, { name: 'Doomed item' }), 201, 'item');
    expect(await upload(admin, D, lib.id, item.id, Buffer.from('a'), 'a.txt'), 201, 'file 1');
    expect(await upload(admin, D, lib.id, item.id, Buffer.from('b'), 'b.txt'), 201, 'file 2');
    const folder = path.join(server.dataDir, 'blobs', 'libraries', D, item.id);
    assert.equal(readdirSync(folder).length, 2, 'two blobs stored');
    const v1 = api(server.url, (await signInAs(server.url, app)).access_token);
    assert.equal((await v1.delete(`/project?project_id=${D}`)).status, 204);
    assert.ok(!existsSync(folder) || readdirSync(folder).length === 0, 'the blobs went with the project');
    assert.ok(existsSync(path.join(server.dataDir, 'blobs', 'libraries', P)), 'another project\'s stayed');
    expectError(await admin('GET', `/projects/${D}/libraries`), 404, 20, 'NOT_FOUND', `Project (${D}) not found`, 'gone');
  });
});
