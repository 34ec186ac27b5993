import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { validateXML } from 'xmllint-wasm';
import { bimBcfFolder, bimBcfSetting } from '../../scripts/bim-models.mjs';
import { BcfFileError, type BcfArchive } from '../services/bcf/bcf-xml/archive.js';
import { readBcf } from '../services/bcf/bcf-xml/read.js';
import { UNKNOWN, writeBcf } from '../services/bcf/bcf-xml/write.js';

/**
 * BCF-XML files read and written without a server: every one of buildingSMART's test
 * cases (2.0, 2.1, 3.0) is read, written as 2.1 and as 3.0, each written XML file
 * validated against the official XSDs of its version (xmllint), and read back with
 * nothing lost that the version can hold.
 */
function bcfFolder(): string {
  const folder = bimBcfFolder();
  if (!folder) throw new Error(`No BCF material at ${bimBcfSetting()} (set BIM_BCF; see ../shared/bcf/README.md)`);
  return folder;
}

function testCases(): string[] {
  const root = path.join(bcfFolder(), 'test-cases');
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? walk(path.join(dir, f)) : /\.bcf(zip)?$/i.test(f) ? [path.join(dir, f)] : []));
  return walk(root).sort();
}

/** Which official schema validates each XML file of a written archive. */
function schemaOf(name: string): string | null {
  if (name.endsWith('.bcfv')) return 'visinfo.xsd';
  const base = name.split('/').pop()!;
  return ({ 'markup.bcf': 'markup.xsd', 'project.bcfp': 'project.xsd', 'bcf.version': 'version.xsd', 'extensions.xml': 'extensions.xsd', 'documents.xml': 'documents.xsd' } as Record<string, string>)[base] ?? null;
}

/** The XML files written, by version and schema, validated together at the end (one xmllint run per schema). */
const written: Record<'2.1' | '3.0', Map<string, { fileName: string; contents: string }[]>> = { '2.1': new Map(), '3.0': new Map() };

function collect(bytes: Uint8Array, version: '2.1' | '3.0', what: string): number {
  let count = 0;
  for (const [name, data] of Object.entries(unzipSync(bytes))) {
    const schema = schemaOf(name);
    if (!schema) continue;
    const files = written[version].get(schema) ?? [];
    files.push({ fileName: `${what}/${name}`.replace(/[^\w./-]+/g, '_'), contents: new TextDecoder().decode(data) });
    written[version].set(schema, files);
    count++;
  }
  return count;
}

/** What a version keeps of an archive: dates as instants, 2.1's field of view within its bounds, 3.0's aspect ratio; document guids and file names as each version knows them. */
function comparable(archive: BcfArchive, version: '2.1' | '3.0') {
  const instant = (d: string | undefined) => (d ? new Date(d).getTime() : undefined);
  const documents = new Map(archive.documents.map((d) => [d.guid, Buffer.from(d.bytes).toString('base64')]));
  return archive.topics.map((t) => ({
    ...t,
    server_assigned_id: version === '3.0' ? t.server_assigned_id : undefined,
    topic_type: t.topic_type ?? (version === '3.0' ? UNKNOWN : undefined),
    topic_status: t.topic_status ?? (version === '3.0' ? UNKNOWN : undefined),
    creation_author: t.creation_author || (version === '3.0' ? UNKNOWN : ''),
    creation_date: instant(t.creation_date),
    modified_date: instant(t.modified_date),
    due_date: instant(t.due_date),
    description: t.description?.trim() ? t.description : undefined,
    comments: t.comments.map((c) => ({ ...c, author: c.author || (version === '3.0' ? UNKNOWN : ''), date: instant(c.date), modified_date: instant(c.modified_date), comment: c.comment.trim() || (version === '3.0' ? '' : c.comment) })),
    document_references: t.document_references.map((r) => ({ guid: r.guid, description: r.description, url: r.url, document: r.document_guid ? documents.get(r.document_guid) : undefined })),
    viewpoints: t.viewpoints.map((v) => ({
      ...v,
      snapshot: v.snapshot && { type: v.snapshot.type, bytes: Buffer.from(v.snapshot.bytes).toString('base64') },
      // 2.1 requires a visibility: a viewpoint without components is written with everything visible.
      viewpoint: JSON.parse(JSON.stringify(version === '2.1' && !v.viewpoint.components ? { components: { visibility: { default_visibility: true, exceptions: [] } }, ...v.viewpoint } : v.viewpoint, (key, value) => {
        if (key === 'aspect_ratio') return undefined;
        if (key === 'field_of_view' && version === '2.1') return Math.min(60, Math.max(45, value));
        return value;
      })),
    })),
  }));
}

