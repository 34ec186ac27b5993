// The same bindings written right (type-errors.test.ts): must compile clean.
import { CUSTOM_ELEMENTS_SCHEMA, Component } from '@angular/core';
import 'bim-viewers';

@Component({
  selector: 'app-right',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <bim-viewer-3d (viewer.select)="takesNumber($event.detail.selected.length)" />
    <bim-viewer-2d (viewer2d.load)="takesNumber($event.detail.modelId.length)" />
    <bim-viewer-3d (viewer.error)="takesNumber($event.detail.message.length)" />
  `,
})
export class Right {
  takesNumber(value: number): number {
    return value;
  }
}
