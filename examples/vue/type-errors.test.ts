// vue-tsc catches a wrong event handler and a wrong property type in a template: the
// fixtures in type-errors/ must fail exactly where they are wrong, and their corrected
// version (Correct.vue) must compile clean, so this fails if the viewers' types ever
// become `any` or stop reaching Vue's templates.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { typesAreStale } from '../../scripts/stale-build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

function run(command: string, args: string[]) {
  return spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
}

test('vue-tsc reports the wrong listener and the wrong property, and nothing else', () => {
  // The fixtures import `bim-viewers`, whose types are dist/types.
  if (typesAreStale()) assert.equal(run(bin('tsc'), ['-p', 'tsconfig.build.json']).status, 0, 'building dist/types failed');

  const result = run(bin('vue-tsc'), ['-p', 'examples/vue/type-errors', '--pretty', 'false']);
  const errors = result.stdout.split('\n').filter((line) => line.includes('error TS'));
  assert.notEqual(result.status, 0, 'vue-tsc accepted the wrong fixtures');
  assert.deepEqual(errors, [
    // `e.detail.selected` is a string[], not a number: the listener's event is typed by Viewer3dListeners.
    "examples/vue/type-errors/WrongListener.vue(9,39): error TS2345: Argument of type 'string[]' is not assignable to parameter of type 'number'.",
    // `:field-of-view` is the element's fieldOfView: number, typed by bim-viewers/vue's global components;
    // `:enableTouch` its enableTouch: boolean (either spelling of a name is checked).
    "examples/vue/type-errors/WrongProperty.vue(2,19): error TS2322: Type 'string' is not assignable to type 'number'.",
    "examples/vue/type-errors/WrongProperty.vue(3,19): error TS2322: Type 'string' is not assignable to type 'boolean | undefined'.",
  ]);
});
