/**
 * PKCE (RFC 7636) for the console's sign-in: a random code verifier and its S256
 * challenge, BASE64URL(SHA-256(verifier)), by crypto.subtle, which exists only in secure
 * contexts (https, localhost, 127.0.0.1).
 */

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 32 random bytes as base64url: 43 characters, within RFC 7636's 43-128. */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function s256Challenge(verifier: string): Promise<string> {
  if (!crypto.subtle) throw new Error('The console signs in with PKCE, which needs a secure context: open it over https, or at localhost / 127.0.0.1');
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}
