// The Angular example in real Chromium: the shared scenario against a real platform
// (examples/shared/example-scenario.ts), on the app as `ng build` makes it (with the
// package's workers and wasm copied beside its chunks by angular.json's assets).
import { buildExample } from '../../scripts/example.mjs';
import { describeExample } from '../shared/example-scenario.js';

describeExample({ name: 'Angular', clientId: 'example-angular', build: () => buildExample('angular') });
