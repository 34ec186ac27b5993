/**
 * Whether an element may be registered here: only where custom elements exist (a
 * server-side render or a test runner without a DOM imports the package without
 * registering anything, and without throwing), and only once (a page carrying both the
 * script-tag bundle and an npm build keeps the first definition). The callers spell out
 * `customElements.define` themselves, where the elements manifest's analyzer finds it.
 */
export function canDefine(name: string): boolean {
  return typeof customElements !== 'undefined' && !customElements.get(name);
}
