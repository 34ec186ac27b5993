import { createApp } from 'vue';
// Registers <bim-viewer-3d> and <bim-viewer-2d> (and starts the IFC engine early).
import 'bim-viewers';
// Types only: vue-tsc then checks the viewers' properties in templates.
import type {} from 'bim-viewers/vue';
import App from './App.vue';

createApp(App).mount('#app');
