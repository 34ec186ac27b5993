import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Validator, type Schema } from 'jsonschema';
import { bimBcfFolder, bimBcfSetting } from '../../scripts/bim-models.mjs';

/**
 * buildingSMART's BCF API JSON schemas (draft-03, read from BIM_BCF at run time), and an
 * assertion that an answer validates against one. The platform's 2.0 path answers in the
 * shapes of the API 1.0 schemas ("based on BCF v2"); 3.0 moved versions, auth and the
 * current user to the Foundation API.
 */
const FOLDERS = { '2.0': '1.0', '2.1': '2.1', '3.0': '3.0', foundation: 'foundation-1.0' } as const;
export type SchemaSet = keyof typeof FOLDERS;

const BASE = 'https://schemas.bcf.test/';

export function bcfSchemas() {
  const folder = bimBcfFolder();
  if (!folder) throw new Error(`No BCF material at ${bimBcfSetting()} (set BIM_BCF to buildingSMART's BCF folder; see ../shared/bcf/README.md)`);
  const root = path.join(folder, 'api-schemas');
  const validator = new Validator();
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? walk(path.join(dir, f)) : f.endsWith('.json') ? [path.join(dir, f)] : []));
  for (const file of walk(root)) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    // As published this one is not JSON (../shared/bcf/README.md): 2.0's components are held to 2.1's schema.
    if (relative === '1.0/Collaboration/Component/component_GET.json') continue;
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Schema;
    schema.id = BASE + relative;
    validator.addSchema(schema, BASE + relative);
  }
  /** Asserts `value` validates against `name` (a path under the set's folder, such as `Collaboration/Topic/topic_GET.json`). */
  return (set: SchemaSet, name: string, value: unknown, what = name) => {
    const uri = `${BASE}${FOLDERS[set]}/${name}`;
    const schema = validator.schemas[uri];
    assert.ok(schema, `no schema ${uri}`);
    const result = validator.validate(value, schema, { nestedErrors: true });
    assert.deepEqual(result.errors.map((e) => e.stack), [], `${what} against ${FOLDERS[set]}/${name}: ${JSON.stringify(value).slice(0, 400)}`);
  };
}

/**
 * An assertion of an answer's status that returns its JSON; an error must be BCF's error
 * schema (`{message}`) with the platform's own `{error}` saying the same.
 */
export function expectStatus(check: ReturnType<typeof bcfSchemas>) {
  return (answer: { status: number; json: any; text: string }, status: number, what: string) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
    if (status >= 400) {
      check('3.0', 'error.json', answer.json, what);
      assert.ok(answer.json.message.length > 0 && answer.json.error.message === answer.json.message, what);
    }
    return answer.json;
  };
}
