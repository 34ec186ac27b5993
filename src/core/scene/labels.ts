import { CanvasTexture, Group, LinearFilter, SRGBColorSpace, Sprite, SpriteMaterial, Vector3, type Camera } from 'three';

export type TextRenderMode = 'canvas' | 'dom';

interface Label {
  text: string;
  position: Vector3;
  sprite?: Sprite;
  element?: HTMLDivElement;
}

const FONT_PX = 13;

/**
 * Text in the 3D view (measurements, grid tags), drawn per `textRenderMode`: `canvas`
 * as sprites in the scene (they take part in screenshots), `dom` as elements over the
 * canvas (sharper text). Either way a label keeps its size on screen. Text is always
 * set as text, never parsed as HTML.
 */
export class Labels {
  readonly group = new Group();
  private readonly overlay: HTMLDivElement;
  private readonly labels = new Map<string, Label>();
  private mode: TextRenderMode = 'canvas';

  constructor(container: HTMLElement) {
    this.group.name = 'labels';
    this.overlay = document.createElement('div');
    this.overlay.className = 'labels';
    this.overlay.style.cssText = 'position:absolute;inset:0;pointer-events:none;overflow:hidden';
    container.appendChild(this.overlay);
  }

  setMode(mode: TextRenderMode) {
    if (mode === this.mode) return;
    this.mode = mode;
    for (const [id, label] of this.labels) {
      this.drop(label);
      this.make(id, label);
    }
  }

  set(id: string, text: string, position: Vector3) {
    const existing = this.labels.get(id);
    if (existing && existing.text === text) {
      existing.position.copy(position);
      existing.sprite?.position.copy(position);
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
  }

  /** Removes every label whose id starts with `prefix`. */
  removeAll(prefix = '') {
    for (const id of [...this.labels.keys()]) if (id.startsWith(prefix)) this.remove(id);
  }

  /** The texts shown (for tests and tools). */
  texts(prefix = ''): string[] {
    return [...this.labels].filter(([id]) => id.startsWith(prefix)).map(([, l]) => l.text);
  }

  /** Keeps labels the same size on screen and places the DOM ones; call before each frame. */
  update(camera: Camera, width: number, height: number, metresPerPixel: (depth: number) => number) {
    for (const label of this.labels.values()) {
      const depth = label.position.clone().sub(camera.position).length();
      if (label.sprite) {
        const scale = metresPerPixel(depth);
        const image = (label.sprite.material.map as CanvasTexture).image as HTMLCanvasElement;
        label.sprite.scale.set((image.width / 2) * scale, (image.height / 2) * scale, 1);
      }
      if (label.element) {
        const p = label.position.clone().project(camera);
        const visible = p.z > -1 && p.z < 1;
        label.element.style.display = visible ? '' : 'none';
        label.element.style.transform = `translate(${((p.x + 1) / 2) * width}px, ${((1 - p.y) / 2) * height}px) translate(-50%, -50%)`;
      }
    }
  }

  dispose() {
    for (const label of this.labels.values()) this.drop(label);
    this.labels.clear();
    this.overlay.remove();
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
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d')!;
    const font = `${FONT_PX * 2}px system-ui, sans-serif`;
    ctx.font = font;
    canvas.width = Math.ceil(ctx.measureText(label.text).width) + 20;
    canvas.height = FONT_PX * 2 + 12;
    ctx.font = font;
    ctx.fillStyle = 'rgba(255,255,255,0.92)';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#1b1f24';
    ctx.textBaseline = 'middle';
    ctx.fillText(label.text, 10, canvas.height / 2);
    const texture = new CanvasTexture(canvas);
    texture.colorSpace = SRGBColorSpace;
    texture.minFilter = LinearFilter;
    const sprite = new Sprite(new SpriteMaterial({ map: texture, depthTest: false, transparent: true }));
    sprite.renderOrder = 30;
    sprite.position.copy(label.position);
    this.group.add(sprite);
    label.sprite = sprite;
  }

  private drop(label: Label) {
    if (label.sprite) {
      label.sprite.removeFromParent();
      label.sprite.material.map?.dispose();
      label.sprite.material.dispose();
      label.sprite = undefined;
    }
    label.element?.remove();
    label.element = undefined;
  }
}
