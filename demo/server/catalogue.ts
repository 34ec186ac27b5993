import { bimModelsFolder, readModelFolder } from '../../scripts/bim-models.mjs';
import { VARIANTS } from '../../samples/variants.js';

/**
 * The demo backend's catalogue: the project's own sample buildings (generated, served at
 * /samples/<name>.ifc), then the real models found in the BIM_MODELS folder (default
 * ../shared/models, served at /models/<file>), and the projects that group them.
 */

export interface CatalogueModel {
  /** Model id in manifests and the viewer (`modelId`). */
  id: string;
  name: string;
  /** Root-relative URL of its IFC file. */
  url: string;
  revision: number;
  kind: 'sample' | 'real';
}

export interface Project {
  id: string;
  name: string;
  /** Ids of the models a token of this project gives when the request names none. */
  models: string[];
}

const SAMPLES: CatalogueModel[] = Object.entries(VARIANTS).map(([name, variant]) => ({
  id: name,
  name: variant.options.name ?? name,
  url: `/samples/${name}.ifc`,
  revision: 1,
  kind: 'sample',
}));

function realModels(): CatalogueModel[] {
  const folder = bimModelsFolder();
  if (!folder) return [];
  return readModelFolder(folder).map((m) => ({
    id: m.file.replace(/\.ifc$/i, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
    name: m.file.replace(/\.ifc$/i, ''),
    url: `/models/${encodeURIComponent(m.file)}`,
    revision: 1,
    kind: 'real',
  }));
}

/**
 * Order matters: a model's objectIdBase is its index here times 2^32, so the ids of two
 * models never collide, whichever tokens a page loads together. Samples come first, so
 * their bases do not depend on the folder.
 */
export const MODELS: readonly CatalogueModel[] = [...SAMPLES, ...realModels()];

export const PROJECTS: readonly Project[] = [
  { id: 'demo', name: 'Demo (sample house)', models: ['house'] },
  ...MODELS.map((m) => ({ id: m.id, name: m.kind === 'real' ? `${m.name} (from BIM_MODELS)` : m.name, models: [m.id] })),
  { id: 'all-samples', name: 'All sample buildings', models: SAMPLES.map((m) => m.id) },
];

export const DEFAULT_PROJECT = 'demo';

export function findProject(id: string): Project | undefined {
  return PROJECTS.find((p) => p.id === id);
}

export function findModel(id: string): CatalogueModel | undefined {
  return MODELS.find((m) => m.id === id);
}

/** The decimal int64 added to the model's IFC express ids (DESIGN.md, "Object ids"). */
export function objectIdBase(model: CatalogueModel): string {
  return (BigInt(MODELS.indexOf(model)) << 32n).toString();
}
