// Mocha's BDD globals (describe, it, before, afterEach, ...) are provided in the browser by
// web-test-runner; tsconfig's "types" list is restricted, so reference them explicitly.
/// <reference types="mocha" />
