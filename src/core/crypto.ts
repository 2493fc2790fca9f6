/**
 * Secrets. Tokens (bot, webhook, interaction, people's sessions) are random and kept
 * only as SHA-256 digests; passwords use scrypt. Both from @noble/hashes.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { scrypt } from "@noble/hashes/scrypt.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { createCipheriv, createDecipheriv, generateKeyPairSync, randomBytes, timingSafeEqual } from "node:crypto";

const enc = new TextEncoder();

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(enc.encode(text)));
}

export function randomSecret(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}

export function constantTimeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));
}

// scrypt cost: N=2^14, r=8, p=1 (the long-standing interactive-login recommendation).
const SCRYPT = { N: 1 << 14, r: 8, p: 1, dkLen: 32 };

export function hashPassword(password: string): string {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const dk = scrypt(enc.encode(password), salt, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${bytesToHex(salt)}$${bytesToHex(dk)}`;
}

export function verifyPassword(password: string, stored: string): boolean {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, salt, hash] = parts;
  const dk = scrypt(enc.encode(password), hexToBytes(salt), { N: +n, r: +r, p: +p, dkLen: hash.length / 2 });
  return constantTimeEqualHex(bytesToHex(dk), hash);
}

/**
 * Secrets the server must be able to show again (webhook tokens), sealed with
 * AES-256-GCM under the server key (src/store/keyfile.ts): `v1.<iv>.<ciphertext+tag>`.
 * A sealed value that was tampered with, or sealed under another key, opens to null.
 */
export class Sealer {
  constructor(private readonly key: Uint8Array) {
    if (key.length !== 32) throw new Error("the server key must be 32 bytes");
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([c.update(plain, "utf8"), c.final(), c.getAuthTag()]);
    return `v1.${iv.toString("base64url")}.${body.toString("base64url")}`;
  }

  open(sealed: string): string | null {
    const [v, iv, body] = sealed.split(".");
    if (v !== "v1" || !iv || !body) return null;
    try {
      const raw = Buffer.from(body, "base64url");
      const d = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
      d.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([d.update(raw.subarray(0, raw.length - 16)), d.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}

/** A fresh Ed25519 public key in hex. The private half is discarded: nothing signs. */
export function newEd25519PublicKeyHex(): string {
  const { publicKey } = generateKeyPairSync("ed25519");
  const der = publicKey.export({ format: "der", type: "spki" }) as Buffer;
  return der.subarray(der.length - 32).toString("hex");
}
