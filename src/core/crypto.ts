/**
 * Secrets. Tokens (bot, webhook, interaction, people's sessions) are random and kept
 * only as SHA-256 digests (@noble/hashes); passwords below.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type * as NodeCrypto from "node:crypto";

// node:crypto is loaded on first use: loading it takes a few milliseconds of the start-up
// path, and nothing needs it before the first sign-in, token check or sealed secret.
let nodeCrypto: typeof NodeCrypto | null = null;
const node = () => (nodeCrypto ??= require("node:crypto") as typeof NodeCrypto);

const enc = new TextEncoder();

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(enc.encode(text)));
}

/** An image given as data or a URL, kept as the reference shows one: a 32-character hash. */
export function imageHash(data: string): string {
  return sha256Hex(data).slice(0, 32);
}

export function randomSecret(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}

export function constantTimeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return node().timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));
}

/**
 * Passwords. New hashes are Argon2id (RFC 9106; parallelism 1, at the cost the server is
 * given: the OWASP baseline m = 19 MiB, t = 2, config/passwords.ts) in the PHC string
 * format, `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`. Hashes from before are scrypt
 * (N = 2^14, r = 8, p = 1) stored as `scrypt$N$r$p$<salt hex>$<hash hex>`; they still
 * verify, and sign-in replaces them, as it does Argon2id hashes of another cost.
 * Both run in node:crypto's thread pool: hashing never blocks the event loop, so a flood
 * of sign-ins delays sign-ins, not other requests. Digests compare in constant time.
 */
export interface PasswordCost {
  /** KiB. */
  memory: number;
  passes: number;
}

/** The OWASP baseline: the cost when the composition root gives none (config.passwordCost's default too). */
export const OWASP_ARGON2: PasswordCost = { memory: 19_456, passes: 2 };

/** Bounds on stored parameters, so a tampered row cannot make one verification take a gigabyte. */
const MAX_MEMORY_KIB = 256 * 1024;

interface Argon2Params extends PasswordCost {
  parallelism: number;
  tagLength: number;
}

function argon2id(password: string, salt: Uint8Array, params: Argon2Params): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    node().argon2("argon2id", { message: password, nonce: salt, ...params }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashing at one cost (one per core): new hashes, whether a stored one is due for replacing, and the unknown name's stand-in. */
export class Passwords {
  private readonly params: Argon2Params;
  /** Every hash of this cost starts so. */
  private readonly prefix: string;
  private standIn: Promise<string> | undefined;

  constructor(cost: PasswordCost = OWASP_ARGON2) {
    this.params = { memory: cost.memory, passes: cost.passes, parallelism: 1, tagLength: 32 };
    this.prefix = `$argon2id$v=19$m=${cost.memory},t=${cost.passes},p=1$`;
  }

  /** A new password hash, computed off the event loop. */
  async hash(password: string): Promise<string> {
    const salt = node().randomBytes(16);
    return this.phc(salt, await argon2id(password, salt, this.params));
  }

  /** The same hash computed on the calling thread: only for seeding worlds in-process (harness, demo). */
  hashSync(password: string): string {
    const salt = node().randomBytes(16);
    return this.phc(salt, node().argon2Sync("argon2id", { message: password, nonce: salt, ...this.params }));
  }

  /** Whether a stored hash should be replaced by a current one (older scheme or another cost). */
  needsRehash(stored: string): boolean {
    return !stored.startsWith(this.prefix);
  }

  /**
   * A hash of this cost of no one's password, made once: checked against when a name is
   * unknown, so the time a sign-in takes does not tell which names exist.
   */
  standInHash(): Promise<string> {
    return (this.standIn ??= this.hash("parley-dummy-password"));
  }

  private phc(salt: Uint8Array, hash: Uint8Array): string {
    const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64").replace(/=+$/, "");
    return `${this.prefix}${b64(salt)}$${b64(hash)}`;
  }
}

/** Check a password against a stored hash of either scheme, off the event loop; false for anything malformed. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  try {
    if (stored.startsWith("$argon2id$")) return await verifyArgon2(password, stored);
    if (stored.startsWith("scrypt$")) return await verifyScrypt(password, stored);
  } catch {
    // A malformed stored hash verifies nothing.
  }
  return false;
}

async function verifyArgon2(password: string, stored: string): Promise<boolean> {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
  if (!m) return false;
  const [memory, passes, parallelism] = [+m[1], +m[2], +m[3]];
  if (memory > MAX_MEMORY_KIB || passes > 16 || parallelism > 16) return false;
  const expected = Buffer.from(m[5], "base64");
  const key = await argon2id(password, Buffer.from(m[4], "base64"), { memory, passes, parallelism, tagLength: expected.length });
  return key.length === expected.length && node().timingSafeEqual(key, expected);
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6) return false;
  const [, n, r, p, salt, hash] = parts;
  const [N, R, P] = [+n, +r, +p];
  if (128 * N * R > MAX_MEMORY_KIB * 1024 || P > 16) return false;
  const expected = Buffer.from(hash, "hex");
  const key = await new Promise<Buffer>((resolve, reject) =>
    node().scrypt(password, Buffer.from(salt, "hex"), expected.length, { N, r: R, p: P, maxmem: 2 * 128 * N * R }, (err, k) =>
      err ? reject(err) : resolve(k),
    ),
  );
  return key.length === expected.length && node().timingSafeEqual(key, expected);
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
    const iv = node().randomBytes(12);
    const c = node().createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([c.update(plain, "utf8"), c.final(), c.getAuthTag()]);
    return `v1.${iv.toString("base64url")}.${body.toString("base64url")}`;
  }

  open(sealed: string): string | null {
    const [v, iv, body] = sealed.split(".");
    if (v !== "v1" || !iv || !body) return null;
    try {
      const raw = Buffer.from(body, "base64url");
      const d = node().createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
      d.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([d.update(raw.subarray(0, raw.length - 16)), d.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}

/** A fresh Ed25519 public key in hex. The private half is discarded: nothing signs. */
export function newEd25519PublicKeyHex(): string {
  const { publicKey } = node().generateKeyPairSync("ed25519");
  const der = publicKey.export({ format: "der", type: "spki" }) as Buffer;
  return der.subarray(der.length - 32).toString("hex");
}
