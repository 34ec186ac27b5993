import fc from 'fast-check';
import type { Endpoint, Parameter, Schema } from './fuzz-endpoints.js';
import { sampleOf, UNDECLARED } from './fuzz-endpoints.js';
import type { RawRequest } from './fuzz-http.js';

/**
 * Bad requests for one endpoint, as fast-check arbitraries. Each case breaks one part of an
 * otherwise sound request (real ids, a valid token, a body the schema takes), so the bad
 * part reaches the code behind the schema: the path parameters, the query, the body, the
 * headers, an upload's file name; or all of them at once.
 */

/** What the fuzz knows of the server: real ids by parameter, a token, a marker for planted files and headers. */
export interface Known {
  token: string;
  /** Real values for a parameter of an endpoint (its own resource first), or none. */
  valuesFor(endpoint: Pick<Endpoint, 'path'>, name: string, where: 'path' | 'query'): string[];
  /** Every real id, for "a real id of the wrong kind". */
  allIds: string[];
  /** Planted in file names with `../`: no file whose name holds it may appear outside the data folder. */
  marker: string;
}

/** The header a CR/LF in a value would inject into an answer, if the server let it through. */
export const INJECTED = 'X-Fuzz-Injected';
const CRLF = `\r\n${INJECTED}: 1`;

export interface Case {
  /** Which part is broken, for messages and figures. */
  part: 'path' | 'query' | 'body' | 'headers' | 'file name' | 'everything';
  request: RawRequest;
  [fc.toStringMethod]?: () => string;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates as U+FFFD), or bytes as they are. */
const pct = (value: string | Uint8Array) => Array.from(typeof value === 'string' ? Buffer.from(value, 'utf8') : value, (b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)).join('');

/** A value in a URL: already encoded (sent as it is) or raw bytes. */
type UrlPart = { encoded: string } | { raw: Buffer };
const encoded = (s: string): UrlPart => ({ encoded: pct(s) });

const huge = (min: number, max: number) => fc.tuple(fc.integer({ min, max }), fc.constantFrom('a', '9', 'é', '%', '\u{1F600}', '/')).map(([n, c]) => c.repeat(Math.ceil(n / c.length)));

const numbersAsText = fc.constantFrom('-1', '0', '-0', '1.5', '1e308', '-1e308', '1e400', 'NaN', 'Infinity', '0x10', '9007199254740993', '99999999999999999999999999', '00000000000000000000000000000001', '2147483648', '-2147483649', 'true', 'null', 'undefined', '[]', '{}');

/** Strings of the right type that are wrong values: dates out of range or that do not exist, NULs, lone surrogates, SQL, OData that nests deep. */
const EDGE_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', '\uffff', '\u202e', "'; DROP TABLE users; --", '${7*7}', '<script>alert(1)</script>', '../../../etc/passwd',
  '0000-00-00', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '+275760-09-13T00:00:00.000Z', '-000001-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-13-45T99:99:99Z', '1970-01-01', '294277-01-01', 'tomorrow',
  '99999999999999999999', '-1', '1e400', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  "topic_status eq 'Open'", "due_date gt 2026-99-99", "creation_date lt datetime'x'", "labels/any(l: l eq 'x')", 'not not not', "title eq 'a''b'",
  `${'('.repeat(5000)}title eq 'x'${')'.repeat(5000)}`, `${"title eq 'x' or ".repeat(400)}title eq 'x'`, 'title desc, title asc, creation_date', 'title,'.repeat(200),
];
const edgeString = fc.oneof(fc.constantFrom(...EDGE_STRINGS), fc.string({ unit: 'binary', maxLength: 50 }));
const EDGE_NUMBERS = [1e308, -1e308, 5e-324, -0, 0, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1.5, -1, 1e21];
const edgeNumber = fc.oneof(fc.constantFrom(...EDGE_NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true }));

