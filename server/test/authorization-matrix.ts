/**
 * The authorization matrix (issue 22, part 3): for every endpoint of GET /openapi.json, how
 * to call it and the exact status each principal gets. authorization.test.ts fails on an
 * endpoint that has no row here, so a new route needs its row.
 *
 * Principals (authorization.test.ts makes them):
 * - none: no credentials at all;
 * - expired: the owner's access token after its lifetime;
 * - viewer: a viewer token (3D, 2D or beta 2D access, in turn) sent as a Bearer token;
 * - stranger: a signed-in user who is no member of the project (and has one of their own);
 * - member: a member of the project (role `member`);
 * - admin: the project's owner (role `admin`);
 * - otherApp: the owner's access token issued to another registered application. Tokens
 *   carry no scopes: every application acts for its user, so it gets what admin gets.
 *
 * On the viewers' data URLs the credential is the `token` in the URL, not a Bearer token:
 * there `viewer` sends the project's live token of that kind, `expired` one issued expired,
 * `stranger` a live token of another project, `otherApp` a live token of the other kind,
 * and none, member and admin send their Bearer token (or nothing) without `token`.
 */
export const PRINCIPALS = ['none', 'expired', 'viewer', 'stranger', 'member', 'admin', 'otherApp'] as const;
export type Principal = (typeof PRINCIPALS)[number];
export type Expected = Record<Principal, number>;

/** What the test made: the project under test (P) and what is in it; `their` is the stranger's own project. */
export interface Fixtures {
  project: string;
  model: string;
  uploads: string;
  importToken: string;
  objectId: number;
  board: string;
  /** Renaming the board to its own name changes nothing the leak checks look for. */
  boardName: string;
  topic: string;
  comment: string;
  viewpoint: string;
  bitmap: string;
  document: string;
  reference: string;
  library: string;
  item: string;
  file: string;
  collection: string;
  shareToken: string;
  sharedFile: string;
  field: string;
  issueBoard: string;
  userId: string;
  bcfZip: Uint8Array;
  viewerTokens: { viewer3d: string; viewer2d: string; beta: string; expired3d: string; expired2d: string; other3d: string; other2d: string };
}

export interface Call {
  /** Path and query (no origin). */
  url: string;
  body?: unknown;
  /** Sent as it is (bytes or text) with this Content-Type; else `body` as JSON. */
  contentType?: string;
  /** For the viewers' data URLs: the Bearer token is left out (see above). */
  noBearer?: boolean;
}

/** A throwaway resource for a call that deletes or uses up what it is given; made by the owner. */
export type Fresh = (who: Principal, n: number) => Promise<Record<string, string>>;

export interface Row {
  method: string;
  /** The path as /openapi.json writes it. */
  path: string;
  call: (f: Fixtures, who: Principal, n: number, fresh: Record<string, string>) => Call;
  expect: Expected;
  /** Principals whose call needs a throwaway resource first, and which. */
  fresh?: { for: Principal[]; make: 'project' | 'model' | 'topic' | 'comment' | 'viewpoint' | 'status' | 'type' | 'reference' | 'zip' };
  /**
   * `Access-Control-Allow-Origin: *` on every answer (`always`: the viewers' data URLs, whose
   * 401s viewers read too, docs/V2.md) or on its successes (`success`: the pictures, for
   * `<img>` and canvases on other origins); every other answer carries none.
   */
  cors?: 'always' | 'success';
  /** The answer is the project's own data for this principal (a public link, a viewer's token): no leak check against P. */
  publicFor?: Principal[];
}

/** A Bearer endpoint inside the project: no token 401, a non-member 404 (it does not exist for them). */
const inProject = (member: number, admin = member): Expected => ({ none: 401, expired: 401, viewer: 401, stranger: 404, member, admin, otherApp: admin });
/** A Bearer endpoint of the caller's own (their projects, themselves): every signed-in user gets it. */
const own = (status: number): Expected => ({ none: 401, expired: 401, viewer: 401, stranger: status, member: status, admin: status, otherApp: status });
/** No credentials needed. */
const open = (status: number): Expected => ({ none: status, expired: status, viewer: status, stranger: status, member: status, admin: status, otherApp: status });
/** A viewer's data URL: only the live token of this project and kind opens it. */
const viewerData: Expected = { none: 401, expired: 401, viewer: 200, stranger: 401, member: 401, admin: 401, otherApp: 401 };

