import {
  CanvasTexture,
  Float32BufferAttribute,
  Group,
  InstancedBufferAttribute,
  InstancedBufferGeometry,
  LinearFilter,
  Mesh,
  ShaderMaterial,
  Vector2,
  Vector3,
  type Camera,
} from 'three';

export type TextRenderMode = 'canvas' | 'dom';

interface Label {
  text: string;
  position: Vector3;
  /** Where its text is in the atlas (canvas pixels). */
  slot?: { x: number; y: number; width: number };
  element?: HTMLDivElement;
}

const FONT_PX = 13;
/** Labels are drawn into the atlas at twice their size on screen, for sharp text. */
const ATLAS_SCALE = 2;
const ROW = FONT_PX * ATLAS_SCALE + 12;
const ATLAS_WIDTH = 1024;
const ATLAS_MAX_HEIGHT = 4096;

const vertexShader = /* glsl */ `
attribute vec3 center;
attribute vec4 rect;
attribute vec2 size;
uniform vec2 viewport;
varying vec2 vUv;
void main() {
  vec4 clip = projectionMatrix * modelViewMatrix * vec4(center, 1.0);
  // A fixed size in CSS pixels wherever the label is.
  clip.xy += position.xy * size / viewport * 2.0 * clip.w;
  gl_Position = clip;
  vUv = mix(rect.xy, rect.zw, position.xy + 0.5);
}
`;

const fragmentShader = /* glsl */ `
uniform sampler2D map;
varying vec2 vUv;
void main() {
  gl_FragColor = texture2D(map, vUv);
}
`;

export class Labels {
  readonly group = new Group();
  private readonly overlay: HTMLDivElement;
  private readonly labels = new Map<string, Label>();
  private mode: TextRenderMode = 'canvas';
  private readonly atlas = document.createElement('canvas');
  /**
   * Drawn on the CPU: the atlas is many small fills and texts, uploaded whole, which a
   * canvas on the GPU (software GL without a GPU) drew several times slower.
   */
  private readonly ctx = this.atlas.getContext('2d', { willReadFrequently: true })!;
  private readonly texture = new CanvasTexture(this.atlas);
  private readonly material: ShaderMaterial;
  private readonly mesh: Mesh<InstancedBufferGeometry, ShaderMaterial>;
  /** The next free place in the atlas. */
  private cursor = { x: 0, y: 0 };
  /** The quads need rebuilding (labels added, moved or gone). */
  private dirty = false;

  constructor(container: HTMLElement) {
    this.group.name = 'labels';
    this.overlay = document.createElement('div');
    this.overlay.className = 'labels';
    this.overlay.style.cssText = 'position:absolute;inset:0;pointer-events:none;overflow:hidden';
    container.appendChild(this.overlay);
    this.atlas.width = ATLAS_WIDTH;
    this.atlas.height = ROW * 4;
    this.texture.minFilter = LinearFilter;
    this.texture.generateMipmaps = false;
    this.material = new ShaderMaterial({
      uniforms: { map: { value: this.texture }, viewport: { value: new Vector2(1, 1) } },
      vertexShader,
      fragmentShader,
      transparent: true,
      depthTest: false,
      depthWrite: false,
    });
    const geometry = new InstancedBufferGeometry();
    geometry.setAttribute('position', new Float32BufferAttribute([-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0], 3));
    geometry.setIndex([0, 1, 2, 0, 2, 3]);
    this.mesh = new Mesh(geometry, this.material);
    this.mesh.frustumCulled = false; // the quads are placed in the shader
    this.mesh.renderOrder = 30;
    this.mesh.visible = false;
    this.group.add(this.mesh);
  }

  setMode(mode: TextRenderMode) {
    if (mode === this.mode) return;
    this.mode = mode;
    for (const [id, label] of this.labels) {
      this.drop(label);
      this.make(id, label);
    }
    this.dirty = true;
  }

  set(id: string, text: string, position: Vector3) {
    const existing = this.labels.get(id);
    this.dirty = true;
    if (existing && existing.text === text) {
      existing.position.copy(position);
      return;
    }
    if (existing) this.drop(existing);
    const label: Label = { text, position: position.clone() };
    this.labels.set(id, label);
    this.make(id, label);
  }

  remove(id: string) {
    const label = this.labels.get(id);
    if (!label) return;
    this.drop(label);
    this.labels.delete(id);
    this.dirty = true;
  }

  /** Removes every label whose id starts with `prefix`. */
  removeAll(prefix = '') {
    for (const id of [...this.labels.keys()]) if (id.startsWith(prefix)) this.remove(id);
  }

  /** The texts shown (for tests and tools). */
  texts(prefix = ''): string[] {
    return [...this.labels].filter(([id]) => id.startsWith(prefix)).map(([, l]) => l.text);
  }

  /** Places the labels for a `width` x `height` (CSS pixels) view; call before each frame. */
  update(camera: Camera, width: number, height: number) {
    this.material.uniforms.viewport.value.set(Math.max(1, width), Math.max(1, height));
    if (this.dirty) this.rebuildQuads();
    for (const label of this.labels.values()) {
      if (!label.element) continue;
      const p = label.position.clone().project(camera);
      const visible = p.z > -1 && p.z < 1;
      label.element.style.display = visible ? '' : 'none';
      label.element.style.transform = `translate(${((p.x + 1) / 2) * width}px, ${((1 - p.y) / 2) * height}px) translate(-50%, -50%)`;
    }
  }

