import { bootstrapApplication } from '@angular/platform-browser';
// Registers <bim-viewer-3d> and <bim-viewer-2d> once for the whole app, and types their
// events for the templates (HTMLElementEventMap).
import 'bim-viewers';
import { App } from './app/app';

// Zoneless: Angular 21's default, no zone.js; signals and template events schedule change detection.
bootstrapApplication(App).catch((error: unknown) => console.error(error));
