import { SCENE_MEDIA_TYPE } from '../../src/core/formats/scene.js';
import { PLANS_MEDIA_TYPE } from '../../src/core/formats/plans.js';
import { findModel, objectIdBase, type CatalogueModel } from './catalogue.js';

/**
 * The answer of a 3D or 2D data URL: the manifest of DESIGN.md ("Token URLs"), as the
 * platform writes it: each model's scene, plans and IFC (the viewers take the first they
 * read; scene-files.ts makes the processed ones on first use) and its product records.
 * URLs are root-relative; the viewer resolves them against the manifest's URL.
 */

export interface ManifestFormat {
  type: string;
  url: string;
}

export interface ManifestModel {
  id: string;
  name: string;
  revision: number;
  objectIdBase: string;
  formats: ManifestFormat[];
  products?: string;
}

export interface Manifest {
  models: ManifestModel[];
}

/** IFC text: STEP physical file (ISO 10303-21). */
export const IFC_MEDIA_TYPE = 'application/x-step';

export function manifestFor(modelIds: readonly string[]): Manifest {
  return {
    models: modelIds.map((id) => {
      const model = findModel(id);
      if (!model) throw new Error(`manifestFor: unknown model ${id}`);
      const base = objectIdBase(model);
      const processed = processedUrl(model);
      return {
        id: model.id,
        name: model.name,
        revision: model.revision,
        objectIdBase: base,
        formats: [
          ...(processed ? [{ type: SCENE_MEDIA_TYPE, url: `${processed}.scene` }, { type: PLANS_MEDIA_TYPE, url: `${processed}.plans` }] : []),
          { type: IFC_MEDIA_TYPE, url: model.url },
        ],
        ...(processed ? { products: `${processed}.products?base=${base}` } : {}),
      };
    }),
  };
}

/** `/scenes/<folder>/<name>` for the files scene-files.ts makes of the model's IFC, or null for a name it does not serve. */
function processedUrl(model: CatalogueModel): string | null {
  const match = /^\/(samples|models)\/([\w.-]+)\.ifc$/.exec(model.url);
  return match && `/scenes/${match[1]}/${match[2]}`;
}
