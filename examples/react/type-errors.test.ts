// The React types catch a wrong event detail or property (issue 23): tsc on
// type-errors/wrong.tsx must fail on exactly the lines marked `expected`, with the marked
// code and message, and type-errors/right.tsx, the same code written right, must compile
// clean. Were the wrapper's or the JSX types ever `any`, the wrong lines would pass.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ROOT, typesAreStale } from '../../scripts/stale-build.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const tsc = path.join(ROOT, 'node_modules/.bin/tsc');

interface Diagnostic { file: string; line: number; code: string; message: string }

/** tsc's diagnostics for the fixtures (a message's continuation lines joined to it). */
function typeCheck(): Diagnostic[] {
  if (typesAreStale()) {
    const build = spawnSync(tsc, ['-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, `the package's declarations did not build:\n${build.stdout}${build.stderr}`);
  }
  const run = spawnSync(tsc, ['-p', path.join(HERE, 'type-errors'), '--pretty', 'false'], { cwd: ROOT, encoding: 'utf8' });
  const diagnostics: Diagnostic[] = [];
  for (const line of run.stdout.split('\n')) {
    const found = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (found) diagnostics.push({ file: path.basename(found[1]), line: Number(found[2]), code: found[3], message: found[4] });
    else if (line.trim() && diagnostics.length) diagnostics.at(-1)!.message += ` ${line.trim()}`;
    else if (line.trim()) assert.fail(`tsc said something unexpected: ${line}`);
  }
  return diagnostics;
}

/** The `expected TSnnnn: message` markers of a fixture, by line. */
function expectations(file: string) {
  return readFileSync(path.join(HERE, 'type-errors', file), 'utf8').split('\n').flatMap((text, index) => {
    const found = /expected (TS\d+): (.*?)(?: \*\/\})?$/.exec(text);
    return found ? [{ line: index + 1, code: found[1], message: found[2] }] : [];
  });
}

test('tsc fails on each wrong event detail and property, and passes the same code written right', () => {
  const diagnostics = typeCheck();
  const expected = expectations('wrong.tsx');
  assert.equal(expected.length, 6, 'wrong.tsx holds six marked mistakes');

  assert.deepEqual(diagnostics.filter((d) => d.file === 'right.tsx'), [], 'right.tsx compiles clean');
  const wrong = diagnostics.filter((d) => d.file === 'wrong.tsx');
  assert.deepEqual(wrong.map((d) => d.line), expected.map((e) => e.line), 'errors on exactly the marked lines of wrong.tsx');
  for (const [index, want] of expected.entries()) {
    assert.equal(wrong[index].code, want.code, `wrong.tsx:${want.line}`);
    assert.ok(wrong[index].message.includes(want.message), `wrong.tsx:${want.line}: "${wrong[index].message}" says "${want.message}"`);
  }
});
