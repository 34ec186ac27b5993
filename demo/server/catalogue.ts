/**
 * The demo backend's catalogue: the sample models in public/models (served by vite at
 * /models/<file>) and the projects that group them. Sources and licences come from
 * public/models/MANIFEST.tsv. Plain data, no Node imports.
 */

export interface SampleModel {
  /** Model id in manifests and the viewer (`modelId`). */
  id: string;
  name: string;
  /** File name in public/models. */
  file: string;
  revision: number;
  /** Where the file comes from, for attribution. */
  source: string;
  licence: string;
  /** Short credit for the demo pages' footer. */
  credit: string;
}

export interface Project {
  id: string;
  name: string;
  /** Ids of the models a token of this project gives when the request names none. */
  models: string[];
}

/**
 * Order matters: a model's objectIdBase is its index here times 2^32, so the ids of
 * two models never collide, whichever tokens a page loads together.
 */
export const MODELS: readonly SampleModel[] = [
  {
    id: 'duplex',
    name: 'Duplex',
    file: 'Duplex_A_20110907.ifc',
    revision: 1,
    source: 'buildingSMART International, Duplex Apartment Test Files (Community Sample Test Files)',
    licence: 'CC BY 4.0',
    credit: 'buildingSMART International, CC BY 4.0',
  },
  {
    id: 'fzk-haus',
    name: 'AC20-FZK-Haus',
    file: 'AC20-FZK-Haus.ifc',
    revision: 1,
    source: 'KIT Karlsruhe FZK-Haus sample, via ThatOpen/engine_web-ifc test files',
    licence: 'no explicit model licence; web-ifc repository MPL-2.0',
    credit: 'KIT, via web-ifc',
  },
  {
    id: 'gymzaal',
    name: 'Gymzaal Amersfoort',
    file: 'example_project_location.ifc',
    revision: 1,
    source: 'buildingSMART Sample-Test-Files, "Example project location" (deBIMspecialist)',
    licence: 'CC BY 4.0',
    credit: 'buildingSMART / deBIMspecialist, CC BY 4.0',
  },
  {
    id: 'tekla-mini',
    name: 'Mini Project (Tekla)',
    file: 'Mini_Project_Tekla.ifc',
    revision: 1,
    source: 'ThatOpen/engine_web-ifc test files (issue 21)',
    licence: 'no explicit model licence; web-ifc repository MPL-2.0',
    credit: 'via web-ifc',
  },
  {
    id: 'building-architecture',
    name: 'Building-Architecture (PCERT)',
    file: 'PCERT_Building-Architecture_IFC4.ifc',
    revision: 1,
    source: 'buildingSMART Sample-Test-Files, PCERT sample scene',
    licence: 'CC BY 4.0',
    credit: 'buildingSMART International, CC BY 4.0',
  },
  {
    id: 'bpi-office',
    name: 'BPI office',
    file: 'bpi-office.ifc',
    revision: 1,
    source: 'AECgeeks/BIMsurfer2 (bimsurfer.org)',
    licence: 'MIT',
    credit: 'BIMsurfer, MIT',
  },
  {
    id: 'grid-placement',
    name: 'Grid placement',
    file: 'grid-placement.ifc',
    revision: 1,
    source: 'buildingSMART IFC4 specification example',
    licence: 'CC BY 4.0',
    credit: 'buildingSMART International, CC BY 4.0',
  },
  {
    id: 'hello-wall',
    name: 'Hello wall',
    file: 'hello-wall.ifc',
    revision: 1,
    source: 'LTplus-AG/ifc-lite samples (Bonsai)',
    licence: 'MPL-2.0',
    credit: 'ifc-lite, MPL-2.0',
  },
];

export const PROJECTS: readonly Project[] = [
  { id: 'demo', name: 'Demo (Duplex)', models: ['duplex'] },
  ...MODELS.map((m) => ({ id: m.id, name: m.name, models: [m.id] })),
  { id: 'all', name: 'All sample models', models: MODELS.map((m) => m.id) },
];

export const DEFAULT_PROJECT = 'demo';

export function findProject(id: string): Project | undefined {
  return PROJECTS.find((p) => p.id === id);
}

export function findModel(id: string): SampleModel | undefined {
  return MODELS.find((m) => m.id === id);
}

/** The decimal int64 added to the model's IFC express ids (DESIGN.md, "Object ids"). */
export function objectIdBase(model: SampleModel): string {
  return (BigInt(MODELS.indexOf(model)) << 32n).toString();
}

/** Where vite serves the model's IFC file. */
export function modelFileUrl(model: SampleModel): string {
  return `/models/${encodeURIComponent(model.file)}`;
}
