import { LitElement, css, html } from 'lit';
import { property } from 'lit/decorators.js';
import type { BimViewer3d } from './bim-viewer-3d.js';
import type { BimViewer2d } from './bim-viewer-2d.js';
import type { StreamingProgress, Intersection } from '../core/types.js';
import { objectActions } from './ui/actions.js';
import { ContextMenu } from './ui/context-menu.js';
import { Joystick, JOYSTICK_PLACES, type JoystickOptions, type JoystickPlace } from './ui/joystick.js';
import { KeyboardShortcuts } from './ui/keyboard.js';
import { LoadingOverlay } from './ui/loading-overlay.js';
import { StoreySelect } from './ui/storey-select.js';
import { resolveTranslations, type Translations } from './ui/translations.js';
import { Viewer2dLink } from './ui/viewer2d-link.js';
import { canDefine } from './define.js';
import { booleanAttribute } from './boolean-attribute.js';


/**
 * <bim-viewer-ui>: the viewer widget (seed 002 "Viewer widget options and methods",
 * `$(el).viewerUI(options)`). It attaches to a <bim-viewer-3d>: the one it wraps, the
 * one named by its `for` attribute (an id) or `viewer` property, or else the one beside
 * it (the jQuery plugin puts the widget into the viewer's page element); beside a viewer
 * it lies over it without taking its pointer input.
 *
 * It adds keyboard shortcuts, a joystick, a context menu, a loading overlay, the spaces
 * rule for "show all", and the link to a 2D viewer. Only the public API of the viewers is
 * used (imports of them are type-only, so dist/viewer.js does not carry the viewers).
 */
export class BimViewerUi extends LitElement {
  static override styles = css`
    :host { display: block; position: relative; }
    :host([overlay]) { position: absolute; inset: 0; pointer-events: none; z-index: 1; }
    ::slotted(bim-viewer-3d) { width: 100%; height: 100%; }
    .layer { position: absolute; inset: 0; pointer-events: none; overflow: hidden; font: 13px/1.3 system-ui, sans-serif; }
    .layer > * { pointer-events: auto; }
    [hidden] { display: none !important; }
    .loading-overlay { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); background: rgba(255,255,255,0.9); color: #222; padding: 10px 16px; border-radius: 6px; box-shadow: 0 1px 4px rgba(0,0,0,0.3); min-width: 160px; text-align: center; pointer-events: none; }
    .loading-overlay .bar { margin-top: 6px; height: 4px; background: #ddd; border-radius: 2px; overflow: hidden; }
    .loading-overlay .fill { height: 100%; width: 0; background: #4a90d9; transition: width 0.2s; }
    .joystick { position: absolute; box-sizing: border-box; border: 3px solid; border-radius: 50%; background: rgba(255,255,255,0.25); touch-action: none; user-select: none; cursor: grab; }
    .joystick .knob { position: absolute; left: 50%; top: 50%; border-radius: 50%; opacity: 0.8; pointer-events: none; }
    .context-menu { position: absolute; min-width: 180px; background: #fff; color: #222; border: 1px solid #bbb; border-radius: 4px; box-shadow: 0 2px 8px rgba(0,0,0,0.3); padding: 4px 0; z-index: 3; }
    .context-menu .item { display: block; width: 100%; text-align: left; border: 0; background: none; padding: 5px 14px; font: inherit; color: inherit; cursor: pointer; }
    .context-menu .item:hover, .context-menu .item:focus { background: #e6f0fb; outline: none; }
    .context-menu .item[aria-disabled='true'] { color: #999; cursor: default; }
    .lock-toggle { position: absolute; right: 8px; top: 8px; font: inherit; padding: 3px 8px; background: #fff; border: 1px solid #999; border-radius: 4px; cursor: pointer; }
    .lock-toggle[aria-pressed='true'] { background: #a7f555; }
  `;

