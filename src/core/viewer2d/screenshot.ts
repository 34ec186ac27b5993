/**
 * A PNG of what the SVG shows, at any size: the SVG is cloned, its images inlined as
 * data URLs (an SVG drawn as an image may not load anything itself), scaled to fit
 * `width` x `height` (centred, aspect kept) and drawn on a canvas.
 */
export async function svgToPng(source: SVGSVGElement, viewWidth: number, viewHeight: number, width: number, height: number, background: string): Promise<string> {
  const clone = source.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('viewBox', `0 0 ${viewWidth} ${viewHeight}`);
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  clone.removeAttribute('style');
  await inlineImages(clone);
  const markup = new XMLSerializer().serializeToString(clone);
  const url = URL.createObjectURL(new Blob([markup], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.width = width;
    image.height = height;
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(image, 0, 0, width, height);
    return canvas.toDataURL('image/png');
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function inlineImages(root: SVGSVGElement) {
  const images = Array.from(root.querySelectorAll('image'));
  const cache = new Map<string, Promise<string | null>>();
  await Promise.all(images.map(async (image) => {
    const href = image.getAttribute('href') ?? image.getAttribute('xlink:href');
    if (!href || href.startsWith('data:')) return;
    const absolute = new URL(href, document.baseURI).href;
    let pending = cache.get(absolute);
    if (!pending) {
      pending = toDataUrl(absolute);
      cache.set(absolute, pending);
    }
    const data = await pending;
    if (data) image.setAttribute('href', data);
    else image.remove(); // unreadable (e.g. another origin without CORS): left out rather than tainting the canvas
  }));
}

async function toDataUrl(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { mode: 'cors', credentials: 'same-origin' });
    if (!response.ok) return null;
    const blob = await response.blob();
    return await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
  } catch {
    return null;
  }
}
