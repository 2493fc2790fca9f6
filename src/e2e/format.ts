/**
 * The wire format of end-to-end encrypted direct messages, version 1 (docs/people-api.md,
 * "Direct messages are end-to-end encrypted"). Pure string rules: the server checks a
 * message's shape with them (sizes, base64url, bucket lengths), never its meaning, and
 * clients parse with the same code.
 *
 *   dm1.<from device>.<nonce>.<body>.<device>:<wrapped key>[.<device>:<wrapped key>]...
 *
 * - `from`: the sending device's id; `device`: a device the message key is wrapped for.
 * - `nonce`: 12 random bytes, the AES-GCM IV of the body and the HKDF salt of the wraps.
 * - `body`: AES-256-GCM of the padded text (a bucket size, so lengths say little) + 16-byte tag.
 * - `wrapped key`: the message's AES key wrapped (AES-KW, 40 bytes) for one device.
 */
import { b64u, b64uLength, fromB64u } from "./bytes";

export const VERSION = "dm1";
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;
/** AES-KW output for a 256-bit key. */
export const WRAP_BYTES = 40;
/** Padded plaintext sizes: every body is one of these plus the tag. */
export const BUCKETS = [128, 256, 512, 1024, 2048, 4096, 8192] as const;
/** Current devices one person may have. */
export const MAX_DEVICES = 10;
/** A message is wrapped for every current device of its two people. */
export const MAX_WRAPS = 2 * MAX_DEVICES;
/** The longest envelope: the largest body and every wrap fit with room to spare. */
export const MAX_ENVELOPE = 16384;
/** Raw public key sizes: X25519 is 32 bytes, P-256 uncompressed is 65 (0x04 || x || y). */
export const PUBLIC_KEY_BYTES = { x25519: 32, p256: 65 } as const;
export type Curve = keyof typeof PUBLIC_KEY_BYTES;
export const CURVES: Curve[] = ["x25519", "p256"];

const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface Wrap {
  device: string;
  key: Uint8Array;
}

export interface Envelope {
  from: string;
  nonce: Uint8Array;
  body: Uint8Array;
  wraps: Wrap[];
}

export type Parsed = { ok: true; envelope: Envelope } | { ok: false; problem: string };

function bytesOf(text: string, sizes: readonly number[], what: string): Uint8Array | string {
  // Checked before decoding, so an oversized part costs nothing.
  if (!sizes.some((n) => text.length === b64uLength(n))) return `${what} has the wrong length`;
  const bytes = fromB64u(text);
  return bytes ?? `${what} is not base64url`;
}

/** Parse an envelope, checking its shape only: what each part is, never what it says. */
export function parseEnvelope(text: string): Parsed {
  const bad = (problem: string): Parsed => ({ ok: false, problem });
  if (text.length > MAX_ENVELOPE) return bad(`longer than ${MAX_ENVELOPE} characters`);
  const parts = text.split(".");
  if (parts[0] !== VERSION) return bad(`not a ${VERSION} envelope`);
  const [, from, nonceText, bodyText, ...wrapTexts] = parts;
  if (!from || !DEVICE_ID.test(from)) return bad("the sending device id is malformed");
  const nonce = bytesOf(nonceText ?? "", [NONCE_BYTES], "the nonce");
  if (typeof nonce === "string") return bad(nonce);
  const body = bytesOf(
    bodyText ?? "",
    BUCKETS.map((b) => b + TAG_BYTES),
    "the body",
  );
  if (typeof body === "string") return bad(body);
  if (wrapTexts.length < 1 || wrapTexts.length > MAX_WRAPS) return bad(`it needs 1 to ${MAX_WRAPS} wrapped keys`);
  const wraps: Wrap[] = [];
  const seen = new Set<string>();
  for (const w of wrapTexts) {
    const [device, keyText, extra] = w.split(":");
    if (extra !== undefined || !device || !DEVICE_ID.test(device)) return bad("a wrapped key's device id is malformed");
    if (seen.has(device)) return bad("a device has two wrapped keys");
    seen.add(device);
    const key = bytesOf(keyText ?? "", [WRAP_BYTES], "a wrapped key");
    if (typeof key === "string") return bad(key);
    wraps.push({ device, key });
  }
  return { ok: true, envelope: { from, nonce, body, wraps } };
}

/** The shape problem of an envelope, or null when its shape is right. */
export function envelopeProblem(text: string): string | null {
  const p = parseEnvelope(text);
  return p.ok ? null : p.problem;
}

/** The shape problem of a device's raw public key (base64url), or null. */
export function publicKeyProblem(curve: Curve, text: string): string | null {
  const bytes = bytesOf(text, [PUBLIC_KEY_BYTES[curve]], `the ${curve} key`);
  if (typeof bytes === "string") return bytes;
  if (curve === "p256" && bytes[0] !== 4) return "the p256 key is not an uncompressed point";
  return null;
}

export function formatEnvelope(e: Envelope): string {
  return [VERSION, e.from, b64u(e.nonce), b64u(e.body), ...e.wraps.map((w) => `${w.device}:${b64u(w.key)}`)].join(".");
}
