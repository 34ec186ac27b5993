import { svg } from './svg.js';
import type { ImageInput } from './types.js';

/**
 * Images placed on the plan (addImage): x, y is the image's minimum corner in view
 * coordinates, width and height in metres. An image with `rotate` sits in a group that
 * turns with the first model (setTransformation); the others stay as placed.
 */
export interface PlacedImage extends ImageInput {
  id: string;
}

let counter = 0;

export class ImageLayer {
  readonly group: SVGGElement;
  /** Images that turn with the model. */
  readonly turning: SVGGElement;
  private readonly nodes = new Map<string, SVGImageElement>();
  private readonly images = new Map<string, PlacedImage>();

  constructor(parent: SVGGElement, private readonly origin: () => [number, number]) {
    this.group = svg('g', { class: 'images' }, parent);
    this.turning = svg('g', { class: 'images-turning' }, this.group);
  }

  add(input: ImageInput): string {
    const id = input.id !== undefined && input.id !== null && String(input.id) !== '' ? String(input.id) : `image-${Date.now().toString(36)}-${(++counter).toString(36)}`;
    this.remove(id);
    const image: PlacedImage = { ...input, id };
    const node = svg('image', { preserveAspectRatio: 'none', 'data-image': '' }, image.rotate ? this.turning : this.group);
    node.setAttribute('href', String(input.url));
    this.nodes.set(id, node);
    this.images.set(id, image);
    this.place(image, node);
    return id;
  }

  remove(id: string) {
    this.nodes.get(id)?.remove();
    this.nodes.delete(id);
    this.images.delete(id);
  }

  clear() {
    for (const id of [...this.nodes.keys()]) this.remove(id);
  }

  list(): PlacedImage[] {
    return [...this.images.values()].map((i) => ({ ...i }));
  }

  /** Re-places every image (after the origin changed). */
  update() {
    for (const [id, image] of this.images) this.place(image, this.nodes.get(id)!);
  }

  private place(image: PlacedImage, node: SVGImageElement) {
    const [ox, oy] = this.origin();
    node.setAttribute('x', String(image.x - ox));
    node.setAttribute('y', String(oy - (image.y + image.height)));
    node.setAttribute('width', String(image.width));
    node.setAttribute('height', String(image.height));
  }
}
