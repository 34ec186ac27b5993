import { Component, computed, input } from '@angular/core';
import type { Product } from 'bim-viewers';

/** The selected object's name, type, GlobalId and attributes (as text: values come from the model). */
@Component({
  selector: 'app-product-properties',
  template: `
    @if (product(); as product) {
      <div id="properties" data-state="shown" [attr.data-object-id]="product.objectId">
        <h3 data-field="name">{{ product.name }}</h3>
        <p><span data-field="type">{{ product.type }}</span> <code data-field="globalId">{{ product.globalId }}</code></p>
        <table>
          @for (row of attributes(); track row.name) {
            <tr><th>{{ row.name }}</th><td>{{ row.value }}</td></tr>
          }
        </table>
      </div>
    } @else {
      <div id="properties" data-state="empty">Click an object in 3D to see its properties.</div>
    }
  `,
})
export class ProductProperties {
  readonly product = input.required<Product | null>();

  protected readonly attributes = computed(() =>
    Object.entries(this.product()?.attributes ?? {}).map(([name, { value }]) => ({ name, value: text(value) })),
  );
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
