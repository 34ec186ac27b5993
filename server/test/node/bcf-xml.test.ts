import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { validateXML } from 'xmllint-wasm';
import { BcfFileError } from '../../services/bcf/bcf-xml/archive.js';
import { readBcf } from '../../services/bcf/bcf-xml/read.js';
import { writeBcf } from '../../services/bcf/bcf-xml/write.js';
import { bcfFolder, comparable, testCases } from '../bcf-archives.js';

/**
 * BCF-XML files read and written without a server: every one of buildingSMART's test
 * cases (2.0, 2.1, 3.0) is read, written as 2.1 and as 3.0, each written XML file
 * validated against the official XSDs of its version (xmllint), and read back with
 * nothing lost that the version can hold.
 */
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
