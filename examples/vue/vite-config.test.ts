// The app's vite.config.ts compiles the viewers' tags as elements. Without isCustomElement, Vue
// looks them up as components at run time: a warning in development, and in production an
// element after all, so the browser test would not notice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileTemplate } from 'vue/compiler-sfc';
import { loadConfigFromFile, type Plugin } from 'vite';
import type { Options } from '@vitejs/plugin-vue';

test('vite.config.ts compiles <bim-viewer-3d> and <bim-viewer-2d> as custom elements', async () => {
  const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, new URL('vite.config.ts', import.meta.url).pathname);
  const plugin = loaded!.config.plugins!.flat().find((p) => (p as Plugin | null)?.name === 'vite:vue') as Plugin<{ options: Options }>;
  const { code } = compileTemplate({
    source: '<bim-viewer-3d v-on="listeners" /><bim-viewer-2d />',
    filename: 'Viewers.vue',
    id: 'viewers',
    compilerOptions: plugin.api!.options.template?.compilerOptions,
  });
  assert.doesNotMatch(code, /resolveComponent/);
  assert.match(code, /"bim-viewer-3d"/);
});