const ALL: Principal[] = [...PRINCIPALS];
const ALLOWED: Principal[] = ['member', 'admin', 'otherApp'];
const OWNERS: Principal[] = ['admin', 'otherApp'];
const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)] as [string, string])).toString();

/** A 1 x 1 PNG is enough for snapshots and bitmaps; authorization.test.ts makes it. */
export const images = { png: '' };

const IFC = `ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('a.ifc','',(''),(''),'','','');\nFILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n`;

function v1Rows(): Row[] {
  return [
    { method: 'GET', path: '/1.0/projects', call: () => ({ url: '/1.0/projects' }), expect: own(200) },
    { method: 'POST', path: '/1.0/projects/new', call: (_f, who, n) => ({ url: '/1.0/projects/new', body: { name: `new ${who} ${n}` } }), expect: own(200) },
    { method: 'GET', path: '/1.0/project', call: (f) => ({ url: `/1.0/project?${q({ project_id: f.project })}` }), expect: inProject(200) },
    { method: 'PUT', path: '/1.0/project', call: (f, _w, _n, x) => ({ url: `/1.0/project?${q({ project_id: x.project ?? f.project })}`, body: { name: 'Renamed by a wrong user' } }), expect: inProject(403, 200), fresh: { for: OWNERS, make: 'project' } },
    { method: 'DELETE', path: '/1.0/project', call: (f, _w, _n, x) => ({ url: `/1.0/project?${q({ project_id: x.project ?? f.project })}` }), expect: inProject(403, 204), fresh: { for: OWNERS, make: 'project' } },
    { method: 'GET', path: '/1.0/models', call: (f) => ({ url: `/1.0/models?${q({ project_id: f.project })}` }), expect: inProject(200) },
    { method: 'POST', path: '/1.0/models/new', call: (f, who, n) => ({ url: `/1.0/models/new?${q({ project_id: f.project })}`, body: { name: `model ${who} ${n}` } }), expect: inProject(200) },
    { method: 'GET', path: '/1.0/model', call: (f) => ({ url: `/1.0/model?${q({ model_id: f.model })}` }), expect: inProject(200) },
    { method: 'PUT', path: '/1.0/model', call: (f, _w, _n, x) => ({ url: `/1.0/model?${q({ model_id: x.model ?? f.model })}`, body: { name: 'Renamed model' } }), expect: inProject(200), fresh: { for: ALLOWED, make: 'model' } },
    { method: 'DELETE', path: '/1.0/model', call: (f, _w, _n, x) => ({ url: `/1.0/model?${q({ model_id: x.model ?? f.model })}` }), expect: inProject(403, 204), fresh: { for: OWNERS, make: 'model' } },
    { method: 'PUT', path: '/1.0/model/import', call: (f) => ({ url: `/1.0/model/import?${q({ model_id: f.uploads, file_name: 'a.ifc' })}`, body: IFC, contentType: 'application/octet-stream' }), expect: inProject(200) },
    { method: 'GET', path: '/1.0/model/import/status', call: (f) => ({ url: `/1.0/model/import/status?${q({ token: f.importToken })}` }), expect: inProject(200) },
    { method: 'GET', path: '/1.0/revisions', call: (f) => ({ url: `/1.0/revisions?${q({ model_id: f.model })}` }), expect: inProject(200) },
    { method: 'GET', path: '/1.0/revision', call: (f) => ({ url: `/1.0/revision?${q({ model_id: f.model, revision_id: 1 })}` }), expect: inProject(200) },
    { method: 'GET', path: '/1.0/revision/export', call: (f) => ({ url: `/1.0/revision/export?${q({ model_id: f.model })}` }), expect: inProject(200) },
    { method: 'GET', path: '/1.0/revision/products', call: (f) => ({ url: `/1.0/revision/products?${q({ model_id: f.model })}` }), expect: inProject(200) },
    { method: 'POST', path: '/1.0/revision/products', call: (f) => ({ url: `/1.0/revision/products?${q({ model_id: f.model })}`, body: {} }), expect: inProject(200) },
    { method: 'GET', path: '/1.0/revision/product', call: (f) => ({ url: `/1.0/revision/product?${q({ model_id: f.model, object_id: f.objectId })}` }), expect: inProject(200) },
    { method: 'POST', path: '/1.0/revision/product', call: (f) => ({ url: `/1.0/revision/product?${q({ model_id: f.model, object_id: f.objectId })}`, body: { attributes: true } }), expect: inProject(200) },
    { method: 'GET', path: '/1.0/project/products', call: (f) => ({ url: `/1.0/project/products?${q({ project_id: f.project })}` }), expect: inProject(200) },
    { method: 'POST', path: '/1.0/project/products', call: (f) => ({ url: `/1.0/project/products?${q({ project_id: f.project })}`, body: {} }), expect: inProject(200) },
    { method: 'GET', path: '/1.0/project/product', call: (f) => ({ url: `/1.0/project/product?${q({ project_id: f.project, object_id: f.objectId })}` }), expect: inProject(200) },
    { method: 'POST', path: '/1.0/project/product', call: (f) => ({ url: `/1.0/project/product?${q({ project_id: f.project, object_id: f.objectId })}`, body: { attributes: true } }), expect: inProject(200) },
  ];
}