  dispose() {
    for (const label of this.labels.values()) this.drop(label);
    this.labels.clear();
    this.overlay.remove();
    this.mesh.geometry.dispose();
    this.material.dispose();
    this.texture.dispose();
  }

  private make(id: string, label: Label) {
    if (this.mode === 'dom') {
      const element = document.createElement('div');
      element.className = 'label';
      element.dataset.id = id;
      element.textContent = label.text;
      element.style.cssText = `position:absolute;left:0;top:0;padding:1px 5px;border-radius:3px;background:rgba(255,255,255,0.92);color:#1b1f24;font:${FONT_PX}px system-ui,sans-serif;white-space:nowrap;box-shadow:0 0 0 1px rgba(0,0,0,0.15)`;
      this.overlay.appendChild(element);
      label.element = element;
      return;
    }
    const width = this.widthOf(label.text);
    if (this.cursor.x + width > ATLAS_WIDTH) this.cursor = { x: 0, y: this.cursor.y + ROW };
    if (this.cursor.y + ROW > this.atlas.height) {
      this.repack(label);
      return;
    }
    label.slot = { x: this.cursor.x, y: this.cursor.y, width };
    this.cursor.x += width;
    this.draw(label);
  }

  /** Width of a label's text in the atlas, with its padding. */
  private widthOf(text: string): number {
    const ctx = this.ctx;
    ctx.font = `${FONT_PX * ATLAS_SCALE}px system-ui, sans-serif`;
    return Math.min(ATLAS_WIDTH, Math.ceil(ctx.measureText(text).width) + 10 * ATLAS_SCALE);
  }

  /** The atlas is full: lays the placed labels and `next` out again from the top (removed ones' space comes back), growing it if need be. */
  private repack(next: Label) {
    const labels = [...this.labels.values()].filter((l) => l.slot && l !== next).concat(next);
    const widths = labels.map((l) => l.slot?.width ?? this.widthOf(l.text));
    let rows = 1, x = 0;
    for (const w of widths) {
      if (x + w > ATLAS_WIDTH) {
        rows++;
        x = 0;
      }
      x += w;
    }
    const height = Math.min(ATLAS_MAX_HEIGHT, Math.max(this.atlas.height, 2 ** Math.ceil(Math.log2(rows * ROW))));
    if (height !== this.atlas.height) {
      this.atlas.height = height; // which also clears it
      this.texture.dispose(); // three keeps a texture at the size of its first upload: made again at the new size
    } else this.ctx.clearRect(0, 0, this.atlas.width, this.atlas.height);
    this.cursor = { x: 0, y: 0 };
    labels.forEach((label, i) => {
      if (this.cursor.x + widths[i] > ATLAS_WIDTH) this.cursor = { x: 0, y: this.cursor.y + ROW };
      label.slot = { x: this.cursor.x, y: this.cursor.y, width: widths[i] };
      this.cursor.x += widths[i];
      this.draw(label);
    });
  }

  private draw(label: Label) {
    const { x, y, width } = label.slot!;
    const ctx = this.ctx;
    ctx.font = `${FONT_PX * ATLAS_SCALE}px system-ui, sans-serif`;
    ctx.clearRect(x, y, width, ROW);
    ctx.fillStyle = 'rgba(255,255,255,0.92)';
    ctx.fillRect(x, y, width, ROW);
    ctx.fillStyle = '#1b1f24';
    ctx.textBaseline = 'middle';
    ctx.fillText(label.text, x + 5 * ATLAS_SCALE, y + ROW / 2, width - 10 * ATLAS_SCALE);
    this.texture.needsUpdate = true;
  }

  /** One quad per canvas label: its place, its part of the atlas, its size on screen. */
  private rebuildQuads() {
    this.dirty = false;
    const shown = [...this.labels.values()].filter((l) => l.slot);
    const center = new Float32Array(shown.length * 3);
    const rect = new Float32Array(shown.length * 4);
    const size = new Float32Array(shown.length * 2);
    const w = this.atlas.width, h = this.atlas.height;
    shown.forEach((label, i) => {
      const { x, y, width } = label.slot!;
      label.position.toArray(center, i * 3);
      // The texture is flipped: canvas row y is at v = 1 - y / h.
      rect.set([x / w, 1 - (y + ROW) / h, (x + width) / w, 1 - y / h], i * 4);
      size.set([width / ATLAS_SCALE, ROW / ATLAS_SCALE], i * 2);
    });
    const geometry = this.mesh.geometry;
    // three.js draws at most as many instances as the attributes it first bound held
    // (_maxInstanceCount) until the geometry is disposed: without this, a second model
    // with more labels than the first showed only as many.
    geometry.dispose();
    for (const [name, array, itemSize] of [['center', center, 3], ['rect', rect, 4], ['size', size, 2]] as const) {
      geometry.setAttribute(name, new InstancedBufferAttribute(array, itemSize));
    }
    geometry.instanceCount = shown.length;
    this.mesh.visible = shown.length > 0;
  }

  private drop(label: Label) {
    label.slot = undefined;
    label.element?.remove();
    label.element = undefined;
  }
}
