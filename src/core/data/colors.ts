/** An RGBA colour with channels 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** `#RGB`, `#RRGGBB` or `#RRGGBBAA` to channels; null when it is none of them. */
export function parseColor(text: string): Rgba | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(text.trim());
  if (!m) return null;
  let hex = m[1];
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const n = (i: number) => parseInt(hex.slice(i, i + 2), 16) / 255;
  return { r: n(0), g: n(2), b: n(4), a: hex.length === 8 ? n(6) : 1 };
}

/**
 * Option colours may be any CSS colour or a number (0x101010): resolve them through a
 * canvas so names like "darkgreen" work too. Falls back to `fallback` when unreadable.
 */
export function cssColor(value: string | number, fallback: Rgba): Rgba {
  if (typeof value === 'number') return { r: ((value >> 16) & 255) / 255, g: ((value >> 8) & 255) / 255, b: (value & 255) / 255, a: 1 };
  const direct = parseColor(value);
  if (direct) return direct;
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return fallback;
  ctx.fillStyle = '#010203';
  ctx.fillStyle = value;
  const resolved = String(ctx.fillStyle);
  if (resolved === '#010203' && value.trim().toLowerCase() !== '#010203') return fallback;
  return parseColor(resolved) ?? parseRgbFunction(resolved) ?? fallback;
}

function parseRgbFunction(text: string): Rgba | null {
  const m = /^rgba?\(([^)]+)\)$/.exec(text);
  if (!m) return null;
  const [r, g, b, a = '1'] = m[1].split(',').map((s) => s.trim());
  return { r: Number(r) / 255, g: Number(g) / 255, b: Number(b) / 255, a: Number(a) };
}