describe('BCF-XML files', () => {
  const cases = testCases();

  it('finds buildingSMART\'s test cases of every version', () => {
    for (const version of ['v2.0', 'v2.1', 'v3.0']) assert.ok(cases.filter((c) => c.includes(`${path.sep}${version}${path.sep}`)).length >= 5, `${version} test cases`);
  });

  for (const file of cases) {
    const name = path.relative(path.join(bcfFolder(), 'test-cases'), file);
    it(`reads ${name}, writes it as 2.1 and 3.0 valid against the XSDs, and reads back what it wrote`, async () => {
      const archive = readBcf(new Uint8Array(readFileSync(file)));
      assert.ok(archive.topics.length > 0 && archive.topics.every((t) => t.title && t.guid), 'topics with titles');
      for (const version of ['2.1', '3.0'] as const) {
        const bytes = writeBcf(archive, version);
        assert.ok(collect(bytes, version, name) >= 3, 'XML files written');
        const again = readBcf(bytes);
        assert.equal(again.version, version);
        assert.deepEqual(comparable(again, version), comparable(archive, version), `${name} through ${version}`);
        assert.deepEqual(again.extensions, archive.extensions, 'extensions');
      }
    });
  }

  for (const version of ['2.1', '3.0'] as const) {
    it(`wrote every file valid against the BCF ${version} XSDs`, async () => {
      const folder = path.join(bcfFolder(), 'xml-schemas', version);
      const schemas = readdirSync(folder).map((fileName) => ({ fileName, contents: readFileSync(path.join(folder, fileName), 'utf8') }));
      assert.ok(written[version].get('markup.xsd')!.length >= cases.length, 'every case was written');
      for (const [schema, files] of written[version]) {
        const result = await validateXML({ xml: files, schema: schemas.find((s) => s.fileName === schema)!, preload: schemas.filter((s) => s.fileName !== schema), maxMemoryPages: 8192 });
        assert.ok(result.valid, `${files.length} files against ${version}/${schema}: ${result.errors.slice(0, 5).map((e) => e.rawMessage).join('; ')}`);
      }
    });
  }

  it('says what is wrong with a file that is not BCF, and reads nothing of it', () => {
    const fails = (bytes: Uint8Array, message: RegExp) =>
      assert.throws(() => readBcf(bytes), (error: Error) => {
        assert.ok(error instanceof BcfFileError, error.message);
        assert.match(error.message, message);
        return true;
      });
    fails(strToU8('ISO-10303-21;'), /not a zip/);
    fails(zipSync({ 'readme.txt': strToU8('hello') }), /no topics/);
    const guid = '0b762f89-7383-4dba-ac52-afcd742e18a7';
    const markup = (topic: string, extra = '') => zipSync({ 'bcf.version': strToU8('<Version VersionId="2.1"/>'), [`${guid}/markup.bcf`]: strToU8(`<Markup>${topic}${extra}</Markup>`) });
    fails(markup(`<Topic Guid="${guid}"><CreationDate>2020-01-01T00:00:00Z</CreationDate></Topic>`), /no title/);
    fails(markup(`<Topic Guid="nope"><Title>x</Title><CreationDate>2020-01-01T00:00:00Z</CreationDate></Topic>`), /Guid/);
    fails(markup(`<Topic Guid="${guid}"><Title>x</Title><CreationDate>soon</CreationDate></Topic>`), /CreationDate/);
    fails(markup(`<Topic Guid="${guid}"><Title>x</Title><CreationDate>2020-01-01T00:00:00Z</CreationDate></Topic>`, `<Viewpoints Guid="${guid}"><Viewpoint>v.bcfv</Viewpoint></Viewpoints>`), /v\.bcfv/);
    fails(zipSync({ 'bcf.version': strToU8('<Version VersionId="9.0"/>'), [`${guid}/markup.bcf`]: strToU8('<Markup/>') }), /version "9\.0"/);
    fails(zipSync({ 'bcf.version': strToU8('<Version VersionId="2.1"'), [`${guid}/markup.bcf`]: strToU8('<Markup/>') }), /not well-formed/);
  });
});
