/**
 * Whether an element may be registered here: only where custom elements exist (where
 * there are none, the package imports without throwing; in Node, lit's server build
 * brings a stand-in registry, which takes them harmlessly), and only once (a page carrying
 * both the script-tag bundle and an npm build keeps the first definition). The callers spell out
 * `customElements.define` themselves, where the elements manifest's analyzer finds it.
 */
export function canDefine(name: string): boolean {
  return typeof customElements !== 'undefined' && !customElements.get(name);
}
