// The Vue app through the shared scenario (examples/README.md): built with `npm run example:vue`'s
// steps, signed in as the public client `example-vue`, driven in Chromium against a real platform.
import { buildExample } from '../../scripts/example.mjs';
import { describeExample } from '../shared/example-scenario.js';

describeExample({ name: 'Vue', clientId: 'example-vue', build: () => buildExample('vue') });
