// Puts the package where `npm install bim-viewers` would: node_modules/bim-viewers here, made
// of this repository's package.json and a link to its dist/ (built by scripts/example.mjs).
// The app then imports it and copies its assets (angular.json) exactly as a real app does;
// Angular's assets must lie inside the workspace, so ../../dist/npm cannot be named directly.
import { copyFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const target = fileURLToPath(new URL('node_modules/bim-viewers/', import.meta.url));
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
copyFileSync(`${root}package.json`, `${target}package.json`);
// A junction on Windows (no privileges needed), a plain symbolic link elsewhere.
symlinkSync(`${root}dist`, `${target}dist`, 'junction');
