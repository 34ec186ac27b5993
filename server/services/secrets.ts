import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
/** scrypt's recommended interactive cost (N = 2^15); ~50 ms here, and a fixed 64 MB of memory. */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** A password or client secret as stored: `scrypt$<salt>$<hash>` (base64url). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, 32, SCRYPT);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Compares in constant time. A missing stored hash still costs one scrypt, so timing tells nothing. */
export async function verifySecret(secret: string, stored: string | undefined): Promise<boolean> {
  const [scheme, salt, hash] = (stored ?? 'scrypt$AAAAAAAAAAAAAAAAAAAAAA$').split('$');
  if (scheme !== 'scrypt') return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), 32, SCRYPT);
  return expected.length === actual.length && timingSafeEqual(expected, actual) && stored !== undefined;
}

/** Tokens and codes are random (256 bits) and stored as their SHA-256: a leaked table grants nothing. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Ids of projects, models and import tokens: 32 hex digits, like the platform's compacted UUIDs. */
export function newId(): string {
  return randomBytes(16).toString('hex');
}
