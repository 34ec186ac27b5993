/**
 * The right side: a revision in <bim-viewer-3d> and <bim-viewer-2d> side by side, each
 * loaded from its own token URL (POST /v2/projects/{project}/viewer3d|viewer2d/token for
 * that one revision), a storey picker for the plans, and the product of the object
 * selected in 3D (POST /1.0/revision/product with its attributes). A scan's revision (a
 * point cloud) shows in 3D only; a whole project opens in 3D from one token of the latest
 * revision of every model, its BIM models and scans in one manifest.
 */
import { setEngineLoading, type BimViewer2d, type BimViewer3d } from '../../src/index.js'; // registers <bim-viewer-3d> and <bim-viewer-2d>
import { projectViewerTokenUrl, revisionProduct, viewerTokenUrl, type Model, type Product, type Project, type Revision } from './api.js';
import { byId, el, messageOf, showAlert } from './dom.js';

// Revisions open from their scenes: web-ifc starts only for one that has none yet (its IFC).
setEngineLoading('lazy');

type ViewState = 'empty' | 'loading' | 'loaded' | 'error';

export class Viewers {
  readonly viewer3d = byId<BimViewer3d>('viewer3d');
  readonly viewer2d = byId<BimViewer2d>('viewer2d');
  private readonly storeys = byId<HTMLSelectElement>('storeys');
  /** The revision on show, for the product of a selected object. */
  private shown?: { model: Model; revision: Revision };
  /** Each open bumps it: an older open still loading stops touching the page. */
  private generation = 0;
  /** Told each storey the plan comes to show (the issues' markers follow it: issues/plan-markers.ts). */
  onStoreyShown?: (id: string) => void;

  constructor() {
    this.storeys.addEventListener('change', () => void this.showStorey(this.storeys.value));
    // A selection in either view shows in both, and its first object's product.
    this.viewer3d.addEventListener('viewer.select', (event) => {
      void this.viewer2d.select(event.detail.selected).catch(() => {});
      void this.showProduct(event.detail.selected);
    });
    this.viewer2d.addEventListener('viewer2d.select', (event) => {
      const selected = event.detail.selected;
      void (async () => {
        await this.viewer3d.deselectAll();
        if (selected.length) await this.viewer3d.select(selected);
      })().catch(() => {});
      void this.showProduct(selected);
    });
    this.viewer3d.addEventListener('viewer.error', (event) => this.status('3d', 'error', `3D error (${event.detail.type}): ${event.detail.message}`));
    this.viewer2d.addEventListener('viewer2d.loadfail', (event) => this.status('2d', 'error', `2D: could not load the plans: ${event.detail.message}`));
    byId('product-close').addEventListener('click', () => (byId('product').hidden = true));
  }

  /** Loads one revision into both viewers (what was shown before goes). */
  async open(project: Project, model: Model, revision: Revision): Promise<void> {
    const generation = ++this.generation;
    this.shown = { model, revision };
    byId('product').hidden = true;
    const label = `${model.name}, revision ${revision.id}`;
    const scan = revision.model_type === 'point-cloud';
    this.status('3d', 'loading', `3D: loading ${label}…`);
    this.storeys.replaceChildren();
    this.storeys.disabled = true;
    const load3d = (async () => {
      const url = await viewerTokenUrl('viewer3d', project.id, model.id, revision.id);
      await this.load3d(url);
      if (generation === this.generation) this.status('3d', 'loaded', scan ? `3D: ${label}, a scan of ${(revision.point_count ?? 0).toLocaleString('en')} points. Drag to orbit, wheel to zoom.` : `3D: ${label}. Drag to orbit, wheel to zoom, click an object to see its product.`);
    })();
    if (scan) await this.noPlans('2D: a scan has no plans.');
    else this.status('2d', 'loading', `2D: loading the plans of ${label}…`);
    const load2d = scan ? Promise.resolve() : (async () => {
      const url = await viewerTokenUrl('viewer2d', project.id, model.id, revision.id);
      await this.viewer2d.loadUrl(url);
      if (generation !== this.generation) return;
      const count = this.fillStoreys();
      this.status('2d', 'loaded', `2D: ${label}, ${count} storey${count === 1 ? '' : 's'}. Drag to pan, wheel to zoom.`);
    })();
    const results = await Promise.allSettled([load3d, load2d]);
    for (const [i, result] of results.entries()) {
      if (result.status === 'fulfilled' || generation !== this.generation) continue;
      const which = i === 0 ? '3d' : '2d';
      const message = `${which.toUpperCase()}: opening ${label} failed: ${messageOf(result.reason)}`;
      this.status(which, 'error', message);
      showAlert(message);
    }
  }

