// As in the app's main.ts: the viewers' global components for vue-tsc.
import type {} from 'bim-viewers/vue';
