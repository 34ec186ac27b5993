import {
  Color,
  DepthTexture,
  GLSL3,
  Mesh,
  OrthographicCamera,
  PlaneGeometry,
  Scene,
  ShaderMaterial,
  UnsignedIntType,
  Vector2,
  WebGLRenderTarget,
  type Object3D,
  type PerspectiveCamera,
  type WebGLRenderer,
} from 'three';

const vertexShader = /* glsl */ `
out vec2 vUv;
void main() {
  vUv = uv;
  gl_Position = vec4(position.xy, 0.0, 1.0);
}
`;

// Eye-dome lighting (Boucheny 2009, as Potree and CloudCompare draw it): a pixel is darker
// the more its neighbours are nearer the eye than it (log depth), so edges and steps in a
// cloud read without normals. The composite writes the points' depth, so BIM models drawn
// after it hide points behind them and show behind points in front.
const fragmentShader = /* glsl */ `
uniform sampler2D colorTexture;
uniform sampler2D depthTexture;
uniform vec2 texel;
uniform float strength;
uniform float radius;
uniform int depthKind; // 0 perspective, 1 orthographic, 2 logarithmic
uniform float near;
uniform float far;
uniform float logDepthBufFC;
in vec2 vUv;
out vec4 fragColor;

float eyeDepth(float d) {
  if (depthKind == 2) return exp2(d / (logDepthBufFC * 0.5)) - 1.0;
  if (depthKind == 1) return near + d * (far - near);
  return near * far / (far - d * (far - near));
}

void main() {
  vec4 color = texture(colorTexture, vUv);
  float d = texture(depthTexture, vUv).r;
  if (color.a == 0.0 || d >= 1.0) discard;
  float here = log2(eyeDepth(d));
  float response = 0.0;
  for (int i = 0; i < 8; i++) {
    float angle = float(i) * 0.78539816;
    vec2 at = vUv + vec2(cos(angle), sin(angle)) * texel * radius;
    float n = texture(depthTexture, at).r;
    // Empty neighbours count as far away: the cloud's outline darkens too.
    float there = n >= 1.0 ? here + 2.0 : log2(eyeDepth(n));
    response += max(0.0, there - here);
  }
  float shade = exp(-response / 8.0 * 300.0 * strength);
  fragColor = vec4(color.rgb * shade, 1.0);
  gl_FragDepth = d;
}
`;

/**
 * Draws point clouds with eye-dome lighting: the clouds into a target of their own
 * (colour and depth), then a full-screen pass that shades and writes them, with their
 * depth, into the canvas before the rest of the scene is drawn over it.
 */
export class EdlPass {
  private target: WebGLRenderTarget | null = null;
  private readonly material = new ShaderMaterial({
    glslVersion: GLSL3,
    uniforms: {
      colorTexture: { value: null },
      depthTexture: { value: null },
      texel: { value: new Vector2() },
      strength: { value: 1 },
      radius: { value: 1.4 },
      depthKind: { value: 0 },
      near: { value: 0.1 },
      far: { value: 1000 },
      logDepthBufFC: { value: 1 },
    },
    vertexShader,
    fragmentShader,
    depthTest: false,
    depthWrite: true,
  });
  private readonly quad = new Mesh(new PlaneGeometry(2, 2), this.material);

  constructor() {
    this.quad.frustumCulled = false;
  }
  private readonly quadScene = new Scene().add(this.quad);
  private readonly quadCamera = new OrthographicCamera(-1, 1, 1, -1, 0, 1);

  /**
   * Draws `clouds` with EDL into the canvas (cleared to `background` first); the caller then
   * draws the rest of the scene without clearing.
   */
  render(renderer: WebGLRenderer, clouds: Object3D, camera: PerspectiveCamera | OrthographicCamera, background: Color, logarithmic: boolean, logDepthBufFC: number) {
    const size = renderer.getDrawingBufferSize(new Vector2());
    if (!this.target || this.target.width !== size.x || this.target.height !== size.y) {
      this.target?.dispose();
      this.target = new WebGLRenderTarget(size.x, size.y, { depthTexture: new DepthTexture(size.x, size.y, UnsignedIntType) });
    }
    const clearColor = renderer.getClearColor(new Color());
    const clearAlpha = renderer.getClearAlpha();
    const autoClear = renderer.autoClear;
    renderer.autoClear = false;
    renderer.setRenderTarget(this.target);
    renderer.setClearColor(0x000000, 0);
    renderer.clear(true, true, true);
    renderer.render(clouds, camera);
    renderer.setRenderTarget(null);
    renderer.setClearColor(background, 1);
    renderer.clear(true, true, true);
    const u = this.material.uniforms;
    u.colorTexture.value = this.target.texture;
    u.depthTexture.value = this.target.depthTexture;
    u.texel.value.set(1 / size.x, 1 / size.y);
    u.depthKind.value = logarithmic ? 2 : (camera as OrthographicCamera).isOrthographicCamera ? 1 : 0;
    u.near.value = camera.near;
    u.far.value = camera.far;
    u.logDepthBufFC.value = logDepthBufFC;
    renderer.render(this.quadScene, this.quadCamera);
    renderer.setClearColor(clearColor, clearAlpha);
    renderer.autoClear = autoClear;
  }

  dispose() {
    this.target?.dispose();
    this.quad.geometry.dispose();
    this.material.dispose();
  }
}
