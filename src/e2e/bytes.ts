/** Bytes and text for the scheme: base64url without padding, UTF-8. No Buffer: browsers have none. */

const B64U = /^[A-Za-z0-9_-]*$/;

export function b64u(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Strict base64url: the alphabet, no padding, and only the canonical spelling of its bytes. */
export function fromB64u(text: string): Uint8Array | null {
  if (!B64U.test(text) || text.length % 4 === 1) return null;
  let bin: string;
  try {
    bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  // Trailing bits that are not zero would let two texts mean the same bytes.
  return b64u(out) === text ? out : null;
}

/** How many characters base64url (no padding) takes for n bytes. */
export function b64uLength(n: number): number {
  return Math.ceil((n * 4) / 3);
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Strict UTF-8: invalid bytes are an error, never replacement characters. */
export function fromUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** WebCrypto's BufferSource, typed for TypeScript's stricter ArrayBuffer checks. */
export function buf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
