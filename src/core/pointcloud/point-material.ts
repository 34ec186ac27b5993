import { DataTexture, GLSL3, RGBAFormat, ShaderMaterial, UnsignedByteType, Vector2 } from 'three';

/** How points are coloured: their own colour, intensity (grey), classification (a colour per class), elevation (a ramp). */
export const COLOR_MODES = ['rgb', 'intensity', 'classification', 'elevation'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

/**
 * Class colours (ASPRS LAS classes 0-18), the rest grey. What other viewers use, so a
 * classified scan looks familiar.
 */
const CLASS_COLORS: Record<number, [number, number, number]> = {
  0: [190, 190, 190], 1: [160, 160, 160], 2: [160, 110, 60], 3: [120, 200, 90], 4: [60, 170, 60], 5: [20, 120, 40],
  6: [230, 80, 60], 7: [255, 0, 255], 8: [255, 200, 0], 9: [40, 110, 230], 10: [240, 140, 30], 11: [90, 90, 90],
  12: [250, 250, 120], 13: [255, 230, 100], 14: [250, 180, 40], 15: [200, 60, 200], 16: [120, 220, 230], 17: [90, 150, 250], 18: [255, 90, 140],
};

const vertexShader = /* glsl */ `
#include <common>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
in vec3 rgb;
in float intensity;
in float classification;
uniform int mode;
uniform float pointSize;
uniform float spacing;
// The node's cube side, and per octant of it the level of detail drawn there (fractional).
uniform float nodeSize;
uniform float octantLevels[8];
uniform float projection;
uniform bool orthographic;
uniform vec2 sizeRange;
uniform vec2 intensityRange;
uniform vec2 elevationRange;
uniform sampler2D classes;
out vec3 vColor;

vec3 ramp(float t) {
  // blue, cyan, green, yellow, red
  t = clamp(t, 0.0, 1.0) * 4.0;
  if (t < 1.0) return mix(vec3(0.1, 0.2, 0.9), vec3(0.0, 0.8, 0.9), t);
  if (t < 2.0) return mix(vec3(0.0, 0.8, 0.9), vec3(0.2, 0.85, 0.2), t - 1.0);
  if (t < 3.0) return mix(vec3(0.2, 0.85, 0.2), vec3(0.95, 0.9, 0.1), t - 2.0);
  return mix(vec3(0.95, 0.9, 0.1), vec3(0.9, 0.15, 0.1), t - 3.0);
}

void main() {
  vec4 klass = texelFetch(classes, ivec2(int(classification + 0.5), 0), 0);
  if (klass.a < 0.5) {
    // A hidden class: outside the clip volume, dropped before rasterising.
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  if (mode == 0) vColor = rgb;
  else if (mode == 1) vColor = vec3(clamp((intensity - intensityRange.x) / max(intensityRange.y - intensityRange.x, 1.0), 0.0, 1.0));
  else if (mode == 2) vColor = klass.rgb;
  else vColor = ramp(((modelMatrix * vec4(position, 1.0)).z - elevationRange.x) / max(elevationRange.y - elevationRange.x, 1e-6));
  vec4 mvPosition = modelViewMatrix * vec4(position, 1.0);
  #include <clipping_planes_vertex>
  gl_Position = projectionMatrix * mvPosition;
  #include <logdepthbuf_vertex>
  // Adaptive size: as wide as the spacing between the points drawn around this one (the
  // finest level drawn in its octant of the node; positions are relative to the node's
  // minimum), so coarse (far) levels close their gaps with larger points and fine ones
  // stay sharp, and a parent's points shrink where its children are drawn too.
  vec3 upper = step(vec3(nodeSize * 0.5), position);
  int octant = int(upper.x) * 4 + int(upper.y) * 2 + int(upper.z);
  float level = octantLevels[octant];
  float perMetre = orthographic ? projection : projection / max(-mvPosition.z, 1e-6);
  gl_PointSize = clamp(pointSize * spacing / exp2(level) * perMetre, sizeRange.x, sizeRange.y);
}
`;

const fragmentShader = /* glsl */ `
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
in vec3 vColor;
out vec4 fragColor;

void main() {
  vec2 c = gl_PointCoord * 2.0 - 1.0;
  if (dot(c, c) > 1.0) discard;
  #include <clipping_planes_fragment>
  #include <logdepthbuf_fragment>
  fragColor = vec4(vColor, 1.0);
}
`;

export interface PointUniforms {
  mode: { value: number };
  pointSize: { value: number };
  /** The root's spacing. */
  spacing: { value: number };
  nodeSize: { value: number };
  octantLevels: { value: Float32Array };
  projection: { value: number };
  orthographic: { value: boolean };
  sizeRange: { value: Vector2 };
  intensityRange: { value: Vector2 };
  elevationRange: { value: Vector2 };
  classes: { value: DataTexture };
  logDepthBufFC: { value: number };
}

/**
 * The material of one cloud's points. The viewer's clipping planes reach it through
 * three's clipping chunks (`clippingPlanes`, updated per frame as uniforms; a new number of
 * planes picks another cached program), and its depth kind through DepthBuffer.track.
 * Per node, only `nodeSize` and `octantLevels` change (set before each node draws).
 */
export function pointMaterial(logDepthBufFC: { value: number }): ShaderMaterial & { uniforms: PointUniforms } {
  const classes = new DataTexture(new Uint8Array(256 * 4), 256, 1, RGBAFormat, UnsignedByteType);
  const uniforms: PointUniforms = {
    mode: { value: 0 },
    pointSize: { value: 1 },
    spacing: { value: 1 },
    nodeSize: { value: 1 },
    octantLevels: { value: new Float32Array(8) },
    projection: { value: 1 },
    orthographic: { value: false },
    sizeRange: { value: new Vector2(2, 48) },
    intensityRange: { value: new Vector2(0, 65535) },
    elevationRange: { value: new Vector2(0, 1) },
    classes: { value: classes },
    logDepthBufFC,
  };
  const material = new ShaderMaterial({ glslVersion: GLSL3, uniforms: uniforms as unknown as ShaderMaterial['uniforms'], vertexShader, fragmentShader, clipping: true });
  setHiddenClasses(material as ShaderMaterial & { uniforms: PointUniforms }, []);
  material.addEventListener('dispose', () => classes.dispose());
  return material as ShaderMaterial & { uniforms: PointUniforms };
}

/** Class colours, with the classes in `hidden` left out of the picture. */
export function setHiddenClasses(material: { uniforms: PointUniforms }, hidden: readonly number[]) {
  const texture = material.uniforms.classes.value;
  const data = texture.image.data as Uint8Array;
  for (let c = 0; c < 256; c++) {
    const [r, g, b] = CLASS_COLORS[c] ?? [128, 128, 128];
    data.set([r, g, b, hidden.includes(c) ? 0 : 255], c * 4);
  }
  texture.needsUpdate = true;
}
