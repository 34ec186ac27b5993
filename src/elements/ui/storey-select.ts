import type { BimViewer2d } from '../bim-viewer-2d.js';

/**
 * `showViewer2dStoreySelect`: the 2D viewer in its own container, with a storey select
 * above it. The container is made inside the page's 2D element (so the 2D viewer is not
 * moved in the document, which would restart it); the select lists the storeys of all
 * loaded plans (names as text) and shows the chosen one.
 */
export class StoreySelect {
  readonly container: HTMLDivElement;
  readonly select: HTMLSelectElement;

  constructor(private readonly plan: BimViewer2d, onChoose: (id: string) => void) {
    const host = plan.parentElement ?? plan;
    this.container = document.createElement('div');
    this.container.className = 'bim-viewer-ui-storey-select';
    this.container.style.cssText = 'position:absolute;left:8px;top:8px;z-index:2;';
    this.select = document.createElement('select');
    this.select.setAttribute('aria-label', 'Storey');
    this.select.style.cssText = 'font:13px sans-serif;padding:2px 4px;';
    this.select.addEventListener('change', () => onChoose(this.select.value));
    this.container.appendChild(this.select);
    if (getComputedStyle(host).position === 'static') host.style.position = 'relative';
    host.insertBefore(this.container, host.firstChild);
    plan.addEventListener('viewer2d.load', () => this.refresh());
    plan.addEventListener('viewer2d.unload', () => this.refresh());
    this.refresh();
  }

  refresh(current?: string) {
    const storeys = this.plan.getStoreys({ all: true }).slice().sort((a, b) => b.elevation - a.elevation);
    const chosen = current ?? this.select.value;
    this.select.replaceChildren(...storeys.map((s) => {
      const option = document.createElement('option');
      option.value = s.id;
      option.textContent = s.name || s.id;
      return option;
    }));
    if (chosen && storeys.some((s) => s.id === chosen)) this.select.value = chosen;
  }

  dispose() {
    this.container.remove();
  }
}
