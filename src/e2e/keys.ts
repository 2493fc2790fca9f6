/**
 * Device keys: an ECDH key pair per curve the platform has. X25519 where WebCrypto offers
 * it (Bun, Chromium 133+, Firefox 130+, Safari 17+), and always P-256, which every
 * WebCrypto has, so a device without X25519 can still exchange keys with every other.
 * Two devices use X25519 when both have it, P-256 otherwise. Private keys are made
 * non-extractable: they can be used, stored (IndexedDB keeps CryptoKeys) and never read.
 */
import { buf, fromB64u, b64u } from "./bytes";
import { CURVES, type Curve } from "./format";

/** A device's public keys as the server lists them: raw, base64url; null where it has none. */
export interface PublicKeys {
  x25519?: string | null;
  p256?: string | null;
}

/** A device's own key pairs. */
export type DeviceKeys = { [C in Curve]?: CryptoKeyPair };

const ALGORITHM: Record<Curve, EcKeyImportParams | Algorithm> = {
  x25519: { name: "X25519" },
  p256: { name: "ECDH", namedCurve: "P-256" } as EcKeyImportParams,
};

/** Fresh key pairs for a new device; the private halves cannot be exported. */
export async function generateDeviceKeys(): Promise<DeviceKeys> {
  const keys: DeviceKeys = {};
  for (const curve of CURVES) {
    try {
      keys[curve] = (await crypto.subtle.generateKey(ALGORITHM[curve], false, ["deriveBits"])) as CryptoKeyPair;
    } catch {
      // This platform lacks the curve (X25519 in older browsers): the others serve.
    }
  }
  if (!keys.p256 && !keys.x25519) throw new Error("WebCrypto offers neither X25519 nor P-256 here");
  return keys;
}

export async function publicKeysOf(keys: DeviceKeys): Promise<{ x25519: string | null; p256: string | null }> {
  const raw = async (c: Curve) => (keys[c] ? b64u(new Uint8Array(await crypto.subtle.exportKey("raw", keys[c]!.publicKey))) : null);
  return { x25519: await raw("x25519"), p256: await raw("p256") };
}

/** The curve two devices exchange keys on: X25519 when both have it, else P-256; null if none. */
export function commonCurve(mine: PublicKeys | DeviceKeys, theirs: PublicKeys): Curve | null {
  return CURVES.find((c) => !!mine[c] && !!theirs[c]) ?? null;
}

/** Secrets shared with other devices, per own key pair: ECDH once per peer key, not once per message. */
const shared = new WeakMap<CryptoKeyPair, Map<string, Promise<CryptoKey>>>();

async function sharedSecret(pair: CryptoKeyPair, curve: Curve, peer: string): Promise<CryptoKey> {
  let cache = shared.get(pair);
  if (!cache) shared.set(pair, (cache = new Map()));
  let key = cache.get(peer);
  if (!key) {
    key = (async () => {
      const raw = fromB64u(peer);
      if (!raw) throw new Error("a peer key is not base64url");
      const pub = await crypto.subtle.importKey("raw", buf(raw), ALGORITHM[curve], true, []);
      const bits = await crypto.subtle.deriveBits(
        { name: curve === "x25519" ? "X25519" : "ECDH", public: pub } as EcdhKeyDeriveParams,
        pair.privateKey,
        256,
      );
      return crypto.subtle.importKey("raw", bits, "HKDF", false, ["deriveKey"]);
    })();
    cache.set(peer, key);
    // A failed derivation is not remembered: the next try may have a good key.
    key.catch(() => cache!.delete(peer));
  }
  return key;
}

/**
 * The key-encryption key between two devices for one message: HKDF-SHA-256 over their
 * ECDH secret, salted with the message's nonce and bound to both device ids, so each
 * message's wraps use their own key. Either device computes the same one.
 */
export async function wrappingKey(
  mine: DeviceKeys,
  peer: PublicKeys,
  nonce: Uint8Array,
  from: string,
  to: string,
): Promise<CryptoKey | null> {
  const curve = commonCurve(mine, peer);
  if (!curve) return null;
  const base = await sharedSecret(mine[curve]!, curve, peer[curve]!);
  const info = new TextEncoder().encode(`parley dm1 wrap ${curve} ${from} ${to}`);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: buf(nonce), info: buf(info) },
    base,
    { name: "AES-KW", length: 256 },
    false,
    ["wrapKey", "unwrapKey"],
  );
}
