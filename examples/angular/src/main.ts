import { bootstrapApplication } from '@angular/platform-browser';
import { provideZonelessChangeDetection } from '@angular/core';
// Registers <bim-viewer-3d> and <bim-viewer-2d> once for the whole app, and types their
// events for the templates (HTMLElementEventMap).
import 'bim-viewers';
import { App } from './app/app';

bootstrapApplication(App, { providers: [provideZonelessChangeDetection()] }).catch((error: unknown) => console.error(error));
