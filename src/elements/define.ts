/**
 * Registers an element where custom elements exist. A server-side render or a test runner
 * without a DOM imports the package without registering anything (and without throwing);
 * a page carrying both the script-tag bundle and an npm build keeps the first definition.
 */
export function defineElement(name: string, element: CustomElementConstructor): void {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, element);
}