  /** Id of the <bim-viewer-3d> (or of the element holding it) to attach to. */
  @property({ attribute: 'for', reflect: true }) for = '';
  @property({ attribute: 'enable-keyboard', reflect: true, type: Boolean, converter: booleanAttribute(false) }) enableKeyboard = false;
  @property({ attribute: 'enable-joystick', type: Boolean, converter: booleanAttribute(true) }) enableJoystick = true;
  @property({ attribute: 'joystick-hidden', type: Boolean, converter: booleanAttribute(true) }) joystickHidden = true;
  @property({ attribute: 'joystick-color' }) joystickColor = 'blue';
  @property({ attribute: 'joystick-position' }) joystickPosition: JoystickPlace = 'bottom-center';
  @property({ attribute: 'joystick-rotation-clamp', type: Number }) joystickRotationClamp = 2;
  @property({ attribute: 'joystick-border-offset' }) joystickBorderOffset = '20px';
  @property({ attribute: 'joystick-size', type: Number }) joystickSize = 100;
  @property({ attribute: 'spaces-visible', reflect: true, type: Boolean, converter: booleanAttribute(false) }) spacesVisible = false;
  @property({ attribute: 'viewer2d-id' }) viewer2dId: string | null = null;
  @property({ attribute: 'enable-viewer2d-integration', type: Boolean, converter: booleanAttribute(false) }) enableViewer2dIntegration = false;
  @property({ attribute: 'show-viewer2d-storey-select', type: Boolean, converter: booleanAttribute(false) }) showViewer2dStoreySelect = false;
  @property({ attribute: 'show-viewer2d-locked-navigation-toggle', type: Boolean, converter: booleanAttribute(false) }) showViewer2dLockedNavigationToggle = false;
  @property({ attribute: 'enable-context-menu', reflect: true, type: Boolean, converter: booleanAttribute(false) }) enableContextMenu = false;
  /** Texts by key (seed 002's list); an object, or its JSON text as an attribute. */
  @property({ attribute: 'translations', converter: { fromAttribute: (v: string | null) => resolveTranslations(v) } })
  set translations(value: Partial<Translations> | string | null) {
    const old = this.texts;
    this.texts = resolveTranslations(value);
    this.requestUpdate('translations', old);
  }
  get translations(): Translations {
    return this.texts;
  }

  /** The viewer to attach to, when not found by `for`, by wrapping or beside the widget. */
  get viewer(): BimViewer3d | null | undefined {
    return this.viewerRef;
  }
  set viewer(value: BimViewer3d | null | undefined) {
    this.viewerRef = value;
    if (this.hasUpdated) this.resolve();
  }
  private viewerRef?: BimViewer3d | null;

  private texts: Translations = resolveTranslations(undefined);
  private attached?: BimViewer3d;
  private detachViewer?: AbortController;
  private spaceIds: string[] | undefined;
  private spacesFound?: Promise<string[]>;
  private touchDevice = typeof window !== 'undefined' && (('ontouchstart' in window) || window.matchMedia?.('(pointer: coarse)').matches);
  private joystickShown: boolean | undefined;
  private link?: Viewer2dLink;
  private storeySelect?: StoreySelect;
  private lockToggle = document.createElement('button');
  private lastPointer = { x: 0, y: 0 };
  private lockedNavigation = false;
  private lockStorey = false;

  private readonly actions = objectActions(() => this.attached, () => this.spaces());
  private readonly keyboard = new KeyboardShortcuts(this.actions, () => this.attached?.eachSelected().catch(() => []) ?? Promise.resolve([]));
  private readonly menu = new ContextMenu(this.actions, () => this.texts);
  private readonly overlay = new LoadingOverlay(() => this.texts);
  private readonly joystick = new Joystick(() => this.attached, this.joystickOptions());

  constructor() {
    super();
    this.lockToggle.type = 'button';
    this.lockToggle.className = 'lock-toggle';
    this.lockToggle.setAttribute('part', 'lock-toggle');
    this.lockToggle.textContent = '\u{1F512}';
    this.lockToggle.title = 'Lock 2D navigation';
    this.lockToggle.setAttribute('aria-label', 'Lock 2D navigation');
    this.lockToggle.setAttribute('aria-pressed', 'false');
    this.lockToggle.addEventListener('click', () => void this.set2dLockedNavigationMode(!this.lockedNavigation));
  }