  /** The latest revision of every model of the project, its BIM models and scans together, in 3D (one manifest with both). */
  async openProject(project: Project): Promise<void> {
    const generation = ++this.generation;
    this.shown = undefined;
    byId('product').hidden = true;
    this.status('3d', 'loading', `3D: loading every model of ${project.name}…`);
    await this.noPlans('2D: open a revision to see its plans.');
    try {
      const models = await this.load3d(await projectViewerTokenUrl(project.id));
      if (generation === this.generation) this.status('3d', 'loaded', `3D: ${project.name}, ${models.length} model${models.length === 1 ? '' : 's'}. Drag to orbit, wheel to zoom.`);
    } catch (error) {
      if (generation !== this.generation) return;
      const message = `3D: opening ${project.name} failed: ${messageOf(error)}`;
      this.status('3d', 'error', message);
      showAlert(message);
    }
  }

  /** What the 3D viewer showed goes; the token URL's models come. */
  private async load3d(url: string) {
    for (const loaded of await this.viewer3d.modelInfo()) await this.viewer3d.unloadModel(loaded.modelId);
    return this.viewer3d.loadUrl(url);
  }

  /** The plan shows nothing (no storey), and says why. */
  private async noPlans(text: string): Promise<void> {
    this.storeys.replaceChildren();
    this.storeys.disabled = true;
    await this.viewer2d.hideStoreys().catch(() => {});
    this.status('2d', 'empty', text);
  }

  /** Every storey of the plans, lowest first; shows the first one with spaces. */
  private fillStoreys(): number {
    const storeys = [...this.viewer2d.getStoreys({ all: true })].sort((a, b) => a.elevation - b.elevation);
    this.storeys.replaceChildren(...storeys.map((storey) => {
      const option = el('option', { text: `${storey.name || storey.id} (${storey.elevation.toFixed(2)} m)` });
      option.value = storey.id;
      return option;
    }));
    this.storeys.disabled = storeys.length === 0;
    const first = storeys.find((s) => this.viewer2d.getSpaces({ all: true, storeyId: s.id }).length > 0) ?? storeys[0];
    if (first) void this.showStorey(first.id);
    return storeys.length;
  }

  /** Shows one storey on the plan (the picker's choice, or an issue's storey). */
  async showStorey(id: string): Promise<void> {
    this.storeys.value = id;
    if (this.viewer2d.getStoreys({ visible: true, all: true }).some((s) => s.id === id)) return;
    await this.viewer2d.hideStoreys();
    await this.viewer2d.showStorey(id);
    this.onStoreyShown?.(id);
  }

  private status(which: '3d' | '2d', state: ViewState, text: string): void {
    byId(`view${which}`).dataset.state = state;
    byId(`status${which}`).textContent = text;
  }

  /** The product of the first selected object, with its attributes, from the platform. */
  private async showProduct(selected: string[]): Promise<void> {
    const panel = byId('product');
    const shown = this.shown;
    if (selected.length === 0 || !shown) {
      panel.hidden = true;
      return;
    }
    const objectId = selected[0];
    const status = byId('product-status');
    const fields = byId('product-fields');
    panel.hidden = false;
    status.textContent = `Object ${objectId}${selected.length > 1 ? ` (and ${selected.length - 1} more selected)` : ''}: loading…`;
    fields.replaceChildren();
    try {
      const product = await revisionProduct(shown.model.id, shown.revision.id, objectId);
      if (this.shown !== shown) return;
      status.textContent = `Object ${objectId}${selected.length > 1 ? ` (and ${selected.length - 1} more selected)` : ''}`;
      fields.replaceChildren(...productRows(product));
    } catch (error) {
      status.textContent = `Could not read the product of object ${objectId}: ${messageOf(error)}`;
    }
  }
}

function productRows(product: Product): HTMLElement[] {
  const rows: [string, string][] = [
    ['Type', product.type],
    ['Name', product.name],
    ['Description', product.description ?? ''],
    ['GlobalId', product.globalId],
  ];
  for (const [name, attribute] of Object.entries(product.attributes ?? {})) {
    if (['Name', 'Description', 'GlobalId'].includes(name)) continue;
    rows.push([name, attributeText(attribute)]);
  }
  return rows.flatMap(([name, value]) => [el('dt', { text: name }), el('dd', { text: value, title: value })]);
}

/** An attribute as a line of text: a value, `IfcOwnerHistory #123` for an entity, a list's items. */
function attributeText(attribute: { type: string; value: unknown } | undefined): string {
  if (!attribute || attribute.value === null || attribute.value === undefined) return '';
  const { type, value } = attribute;
  if (type === 'Entity' && typeof value === 'object') {
    const entity = value as { objectId?: string | number; type?: string };
    return `${entity.type ?? 'entity'} #${entity.objectId ?? '?'}`;
  }
  if (type === 'List' && Array.isArray(value)) {
    const items = value.slice(0, 5).map((item) => attributeText(item as { type: string; value: unknown }));
    return `[${items.join(', ')}${value.length > 5 ? `, … ${value.length} items` : ''}]`;
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
