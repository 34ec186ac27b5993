import { executeServerCommand } from '@web/test-runner-commands';

/** True when `npm run soak` runs this test (scale up: full corpus, 100 cycles). */
export async function soaking(): Promise<boolean> {
  return ((await executeServerCommand('soak-settings')) as { soak: boolean }).soak;
}

/** Writes the part's figures to bench/results/soak/<part>.json (only under `npm run soak`). */
export async function writeSoakFigures(part: string, figures: Record<string, unknown>): Promise<void> {
  await executeServerCommand('soak-figures', { part, figures });
}
