/**
 * Secrets. Tokens (bot, webhook, interaction, people's sessions) are random and kept
 * only as SHA-256 digests; passwords use scrypt. Both from @noble/hashes.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { scrypt } from "@noble/hashes/scrypt.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import type * as NodeCrypto from "node:crypto";

// node:crypto is loaded on first use: loading it takes a few milliseconds of the start-up
// path, and the Web Crypto global covers the random bytes.
let nodeCrypto: typeof NodeCrypto | null = null;
const node = () => (nodeCrypto ??= require("node:crypto") as typeof NodeCrypto);

const enc = new TextEncoder();

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(enc.encode(text)));
}

export function randomSecret(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}

export function constantTimeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return node().timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));
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

/** A fresh Ed25519 public key in hex. The private half is discarded: nothing signs. */
export function newEd25519PublicKeyHex(): string {
  const { publicKey } = node().generateKeyPairSync("ed25519");
  const der = publicKey.export({ format: "der", type: "spki" }) as Buffer;
  return der.subarray(der.length - 32).toString("hex");
}
