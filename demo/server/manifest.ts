import { findModel, objectIdBase } from './catalogue.js';

/**
 * The answer of a 3D data URL: the manifest of DESIGN.md ("Token URLs"). Format URLs
 * are root-relative; the viewer resolves them against the manifest's URL.
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
      return {
        id: model.id,
        name: model.name,
        revision: model.revision,
        objectIdBase: objectIdBase(model),
        formats: [{ type: IFC_MEDIA_TYPE, url: model.url }],
      };
    }),
  };
}
