// Angular's strict templates type the viewers' events (issue 23): `$event` in
// `(viewer.select)="..."` is the CustomEvent of the package's HTMLElementEventMap. ngc on
// type-errors/wrong.ts must fail at exactly the expected places with the expected errors,
// and type-errors/right.ts, the same bindings written right, must compile clean: were
// `$event` ever `any`, or the dotted names not looked up, wrong.ts would pass.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ROOT, typesAreStale } from '../../scripts/stale-build.mjs';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'type-errors');

interface Diagnostic { file: string; line: number; column: number; code: string; message: string }

/** ngc's diagnostics for the fixtures (it colours them whatever it is told: the colours are dropped). */
function compile(): Diagnostic[] {
  if (typesAreStale()) {
    const build = spawnSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, `the package's declarations did not build:\n${build.stdout}${build.stderr}`);
  }
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/ngc'), ['-p', path.join(FIXTURES, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' });
  const output = `${run.stdout}${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  assert.notEqual(run.status, 0, `ngc passed the wrong bindings:\n${output}`);
  return [...output.matchAll(/^(\S+):(\d+):(\d+) - error (TS\d+): (.*)$/gm)].map((found) => ({
    file: path.basename(found[1]), line: Number(found[2]), column: Number(found[3]), code: found[4], message: found[5],
  }));
}

/** Where `text` starts in a fixture (1-based line and column, as ngc counts). */
function place(file: string, text: string): { line: number; column: number } {
  const lines = readFileSync(path.join(FIXTURES, file), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  assert.notEqual(line, -1, `${file} holds ${text}`);
  return { line: line + 1, column: lines[line].indexOf(text) + 1 };
}

test('ngc with strictTemplates refuses a wrong use of an event detail, and passes the same bindings written right', () => {
  const diagnostics = compile();
  const expected = [
    { at: 'selected)"', code: 'TS2345', message: "Argument of type 'string[]' is not assignable to parameter of type 'number'." },
    { at: 'modelId)"', code: 'TS2345', message: "Argument of type 'string' is not assignable to parameter of type 'number'." },
    { at: 'kind)"', code: 'TS2339', message: "Property 'kind' does not exist on type '{ type: ViewerErrorType; message: string; }'." },
  ].map(({ at, code, message }) => ({ file: 'wrong.ts', ...place('wrong.ts', at), code, message }));
  assert.deepEqual(diagnostics, expected);
});