/** The token a principal puts into a viewer data URL of `kind` (see the top of the file). */
function dataToken(f: Fixtures, who: Principal, kind: 'viewer3d' | 'viewer2d'): string | undefined {
  const t = f.viewerTokens;
  const [live, expired, other, otherKind] = kind === 'viewer3d' ? [t.viewer3d, t.expired3d, t.other3d, t.viewer2d] : [t.viewer2d, t.expired2d, t.other2d, t.viewer3d];
  return { viewer: live, expired, stranger: other, otherApp: otherKind }[who as 'viewer'];
}

function v2Rows(): Row[] {
  const P = (f: Fixtures) => `/v2/projects/${f.project}`;
  const rows: Row[] = [];
  for (const [kind, resource] of [['viewer3d', 'data'], ['viewer2d', 'geometry']] as const) {
    const withToken = (base: string, token: string | undefined, extra: Record<string, string>) => ({ url: `${base}?${q({ ...(token ? { token } : {}), ...extra })}`, noBearer: !!token });
    rows.push(
      { method: 'POST', path: `/v2/projects/{project}/${kind}/token`, call: (f) => ({ url: `${P(f)}/${kind}/token` }), expect: inProject(201) },
      { method: 'GET', path: `/v2/projects/{project}/${kind}/${resource}`, call: (f, who) => withToken(`${P(f)}/${kind}/${resource}`, dataToken(f, who, kind), {}), expect: viewerData, publicFor: ['viewer'], cors: 'always' },
      { method: 'GET', path: `/v2/projects/{project}/${kind}/file`, call: (f, who) => withToken(`${P(f)}/${kind}/file`, dataToken(f, who, kind), { model: f.model }), expect: viewerData, publicFor: ['viewer'], cors: 'always' },
      { method: 'GET', path: `/v2/projects/{project}/${kind}/products`, call: (f, who) => withToken(`${P(f)}/${kind}/products`, dataToken(f, who, kind), { model: f.model }), expect: viewerData, publicFor: ['viewer'], cors: 'always' },
    );
  }
  const L = (f: Fixtures) => `${P(f)}/libraries/${f.library}`;
  const C = (f: Fixtures) => `${P(f)}/libraries/collections/${f.collection}`;
  rows.push(
    { method: 'GET', path: '/v2/projects/{project}/image', call: (f) => ({ url: `${P(f)}/image` }), expect: inProject(200), cors: 'success' },
    { method: 'GET', path: '/v2/users/{user}/avatar', call: (f) => ({ url: `/v2/users/${f.userId}/avatar` }), expect: open(200), publicFor: ALL, cors: 'success' },
    { method: 'GET', path: '/v2/shared/collections/{token}', call: (f) => ({ url: `/v2/shared/collections/${f.shareToken}` }), expect: open(200), publicFor: ALL },
    { method: 'GET', path: '/v2/shared/collections/{token}/files/{file}', call: (f) => ({ url: `/v2/shared/collections/${f.shareToken}/files/${f.sharedFile}` }), expect: open(200), publicFor: ALL },
    { method: 'GET', path: '/v2/user', call: () => ({ url: '/v2/user' }), expect: own(200) },
    { method: 'GET', path: '/v2/projects', call: () => ({ url: '/v2/projects' }), expect: own(200) },
    { method: 'GET', path: '/v2/projects/{project}', call: (f) => ({ url: P(f) }), expect: inProject(200) },
    { method: 'GET', path: '/v2/projects/{project}/ifc/products', call: (f) => ({ url: `${P(f)}/ifc/products` }), expect: inProject(200) },
    { method: 'GET', path: '/v2/projects/{project}/ifc/products/{objectId}', call: (f) => ({ url: `${P(f)}/ifc/products/${f.objectId}` }), expect: inProject(200) },
    { method: 'GET', path: '/v2/projects/{project}/libraries', call: (f) => ({ url: `${P(f)}/libraries` }), expect: inProject(200) },
    { method: 'POST', path: '/v2/projects/{project}/libraries', call: (f, who, n) => ({ url: `${P(f)}/libraries`, body: { name: `library ${who} ${n}` } }), expect: inProject(403, 201) },
    { method: 'GET', path: '/v2/projects/{project}/libraries/{library}', call: (f) => ({ url: L(f) }), expect: inProject(200) },
    { method: 'GET', path: '/v2/projects/{project}/libraries/{library}/items', call: (f) => ({ url: `${L(f)}/items` }), expect: inProject(200) },
    { method: 'POST', path: '/v2/projects/{project}/libraries/{library}/items', call: (f, who, n) => ({ url: `${L(f)}/items`, body: { name: `item ${who} ${n}` } }), expect: inProject(201) },
    { method: 'GET', path: '/v2/projects/{project}/libraries/{library}/items/{item}', call: (f) => ({ url: `${L(f)}/items/${f.item}` }), expect: inProject(200) },
    { method: 'GET', path: '/v2/projects/{project}/libraries/{library}/items/{item}/files', call: (f) => ({ url: `${L(f)}/items/${f.item}/files` }), expect: inProject(200) },
    { method: 'POST', path: '/v2/projects/{project}/libraries/{library}/items/{item}/files', call: (f) => ({ url: `${L(f)}/items/${f.item}/files?${q({ filename: 'plan.txt' })}`, body: 'a new revision', contentType: 'application/octet-stream' }), expect: inProject(201) },
    { method: 'GET', path: '/v2/projects/{project}/libraries/{library}/items/{item}/files/{file}', call: (f) => ({ url: `${L(f)}/items/${f.item}/files/${f.file}` }), expect: inProject(200) },
    { method: 'GET', path: '/v2/projects/{project}/libraries/collections', call: (f) => ({ url: `${P(f)}/libraries/collections` }), expect: inProject(200) },
    { method: 'POST', path: '/v2/projects/{project}/libraries/collections', call: (f, who, n) => ({ url: `${P(f)}/libraries/collections`, body: { name: `collection ${who} ${n}` } }), expect: inProject(201) },
    { method: 'GET', path: '/v2/projects/{project}/libraries/collections/{collection}', call: (f) => ({ url: C(f) }), expect: inProject(200) },
    { method: 'PATCH', path: '/v2/projects/{project}/libraries/collections/{collection}', call: (f) => ({ url: C(f), body: { description: 'changed' } }), expect: inProject(403, 200) },
    { method: 'GET', path: '/v2/projects/{project}/libraries/collections/{collection}/items', call: (f) => ({ url: `${C(f)}/items` }), expect: inProject(200) },
    { method: 'PUT', path: '/v2/projects/{project}/libraries/collections/{collection}/followers/me', call: (f) => ({ url: `${C(f)}/followers/me` }), expect: inProject(200) },
    { method: 'DELETE', path: '/v2/projects/{project}/libraries/collections/{collection}/followers/me', call: (f) => ({ url: `${C(f)}/followers/me` }), expect: inProject(200) },
    { method: 'GET', path: '/v2/projects/{project}/custom-fields', call: (f) => ({ url: `${P(f)}/custom-fields` }), expect: inProject(200) },
    { method: 'POST', path: '/v2/projects/{project}/custom-fields', call: (f, who, n) => ({ url: `${P(f)}/custom-fields`, body: { name: `field ${who} ${n}`, type: 'text' } }), expect: inProject(403, 201) },
    { method: 'GET', path: '/v2/projects/{project}/custom-fields/{id}', call: (f) => ({ url: `${P(f)}/custom-fields/${f.field}` }), expect: inProject(200) },
    { method: 'PATCH', path: '/v2/projects/{project}/custom-fields/{id}', call: (f) => ({ url: `${P(f)}/custom-fields/${f.field}`, body: { description: 'changed' } }), expect: inProject(403, 200) },
    { method: 'GET', path: '/v2/projects/{project}/custom-fields/{id}/enumeration-items', call: (f) => ({ url: `${P(f)}/custom-fields/${f.field}/enumeration-items` }), expect: inProject(200) },
    { method: 'GET', path: '/v2/projects/{project}/issues/boards/{id}', call: (f) => ({ url: `${P(f)}/issues/boards/${f.issueBoard}` }), expect: inProject(200) },
    { method: 'PATCH', path: '/v2/projects/{project}/issues/boards/{id}', call: (f) => ({ url: `${P(f)}/issues/boards/${f.issueBoard}`, body: {} }), expect: inProject(403, 200) },
    { method: 'POST', path: '/beta/viewer2d/access', call: (f) => ({ url: `/beta/viewer2d/access?${q({ project_id: f.project })}` }), expect: inProject(200) },
  );
  return rows;
}

