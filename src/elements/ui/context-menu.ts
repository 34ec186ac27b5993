import type { BimViewer3d } from '../bim-viewer-3d.js';
import type { Intersection } from '../../core/types.js';
import type { ObjectActions } from './actions.js';
import type { Translations } from './translations.js';

/**
 * The widget's context menu (seed 002 `enableContextMenu`, COMPAT.md "Context menu
 * entries"), opened by the viewer's `viewer.contextmenu` event where the pointer was.
 * The entries act on the selection, or on the clicked object when it is not selected.
 * Keyboard: focus goes to the first entry; arrows, Home and End move, Enter or Space
 * runs one, Escape (or a click elsewhere) closes and gives the focus back to the viewer.
 */

type Entry = keyof Pick<Translations, 'showAll' | 'hide' | 'hideOthers' | 'makeTranslucent' | 'isolate' | 'lookAt' | 'removeClippingPlanes' | 'addClippingPlane' | 'sectionTopAndBottom'>;

export const MENU_ENTRIES: readonly Entry[] = ['showAll', 'hide', 'hideOthers', 'makeTranslucent', 'isolate', 'lookAt', 'removeClippingPlanes', 'addClippingPlane', 'sectionTopAndBottom'];

export class ContextMenu {
  readonly root: HTMLDivElement;
  private targets: string[] = [];
  private hit?: Intersection;
  private viewer?: BimViewer3d;
  private readonly onOutside = (e: Event) => {
    if (!e.composedPath().includes(this.root)) this.close(false);
  };

  constructor(
    private readonly actions: ObjectActions,
    private readonly texts: () => Translations,
  ) {
    this.root = document.createElement('div');
    this.root.className = 'context-menu';
    this.root.setAttribute('part', 'context-menu');
    this.root.setAttribute('role', 'menu');
    this.root.hidden = true;
    this.root.addEventListener('keydown', (e) => this.key(e));
    this.root.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  get isOpen() {
    return !this.root.hidden;
  }

  /** Opens at (x, y) in the coordinates of the menu's offset parent. */
  async open(viewer: BimViewer3d, x: number, y: number, objectId: string | undefined, hit: Intersection | undefined) {
    this.viewer = viewer;
    const selected = await viewer.eachSelected().catch(() => [] as string[]);
    this.targets = objectId && !selected.includes(objectId) ? [objectId] : selected;
    this.hit = hit;
    const t = this.texts();
    this.root.replaceChildren();
    const hasPlanes = (await viewer.clippingPlanes().catch(() => [])).length > 0;
    for (const entry of MENU_ENTRIES) {
      const item = document.createElement('button');
      item.type = 'button';
      item.className = 'item';
      item.setAttribute('role', 'menuitem');
      item.dataset.action = entry;
      item.tabIndex = -1;
      item.textContent = t[entry]; // untrusted text: a text node only
      const needsTargets = !['showAll', 'removeClippingPlanes', 'addClippingPlane'].includes(entry);
      const disabled = (needsTargets && this.targets.length === 0)
        || (entry === 'addClippingPlane' && !hit?.normal)
        || (entry === 'removeClippingPlanes' && !hasPlanes);
      if (disabled) item.setAttribute('aria-disabled', 'true');
      item.addEventListener('click', (e) => {
        e.preventDefault();
        if (item.getAttribute('aria-disabled') === 'true') return;
        void this.run(entry);
      });
      this.root.appendChild(item);
    }
    this.root.style.left = `${x}px`;
    this.root.style.top = `${y}px`;
    this.root.hidden = false;
    // Keep the menu inside its container.
    const parent = this.root.offsetParent as HTMLElement | null;
    if (parent) {
      const overflowX = x + this.root.offsetWidth - parent.clientWidth;
      const overflowY = y + this.root.offsetHeight - parent.clientHeight;
      if (overflowX > 0) this.root.style.left = `${Math.max(0, x - this.root.offsetWidth)}px`;
      if (overflowY > 0) this.root.style.top = `${Math.max(0, y - overflowY)}px`;
    }
    document.addEventListener('pointerdown', this.onOutside, true);
    this.items()[0]?.focus();
  }

  close(refocus = true) {
    if (this.root.hidden) return;
    this.root.hidden = true;
    document.removeEventListener('pointerdown', this.onOutside, true);
    if (refocus) (this.viewer?.shadowRoot?.querySelector('canvas') as HTMLElement | null)?.focus();
  }

  private items(): HTMLButtonElement[] {
    return Array.from(this.root.querySelectorAll<HTMLButtonElement>('button.item'));
  }

  private key(e: KeyboardEvent) {
    const items = this.items();
    const at = items.indexOf(e.composedPath()[0] as HTMLButtonElement);
    const focus = (i: number) => items[(i + items.length) % items.length]?.focus();
    switch (e.key) {
      case 'Escape': e.preventDefault(); this.close(); break;
      case 'ArrowDown': e.preventDefault(); focus(at + 1); break;
      case 'ArrowUp': e.preventDefault(); focus(at - 1); break;
      case 'Home': e.preventDefault(); focus(0); break;
      case 'End': e.preventDefault(); focus(items.length - 1); break;
      case 'Tab': e.preventDefault(); focus(at + (e.shiftKey ? -1 : 1)); break;
      default: break;
    }
    e.stopPropagation();
  }

  private async run(entry: Entry) {
    const viewer = this.viewer;
    const ids = this.targets;
    const hit = this.hit;
    this.close();
    if (!viewer) return;
    const a = this.actions;
    switch (entry) {
      case 'showAll': return a.showAll();
      case 'hide': return a.hide(ids);
      case 'hideOthers': return a.hideOthers(ids);
      case 'makeTranslucent': return a.translucent(ids);
      case 'isolate': return a.isolate(ids);
      case 'lookAt': return a.lookAt(ids);
      case 'removeClippingPlanes':
        await viewer.clippingPlanes([]).catch(() => undefined);
        return;
      case 'addClippingPlane': {
        if (!hit?.normal) return;
        const planes = await viewer.clippingPlanes().catch(() => []);
        await viewer.clippingPlanes([...planes, { location: hit.point, direction: hit.normal }]).catch(() => undefined);
        return;
      }
      case 'sectionTopAndBottom':
        if (ids.length) await viewer.section(ids, ['top', 'bottom']).catch(() => undefined);
        return;
      default: return undefined;
    }
  }
}
