import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';
import { bcfClient, type BcfAnswer } from './bcf-client.js';
import { bcfSchemas } from './bcf-schemas.js';

/**
 * Custom fields and topic board fields of the v2 API (seed 002; docs/V2.md): every
 * endpoint, filter and PATCH operation, the states table, the errors table with its
 * exact status, code, name and message, and the roles (administrators change, members
 * read, others get the project's 404); then the values BCF topics carry (docs/BCF.md).
 */
const MEMBER = { email: 'member@example.com', password: 'a member password' };
const STRANGER = { email: 'stranger@example.com', password: 'a stranger password' };

/** A v2 client: the tests' BCF client under /v2. */
const v2Client = (base: string, token: string) => bcfClient(base, token, '/v2');

/** Asserts the status; for errors the one JSON body with its exact code, name and (when given) message. */
function expect(answer: BcfAnswer, status: number, what: string, error?: { code: number; name: string; message?: string | RegExp }) {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text}`);
  if (error) {
    assert.equal(answer.json.error.code, error.code, `${what}: code`);
    assert.equal(answer.json.error.name, error.name, `${what}: name`);
    if (typeof error.message === 'string') assert.equal(answer.json.error.message, error.message, `${what}: message`);
    else if (error.message) assert.match(answer.json.error.message, error.message, `${what}: message`);
  }
  return answer.json;
}

const badRequest = (message: string | RegExp) => ({ code: 24, name: 'BAD_REQUEST', message });
const notFound = (message: string) => ({ code: 20, name: 'NOT_FOUND', message });
const FORBIDDEN = { code: 100, name: 'INSUFFICIENT_PRIVILEGE', message: 'Insufficient privilege' };
const EXISTS = { code: 600, name: 'conflict', message: 'Enumeration item already exists' };
const HEX32 = /^[0-9a-f]{32}$/;

describe('v2 custom fields and topic board fields', () => {
  let server: TestServer;
  let admin: ReturnType<typeof v2Client>;
  let member: ReturnType<typeof v2Client>;
  let stranger: ReturnType<typeof v2Client>;
  let bcfAdmin: ReturnType<typeof bcfClient>;
  let bcfMember: ReturnType<typeof bcfClient>;
  let adminId: string;
  let project: string;
  let board: string;
  let otherBoard: string;
  const check = bcfSchemas();

  before(async () => {
    const env = serverEnv(newDataDir());
    const app: OAuthApp = cli(env, 'app', 'add', '--name', 'v2 client', '--redirect-uri', 'http://127.0.0.1:9/cb');
    const ids = [ADMIN, MEMBER, STRANGER].map((user) => cli(env, 'user', 'add', '--email', user.email, '--password', user.password, '--name', user.email.split('@')[0]).id as string);
    adminId = ids[0];
    server = await startServer(env);
    bcfAdmin = bcfClient(server.url, (await signInAs(server.url, app)).access_token);
    const created = (await bcfAdmin('POST', '/2.0/projects', { name: 'Fields' })).json;
    project = created.platform_project_id;
    board = created.project_id;
    otherBoard = (await bcfAdmin('POST', '/2.0/projects', { name: 'Elsewhere' })).json.project_id; // a board of another platform project
    await server.stop();
    cli(env, 'member', 'add', '--project', project, '--email', MEMBER.email, '--role', 'member');
    server = await startServer(env);
    const adminToken = (await signInAs(server.url, app)).access_token;
    const memberToken = (await signInAs(server.url, app, MEMBER)).access_token;
    admin = v2Client(server.url, adminToken);
    member = v2Client(server.url, memberToken);
    stranger = v2Client(server.url, (await signInAs(server.url, app, STRANGER)).access_token);
    bcfAdmin = bcfClient(server.url, adminToken);
    bcfMember = bcfClient(server.url, memberToken);
  });

  after(async () => {
    await server.stop();
    removeDataDir(server.dataDir);
  });

  const fields = `/projects/${'{p}'}/custom-fields`;
  const path = (p = project) => fields.replace('{p}', p);
  const newField = async (name: string, type: string, description = '') => expect(await admin('POST', path(), { name, description, type }), 201, `create ${name}`);
  const addItems = async (id: string, items: { name: string; code?: string | null }[]) => {
    expect(await admin('PATCH', `${path()}/${id}`, { enumerationItemsToAdd: items }), 200, 'add items');
    return expect(await member('GET', `${path()}/${id}/enumeration-items`), 200, 'items') as { id: string; name: string; code: string | null; disabled: boolean }[];
  };

  it('creates, reads and lists custom fields of each type; members read, administrators write, others see no project', async () => {
    const before = Date.now();
    const field = await newField('Cost', 'double', 'in euros');
    assert.match(field.id, HEX32);
    assert.deepEqual(Object.keys(field).sort(), ['archived', 'createdAt', 'createdBy', 'description', 'id', 'name', 'type']);
    assert.deepEqual({ name: field.name, description: field.description, type: field.type, createdBy: field.createdBy, archived: field.archived }, { name: 'Cost', description: 'in euros', type: 'double', createdBy: adminId, archived: false });
    assert.match(field.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(Date.parse(field.createdAt) >= before - 1000 && Date.parse(field.createdAt) <= Date.now() + 1000);
    for (const type of ['text', 'integer', 'enumeration', 'date']) assert.equal((await newField(`A ${type}`, type)).type, type);
    const withoutDescription = expect(await admin('POST', path(), { name: 'No description', type: 'text' }), 201, 'no description');
    assert.equal(withoutDescription.description, '');

    assert.deepEqual(expect(await member('GET', `${path()}/${field.id}`), 200, 'member reads'), field);
    const listed = expect(await member('GET', path()), 200, 'member lists');
    assert.deepEqual(listed.slice(0, 5).map((f: { name: string }) => f.name), ['Cost', 'A text', 'A integer', 'A enumeration', 'A date']);
    assert.deepEqual(listed[0], field);

    // Roles: a member may not create or change; a stranger has no such project; nor has anyone an unknown one.
    expect(await member('POST', path(), { name: 'x', type: 'text' }), 403, 'member creates', FORBIDDEN);
    expect(await member('PATCH', `${path()}/${field.id}`, { name: 'x' }), 403, 'member patches', FORBIDDEN);
    for (const [method, suffix, body] of [['GET', ''], ['POST', '', { name: 'x', type: 'text' }], ['GET', `/${field.id}`], ['GET', `/${field.id}/enumeration-items`], ['PATCH', `/${field.id}`, { name: 'x' }]] as const) {
      expect(await stranger(method, `${path()}${suffix}`, body), 404, `stranger ${method} ${suffix}`, notFound(`Project (${project}) not found`));
      expect(await admin(method, `${path('0123456789abcdef0123456789abcdef')}${suffix}`, body), 404, `unknown project ${method} ${suffix}`, notFound('Project (0123456789abcdef0123456789abcdef) not found'));
    }
    expect(await admin('GET', `${path()}/${field.id}`), 200, 'unchanged by the refused patches');
    assert.equal((await admin('GET', `${path()}/${field.id}`)).json.name, 'Cost');

    // Unknown fields: 404 with the seed's message, also for a malformed id and for PATCH.
    const unknown = 'fedcba9876543210fedcba9876543210';
    expect(await member('GET', `${path()}/${unknown}`), 404, 'unknown field', notFound(`Custom field (${unknown}) not found`));
    expect(await member('GET', `${path()}/${unknown}/enumeration-items`), 404, 'unknown field items', notFound(`Custom field (${unknown}) not found`));
    expect(await member('GET', `${path()}/not-an-id`), 404, 'malformed field id', notFound('Custom field (not-an-id) not found'));
    expect(await admin('PATCH', `${path()}/${unknown}`, { name: 'x' }), 404, 'patch unknown field', notFound(`Custom field (${unknown}) not found`));

    // Wrong bodies: 400 naming the field.
    expect(await admin('POST', path(), { name: 'x', type: 'colour' }), 400, 'unknown type', badRequest(/type/));
    expect(await admin('POST', path(), { type: 'text' }), 400, 'no name', badRequest(/name/));
    expect(await admin('POST', path(), { name: '', type: 'text' }), 400, 'empty name', badRequest(/name/));
    expect(await admin('POST', path(), { name: 'x', type: 'text', colour: 'red' }), 400, 'unknown member', badRequest(/additional properties/));
    expect(await admin('POST', path(), { name: 'x', description: { a: 1 }, type: 'text' }), 400, 'description of a wrong type', badRequest(/description/));
    expect(await admin('PATCH', `${path()}/${field.id}`, { archived: 'perhaps' }), 400, 'archived of a wrong type', badRequest(/archived/));
    // JSON bodies keep their types: no number taken as a name, no "true" as a boolean.
    expect(await admin('POST', path(), { name: 42, type: 'text' }), 400, 'a number as name', badRequest('body/name must be string'));
    expect(await admin('PATCH', `${path()}/${field.id}`, { archived: 'true' }), 400, 'a string as archived', badRequest('body/archived must be boolean'));
    expect(await admin('GET', `${path()}?archived=maybe`), 400, 'unknown archived filter', badRequest(/archived/));
  });

  it('renames, describes and archives a field; the archived filter lists all, archived or not-archived', async () => {
    const field = await newField('Phase', 'text');
    const renamed = expect(await admin('PATCH', `${path()}/${field.id}`, { name: 'Project phase', description: 'when' }), 200, 'rename');
    assert.deepEqual(renamed, { ...field, name: 'Project phase', description: 'when' });
    const archived = expect(await admin('PATCH', `${path()}/${field.id}`, { archived: true }), 200, 'archive');
    assert.equal(archived.archived, true);
    assert.equal(archived.name, 'Project phase', 'a patch without name keeps it');
    const names = async (filter?: string) => (expect(await member('GET', `${path()}${filter ? `?archived=${filter}` : ''}`), 200, `filter ${filter}`) as { id: string }[]).map((f) => f.id);
    assert.ok((await names()).includes(field.id), 'default all lists an archived field');
    assert.ok((await names('all')).includes(field.id));
    assert.deepEqual(await names('archived'), [field.id]);
    assert.ok(!(await names('not-archived')).includes(field.id));
    assert.equal((await names('not-archived')).length, (await names('all')).length - 1);
    expect(await admin('PATCH', `${path()}/${field.id}`, { archived: false }), 200, 'unarchive');
    assert.deepEqual(await names('archived'), []);
    assert.ok((await names('not-archived')).includes(field.id));
    expect(await admin('PATCH', `${path()}/${field.id}`, { name: '' }), 400, 'empty name', badRequest(/name/));
  });

  it('adds, moves, disables, restores, renames and re-codes enumeration items', async () => {
    const field = await newField('Discipline', 'enumeration');
    assert.deepEqual(expect(await member('GET', `${path()}/${field.id}/enumeration-items`), 200, 'no items yet'), []);
    const items = await addItems(field.id, [{ name: 'Architecture', code: 'ARC' }, { name: 'Structure', code: 'STR' }, { name: 'MEP' }, { name: 'Landscape', code: null }]);
    assert.deepEqual(items.map((i) => [i.name, i.code, i.disabled]), [['Architecture', 'ARC', false], ['Structure', 'STR', false], ['MEP', null, false], ['Landscape', null, false]]);
    for (const item of items) assert.match(item.id, HEX32);
    assert.deepEqual(Object.keys(items[0]).sort(), ['code', 'disabled', 'id', 'name']);
    const [arc, str, mep, land] = items.map((i) => i.id);
    const itemIds = async () => (expect(await member('GET', `${path()}/${field.id}/enumeration-items`), 200, 'items') as { id: string }[]).map((i) => i.id);

    // Moves: itemBeforeId is the item that stands in front afterwards; null moves to the first place.
    const patch = (body: object) => admin('PATCH', `${path()}/${field.id}`, body);
    assert.deepEqual(expect(await patch({ enumerationItemsToMove: [{ id: land, itemBeforeId: null }] }), 200, 'to first'), field);
    assert.deepEqual(await itemIds(), [land, arc, str, mep]);
    expect(await patch({ enumerationItemsToMove: [{ id: land, itemBeforeId: mep }] }), 200, 'to last');
    assert.deepEqual(await itemIds(), [arc, str, mep, land]);
    expect(await patch({ enumerationItemsToMove: [{ id: arc, itemBeforeId: str }, { id: mep, itemBeforeId: null }] }), 200, 'two moves in order');
    assert.deepEqual(await itemIds(), [mep, str, arc, land]);

    // Disable, restore (the states table), rename, re-code; an added item goes last.
    expect(await patch({ enumerationItemsToDisable: [{ id: str }, { id: land }] }), 200, 'disable');
    let now = await addItems(field.id, []);
    assert.deepEqual(now.map((i) => i.disabled), [false, true, false, true]);
    expect(await patch({ enumerationItemsToRestore: [{ id: land }] }), 200, 'restore');
    now = await addItems(field.id, []);
    assert.deepEqual(now.map((i) => i.disabled), [false, true, false, false]);
    expect(await patch({ enumerationItemsToRename: [{ id: mep, name: 'Services' }], enumerationItemsToUpdateCode: [{ id: mep, code: 'MEP' }, { id: arc, code: null }] }), 200, 'rename and re-code');
    now = await addItems(field.id, [{ name: 'Fire' }]);
    assert.deepEqual(now.map((i) => [i.name, i.code, i.disabled]), [['Services', 'MEP', false], ['Structure', 'STR', true], ['Architecture', null, false], ['Landscape', null, false], ['Fire', null, false]]);
    // A code moves from one item to another in one PATCH (it is free once the first has another).
    expect(await patch({ enumerationItemsToUpdateCode: [{ id: mep, code: 'SRV' }, { id: arc, code: 'MEP' }] }), 200, 'a code passed on');
    now = await addItems(field.id, []);
    assert.deepEqual(now.map((i) => i.code).slice(0, 3), ['SRV', 'STR', 'MEP']);

    // 409 (code 600): a name (any case) or code another item has, on add, rename or re-code; nothing of such a PATCH is kept.
    const conflicts: [string, object][] = [
      ['an added name', { enumerationItemsToAdd: [{ name: 'services' }] }],
      ['an added code', { enumerationItemsToAdd: [{ name: 'Other', code: 'STR' }] }],
      ['two added alike', { enumerationItemsToAdd: [{ name: 'Twin', code: 'T' }, { name: 'Twin 2', code: 'T' }] }],
      ['a disabled item\'s name', { enumerationItemsToAdd: [{ name: 'Structure' }] }],
      ['a rename', { enumerationItemsToRename: [{ id: arc, name: 'Fire' }] }],
      ['a code', { enumerationItemsToUpdateCode: [{ id: arc, code: 'SRV' }] }],
      ['after other changes', { name: 'Changed', enumerationItemsToDisable: [{ id: mep }], enumerationItemsToAdd: [{ name: 'Fire' }] }],
    ];
    for (const [what, body] of conflicts) expect(await patch(body), 409, what, EXISTS);
    assert.deepEqual(await addItems(field.id, []), now, 'the refused PATCHes changed no item');
    assert.equal((await admin('GET', `${path()}/${field.id}`)).json.name, 'Discipline', 'nor the field');
    // Renaming an item to its own name (another case) is no conflict.
    expect(await patch({ enumerationItemsToRename: [{ id: arc, name: 'ARCHITECTURE' }], enumerationItemsToUpdateCode: [{ id: arc, code: 'MEP' }] }), 200, 'own name and code');

    // 400: the item itself or another field's item before it, unknown ids, wrong types; a member may not.
    const other = await newField('Other enumeration', 'enumeration');
    const [foreign] = await addItems(other.id, [{ name: 'Foreign' }]);
    const unknown = '00000000000000000000000000000000';
    const wrong: [string, object, RegExp][] = [
      ['before itself', { enumerationItemsToMove: [{ id: arc, itemBeforeId: arc }] }, /enumerationItemsToMove\[0\]\.itemBeforeId.*itself/],
      ['before another field\'s item', { enumerationItemsToMove: [{ id: arc, itemBeforeId: foreign.id }] }, new RegExp(`enumerationItemsToMove\\[0\\]\\.itemBeforeId.*${foreign.id}.*not an item of custom field \\(${field.id}\\)`)],
      ['another field\'s item moved', { enumerationItemsToMove: [{ id: foreign.id, itemBeforeId: null }] }, /enumerationItemsToMove\[0\]\.id/],
      ['no itemBeforeId', { enumerationItemsToMove: [{ id: arc }] }, /itemBeforeId/],
      ['unknown disabled', { enumerationItemsToDisable: [{ id: unknown }] }, /enumerationItemsToDisable\[0\]\.id.*not an item/],
      ['unknown restored', { enumerationItemsToRestore: [{ id: unknown }] }, /enumerationItemsToRestore\[0\]\.id/],
      ['unknown renamed', { enumerationItemsToRename: [{ id: unknown, name: 'x' }] }, /enumerationItemsToRename\[0\]\.id/],
      ['unknown re-coded', { enumerationItemsToUpdateCode: [{ id: unknown, code: 'x' }] }, /enumerationItemsToUpdateCode\[0\]\.id/],
      ['empty item name', { enumerationItemsToAdd: [{ name: ' ' }] }, /enumerationItemsToAdd\[0\]\.name/],
      ['item without name', { enumerationItemsToAdd: [{ code: 'x' }] }, /name/],
      ['item name of a wrong type', { enumerationItemsToAdd: [{ name: { a: 1 } }] }, /name/],
      ['unknown operation', { enumerationItemsToDelete: [{ id: arc }] }, /additional properties/],
    ];
    for (const [what, body, message] of wrong) expect(await patch(body), 400, what, badRequest(message));
    const text = await newField('Plain', 'text');
    expect(await admin('PATCH', `${path()}/${text.id}`, { enumerationItemsToAdd: [{ name: 'x' }] }), 400, 'items of a text field', badRequest(/enumerationItemsToAdd.*of type text/));
    expect(await admin('PATCH', `${path()}/${text.id}`, { enumerationItemsToAdd: [] }), 200, 'no items of a text field');
    expect(await member('PATCH', `${path()}/${field.id}`, { enumerationItemsToAdd: [{ name: 'x' }] }), 403, 'a member adds', FORBIDDEN);
    assert.deepEqual((await addItems(field.id, [])).map((i) => i.name), ['Services', 'Structure', 'ARCHITECTURE', 'Landscape', 'Fire']);
  });

  describe('topic boards', () => {
    let text: { id: string };
    let integer: { id: string };
    let double: { id: string };
    let date: { id: string };
    let enumeration: { id: string };
    let items: { id: string; name: string }[];
    const boardPath = (id = board, p = project) => `/projects/${p}/issues/boards/${id}`;
    const patchBoard = (body: object, query = '') => admin('PATCH', `${boardPath()}${query}`, body);
    const instances = async () => (expect(await member('GET', boardPath()), 200, 'board') as { customFieldInstances: { id: string }[] }).customFieldInstances;

    before(async () => {
      text = await newField('Room', 'text');
      integer = await newField('Storey', 'integer');
      double = await newField('Cost estimate', 'double');
      date = await newField('Inspection', 'date');
      enumeration = await newField('Severity', 'enumeration');
      items = await addItems(enumeration.id, [{ name: 'Minor' }, { name: 'Major' }, { name: 'Blocking' }]);
    });

    it('reads a board with its instances (include=customFields), by its UUID or the compacted form', async () => {
      const empty = expect(await member('GET', boardPath()), 200, 'a board');
      assert.deepEqual(empty, { id: board, name: 'Fields', description: '', customFieldInstances: [] });
      assert.deepEqual(expect(await member('GET', boardPath(board.replaceAll('-', ''))), 200, 'compacted id'), empty);
      assert.deepEqual(expect(await member('GET', `${boardPath()}?include=customFields`), 200, 'with fields'), { ...empty, customFields: [] });
      expect(await member('GET', `${boardPath()}?include=customFields,colours`), 400, 'unknown include', badRequest(/include.*colours/));
      expect(await stranger('GET', boardPath()), 404, 'a stranger', notFound(`Project (${project}) not found`));
      expect(await stranger('PATCH', boardPath(), {}), 404, 'a stranger patches', notFound(`Project (${project}) not found`));
      expect(await member('PATCH', boardPath(), { customFieldsToAdd: [{ id: text.id }] }), 403, 'a member patches', FORBIDDEN);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-board', otherBoard]) {
        expect(await member('GET', boardPath(id)), 404, `board ${id}`, notFound(`IssueBoard (${id}) not found`));
        expect(await admin('PATCH', boardPath(id), {}), 404, `patch board ${id}`, notFound(`IssueBoard (${id}) not found`));
      }
      expect(await admin('GET', boardPath(board, '0123456789abcdef0123456789abcdef')), 404, 'unknown project', notFound('Project (0123456789abcdef0123456789abcdef) not found'));
    });

    it('adds, modifies, disables, restores (both spellings), moves and deletes instances; defaults match the field type', async () => {
      const added = expect(
        await patchBoard(
          {
            customFieldsToAdd: [
              { id: text.id, required: false },
              { id: integer.id, required: true, defaultValue: 0 },
              { id: double.id, defaultValue: 2.5 },
              { id: date.id, defaultValue: '2024-05-01' },
              { id: enumeration.id, required: true, defaultValue: items[0].id },
            ],
          },
          '?include=customFields',
        ),
        200,
        'add five',
      );
      // PATCH answers the board (the seed documents it as returning a custom field).
      assert.deepEqual(added.customFieldInstances, [
        { id: text.id, disabled: false, required: false, defaultValue: null, itemBeforeId: null },
        { id: integer.id, disabled: false, required: true, defaultValue: 0, itemBeforeId: text.id },
        { id: double.id, disabled: false, required: false, defaultValue: 2.5, itemBeforeId: integer.id },
        { id: date.id, disabled: false, required: false, defaultValue: '2024-05-01', itemBeforeId: double.id },
        { id: enumeration.id, disabled: false, required: true, defaultValue: items[0].id, itemBeforeId: date.id },
      ]);
      assert.deepEqual(added.customFields.map((f: { id: string }) => f.id), [text.id, integer.id, double.id, date.id, enumeration.id]);
      assert.deepEqual(added.customFields[0], (await admin('GET', `${path()}/${text.id}`)).json);
      assert.equal(added.id, board);
      assert.equal(expect(await patchBoard({}), 200, 'without include').customFields, undefined);

      // Modify: required and the default; absent members keep their values.
      const modified = expect(await patchBoard({ customFieldsToModify: [{ id: text.id, required: true, defaultValue: 'Hall' }, { id: double.id, defaultValue: null }, { id: date.id, required: false }] }), 200, 'modify');
      assert.deepEqual(modified.customFieldInstances.map((i: { required: boolean; defaultValue: unknown }) => [i.required, i.defaultValue]), [[true, 'Hall'], [true, 0], [false, null], [false, '2024-05-01'], [true, items[0].id]]);

      // Disable and restore, with the seed's spelling and the regular one.
      const disabled = expect(await patchBoard({ customFieldsToDisable: [{ id: double.id }, { id: date.id }] }), 200, 'disable');
      assert.deepEqual(disabled.customFieldInstances.map((i: { disabled: boolean }) => i.disabled), [false, false, true, true, false]);
      expect(await patchBoard({ customFieldstoRestore: [{ id: double.id }] }), 200, 'restore (seed spelling)');
      const restored = expect(await patchBoard({ customFieldsToRestore: [{ id: date.id }] }), 200, 'restore');
      assert.deepEqual(restored.customFieldInstances.map((i: { disabled: boolean }) => i.disabled), [false, false, false, false, false]);

      // Moves: itemBeforeId null is first.
      expect(await patchBoard({ customFieldsToMove: [{ id: enumeration.id, itemBeforeId: null }, { id: text.id, itemBeforeId: date.id }] }), 200, 'move');
      const order = await instances();
      assert.deepEqual(order.map((i) => i.id), [enumeration.id, integer.id, double.id, date.id, text.id]);
      assert.deepEqual(order.map((i) => (i as unknown as { itemBeforeId: string | null }).itemBeforeId), [null, enumeration.id, integer.id, double.id, date.id]);

      // Delete, then add again (last).
      expect(await patchBoard({ customFieldsToDelete: [{ id: double.id }] }), 200, 'delete');
      assert.deepEqual((await instances()).map((i) => i.id), [enumeration.id, integer.id, date.id, text.id]);
      expect(await patchBoard({ customFieldsToAdd: [{ id: double.id, required: false }] }), 200, 'add again');
      assert.deepEqual((await instances()).map((i) => i.id), [enumeration.id, integer.id, date.id, text.id, double.id]);

      // 400s, naming the member; nothing of a refused PATCH is kept.
      const archivedField = await newField('Old', 'text');
      expect(await admin('PATCH', `${path()}/${archivedField.id}`, { archived: true }), 200, 'archive');
      const spare = await newField('Spare', 'integer');
      const otherProjectField = '0123456789abcdef0123456789abcdef';
      const wrong: [string, object, RegExp][] = [
        ['an unknown field', { customFieldsToAdd: [{ id: otherProjectField }] }, new RegExp(`customFieldsToAdd\\[0\\]\\.id.*custom field \\(${otherProjectField}\\) is not a custom field of project`)],
        ['a field on the board', { customFieldsToAdd: [{ id: text.id }] }, /customFieldsToAdd\[0\]\.id.*already/],
        ['an archived field', { customFieldsToAdd: [{ id: archivedField.id }] }, /customFieldsToAdd\[0\]\.id.*archived/],
        ['required without default', { customFieldsToAdd: [{ id: spare.id, required: true }] }, /customFieldsToAdd\[0\]\.defaultValue.*required custom field needs a default/],
        ['required with a null default', { customFieldsToAdd: [{ id: spare.id, required: true, defaultValue: null }] }, /customFieldsToAdd\[0\]\.defaultValue.*required/],
        ['a default of the wrong type', { customFieldsToAdd: [{ id: spare.id, defaultValue: 'one' }] }, /customFieldsToAdd\[0\]\.defaultValue.*an integer.*type integer/],
        ['text default a number', { customFieldsToModify: [{ id: text.id, defaultValue: 5 }] }, /customFieldsToModify\[0\]\.defaultValue.*type text/],
        ['integer default a fraction', { customFieldsToModify: [{ id: integer.id, defaultValue: 1.5 }] }, /customFieldsToModify\[0\]\.defaultValue.*an integer/],
        ['integer default a string', { customFieldsToModify: [{ id: integer.id, defaultValue: '1' }] }, /customFieldsToModify\[0\]\.defaultValue.*an integer/],
        ['double default a string', { customFieldsToModify: [{ id: double.id, defaultValue: 'x' }] }, /customFieldsToModify\[0\]\.defaultValue.*a number/],
        ['date default not a date', { customFieldsToModify: [{ id: date.id, defaultValue: '1 May 2024' }] }, /customFieldsToModify\[0\]\.defaultValue.*ISO 8601/],
        ['date default no such day', { customFieldsToModify: [{ id: date.id, defaultValue: '2023-02-29' }] }, /customFieldsToModify\[0\]\.defaultValue.*ISO 8601/],
        ['enumeration default another field\'s item', { customFieldsToModify: [{ id: enumeration.id, defaultValue: 'ffffffffffffffffffffffffffffffff' }] }, /customFieldsToModify\[0\]\.defaultValue.*not an item of custom field/],
        ['boolean default', { customFieldsToModify: [{ id: text.id, defaultValue: true }] }, /customFieldsToModify\[0\]\.defaultValue/],
        ['required without default', { customFieldsToModify: [{ id: double.id, required: true }] }, /customFieldsToModify\[0\]\.defaultValue.*required custom field needs a default/],
        ['clearing a required default', { customFieldsToModify: [{ id: text.id, defaultValue: null }] }, /customFieldsToModify\[0\]\.defaultValue.*required/],
        ['modify an instance not on the board', { customFieldsToModify: [{ id: archivedField.id, required: false }] }, /customFieldsToModify\[0\]\.id.*not on issue board/],
        ['disable unknown', { customFieldsToDisable: [{ id: archivedField.id }] }, /customFieldsToDisable\[0\]\.id/],
        ['restore unknown', { customFieldstoRestore: [{ id: archivedField.id }] }, /customFieldstoRestore\[0\]\.id/],
        ['restore unknown (other spelling)', { customFieldsToRestore: [{ id: archivedField.id }] }, /customFieldsToRestore\[0\]\.id/],
        ['delete unknown', { customFieldsToDelete: [{ id: archivedField.id }] }, /customFieldsToDelete\[0\]\.id/],
        ['move before itself', { customFieldsToMove: [{ id: text.id, itemBeforeId: text.id }] }, /customFieldsToMove\[0\]\.itemBeforeId.*itself/],
        ['move before unknown', { customFieldsToMove: [{ id: text.id, itemBeforeId: archivedField.id }] }, /customFieldsToMove\[0\]\.itemBeforeId/],
        ['after valid parts', { customFieldsToDelete: [{ id: integer.id }], customFieldsToMove: [{ id: text.id, itemBeforeId: text.id }] }, /itself/],
        ['an unknown operation', { customFieldsToRename: [] }, /additional properties/],
        ['required a string', { customFieldsToModify: [{ id: text.id, required: 'true' }] }, /body\/customFieldsToModify\/0\/required must be boolean/],
      ];
      const kept = await instances();
      for (const [what, body, message] of wrong) expect(await patchBoard(body), 400, what, badRequest(message));
      assert.deepEqual(await instances(), kept, 'no refused PATCH changed the board');

      // A disabled item is no default; the default an instance has stays when its item is disabled later.
      expect(await admin('PATCH', `${path()}/${enumeration.id}`, { enumerationItemsToDisable: [{ id: items[2].id }, { id: items[0].id }] }), 200, 'disable items');
      expect(await patchBoard({ customFieldsToModify: [{ id: enumeration.id, defaultValue: items[2].id }] }), 400, 'a disabled item', badRequest(/customFieldsToModify\[0\]\.defaultValue.*disabled/));
      expect(await patchBoard({ customFieldsToModify: [{ id: enumeration.id, required: true }] }), 200, 'the held default stays allowed');
      expect(await patchBoard({ customFieldsToModify: [{ id: enumeration.id, defaultValue: items[1].id }] }), 200, 'an enabled item');
      expect(await admin('PATCH', `${path()}/${enumeration.id}`, { enumerationItemsToRestore: [{ id: items[2].id }, { id: items[0].id }] }), 200, 'restore items');
    });

    it('gives BCF topics values of the board\'s enabled fields: defaults, required ones, types checked', async () => {
      // The board now: Severity (required, Major), Storey (required, 0), Inspection, Room (required, Hall), Cost estimate.
      const order = [enumeration.id, integer.id, date.id, text.id, double.id];
      const values = (topic: { platform_custom_fields: { id: string; value: unknown }[] }) => topic.platform_custom_fields.map((v) => v.value);
      const topicPath = '/3.0/projects/' + board + '/topics';
      const created = (await bcfMember('POST', topicPath, { title: 'Leak', platform_custom_fields: [{ id: date.id, value: '2024-06-01T08:00:00Z' }, { id: text.id, value: 'Kitchen' }] })).json;
      check('3.0', 'Collaboration/Topic/topic_GET.json', created, 'a topic with values');
      assert.deepEqual(created.platform_custom_fields.map((v: { id: string }) => v.id), order);
      assert.deepEqual(created.platform_custom_fields[0], { id: enumeration.id, name: 'Severity', type: 'enumeration', value: items[1].id });
      assert.deepEqual(values(created), [items[1].id, 0, '2024-06-01T08:00:00Z', 'Kitchen', null]);

      // Every version shows them; PUT sets those listed and keeps the others; null clears an optional one.
      for (const version of ['2.0', '2.1']) {
        const read = (await bcfMember('GET', `/${version}/projects/${board}/topics/${created.guid}`)).json;
        assert.deepEqual(values(read), values(created), `${version} shows the values`);
      }
      const put = await bcfMember('PUT', `${topicPath}/${created.guid}`, { title: 'Leak', platform_custom_fields: [{ id: double.id, value: 12 }, { id: date.id, value: null }, { id: integer.id, value: -2 }] });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(values(put.json), [items[1].id, -2, null, 'Kitchen', 12]);
      const untouched = await bcfMember('PUT', `${topicPath}/${created.guid}`, { title: 'Leak again' });
      assert.deepEqual(values(untouched.json), [items[1].id, -2, null, 'Kitchen', 12], 'a PUT without the list keeps the values');

      // 400s naming the entry; nothing is written.
      const wrong: [string, unknown, RegExp][] = [
        ['a text as integer', [{ id: integer.id, value: 'two' }], /platform_custom_fields\[0\]\.value.*an integer/],
        ['a number as text', [{ id: text.id, value: 3 }], /platform_custom_fields\[0\]\.value.*type text/],
        ['a bad date', [{ id: date.id, value: '2024-13-01' }], /platform_custom_fields\[0\]\.value.*ISO 8601/],
        ['an unknown item', [{ id: enumeration.id, value: items[0].id.replace(/.$/, 'x') }], /platform_custom_fields\[0\]\.value.*not an item/],
        ['an unknown field', [{ id: text.id, value: 'x' }, { id: text.id.replace(/./, 'x'), value: 1 }], /platform_custom_fields\[1\]\.id.*not an enabled custom field/],
        ['null for a required one', [{ id: integer.id, value: null }], /platform_custom_fields\[0\]\.value.*required/],
        ['twice', [{ id: double.id, value: 1 }, { id: double.id, value: 2 }], /platform_custom_fields\[1\]\.id.*twice/],
        ['not a list', { id: double.id }, /platform_custom_fields.*array/],
        ['not an object', ['x'], /platform_custom_fields\[0\]/],
      ];
      for (const [what, list, message] of wrong) {
        for (const [method, url] of [['POST', topicPath], ['PUT', `${topicPath}/${created.guid}`]]) {
          const answer = await bcfMember(method, url, { title: 'Wrong', platform_custom_fields: list });
          assert.equal(answer.status, 400, `${what} (${method}): ${answer.text}`);
          assert.match(answer.json.error.message, message, what);
        }
      }
      const topics = await bcfMember('GET', `/2.0/projects/${board}/topics`);
      assert.deepEqual(topics.json.map((t: { title: string }) => t.title), ['Leak again'], 'no topic was created by a refused POST');
      assert.deepEqual(values(topics.json[0]), [items[1].id, -2, null, 'Kitchen', 12], 'nor changed by a refused PUT');

      // A disabled item is no new value, but a topic keeps the one it has.
      expect(await admin('PATCH', `${path()}/${enumeration.id}`, { enumerationItemsToDisable: [{ id: items[1].id }] }), 200, 'disable Major');
      const kept = await bcfMember('PUT', `${topicPath}/${created.guid}`, { title: 'Leak again', platform_custom_fields: [{ id: enumeration.id, value: items[1].id }] });
      assert.equal(kept.status, 200, kept.text);
      const other = await bcfMember('POST', topicPath, { title: 'Other', platform_custom_fields: [{ id: enumeration.id, value: items[1].id }] });
      assert.equal(other.status, 400, other.text);
      assert.match(other.json.error.message, /platform_custom_fields\[0\]\.value.*disabled/);
      expect(await admin('PATCH', `${path()}/${enumeration.id}`, { enumerationItemsToRestore: [{ id: items[1].id }] }), 200, 'restore Major');

      // A disabled instance is not shown nor taken; restored, its value is back. A new required one fills existing topics with its default.
      expect(await patchBoard({ customFieldsToDisable: [{ id: double.id }] }), 200, 'disable Cost estimate');
      const hidden = (await bcfMember('GET', `/2.1/projects/${board}/topics/${created.guid}`)).json;
      assert.deepEqual(hidden.platform_custom_fields.map((v: { id: string }) => v.id), order.slice(0, 4));
      const refused = await bcfMember('PUT', `${topicPath}/${created.guid}`, { title: 'Leak again', platform_custom_fields: [{ id: double.id, value: 1 }] });
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.json.error.message, /platform_custom_fields\[0\]\.id.*not an enabled custom field/);
      expect(await patchBoard({ customFieldsToRestore: [{ id: double.id }], customFieldsToModify: [{ id: date.id, required: true, defaultValue: '2025-01-01' }] }), 200, 'restore, require a date');
      const back = (await bcfMember('GET', `/2.1/projects/${board}/topics/${created.guid}`)).json;
      assert.deepEqual(values(back), [items[1].id, -2, '2025-01-01', 'Kitchen', 12]);

      // A topic without values takes the required defaults; $select picks the list; deleting an instance drops its values.
      const plain = (await bcfMember('POST', topicPath, { title: 'Plain' })).json;
      assert.deepEqual(values(plain), [items[1].id, 0, '2025-01-01', 'Hall', null]);
      const selected = (await bcfMember('GET', `/3.0/projects/${board}/topics?$filter=${encodeURIComponent("title eq 'Plain'")}&$select=platform_custom_fields`)).json;
      assert.deepEqual(selected, [{ guid: plain.guid, platform_issue_number: plain.platform_issue_number, platform_custom_fields: plain.platform_custom_fields }]);
      expect(await patchBoard({ customFieldsToDelete: [{ id: text.id }] }), 200, 'delete Room');
      expect(await patchBoard({ customFieldsToAdd: [{ id: text.id }] }), 200, 'add Room again');
      const readded = (await bcfMember('GET', `/2.1/projects/${board}/topics/${created.guid}`)).json;
      assert.deepEqual(readded.platform_custom_fields.map((v: { id: string }) => v.id), [enumeration.id, integer.id, date.id, double.id, text.id]);
      assert.deepEqual(values(readded), [items[1].id, -2, '2025-01-01', 12, null], 'the value of a deleted instance is gone');

      // Topics imported from a BCF file (which holds no values) take the required defaults of the board they go to.
      const third = (await bcfAdmin('POST', '/2.0/projects', { name: 'Imports', platform_project_id: project })).json.project_id;
      expect(await admin('PATCH', `/projects/${project}/issues/boards/${third}`, { customFieldsToAdd: [{ id: text.id, required: true, defaultValue: 'Imported' }, { id: double.id }] }), 200, 'fields of a third board');
      const file = await bcfAdmin('GET', `/2.1/projects/${board}/export?version=2.1`);
      assert.equal(file.status, 200, file.text);
      const imported = await bcfAdmin('POST', `/2.1/projects/${third}/import`, file.bytes, { 'Content-Type': 'application/octet-stream' });
      assert.equal(imported.status, 201, imported.text);
      const importedTopic = (await bcfAdmin('GET', `/2.1/projects/${third}/topics/${created.guid}`)).json;
      assert.deepEqual(importedTopic.platform_custom_fields, [{ id: text.id, name: 'Room', type: 'text', value: 'Imported' }, { id: double.id, name: 'Cost estimate', type: 'double', value: null }]);

      // A board without instances answers an empty list, and BCF's own fields still validate.
      const elsewhere = (await bcfAdmin('POST', `/2.1/projects/${otherBoard}/topics`, { title: 'Elsewhere' })).json;
      check('2.1', 'Collaboration/Topic/topic_GET.json', elsewhere, 'a topic of a board without fields');
      assert.deepEqual(elsewhere.platform_custom_fields, []);
    });
  });
});