function bcfRows(): Row[] {
  const rows: Row[] = [
    { method: 'GET', path: '/bcf/versions', call: () => ({ url: '/bcf/versions' }), expect: open(200), publicFor: ALL },
    { method: 'GET', path: '/bcf/version', call: () => ({ url: '/bcf/version' }), expect: open(200), publicFor: ALL },
    { method: 'GET', path: '/bcf/auth', call: () => ({ url: '/bcf/auth' }), expect: open(200), publicFor: ALL },
    { method: 'POST', path: '/bcf/2.0/projects', call: (_f, who, n) => ({ url: '/bcf/2.0/projects', body: { name: `board ${who} ${n}` } }), expect: own(201) },
  ];
  for (const v of ['2.0', '2.1', '3.0'] as const) {
    const B = (f: Fixtures) => `/bcf/${v}/projects/${f.board}`;
    const T = (f: Fixtures, x: Record<string, string> = {}) => `${B(f)}/topics/${x.topic ?? f.topic}`;
    const VP = (f: Fixtures, x: Record<string, string> = {}) => `${T(f)}/viewpoints/${x.viewpoint ?? f.viewpoint}`;
    const p = `/bcf/${v}/projects/{project_id}`;
    const t = `${p}/topics/{topic_guid}`;
    const vp = `${t}/viewpoints/{viewpoint_guid}`;
    const add = (method: string, path: string, call: Row['call'], expect: Expected, extra: Partial<Row> = {}) => rows.push({ method, path, call, expect, ...extra });
    if (v !== '2.0') add('GET', `/bcf/${v}/auth`, () => ({ url: `/bcf/${v}/auth` }), open(200), { publicFor: ALL });
    add('GET', `/bcf/${v}/current-user`, () => ({ url: `/bcf/${v}/current-user` }), own(200));
    add('GET', `/bcf/${v}/projects`, () => ({ url: `/bcf/${v}/projects` }), own(200));
    add('GET', p, (f) => ({ url: B(f) }), inProject(200));
    if (v !== '2.0') add('PUT', p, (f) => ({ url: B(f), body: { name: f.boardName } }), inProject(200));
    add('GET', `${p}/extensions`, (f) => ({ url: `${B(f)}/extensions` }), inProject(200));
    for (const ext of ['statuses', 'types'] as const) {
      const make = ext === 'statuses' ? 'status' : 'type';
      add('GET', `${p}/extensions/${ext}`, (f) => ({ url: `${B(f)}/extensions/${ext}` }), inProject(200));
      add('POST', `${p}/extensions/${ext}`, (f, who, n) => ({ url: `${B(f)}/extensions/${ext}`, body: { name: `${make} ${v} ${who} ${n}` } }), inProject(201));
      add('PUT', `${p}/extensions/${ext}`, (f, who, n, x) => ({ url: `${B(f)}/extensions/${ext}`, body: { existingName: x.name ?? 'Open', name: `${make} renamed ${v} ${who} ${n}` } }), inProject(200), { fresh: { for: ALLOWED, make } });
      add('DELETE', `${p}/extensions/${ext}`, (f, _w, _n, x) => ({ url: `${B(f)}/extensions/${ext}?${q({ name: x.name ?? 'Open' })}` }), inProject(204), { fresh: { for: ALLOWED, make } });
      // Nothing was imported with unknown values: linking answers 404 for the value, past the caller's checks.
      add('PUT', `${p}/extensions/${ext}/link`, (f) => ({ url: `${B(f)}/extensions/${ext}/link`, body: { name: 'Open', unlinkedName: 'Never imported' } }), inProject(404));
    }
    add('GET', `${p}/extensions/users`, (f) => ({ url: `${B(f)}/extensions/users` }), inProject(200));
    add('PUT', `${p}/extensions/users/link`, (f) => ({ url: `${B(f)}/extensions/users/link`, body: { existingUserId: 'admin@example.com', unlinkedUser: 'never@imported.example' } }), inProject(404));
    // 2.1 and 3.0 ask for a $filter on topic lists (seed 001).
    add('GET', `${p}/topics`, (f) => ({ url: `${B(f)}/topics${v === '2.0' ? '' : `?${q({ $filter: "topic_status ne 'Closed'" })}`}` }), inProject(200));
    add('POST', `${p}/topics`, (f, who, n) => ({ url: `${B(f)}/topics`, body: { title: `topic ${who} ${n}` } }), inProject(201));
    add('GET', t, (f) => ({ url: T(f) }), inProject(200));
    add('PUT', t, (f, _w, _n, x) => ({ url: T(f, x), body: { title: 'Changed topic' } }), inProject(200), { fresh: { for: ALLOWED, make: 'topic' } });
    add('DELETE', t, (f, _w, _n, x) => ({ url: T(f, x) }), inProject(403, 204), { fresh: { for: ALLOWED, make: 'topic' } });
    if (v === '3.0') add('GET', `${t}/events`, (f) => ({ url: `${T(f)}/events` }), inProject(200));
    add('GET', `${t}/comments`, (f) => ({ url: `${T(f)}/comments` }), inProject(200));
    add('POST', `${t}/comments`, (f, who, n) => ({ url: `${T(f)}/comments`, body: { comment: `comment ${who} ${n}` } }), inProject(201));
    add('GET', `${t}/comments/{comment_guid}`, (f) => ({ url: `${T(f)}/comments/${f.comment}` }), inProject(200));
    add('PUT', `${t}/comments/{comment_guid}`, (f, _w, _n, x) => ({ url: `${T(f)}/comments/${x.comment ?? f.comment}`, body: { comment: 'Changed comment' } }), inProject(403, 200), { fresh: { for: ALLOWED, make: 'comment' } });
    add('DELETE', `${t}/comments/{comment_guid}`, (f, _w, _n, x) => ({ url: `${T(f)}/comments/${x.comment ?? f.comment}` }), inProject(403, 204), { fresh: { for: ALLOWED, make: 'comment' } });
    add('GET', `${t}/viewpoints`, (f) => ({ url: `${T(f)}/viewpoints` }), inProject(200));
    add('POST', `${t}/viewpoints`, (f) => ({ url: `${T(f)}/viewpoints`, body: viewpointBody(false) }), inProject(201));
    add('GET', vp, (f) => ({ url: VP(f) }), inProject(200));
    if (v === '3.0') add('DELETE', vp, (f, _w, _n, x) => ({ url: VP(f, x) }), inProject(204), { fresh: { for: ALLOWED, make: 'viewpoint' } });
    add('GET', `${vp}/snapshot`, (f) => ({ url: `${VP(f)}/snapshot` }), inProject(200));
    if (v === '2.0') add('GET', `${vp}/components`, (f) => ({ url: `${VP(f)}/components` }), inProject(200));
    else {
      add('GET', `${vp}/bitmaps/{bitmap_guid}`, (f) => ({ url: `${VP(f)}/bitmaps/${f.bitmap}` }), inProject(200));
      for (const part of ['selection', 'coloring', 'visibility', 'models']) add('GET', `${vp}/${part}`, (f) => ({ url: `${VP(f)}/${part}` }), inProject(200));
      add('PUT', `${vp}/models`, (f) => ({ url: `${VP(f)}/models`, body: [] }), inProject(200));
    }
    if (v === '3.0') {
      add('GET', `${p}/documents`, (f) => ({ url: `${B(f)}/documents` }), inProject(200));
      add('POST', `${p}/documents`, (f) => ({ url: `${B(f)}/documents?${q({ filename: 'notes.txt' })}`, body: 'notes', contentType: 'text/plain' }), inProject(201));
      add('GET', `${p}/documents/{document_guid}`, (f) => ({ url: `${B(f)}/documents/${f.document}` }), inProject(200));
      add('GET', `${t}/document_references`, (f) => ({ url: `${T(f)}/document_references` }), inProject(200));
      add('POST', `${t}/document_references`, (f) => ({ url: `${T(f)}/document_references`, body: { url: 'https://example.com/spec.pdf', description: 'Spec' } }), inProject(201));
      add('PUT', `${t}/document_references/{document_reference_guid}`, (f) => ({ url: `${T(f)}/document_references/${f.reference}`, body: { url: 'https://example.com/spec-2.pdf', description: 'Spec' } }), inProject(200));
      add('DELETE', `${t}/document_references/{document_reference_guid}`, (f, _w, _n, x) => ({ url: `${T(f)}/document_references/${x.reference ?? f.reference}` }), inProject(204), { fresh: { for: ALLOWED, make: 'reference' } });
    }
    add('GET', `${t}/related_topics`, (f) => ({ url: `${T(f)}/related_topics` }), inProject(200));
    add('PUT', `${t}/related_topics`, (f) => ({ url: `${T(f)}/related_topics`, body: [] }), inProject(200));
    // A topic imported once is there: each import brings a file of topics of its own (another board's export).
    add('POST', `${p}/import`, (f, _w, _n, x) => ({ url: `${B(f)}/import`, body: x.zip ? Buffer.from(x.zip, 'base64') : f.bcfZip, contentType: 'application/octet-stream' }), inProject(201), { fresh: { for: ALLOWED, make: 'zip' } });
    add('GET', `${p}/export`, (f) => ({ url: `${B(f)}/export` }), inProject(200));
  }
  return rows;
}

