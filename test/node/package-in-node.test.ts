/**
 * The npm package where there is no DOM: a server-side render (React's and Vue's) or a
 * test runner in Node imports `bim-viewers`, `bim-viewers/react` and `bim-viewers/vue`
 * without throwing and renders the viewers' tags, in a fresh Node process (nothing of this
 * runner's globals), from the built files as an app resolves them (dist/npm).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs an ES module in a new Node process at the repository's root; its JSON output. */
function runInNode(source: string): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test('importing the package in Node does not throw, and starts no worker', () => {
  const out = runInNode(`
    const hadWindow = typeof window !== 'undefined';
    const m = await import('bim-viewers');
    console.log(JSON.stringify({ hadWindow, exports: Object.keys(m).sort(), worker: typeof Worker }));
  `);
  assert.equal(out.hadWindow, false);
  for (const name of ['BimViewer3d', 'BimViewer2d', 'BimViewerUi', 'VIEWER3D_EVENTS', 'preload']) assert.ok(out.exports.includes(name), name);
});

test('React renders the viewers on the server through bim-viewers/react', () => {
  const out = runInNode(`
    const React = await import('react');
    const { renderToString } = await import('react-dom/server');
    const { BimViewer3d, BimViewer2d, BimViewerUi } = await import('bim-viewers/react');
    const html = renderToString(React.createElement('main', null,
      React.createElement(BimViewer3d, { selectedColor: '#ff8800', onViewerSelect: () => {} }),
      React.createElement(BimViewer2d, { onViewer2dLoad: () => {} }),
      React.createElement(BimViewerUi, { enableKeyboard: true })));
    console.log(JSON.stringify({ html }));
  `);
  assert.match(out.html, /<main><bim-viewer-3d[^>]*><\/bim-viewer-3d><bim-viewer-2d[^>]*><\/bim-viewer-2d><bim-viewer-ui[^>]*><\/bim-viewer-ui><\/main>/);
});

test('Vue renders the viewers on the server, and bim-viewers/vue names their tags', () => {
  const out = runInNode(`
    const { createSSRApp, h } = await import('vue');
    const { renderToString } = await import('vue/server-renderer');
    const { isCustomElement } = await import('bim-viewers/vue');
    await import('bim-viewers');
    const app = createSSRApp({ render: () => h('div', [h('bim-viewer-3d', { 'field-of-view': 45 }), h('bim-viewer-2d')]) });
    const html = await renderToString(app);
    console.log(JSON.stringify({ html, tags: ['bim-viewer-3d', 'bim-viewer-2d', 'bim-viewer-ui', 'bim-viewer', 'div'].map(isCustomElement) }));
  `);
  assert.match(out.html, /<bim-viewer-3d field-of-view="45"><\/bim-viewer-3d><bim-viewer-2d><\/bim-viewer-2d>/);
  assert.deepEqual(out.tags, [true, true, true, false, false]);
});
