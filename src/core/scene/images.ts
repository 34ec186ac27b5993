import {
  CompressedTexture,
  DoubleSide,
  Group,
  Mesh,
  MeshBasicMaterial,
  PlaneGeometry,
  Quaternion,
  SRGBColorSpace,
  Texture,
  Vector3,
  type BufferAttribute,
} from 'three';
import { DDSLoader } from 'three/examples/jsm/loaders/DDSLoader.js';
import { fetchBytes } from '../data/fetch-bytes.js';
import { ViewerError, type Vec3 } from '../types.js';

/** One image in the scene (seed 002 `images`): sizes and positions in metres. */
export interface ImageSpec {
  url: string;
  size: { width: number; height: number };
  transform?: { position?: Vec3; rotation?: Vec3 & { angle?: number; w?: number } };
}

/**
 * Pictures in the 3D scene (site plans, maps, photos): PNG, JPG, GIF or DDS, each a
 * rectangle of the given size in metres, centred on the origin and facing up unless
 * transformed (rotation as axis + angle in radians, or as a quaternion {x, y, z, w}).
 */
export class Images {
  readonly group = new Group();

  constructor() {
    this.group.name = 'images';
  }

  /** Replaces the images. `origin`: the viewer origin (IFC coordinates). Rejects if any cannot be read; the old ones stay then. */
  async set(specs: ImageSpec[], origin: Vector3) {
    const textures = await Promise.all(specs.map((spec) => loadTexture(new URL(spec.url, document.baseURI).href)));
    this.clear();
    specs.forEach((spec, i) => {
      const { texture, flipV } = textures[i];
      const geometry = new PlaneGeometry(spec.size.width, spec.size.height);
      if (flipV) {
        // DDS rows run top to bottom; the plane's v runs bottom to top.
        const uv = geometry.getAttribute('uv') as BufferAttribute;
        for (let k = 0; k < uv.count; k++) uv.setY(k, 1 - uv.getY(k));
      }
      const mesh = new Mesh(geometry, new MeshBasicMaterial({ map: texture, side: DoubleSide, transparent: true }));
      mesh.name = `image:${i}`;
      const { position, rotation } = spec.transform ?? {};
      if (position) mesh.position.set(position.x, position.y, position.z);
      mesh.position.sub(origin);
      if (rotation) mesh.quaternion.copy(toQuaternion(rotation));
      this.group.add(mesh);
    });
  }

  count() {
    return this.group.children.length;
  }

  clear() {
    for (const mesh of this.group.children as Mesh<PlaneGeometry, MeshBasicMaterial>[]) {
      mesh.geometry.dispose();
      mesh.material.map?.dispose();
      mesh.material.dispose();
    }
    this.group.clear();
  }

  dispose() {
    this.clear();
  }
}

function toQuaternion(r: Vec3 & { angle?: number; w?: number }): Quaternion {
  if (r.w !== undefined) return new Quaternion(r.x, r.y, r.z, r.w).normalize();
  const axis = new Vector3(r.x, r.y, r.z);
  return new Quaternion().setFromAxisAngle(axis.lengthSq() ? axis.normalize() : new Vector3(0, 0, 1), r.angle ?? 0);
}

/** Reads an image: DDS by its magic number, everything else through the browser's decoders. */
async function loadTexture(url: string): Promise<{ texture: Texture; flipV: boolean }> {
  const bytes = await fetchBytes(url);
  const head = new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength));
  if (String.fromCharCode(...head) === 'DDS ') {
    const dds = new DDSLoader().parse(bytes, true);
    if (!dds.mipmaps?.length || !dds.width) throw new ViewerError('argument', `images: ${url} is a DDS file this viewer cannot read`);
    const texture = new CompressedTexture(dds.mipmaps as unknown as ImageData[], dds.width, dds.height, dds.format as never);
    if (dds.mipmapCount === 1) texture.minFilter = texture.magFilter;
    texture.needsUpdate = true;
    return { texture, flipV: true };
  }
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([bytes]), { imageOrientation: 'flipY' });
  } catch {
    throw new ViewerError('argument', `images: ${url} is not a PNG, JPG, GIF or DDS image`);
  }
  const texture = new Texture(bitmap);
  texture.flipY = false; // flipped while decoding
  texture.colorSpace = SRGBColorSpace;
  texture.needsUpdate = true;
  return { texture, flipV: false };
}