/** A value of the schema's own type that is still wrong: out of range, too long, a date that is not one, a huge array. */
function edgeJson(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  if (type === 'string') return fc.oneof(edgeString, schema?.maxLength !== undefined ? fc.constant('x'.repeat(schema.maxLength + 1)) : fc.constant('x'.repeat(70_000)));
  if (type === 'number') return edgeNumber;
  if (type === 'integer') return fc.constantFrom(...EDGE_NUMBERS.filter(Number.isInteger), Number.MAX_SAFE_INTEGER);
  if (type === 'array') return fc.oneof(fc.integer({ min: 1001, max: 20_000 }).map((n) => Array.from({ length: n }, () => sampleOf(schema?.items) ?? 'x')), fc.array(schema?.items ? edgeJson(schema.items) : edgeString, { maxLength: 5 }));
  if (type === 'object') return fc.oneof(fc.constant({}), fc.dictionary(edgeString, edgeString, { maxKeys: 3 }).map((extra) => ({ ...(sampleOf(schema) as object), ...extra })));
  return fc.oneof(edgeString, edgeNumber);
}

/** Bad values of a path segment, already encoded for the URL (or raw bytes that break the request line). */
function badSegment(known: Known): fc.Arbitrary<UrlPart> {
  return fc.oneof(
    fc.string({ maxLength: 40 }).map(encoded),
    fc.string({ unit: 'binary', maxLength: 40 }).map(encoded),
    numbersAsText.map(encoded),
    huge(65, 12_000).map(encoded),
    fc.constantFrom('..', '../..', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%2e%2e%2f%2e%2e%2fetc', '..%5C..%5Cwindows', '%00', 'a%00b', '%', '%zz', '%ff%fe', '%c0%ae%c0%ae', '%C0%AF', ';', '%3B', '*', '%2A', '$metadata', ' ', '%20', '%0D%0A' + pct(`${INJECTED}: 1`)).map((encoded) => ({ encoded })),
    known.allIds.length ? fc.constantFrom(...known.allIds).map(encoded) : fc.constant(encoded('x')),
    fc.uint8Array({ minLength: 1, maxLength: 16 }).map((b) => ({ raw: Buffer.from(b) })),
  );
}

/** A wrong value for a query parameter of this schema: of another type, out of range, too long, not UTF-8. */
function badQueryValue(schema: Schema): fc.Arbitrary<string> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const tooLong = schema.maxLength !== undefined ? fc.integer({ min: schema.maxLength + 1, max: schema.maxLength + 3000 }).map((n) => pct('x'.repeat(n))) : huge(1000, 8000).map(pct);
  return fc.oneof(
    numbersAsText.map(pct),
    fc.string({ maxLength: 30 }).map(pct),
    fc.string({ unit: 'binary', maxLength: 30 }).map(pct),
    tooLong,
    fc.constantFrom('', '%', '%zz', '%ff', '%00', '%C0%80', pct(CRLF)),
    edgeString.map(pct),
    fc.constantFrom(...EDGE_NUMBERS).map((n) => pct(String(n))),
    type === 'integer' || type === 'number' ? fc.double().map((d) => pct(String(d))) : fc.integer().map(String),
    schema.enum ? fc.constant('not-one-of-them') : fc.boolean().map(String),
  );
}

/** Names some route may read though no schema declares it, and the fuzz tries anywhere. */
const LOOSE_NAMES = ['client_id', 'redirect_uri', 'response_type', 'state', 'scope', 'code_challenge', 'code_challenge_method', 'prompt', 'callback_uri', 'filename', 'file_name', 'per_page', 'page', '$filter', '$orderby', '$top', '$skip', 'includeAuthorization', '__proto__', 'constructor', 'toString'];

/** The query of a sound request: each required parameter (and some optional ones) with a real or sample value. */
function soundQuery(endpoint: Endpoint, known: Known): [string, string][] {
  const pairs: [string, string][] = [];
  for (const p of endpoint.params.filter((p) => p.in === 'query')) {
    const real = known.valuesFor(endpoint, p.name, 'query')[0];
    const value = real ?? (p.required ? sampleOf(p.schema) : undefined);
    if (value !== undefined) pairs.push([p.name, pct(String(value))]);
  }
  // The authorization pages declare no parameters but read an authorization request's.
  if (/authorize$/.test(endpoint.path)) {
    for (const name of ['client_id', 'redirect_uri']) for (const value of known.valuesFor(endpoint, name, 'query')) pairs.push([name, pct(value)]);
    pairs.push(['response_type', 'code'], ['state', 'fuzz']);
  }
  return pairs;
}

