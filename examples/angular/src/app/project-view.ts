import { CUSTOM_ELEMENTS_SCHEMA, Component, DestroyRef, ElementRef, inject, input, output, signal, viewChild, type OnInit } from '@angular/core';
import type { BimViewer2d, BimViewer3d, Product, Viewer3dEventMap } from 'bim-viewers';
import type { Project } from '../../../shared/platform-client';
import { Platform } from './platform';
import { ProductProperties } from './product-properties';
import { TopicForm } from './topic-form';

interface Status { state: 'loading' | 'loaded' | 'error'; message: string }

/** One project: its models in 3D and 2D side by side, the selected object's properties, a topic form. */
@Component({
  selector: 'app-project-view',
  imports: [ProductProperties, TopicForm],
  // <bim-viewer-3d> and <bim-viewer-2d> are custom elements, not Angular components.
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <section id="project">
      <h2>{{ project().name }}</h2>
      <button id="close-project" type="button" (click)="closed.emit()">Close</button>
      <p id="viewer-status" [attr.data-state]="status().state">{{ status().message }}</p>
      <div class="viewers">
        <bim-viewer-3d #viewer3d (viewer.select)="onSelect($event)" />
        <bim-viewer-2d #viewer2d />
      </div>
      <app-product-properties [product]="product()" />
      <!-- #viewer3d here is the element itself, typed BimViewer3d from HTMLElementTagNameMap. -->
      <app-topic-form [projectId]="project().id" [viewer]="viewer3d" />
    </section>
  `,
  styles: `
    .viewers { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; height: 60vh; }
    bim-viewer-3d, bim-viewer-2d { display: block; height: 100%; }
  `,
})
export class ProjectView implements OnInit {
  readonly project = input.required<Project>();
  readonly closed = output();
  /** Any failure's message, for the app's #app-error. */
  readonly failed = output<string>();

  protected readonly viewer3d = viewChild.required<ElementRef<BimViewer3d>>('viewer3d');
  protected readonly viewer2d = viewChild.required<ElementRef<BimViewer2d>>('viewer2d');
  protected readonly status = signal<Status>({ state: 'loading', message: 'Loading the models...' });
  protected readonly product = signal<Product | null>(null);
  private readonly platform = inject(Platform);
  private destroyed = false;
  private selected?: string;

  constructor() {
    inject(DestroyRef).onDestroy(() => (this.destroyed = true));
  }

  async ngOnInit(): Promise<void> {
    try {
      const urls = await this.platform.viewerUrls(this.project().id);
      // Closed while the token URLs were on their way: the viewers are gone.
      if (this.destroyed) return;
      await Promise.all([this.viewer3d().nativeElement.loadUrl(urls.viewer3d), this.viewer2d().nativeElement.loadUrl(urls.viewer2d)]);
      this.status.set({ state: 'loaded', message: 'Models loaded.' });
    } catch (error) {
      if (this.destroyed) return;
      this.status.set({ state: 'error', message: (error as Error).message });
      this.failed.emit((error as Error).message);
    }
  }

  /** `$event` is typed from the package's HTMLElementEventMap: CustomEvent<{ selected: string[] }>. */
  protected async onSelect(event: CustomEvent<Viewer3dEventMap['viewer.select']>): Promise<void> {
    const id = (this.selected = event.detail.selected[0]);
    if (id === undefined) {
      this.product.set(null);
      return;
    }
    try {
      const [product] = await this.viewer3d().nativeElement.getProducts([id], { attributes: true });
      // Shown only if it is still the selected object (a later click may have answered first).
      if (this.selected === id) this.product.set(product ?? null);
    } catch (error) {
      this.failed.emit((error as Error).message);
    }
  }
}
