// A node:test reporter that writes `{passed, failed, failedFiles}` as JSON when the run
// ends (scripts/server-tests.mjs adds it beside the spec reporter). Suites are not tests:
// only leaves count.
export default async function* countReporter(source) {
  const counts = { passed: 0, failed: 0, failedFiles: [] };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') continue;
    if (event.type === 'test:pass') counts.passed++;
    else {
      counts.failed++;
      if (event.data.file && !counts.failedFiles.includes(event.data.file)) counts.failedFiles.push(event.data.file);
    }
  }
  yield `${JSON.stringify(counts)}\n`;
}