  override render() {
    return html`<slot @slotchange=${() => this.resolve()}></slot><div class="layer"></div>`;
  }

  override firstUpdated() {
    const layer = this.renderRoot.querySelector('.layer')!;
    layer.append(this.overlay.root, this.joystick.root, this.menu.root, this.lockToggle);
    this.resolve();
  }

  override connectedCallback() {
    super.connectedCallback();
    if (this.hasUpdated) this.resolve();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.attach(undefined);
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('for')) this.resolve();
    this.keyboard.attach(this.enableKeyboard ? this.attached : undefined);
    if (!this.enableContextMenu) this.menu.close(false);
    this.joystick.update(this.joystickOptions());
    this.joystick.setVisible(this.joystickVisible());
    if (changed.has('translations')) { this.overlay.render(); }
    if (changed.has('spacesVisible') && changed.get('spacesVisible') !== undefined) void this.applySpaces();
    this.lockToggle.hidden = !this.showViewer2dLockedNavigationToggle;
    if (['enableViewer2dIntegration', 'viewer2dId', 'showViewer2dStoreySelect'].some((k) => changed.has(k))) this.relink();
  }

  // ---- attaching ----------------------------------------------------------------

  /** The viewer element this widget works on (undefined until one is found). */
  get viewerElement(): BimViewer3d | undefined {
    return this.attached;
  }

  private findViewer(): { viewer?: BimViewer3d; beside: boolean } {
    const isViewer = (el: Element | null | undefined): el is BimViewer3d => !!el && el.localName === 'bim-viewer-3d';
    const inside = (el: Element | null | undefined) => (isViewer(el) ? el : el?.querySelector('bim-viewer-3d') ?? undefined) as BimViewer3d | undefined;
    // Over the viewer only when beside it; a widget elsewhere shows its controls in its own box.
    const besides = (v: BimViewer3d) => !this.contains(v) && v.parentElement === this.parentElement;
    if (this.viewer) return { viewer: this.viewer, beside: besides(this.viewer) };
    if (this.for) {
      const found = inside((this.getRootNode() as Document | ShadowRoot).getElementById?.(this.for) ?? document.getElementById(this.for));
      if (found) return { viewer: found, beside: besides(found) };
    }
    const child = this.querySelector('bim-viewer-3d') as BimViewer3d | null;
    if (child) return { viewer: child, beside: false };
    const parent = this.parentElement;
    const sibling = parent ? Array.from(parent.children).find(isViewer) : undefined;
    return { viewer: sibling, beside: !!sibling };
  }

  private resolve() {
    const { viewer, beside } = this.findViewer();
    this.toggleAttribute('overlay', beside);
    if (beside && this.parentElement && getComputedStyle(this.parentElement).position === 'static') {
      this.parentElement.style.position = 'relative';
    }
    if (viewer !== this.attached) this.attach(viewer);
  }

  private attach(viewer: BimViewer3d | undefined) {
    this.detachViewer?.abort();
    this.keyboard.detach();
    this.link?.dispose();
    this.link = undefined;
    this.attached = viewer;
    this.spaceIds = undefined;
    this.spacesFound = undefined;
    if (!viewer) return;
    const controller = new AbortController();
    this.detachViewer = controller;
    const signal = controller.signal;
    // Where the pointer was when a context menu was asked for (capture: before the viewer acts).
    const remember = (e: Event) => {
      const m = e as MouseEvent;
      const box = this.getBoundingClientRect();
      this.lastPointer = { x: m.clientX - box.left, y: m.clientY - box.top };
    };
    viewer.addEventListener('pointerdown', remember, { capture: true, signal });
    viewer.addEventListener('contextmenu', remember, { capture: true, signal });
    viewer.addEventListener('viewer.contextmenu', (e) => {
      if (!this.enableContextMenu) return;
      const { objectId, intersects } = (e as CustomEvent<{ objectId?: string; intersects?: Intersection }>).detail;
      void this.menu.open(viewer, this.lastPointer.x, this.lastPointer.y, objectId, intersects);
    }, { signal });
    viewer.addEventListener('viewer.streamingprogress', (e) => {
      const { modelId, progress, phase } = (e as CustomEvent<{ progress: StreamingProgress }>).detail.progress;
      this.overlay.setProgress(modelId, progress, phase === 'done');
      if (phase === 'done') this.checkEmpty();
    }, { signal });
    viewer.addEventListener('viewer.load', () => {
      this.spacesFound = undefined;
      this.checkEmpty();
      void this.applySpaces();
    }, { signal });
    viewer.addEventListener('viewer.error', () => this.checkEmpty(), { signal });
    this.keyboard.attach(this.enableKeyboard ? viewer : undefined);
    this.checkEmpty();
    this.relink();
  }

  /** After loads settle: the empty text when no model is there. */
  private checkEmpty() {
    const viewer = this.attached;
    if (!viewer) return;
    void viewer.modelInfo().then((models) => {
      if (viewer !== this.attached) return;
      if (this.overlay.state !== 'loading' || models.length === 0) this.overlay.settle(models.length === 0);
    }, () => undefined);
  }

  // ---- joystick -----------------------------------------------------------------

  private joystickOptions(): JoystickOptions {
    const place = JOYSTICK_PLACES.includes(this.joystickPosition) ? this.joystickPosition : 'bottom-center';
    return {
      color: this.joystickColor || 'blue',
      place,
      rotationClamp: Number(this.joystickRotationClamp) || 2,
      borderOffset: this.joystickBorderOffset || '20px',
      size: Math.max(20, Math.round(Number(this.joystickSize) || 100)),
    };
  }

  private joystickVisible(): boolean {
    if (!this.enableJoystick || !this.attached) return false;
    return this.joystickShown ?? (!this.joystickHidden || this.touchDevice);
  }

  /** Shows the joystick (also on devices without touch). */
  showJoystick(): Promise<void> {
    this.joystickShown = true;
    this.requestUpdate();
    return this.updateComplete.then(() => undefined);
  }

  /** Hides the joystick (also on touch devices). */
  hideJoystick(): Promise<void> {
    this.joystickShown = false;
    this.requestUpdate();
    return this.updateComplete.then(() => undefined);
  }

  /** Moves the joystick: `middle-left`, `bottom-left`, `bottom-center`, `bottom-right`, `middle-right`. */
  setJoystickPosition(position: JoystickPlace): Promise<void> {
    if (JOYSTICK_PLACES.includes(position)) this.joystickPosition = position;
    else console.warn(`[viewerUI] joystickPosition: expected one of ${JOYSTICK_PLACES.join(', ')}`);
    return this.updateComplete.then(() => undefined);
  }

  /** Sets joystick options: `{joystickColor, joystickPosition, joystickSize, ...}` (the `joystick` prefix may be left out). */
  updateJoystickOptions(options: Record<string, unknown> = {}): Promise<void> {
    const names = ['Hidden', 'Color', 'Position', 'RotationClamp', 'BorderOffset', 'Size'];
    const self = this as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(options ?? {})) {
      const bare = key.replace(/^joystick/i, '').toLowerCase();
      const name = names.find((n) => n.toLowerCase() === bare);
      if (!name) continue;
      const prop = `joystick${name}`;
      if (name === 'Hidden') { this.joystickShown = undefined; self[prop] = value === true || value === 'true'; } else if (name === 'RotationClamp' || name === 'Size') self[prop] = Number(value);
      else self[prop] = String(value);
    }
    if ('enableJoystick' in (options ?? {})) this.enableJoystick = Boolean(options.enableJoystick);
    this.requestUpdate();
    return this.updateComplete.then(() => undefined);
  }

  // ---- spaces -------------------------------------------------------------------

  /** The spaces "show all" keeps hidden: those given to setSpaces, else the models' IfcSpaces. */
  private async spaces(): Promise<{ ids: string[]; visible: boolean }> {
    if (this.spaceIds) return { ids: this.spaceIds, visible: this.spacesVisible };
    const viewer = this.attached;
    if (!viewer) return { ids: [], visible: this.spacesVisible };
    this.spacesFound ??= viewer.each()
      .then((ids) => viewer.getProducts(ids))
      .then((products) => products.filter((p) => p && p.type === 'IfcSpace').map((p) => p!.objectId))
      .catch(() => []);
    return { ids: await this.spacesFound, visible: this.spacesVisible };
  }

  private async applySpaces() {
    const viewer = this.attached;
    if (!viewer) return;
    const { ids, visible } = await this.spaces();
    if (!ids.length) return;
    await (visible ? viewer.show(ids) : viewer.hide(ids)).catch(() => undefined);
  }

  /** Object ids of the spaces: hidden after "show all" unless spaces are visible. */
  setSpaces(ids: string | string[] | number | number[]): Promise<void> {
    const list = (Array.isArray(ids) ? ids : ids === undefined || ids === null ? [] : [ids]).map(String);
    this.spaceIds = list;
    return this.applySpaces();
  }

  /** Shows (true) or hides (false) the spaces. */
  setSpacesVisible(visible: boolean): Promise<void> {
    this.spacesVisible = visible === true || (visible as unknown) === 'true';
    return this.updateComplete.then(() => this.applySpaces());
  }

  // ---- 2D -----------------------------------------------------------------------

  private find2d(): BimViewer2d | undefined {
    if (!this.viewer2dId) return undefined;
    const el = document.getElementById(this.viewer2dId);
    if (!el) return undefined;
    return (el.localName === 'bim-viewer-2d' ? el : el.querySelector('bim-viewer-2d') ?? undefined) as BimViewer2d | undefined;
  }

  private relink() {
    this.link?.dispose();
    this.link = undefined;
    this.storeySelect?.dispose();
    this.storeySelect = undefined;
    const viewer = this.attached;
    if (!viewer || !this.enableViewer2dIntegration || !this.viewer2dId) return;
    const link = new Viewer2dLink(viewer, () => this.find2d());
    link.lockedNavigation = this.lockedNavigation;
    link.lockStorey = this.lockStorey;
    this.link = link;
    if (this.showViewer2dStoreySelect) {
      // The 2D element may be made later (markup): wait for it.
      const make = () => {
        if (this.link !== link) return;
        const plan = this.find2d();
        if (!plan) { setTimeout(make, 200); return; }
        this.storeySelect = new StoreySelect(plan, (id) => {
          this.lockStorey = true;
          link.lockStorey = true;
          void link.showStorey(id);
        });
        link.onStorey = (id) => this.storeySelect?.refresh(id);
        plan.addEventListener('viewer2d.load', () => link.refresh());
      };
      make();
    }
  }

  /** Keeps the 2D cursor (the viewpoint arrow) in the middle of the 2D viewer. */
  set2dLockedNavigationMode(locked: boolean): Promise<void> {
    this.lockedNavigation = locked === true || (locked as unknown) === 'true';
    this.lockToggle.setAttribute('aria-pressed', String(this.lockedNavigation));
    if (this.link) {
      this.link.lockedNavigation = this.lockedNavigation;
      this.link.refresh();
    }
    return Promise.resolve();
  }

  /** Keeps the 2D storey chosen while the 3D camera moves (false: it follows the camera height). */
  set2dLockStoreyMode(locked: boolean): Promise<void> {
    this.lockStorey = locked === true || (locked as unknown) === 'true';
    if (this.link) {
      this.link.lockStorey = this.lockStorey;
      this.link.refresh();
    }
    return Promise.resolve();
  }

  /** For tests and pages: the pieces' state. */
  get uiState() {
    return {
      joystickVisible: !this.joystick.root.hidden,
      contextMenuOpen: this.menu.isOpen,
      overlay: this.overlay.state,
      lockedNavigation: this.lockedNavigation,
      lockStorey: this.lockStorey,
    };
  }
}

if (canDefine('bim-viewer-ui')) customElements.define('bim-viewer-ui', BimViewerUi);

declare global {
  interface HTMLElementTagNameMap {
    'bim-viewer-ui': BimViewerUi;
  }
}