function queryString(pairs: [string, string][]): string {
  return pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
}

/** A broken query: one declared parameter wrong, unknown or repeated ones, brackets, broken escapes, a huge one. */
function badQuery(endpoint: Endpoint, known: Known): fc.Arbitrary<[string, string][]> {
  const sound = soundQuery(endpoint, known);
  const declared = endpoint.params.filter((p) => p.in === 'query');
  const swap = (name: string, value: string) => [...sound.filter(([k]) => k !== name), [name, value] as [string, string]];
  const options: fc.Arbitrary<[string, string][]>[] = [
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...LOOSE_NAMES), fc.string({ minLength: 1, maxLength: 12 })).map(pct), badQueryValue({})), { minLength: 1, maxLength: 5 }).map((extra) => [...sound, ...extra]),
    fc.constantFrom(...LOOSE_NAMES).chain((name) => fc.constantFrom('a', 'http://127.0.0.1:9/cb', pct(`http://127.0.0.1:9/cb${CRLF}`), pct(`../../${known.marker}`)).map((v) => [...sound, [name, v] as [string, string]])),
    huge(9_000, 70_000).map((v) => [...sound, ['q', pct(v)] as [string, string]]),
    fc.array(fc.constantFrom('&', '=', '&&', '==', '%', '%zz', '[]', '[a]=b', '?', '#'), { minLength: 1, maxLength: 6 }).map((junk) => [...sound, [junk.join(''), ''] as [string, string]]),
  ];
  if (declared.length) {
    const pick = fc.constantFrom(...declared);
    options.push(
      pick.chain((p: Parameter) => badQueryValue(p.schema).map((v) => swap(p.name, v))),
      // Repeated: an array where one value is expected.
      pick.chain((p) => fc.tuple(badQueryValue(p.schema), badQueryValue(p.schema)).map(([a, b]) => [...sound, [p.name, a], [p.name, b]] as [string, string][])),
      pick.map((p) => [...sound.filter(([k]) => k !== p.name), [`${p.name}[]`, '1'], [`${p.name}[x]`, '2']] as [string, string][]),
      // Left out although required.
      pick.map((p) => sound.filter(([k]) => k !== p.name)),
    );
  }
  return fc.oneof(...options);
}

/** A JSON value of any type but the schema's own (a string where a number belongs...). */
function wrongJson(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  const all: [string, fc.Arbitrary<unknown>][] = [
    ['string', fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', 'NaN', '1e999', `x${CRLF}`, 'javascript:alert(1)', 'http://127.0.0.1:9/cb' + CRLF))],
    ['number', fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(1e308, -1e308, 5e-324, -0, 2 ** 53 + 1))],
    ['integer', fc.integer()],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 })],
    ['object', fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })],
  ];
  const others = all.filter(([t]) => t !== type && !(type === 'number' && t === 'integer'));
  return fc.oneof(...others.map(([, a]) => a));
}

/** Property paths into a body schema (top level and one level down), for "this field wrong". */
function fieldPaths(schema: Schema | undefined): string[][] {
  const paths: string[][] = [];
  for (const [name, inner] of Object.entries(schema?.properties ?? {})) {
    paths.push([name]);
    for (const deeper of Object.keys(inner.properties ?? {})) paths.push([name, deeper]);
  }
  return paths;
}

