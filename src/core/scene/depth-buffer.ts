import type { Camera, Material, OrthographicCamera, PerspectiveCamera } from 'three';

/**
 * The depth buffer mode (setRenderSettings' depthBuffer): `standard`, or `logarithmic`
 * for scenes that span kilometres with millimetre detail. three fixes its own
 * logarithmic mode when the renderer is made, so the viewer switches its materials
 * itself: the define that three's shader chunks read, and the uniform they need.
 */
export class DepthBuffer {
  readonly uniform = { value: 1 };
  private logarithmic = false;
  private readonly materials = new Set<Material>();

  get mode(): 'logarithmic' | 'standard' {
    return this.logarithmic ? 'logarithmic' : 'standard';
  }

  set mode(mode: 'logarithmic' | 'standard') {
    this.logarithmic = mode === 'logarithmic';
    for (const material of this.materials) this.configure(material);
  }

  /** Follows `material` (a batch or cap material) from now on. */
  track<M extends Material>(material: M): M {
    this.materials.add(material);
    const compile = material.onBeforeCompile;
    material.onBeforeCompile = (shader, renderer) => {
      shader.uniforms.logDepthBufFC = this.uniform;
      compile.call(material, shader, renderer);
    };
    material.addEventListener('dispose', () => this.materials.delete(material));
    this.configure(material);
    return material;
  }

  /** Per frame: the constant of three's logarithmic depth for this camera. */
  update(camera: Camera) {
    this.uniform.value = 2.0 / Math.log2((camera as PerspectiveCamera | OrthographicCamera).far + 1.0);
  }

  private configure(material: Material) {
    const defines = { ...(material.defines ?? {}) };
    if (this.logarithmic) defines.USE_LOGARITHMIC_DEPTH_BUFFER = '';
    else delete defines.USE_LOGARITHMIC_DEPTH_BUFFER;
    material.defines = defines;
    material.needsUpdate = true;
  }
}
