import { installOurs } from './ours-adapter.js';

installOurs('ours', 'ifc');
