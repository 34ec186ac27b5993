import { Color, DoubleSide, GLSL3, NoBlending, NormalBlending, ShaderMaterial, type Material, type Side, type Texture } from 'three';

/**
 * Which part of a batch a material draws: opaque surfaces, see-through surfaces, or
 * nothing but stencil counts (the caps of clipped solids).
 */
export const Pass = { Opaque: 0, Translucent: 1, Stencil: 2 } as const;
export type Pass = (typeof Pass)[keyof typeof Pass];

/**
 * The materials a model's batches are drawn with: `opaque` (both faces), `solid` (the
 * opaque pass of closed solids wound outward: back faces culled), `translucent`.
 */
export type BatchMaterials<M extends Material = Material> = Record<'opaque' | 'solid' | 'translucent', M>;

/** Uniforms every batch material shares, so a change reaches all batches at once. */
export interface BatchUniforms {
  stateTexture: { value: Texture };
  logDepthBufFC: { value: number };
  stateWidth: { value: number };
  selectedColor: { value: Color };
  /** The colour of what the IFC gives none (vertices of colour UNSTYLED). */
  defaultColor: { value: Color };
  translucentOpacity: { value: number };
}

export function batchUniforms(state: Texture, width: number, logDepthBufFC: { value: number }): BatchUniforms {
  return {
    stateTexture: { value: state },
    logDepthBufFC,
    stateWidth: { value: width },
    selectedColor: { value: new Color('#a7f555') },
    defaultColor: { value: new Color('#101010') },
    translucentOpacity: { value: 0.05 },
  };
}

const vertexShader = /* glsl */ `
#include <common>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
in vec4 rgba;
in float objectIndex;
uniform sampler2D stateTexture;
uniform int stateWidth;
uniform vec3 selectedColor;
uniform vec3 defaultColor;
uniform float translucentOpacity;
uniform int pass;
// Flat: one object's triangle has one colour, and the sun one direction (nothing to interpolate).
flat out vec4 vColor;
flat out vec3 vSun;
out vec3 vViewPosition;

// A sun fixed in the scene (z up).
const vec3 SUN = vec3(0.35, -0.55, 0.75) / length(vec3(0.35, -0.55, 0.75));

vec4 stateAt(int texel) {
  return texelFetch(stateTexture, ivec2(texel % stateWidth, texel / stateWidth), 0);
}

void main() {
  int index = int(objectIndex + 0.5);
  vec4 custom = stateAt(index * 2);
  vec4 flags = stateAt(index * 2 + 1);
  // Alpha 0 is no file's colour (UNSTYLED, protocol.ts): the object has none of its own.
  vec4 color = flags.a > 0.5 ? custom : rgba.a == 0.0 ? vec4(defaultColor, 1.0) : rgba;
  if (flags.g > 0.5) color.rgb = selectedColor;
  if (flags.b > 0.5) color.a = min(color.a, translucentOpacity);
  bool seeThrough = color.a < 0.996;
  bool drawn = flags.r > 0.5 && (pass >= 2 || (pass == 1) == seeThrough);
  if (!drawn) {
    // Outside the clip volume: the triangle is dropped before rasterising.
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  vColor = color;
  vSun = mat3(viewMatrix) * SUN;
  vec4 mvPosition = modelViewMatrix * vec4(position, 1.0);
  vViewPosition = mvPosition.xyz;
  #include <clipping_planes_vertex>
  gl_Position = projectionMatrix * mvPosition;
  #include <logdepthbuf_vertex>
}
`;

const fragmentShader = /* glsl */ `
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
uniform int pass;
flat in vec4 vColor;
flat in vec3 vSun;
in vec3 vViewPosition;
out vec4 fragColor;

void main() {
  #include <clipping_planes_fragment>
  #include <logdepthbuf_fragment>
  if (pass == 2) {
    fragColor = vec4(0.0);
    return;
  }
  // A head light plus the sun: faces facing different ways differ in brightness from
  // every view, and nothing is ever black. The face's normal (in view space) comes from
  // how its position changes across the screen, as vertices are shared between faces
  // (GeometryBatcher); it is turned towards the eye, as IFC triangles are not
  // consistently wound.
  vec3 normal = normalize(cross(dFdx(vViewPosition), dFdy(vViewPosition)));
  if (normal.z < 0.0) normal = -normal;
  float light = 0.5 + 0.15 * normal.z + 0.35 * dot(normal, vSun);
  fragColor = vec4(vColor.rgb * light, vColor.a);
}
`;

/** A shader that draws batched IFC geometry with per-object state from the state texture. */
export function batchMaterial(uniforms: BatchUniforms, pass: Pass, side: Side = DoubleSide): ShaderMaterial {
  return new ShaderMaterial({
    glslVersion: GLSL3,
    uniforms: { ...uniforms, pass: { value: pass } },
    vertexShader,
    fragmentShader,
    side,
    clipping: true,
    transparent: pass === Pass.Translucent,
    depthWrite: pass !== Pass.Translucent,
    blending: pass === Pass.Stencil ? NoBlending : NormalBlending,
  });
}
