import { IFCSPACE } from 'web-ifc';
import type { ModelLines } from '../ifc/web-ifc-engine.js';
import { ifcText } from '../ifc/products.js';

/** What a plan shows of a space besides its footprint. */
export interface SpaceName {
  guid: string;
  name: string;
  longName: string;
}

/** A space line's GlobalId, Name and LongName. */
export function spaceName(line: Record<string, unknown>): SpaceName {
  return { guid: ifcText(line.GlobalId) ?? '', name: ifcText(line.Name) ?? '', longName: ifcText(line.LongName) ?? '' };
}

/**
 * Every space's names by express id, read ahead by the import's products thread with its
 * lines from the file's bytes (a StepModel, core/ifc/step-model.ts): through web-ifc's
 * GetLine they took the plans 0.5 s of office-200k's 22k spaces.
 */
export function spaceNames(api: ModelLines, modelID: number): Map<number, SpaceName> {
  const names = new Map<number, SpaceName>();
  const ids = api.GetLineIDsWithType(modelID, IFCSPACE);
  for (let i = 0, n = ids.size(); i < n; i++) names.set(ids.get(i), spaceName(api.GetLine(modelID, ids.get(i), false)));
  return names;
}
