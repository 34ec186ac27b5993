import { DataTexture, RGBAFormat, UnsignedByteType, NearestFilter } from 'three';
import type { Rgba } from '../data/colors.js';

/** Texels per row of the state texture; each object takes two (colour, flags). */
const WIDTH = 2048;
const VISIBLE = 0, SELECTED = 1, TRANSLUCENT = 2, COLORED = 3;

/**
 * Per-object state on the GPU: visibility, selection, translucency and custom colour of
 * every object, in one texture the batched shader reads by object index. Changing an
 * object's state touches four bytes, never its geometry, so it costs the same for one
 * object or a million.
 */
export class ObjectState {
  readonly texture: DataTexture;
  private data: Uint8Array;
  private capacity: number;
  /** How many objects are translucent or carry a custom colour (to skip empty passes). */
  translucentCount = 0;
  coloredCount = 0;

  constructor(capacity = 1024) {
    this.capacity = capacity;
    this.data = new Uint8Array(rows(capacity) * WIDTH * 4);
    this.texture = this.makeTexture();
  }

  get width() {
    return WIDTH;
  }

  /** Makes room for indices below `count`; new objects start visible, opaque, unselected. */
  ensure(count: number) {
    if (count <= this.capacity) return;
    let capacity = this.capacity;
    while (capacity < count) capacity *= 2;
    const data = new Uint8Array(rows(capacity) * WIDTH * 4);
    data.set(this.data);
    this.data = data;
    this.capacity = capacity;
    this.texture.image = { data, width: WIDTH, height: rows(capacity) };
    this.texture.dispose(); // reallocate on the GPU at the new size
    this.texture.needsUpdate = true;
  }

  reset(index: number, visible: boolean) {
    const f = flagsOffset(index);
    if (this.data[f + TRANSLUCENT]) this.translucentCount--;
    if (this.data[f + COLORED]) this.coloredCount--;
    this.data.fill(0, index * 8, index * 8 + 8);
    this.data[f + VISIBLE] = visible ? 255 : 0;
    this.texture.needsUpdate = true;
  }

  visible(index: number) {
    return this.data[flagsOffset(index) + VISIBLE] !== 0;
  }

  selected(index: number) {
    return this.data[flagsOffset(index) + SELECTED] !== 0;
  }

  translucent(index: number) {
    return this.data[flagsOffset(index) + TRANSLUCENT] !== 0;
  }

  /** The custom colour, or null. */
  color(index: number): Rgba | null {
    if (!this.data[flagsOffset(index) + COLORED]) return null;
    const o = index * 8;
    return { r: this.data[o] / 255, g: this.data[o + 1] / 255, b: this.data[o + 2] / 255, a: this.data[o + 3] / 255 };
  }

  setVisible(index: number, on: boolean) {
    this.flag(index, VISIBLE, on);
  }

  setSelected(index: number, on: boolean) {
    this.flag(index, SELECTED, on);
  }

  setTranslucent(index: number, on: boolean) {
    if (this.flag(index, TRANSLUCENT, on)) this.translucentCount += on ? 1 : -1;
  }

  setColor(index: number, color: Rgba | null) {
    const o = index * 8;
    if (color) {
      this.data[o] = Math.round(color.r * 255);
      this.data[o + 1] = Math.round(color.g * 255);
      this.data[o + 2] = Math.round(color.b * 255);
      this.data[o + 3] = Math.round(color.a * 255);
    }
    if (this.flag(index, COLORED, color !== null)) this.coloredCount += color ? 1 : -1;
    this.texture.needsUpdate = true;
  }

  dispose() {
    this.texture.dispose();
  }

  /** Sets one flag; returns whether it changed. */
  private flag(index: number, which: number, on: boolean): boolean {
    const at = flagsOffset(index) + which;
    const value = on ? 255 : 0;
    if (this.data[at] === value) return false;
    this.data[at] = value;
    this.texture.needsUpdate = true;
    return true;
  }

  private makeTexture() {
    const texture = new DataTexture(this.data, WIDTH, rows(this.capacity), RGBAFormat, UnsignedByteType);
    texture.magFilter = NearestFilter;
    texture.minFilter = NearestFilter;
    texture.generateMipmaps = false;
    texture.needsUpdate = true;
    return texture;
  }
}

function rows(capacity: number) {
  return Math.ceil((capacity * 2) / WIDTH);
}

function flagsOffset(index: number) {
  return index * 8 + 4;
}
