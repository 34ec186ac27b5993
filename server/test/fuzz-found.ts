import { randomUUID } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import type { Known } from './fuzz-requests.js';
import type { RawRequest } from './fuzz-http.js';

/**
 * Requests the fuzz once answered wrongly (a 500, a body that said nothing), kept as they
 * were found and sent on every run: fast-check draws them too seldom to find them again
 * reliably. Each names the fix it checks.
 */
export function foundCases(known: Known): { what: string; request: RawRequest; status?: number }[] {
  const bearer: [string, string] = ['Authorization', `Bearer ${known.token}`];
  const e = { path: '/v2/projects/{project}' };
  const project = known.valuesFor(e, 'project', 'path')[0];
  const model = known.valuesFor(e, 'model_id', 'query')[0];
  const board = known.valuesFor({ ...e, path: '/bcf/3.0/projects/{project_id}' }, 'project_id', 'path')[0];
  const zip: [string, string] = ['Content-Type', 'application/zip'];
  const json: [string, string] = ['Content-Type', 'application/json'];
  const topic = known.valuesFor({ ...e, path: '/bcf/3.0/projects/{project_id}/topics/{topic_guid}' }, 'topic_guid', 'path')[0];
  const p = (x: number, y: number, z: number) => ({ x, y, z });
  const camera = { camera_view_point: p(0, 0, 0), camera_direction: p(1, 0, 0), camera_up_vector: p(0, 0, 1), field_of_view: 60 };
  const bcf = (files: Record<string, string>) => Buffer.from(zipSync(Object.fromEntries(Object.entries({ 'bcf.version': '<Version VersionId="3.0"/>', ...files }).map(([name, text]) => [name, strToU8(text)]))));
  const basic = (user: string) => `Basic ${Buffer.from(`${user}:secret`).toString('base64')}`;
  return [
    {
      // api/oauth/routes.ts basicClientId: decodeURIComponent threw on a lone % (a 500).
      what: 'a token request whose Basic client id is not form-encoded',
      request: { method: 'POST', target: '/oauth2/token', headers: [['Authorization', basic('%')], ['Content-Type', 'application/x-www-form-urlencoded']], body: Buffer.from('grant_type=authorization_code&code=x') },
    },
    {
      what: 'the same at seed 000\'s address',
      request: { method: 'POST', target: '/1.0/oauth/access_token', headers: [['Authorization', basic('%E0%A4%A')], ['Content-Type', 'application/x-www-form-urlencoded']], body: Buffer.from('grant_type=authorization_code&code=x') },
    },
    {
      // api/unstorable-values.ts: PostgreSQL's text cannot hold U+0000; the query failed as a 500.
      what: 'a NUL in a path parameter',
      request: { method: 'GET', target: '/v2/projects/%00/ifc/products', headers: [bearer] },
    },
    {
      what: 'a NUL in an upload\'s file name',
      request: { method: 'PUT', target: `/1.0/model/import?model_id=${model}&file_name=a%00.ifc`, headers: [bearer, ['Content-Type', 'application/octet-stream']], body: Buffer.from('ISO-10303-21;\nEND-ISO-10303-21;\n') },
    },
    {
      what: 'a NUL in a JSON body\'s value and key',
      request: { method: 'POST', target: `/v2/projects/${project}/libraries`, headers: [bearer, ['Content-Type', 'application/json']], body: Buffer.from('{"name":"a\\u0000b"}') },
    },
    {
      what: 'a NUL in a BCF body, deep down',
      request: { method: 'POST', target: `/bcf/3.0/projects/${board}/topics`, headers: [bearer, ['Content-Type', 'application/json']], body: Buffer.from('{"title":"t","labels":["x"],"reference_links":["a\\u0000"]}') },
    },
    {
      // services/bcf/bcf-xml/read.ts: a Document without its Guid was a TypeError (a 500).
      what: 'a BCF file whose documents.xml lists a document without a Guid',
      request: { method: 'POST', target: `/bcf/3.0/projects/${board}/import`, headers: [bearer, zip], body: bcf({ 'documents.xml': '<DocumentInfo><Documents><Document><Filename>a.txt</Filename></Document></Documents></DocumentInfo>' }) },
    },
    {
      what: 'a BCF file with a NUL in a topic\'s title',
      request: { method: 'POST', target: `/bcf/3.0/projects/${board}/import`, headers: [bearer, zip], body: bcf({ 't/markup.bcf': `<Markup><Topic Guid="${randomUUID()}"><Title>a\u0000b</Title><CreationDate>2026-01-01T00:00:00Z</CreationDate></Topic></Markup>` }) },
    },
    {
      // api/json-depth.ts: 10,000 levels under a camera's extra property reached PostgreSQL's jsonb, which ran out of stack (a 500).
      what: 'a viewpoint nested 10,000 levels deep inside its camera',
      request: { method: 'POST', target: `/bcf/3.0/projects/${board}/topics/${topic}/viewpoints`, headers: [bearer, json], body: Buffer.from(`{"perspective_camera":${JSON.stringify(camera).slice(0, -1)},"extra":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}`) },
    },
    {
      // services/bcf/versions.ts parseBcfDate: a year JavaScript takes and PostgreSQL does not (a 500).
      what: 'a topic due in the year 275760',
      request: { method: 'POST', target: `/bcf/3.0/projects/${board}/topics`, headers: [bearer, json], body: Buffer.from('{"title":"t","due_date":"+275760-09-13T00:00:00.000Z"}') },
    },
    {
      // services/bcf/topics.ts, api/bcf/viewpoints.ts: an index past PostgreSQL's integer (a 500).
      what: 'a topic whose index is 2^31',
      request: { method: 'POST', target: `/bcf/3.0/projects/${board}/topics`, headers: [bearer, json], body: Buffer.from('{"title":"t","index":2147483648}') },
    },
    {
      what: 'a viewpoint whose index is 2^31',
      request: { method: 'POST', target: `/bcf/3.0/projects/${board}/topics/${topic}/viewpoints`, headers: [bearer, json], body: Buffer.from(JSON.stringify({ index: 2 ** 31, perspective_camera: camera })) },
    },
    {
      // services/bcf/topic-filter.ts: a date JavaScript takes and PostgreSQL does not, in $filter (a 500).
      what: 'a $filter date in the year -271821',
      request: { method: 'GET', target: `/bcf/3.0/projects/${board}/topics?$filter=${encodeURIComponent('creation_date gt -271821-04-20T00:00:00Z')}`, headers: [bearer] },
    },
    {
      what: 'a revision_id of 1e400',
      request: { method: 'GET', target: `/1.0/revision/products?model_id=${model}&revision_id=1e400`, headers: [bearer] },
    },
    {
      what: 'a revision_id of 1e400 (the revision)',
      request: { method: 'GET', target: `/1.0/revision?model_id=${model}&revision_id=1e400`, headers: [bearer] },
    },
    {
      // api/unstorable-values.ts: a lone surrogate is no Unicode; PGlite refused the UPDATE (a 500).
      what: 'a topic title that is a lone surrogate',
      request: { method: 'PUT', target: `/bcf/2.1/projects/${board}/topics/${topic}`, headers: [bearer, json], body: Buffer.from('{"title":"\\ud800"}') },
    },
    {
      // api/refused-requests.ts: Node's parser refused it; Fastify answered {"error":"Bad Request","message":"Client Error"}.
      what: 'a request line with a space in the path',
      request: { method: 'GET', target: '/1.0/pro jects', headers: [bearer] },
    },
    {
      // api/refused-requests.ts: Fastify's own FST_ERR_BAD_URL body.
      what: 'a path that does not decode',
      request: { method: 'GET', target: '/v2/projects/%C0%AF/libraries', headers: [bearer] },
    },
  ];
}