function setAt(body: unknown, at: string[], value: unknown): unknown {
  const copy = structuredClone(body ?? {}) as Record<string, unknown>;
  let node = copy;
  for (const key of at.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[at.at(-1)!] = value;
  return copy;
}

const deep = (levels: number, open: string, close: string, inner = '1') => open.repeat(levels) + inner + close.repeat(levels);

/** A broken body with its content type (undefined: no Content-Type header). */
function badBody(endpoint: Endpoint, known: Known): fc.Arbitrary<{ body: Buffer; type?: string }> {
  const sound = sampleOf(endpoint.body) ?? {};
  const json = (value: unknown) => ({ body: Buffer.from(JSON.stringify(value)), type: 'application/json' });
  const paths = fieldPaths(endpoint.body);
  const options: fc.Arbitrary<{ body: Buffer; type?: string }>[] = [
    wrongJson(endpoint.body).map(json),
    fc.constantFrom(10_000, 100_000).chain((levels) =>
      fc.constantFrom(deep(levels, '[', ']'), deep(levels, '{"a":', '}'), `{"name":${deep(levels, '[', ']')},"title":${deep(levels, '{"x":', '}')}}`).map((text) => ({ body: Buffer.from(text), type: 'application/json' })),
    ),
    fc.constantFrom('', ' ', '{', '{"a":', '{"a":1,}', "{'a':1}", '{"a":1}{', 'NaN', '[1,]', '\ufeff{}', '{"a":1e99999}', '{"a":"\\ud800"}', '{"a":"\\u00"}', 'null', '"just a string"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}').map((text) => ({ body: Buffer.from(text), type: 'application/json' })),
    huge(10_000, 300_000).map((s) => json(paths.length ? setAt(sound, paths[0], s) : { s })),
    fc.integer({ min: (1 << 20) + 1, max: (1 << 20) + 200_000 }).map((n) => ({ body: Buffer.alloc(n, 'a'), type: 'application/json' })),
    // Not UTF-8: bytes no encoder makes, inside a JSON string.
    fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => {
      const name = paths[0]?.[0] ?? 'name';
      return { body: Buffer.concat([Buffer.from(`{"${name}":"`), Buffer.from([0xff, 0xfe, 0xc0, 0x80, ...bytes]), Buffer.from('"}')]), type: 'application/json' };
    }),
    fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', 'application/octet-stream', '*/*', 'application/json\u00e9', ';', undefined).map((type) => ({ body: Buffer.from(JSON.stringify(sound)), type })),
    fc.constantFrom('a=1&a=2&b[]=3', 'email=%ff&password=%&decision=allow', `redirect_uri=${pct('http://127.0.0.1:9/cb' + CRLF)}&state=${pct(CRLF)}`, '=&&=', 'grant_type=authorization_code&code=x&client_id=%zz').map((text) => ({ body: Buffer.from(text), type: 'application/x-www-form-urlencoded' })),
    fc.uint8Array({ maxLength: 200 }).map((b) => ({ body: Buffer.from(b), type: 'application/json' })),
  ];
  if (paths.length) options.push(fc.constantFrom(...paths).chain((at) => wrongJson(undefined).map((v) => json(setAt(sound, at, v)))));
  if (endpoint.pool.length && sound && typeof sound === 'object' && !Array.isArray(sound)) {
    // Fields some schema or service knows, added to the sound body with values wrong in their own type.
    // The undeclared ones as often as all the others: a schema checks the declared ones already.
    const field = fc.oneof(fc.constantFrom(...UNDECLARED), fc.constantFrom(...endpoint.pool)).chain(([name, schema]) => edgeJson(schema).map((value) => [name, value] as const));
    const added = fc.array(field, { minLength: 1, maxLength: 3 }).map((fields) => json({ ...(sound as object), ...Object.fromEntries(fields) }));
    options.push(added, added, added);
  }
  if (paths.length) {
    const schemaAt = (at: string[]) => at.reduce<Schema | undefined>((s, key) => s?.properties?.[key], endpoint.body);
    // Two fields at once, each wrong in its own type: past the schema, into the service.
    options.push(fc.tuple(fc.constantFrom(...paths), fc.constantFrom(...paths)).chain(([a, b]) => fc.tuple(edgeJson(schemaAt(a)), edgeJson(schemaAt(b))).map(([va, vb]) => json(setAt(setAt(sound, a, va), b, vb)))));
  }
  if (paths.length) options.push(fc.constantFrom(...paths).map((at) => json(setAt(sound, at, `http://127.0.0.1:9/cb${CRLF}`))));
  void known;
  return fc.oneof(...options);
}

/** Headers that are wrong: Authorization, Range, Content-Disposition, Cookie, sizes. */
function badHeaders(known: Known): fc.Arbitrary<[string, string | Buffer][]> {
  const authorization = fc.constantFrom<string | Buffer | null>(
    null,
    '',
    'Bearer',
    'Bearer ',
    `Bearer ${'a'.repeat(300)}`,
    `Bearer ${known.token} extra`,
    `Bearer ${known.token.slice(0, -1)}`,
    `bearer ${known.token}`,
    `Basic ${Buffer.from('%:x').toString('base64')}`,
    `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`,
    `Basic ${Buffer.from('no-colon').toString('base64')}`,
    'Basic !!!',
    'Digest username="a"',
    Buffer.from([0x42, 0x65, 0x61, 0x72, 0x65, 0x72, 0x20, 0xff, 0xfe, 0x80]),
    `Bearer ${'\u00e9'.repeat(20)}`,
  );
  const range = fc.constantFrom('bytes=abc', 'bytes=99999999999999999999999-', 'bytes=-0', 'bytes=5-1', 'bytes=0-1,2-3', 'bytes=-99999999999999999999', 'items=0-1', 'bytes=', 'bytes=--', `bytes=${'9'.repeat(5000)}-`, 'bytes=0-0', 'bytes=-1');
  const disposition = fc.constantFrom(`attachment; filename="../../../../${known.marker}.txt"`, `attachment; filename*=UTF-8''..%2F..%2F${known.marker}`, "attachment; filename*=UTF-8''%ff%fe%", 'attachment; filename="', 'attachment; filename=""', `attachment; filename="a${'b'.repeat(400)}"`);
  return fc
    .record({
      authorization,
      range: fc.option(range),
      disposition: fc.option(disposition),
      cookie: fc.option(fc.constantFrom('platform_session=%ff', 'platform_session=' + 'a'.repeat(3000), '=;;=', 'platform_session')),
      big: fc.option(fc.integer({ min: 9_000, max: 40_000 }).map((n) => 'h'.repeat(n))),
      other: fc.option(fc.constantFrom<[string, string]>(['Content-Length', 'abc'], ['Transfer-Encoding', 'gzip'], ['Accept', '\u0000'], ['Expect', '100-continue'], ['X-Forwarded-Proto', 'javascript'], ['Content-Type', 'application/json; boundary="'])),
    })
    .map(({ authorization, range, disposition, cookie, big, other }) => {
      const headers: [string, string | Buffer][] = [];
      if (authorization !== null) headers.push(['Authorization', authorization]);
      if (range) headers.push(['Range', range]);
      if (disposition) headers.push(['Content-Disposition', disposition]);
      if (cookie) headers.push(['Cookie', cookie]);
      if (big) headers.push(['X-Big', big]);
      if (other) headers.push(other);
      return headers;
    });
}

/** File names that point out of any folder, for the query parameters uploads take their name from. */
function badFileName(known: Known): fc.Arbitrary<string> {
  const m = known.marker;
  return fc.constantFrom(`../../../../../../tmp/${m}.ifc`, `..\\..\\..\\${m}.ifc`, `/tmp/${m}.ifc`, `....//....//${m}`, `%2e%2e%2f${m}`, `${m}\u0000.ifc`, `${m}${CRLF}.ifc`, `./../${m}`, '..', '.', '', ' ', `${m}/`, 'CON', `${'x'.repeat(300)}`);
}

/** Every case for one endpoint. */
export function badRequests(endpoint: Endpoint, known: Known): fc.Arbitrary<Case> {
  const pathParams = endpoint.params.filter((p) => p.in === 'path');
  const soundPath: Record<string, UrlPart> = Object.fromEntries(pathParams.map((p) => [p.name, encoded(known.valuesFor(endpoint, p.name, 'path')[0] ?? 'fuzz')]));
  const auth: [string, string][] = [['Authorization', `Bearer ${known.token}`]];
  const write = WRITES.has(endpoint.method);
  // A route without a JSON body schema (OAuth's, uploads) gets the form OAuth and the sign-in page read, with real values.
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'fuzz', response_type: 'code', decision: 'allow', email: 'admin@example.com', password: 'not the password' });
  for (const name of ['client_id', 'redirect_uri']) for (const value of known.valuesFor(endpoint, name, 'query')) form.set(name, value);
  const soundBody = !write ? undefined : endpoint.body ? { body: Buffer.from(JSON.stringify(sampleOf(endpoint.body) ?? {})), type: 'application/json' } : { body: Buffer.from(form.toString()), type: 'application/x-www-form-urlencoded' };
  const uploadName = endpoint.params.find((p) => p.in === 'query' && /^file_?name$/.test(p.name));

  const build = (part: Case['part'], path: Record<string, UrlPart>, query: [string, string][], headers: [string, string | Buffer][], body?: { body: Buffer; type?: string }): Case => {
    const segments: Buffer[] = [];
    let last = 0;
    for (const match of endpoint.path.matchAll(/\{([^}]+)\}/g)) {
      segments.push(Buffer.from(endpoint.path.slice(last, match.index)));
      const value = path[match[1]];
      segments.push('raw' in value ? value.raw : Buffer.from(value.encoded));
      last = match.index! + match[0].length;
    }
    segments.push(Buffer.from(endpoint.path.slice(last) + queryString(query)));
    const all: [string, string | Buffer][] = [...headers];
    if (body?.type !== undefined) all.push(['Content-Type', body.type]);
    const request = { method: endpoint.method, target: Buffer.concat(segments), headers: all, body: body?.body };
    // fast-check prints a counterexample with this: readable, not a list of bytes.
    return { part, request, [fc.toStringMethod]: () => `${part}: ${describeRequest(request)}` };
  };

  const parts: fc.Arbitrary<Case>[] = [
    badQuery(endpoint, known).map((q) => build('query', soundPath, q, auth, soundBody)),
    badHeaders(known).map((h) => build('headers', soundPath, soundQuery(endpoint, known), h, soundBody)),
  ];
  if (pathParams.length) {
    const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, fc.oneof({ arbitrary: fc.constant(soundPath[p.name]), weight: 1 }, { arbitrary: badSegment(known), weight: 2 })])) as Record<string, fc.Arbitrary<UrlPart>>);
    parts.push(pathArb.map((p) => build('path', p, soundQuery(endpoint, known), auth, soundBody)));
  }
  // A route with a JSON body has the most behind its schema: its body is broken most often.
  const bodyWeight = endpoint.body ? 4 : 1;
  if (write || endpoint.body) for (let i = 0; i < bodyWeight; i++) parts.push(badBody(endpoint, known).map((b) => build('body', soundPath, soundQuery(endpoint, known), auth, b)));
  if (uploadName) {
    parts.push(badFileName(known).map((name) => build('file name', soundPath, [...soundQuery(endpoint, known).filter(([k]) => k !== uploadName.name), [uploadName.name, pct(name)]], [...auth, ['Content-Type', 'application/octet-stream']], { body: Buffer.from('ISO-10303-21;\nEND-ISO-10303-21;\n') })));
  }
  if (endpoint.method === 'POST' && /files$|documents$/.test(endpoint.path)) {
    parts.push(badFileName(known).map((name) => build('file name', soundPath, [['filename', pct(name)]], [...auth, ['Content-Type', 'text/plain']], { body: Buffer.from('a document') })));
  }
  const everything = fc
    .tuple(pathParams.length ? fc.record(Object.fromEntries(pathParams.map((p) => [p.name, badSegment(known)])) as Record<string, fc.Arbitrary<UrlPart>>) : fc.constant({}), badQuery(endpoint, known), badHeaders(known), write ? badBody(endpoint, known).map((b) => b as { body: Buffer; type?: string } | undefined) : fc.constant(undefined))
    .map(([p, q, h, b]) => build('everything', { ...soundPath, ...p }, q, h, b));
  return fc.oneof(...parts.map((arbitrary) => ({ arbitrary, weight: 3 })), { arbitrary: everything, weight: 1 });
}

/** A request as text for a failure message: method, target and headers shortened, the body's start. */
export function describeRequest(request: RawRequest): string {
  const short = (b: string | Buffer, n: number) => {
    const s = Buffer.from(b).toString('latin1');
    return JSON.stringify(s.length > n ? `${s.slice(0, n)}... (${s.length} bytes)` : s);
  };
  const headers = request.headers.map(([k, v]) => `${k}: ${short(v, 120)}`).join('; ');
  return `${request.method} ${short(request.target, 300)} [${headers}]${request.body ? ` body ${short(request.body, 200)}` : ''}`;
}
