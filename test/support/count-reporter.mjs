// web-test-runner reporter that counts individual test cases (mocha `it`s) over all test
// files and writes { passed, failed, skipped, files } as JSON to `file` (default: env
// WTR_COUNTS_FILE). scripts/test.mjs prints the final `N passed, N failed` line from it.
// A test file that fails without any failing test (does not load, throws outside a test,
// times out, ...) counts as one failed test, so the counts agree with the exit code.
import { writeFileSync } from 'node:fs';

function countSuite(suite, acc) {
  if (!suite) return;
  for (const t of suite.tests ?? []) {
    if (t.skipped) acc.skipped += 1;
    else if (t.passed) acc.passed += 1;
    else acc.failed += 1;
  }
  for (const s of suite.suites ?? []) countSuite(s, acc);
}

export function countSessions(sessions) {
  const total = { passed: 0, failed: 0, skipped: 0, files: 0, failedFiles: [] };
  for (const session of sessions) {
    const acc = { passed: 0, failed: 0, skipped: 0 };
    countSuite(session.testResults, acc);
    if (session.passed === false && acc.failed === 0) {
      acc.failed += 1;
    }
    if (session.passed === false) total.failedFiles.push(session.testFile);
    total.passed += acc.passed;
    total.failed += acc.failed;
    total.skipped += acc.skipped;
    total.files += 1;
  }
  return total;
}

/** @param {{ file?: string }} [options] */
export function countReporter(options = {}) {
  const file = options.file ?? process.env.WTR_COUNTS_FILE;
  let latest;
  const save = sessions => {
    latest = countSessions(sessions);
    if (file) writeFileSync(file, JSON.stringify(latest));
  };
  return {
    onTestRunFinished({ sessions }) {
      save(sessions);
    },
    stop({ sessions }) {
      save(sessions);
    },
    get counts() {
      return latest;
    },
  };
}
