// web-test-runner server commands for the soak parts that run in the browser
// (test/support/soak.ts): `soak-settings` tells a test whether `npm run soak` runs it
// (SOAK=1: scale up), `soak-figures` writes its figures to bench/results/soak/<part>.json.
import { soaking, writeSoakFigures } from '../../bench/soak/figures.mjs';

export function soakPlugin() {
  return {
    name: 'soak-commands',
    executeCommand({ command, payload }) {
      if (command === 'soak-settings') return { soak: soaking() };
      if (command === 'soak-figures') return { file: writeSoakFigures(payload.part, payload.figures) };
      return undefined;
    },
  };
}
