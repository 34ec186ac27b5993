import { createHash } from 'node:crypto';
import { escapeXml } from './escape-xml.js';

/**
 * A user's picture (`GET /v2/users/{id}/avatar`): an SVG made up of their initials on a
 * colour chosen from their id, so it stays the same and needs no upload. `size` is its
 * side in CSS pixels (it scales either way: SVG).
 */
export const AVATAR_TYPE = 'image/svg+xml';
export const AVATAR_SIZE = { min: 16, max: 512, default: 64 } as const;

/** Up to two letters: the first of the first and last word of the name (or of the e-mail's local part). */
export function initials(name: string): string {
  const words = name.replace(/@.*$/, '').split(/[\s._-]+/u).filter((w) => /\p{L}|\p{N}/u.test(w));
  const first = (word: string | undefined) => [...(word ?? '').replace(/^[^\p{L}\p{N}]+/u, '')][0] ?? '';
  const letters = words.length > 1 ? first(words[0]) + first(words[words.length - 1]) : first(words[0]);
  return letters.toLocaleUpperCase() || '?';
}

/** The colour of an id: a hue from its hash, saturation and lightness that keep white letters readable. */
export function avatarColour(id: string): string {
  const hue = createHash('sha256').update(id).digest().readUInt16BE(0) % 360;
  return `hsl(${hue}, 55%, 42%)`;
}


export function avatarSvg(user: { id: string; name: string }, size: number): string {
  const letters = initials(user.name);
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
<title>${escapeXml(user.name)}</title>
<circle cx="50" cy="50" r="50" fill="${avatarColour(user.id)}"/>
<text x="50" y="50" dy="0.35em" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-size="${letters.length > 1 ? 40 : 48}" font-weight="600" fill="#ffffff">${escapeXml(letters)}</text>
</svg>
`;
}
