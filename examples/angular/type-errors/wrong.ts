// Deliberately wrong (type-errors.test.ts): each marked line must fail under strictTemplates.
import { CUSTOM_ELEMENTS_SCHEMA, Component } from '@angular/core';
import 'bim-viewers';

@Component({
  selector: 'app-wrong',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <bim-viewer-3d (viewer.select)="takesNumber($event.detail.selected)" />
    <bim-viewer-2d (viewer2d.load)="takesNumber($event.detail.modelId)" />
    <bim-viewer-3d (viewer.error)="takesNumber($event.detail.kind)" />
  `,
})
export class Wrong {
  takesNumber(value: number): number {
    return value;
  }
}