export function viewpointBody(withBitmap: boolean) {
  const camera = { camera_view_point: { x: 10, y: 10, z: 10 }, camera_direction: { x: -1, y: -1, z: -1 }, camera_up_vector: { x: 0, y: 0, z: 1 }, field_of_view: 60 };
  return {
    perspective_camera: camera,
    snapshot: { snapshot_type: 'png', snapshot_data: images.png },
    ...(withBitmap ? { bitmaps: [{ bitmap_type: 'png', bitmap_data: images.png, location: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 1 }, up: { x: 0, y: 1, z: 0 }, height: 1 }] } : {}),
  };
}

function oauthRows(): Row[] {
  // The OAuth pages answer anyone: the page (200), a wrong password on it (401), a token request with a code never issued (400),
  // a revocation of a token never issued (200: it says nothing of which tokens exist), a sign-out (204).
  const rows: Row[] = [];
  const form = 'application/x-www-form-urlencoded';
  for (const [authorize, token, revoke] of [['/1.0/oauth/authorize', '/1.0/oauth/access_token', '/1.0/oauth/revoke'], ['/oauth2/authorize', '/oauth2/token', '/oauth2/revoke']]) {
    rows.push(
      { method: 'GET', path: authorize, call: () => ({ url: `${authorize}?${q({ client_id: oauth.clientId, response_type: 'code' })}` }), expect: open(200), publicFor: ALL },
      { method: 'POST', path: authorize, call: () => ({ url: authorize, body: q({ client_id: oauth.clientId, response_type: 'code', email: 'admin@example.com', password: 'wrong', decision: 'allow' }), contentType: form }), expect: open(401), publicFor: ALL },
      { method: 'POST', path: token, call: () => ({ url: token, body: q({ client_id: oauth.clientId, client_secret: oauth.clientSecret, code: 'never-issued', grant_type: 'authorization_code' }), contentType: form }), expect: open(400), publicFor: ALL },
      { method: 'POST', path: revoke, call: () => ({ url: revoke, body: q({ client_id: oauth.clientId, client_secret: oauth.clientSecret, token: 'never-issued' }), contentType: form }), expect: open(200), publicFor: ALL },
    );
  }
  rows.push({ method: 'POST', path: '/oauth2/sign-out', call: () => ({ url: '/oauth2/sign-out' }), expect: open(204), publicFor: ALL });
  return rows;
}

/** The application the OAuth rows name (authorization.test.ts sets it). */
export const oauth = { clientId: '', clientSecret: '' };

export const ROWS: Row[] = [...oauthRows(), ...v1Rows(), ...v2Rows(), ...bcfRows()];
