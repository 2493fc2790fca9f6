/**
 * Key backup: a person may keep one extra device whose private keys are stored on the
 * server sealed under a passphrase, so a device added later can read what was sent
 * after the backup was made. It is a device like the others (clients seal for it, the
 * other person is told of it, the safety number covers it); only its keys travel, and
 * only sealed: PBKDF2-SHA-256 (600,000 iterations) of the passphrase, AES-256-GCM bound
 * to the backup's public keys.
 *
 *   kb1.<salt: 16 bytes>.<iv: 12 bytes>.<AES-GCM of {"x25519": pkcs8, "p256": pkcs8}>
 */
import { b64u, b64uLength, buf, fromB64u, fromUtf8, utf8 } from "./bytes";
import { CURVES, type Curve } from "./format";
import { publicKeysOf, type DeviceKeys, type PublicKeys } from "./keys";

export const BACKUP_VERSION = "kb1";
export const BACKUP_ITERATIONS = 600_000;
export const MAX_BACKUP = 2048;
/** A passphrase shorter than this is refused by clients: the server could try guesses offline. */
export const MIN_PASSPHRASE = 12;

const SALT_BYTES = 16;
const IV_BYTES = 12;

const ALGORITHM: Record<Curve, EcKeyImportParams | Algorithm> = {
  x25519: { name: "X25519" },
  p256: { name: "ECDH", namedCurve: "P-256" } as EcKeyImportParams,
};

async function passphraseKey(passphrase: string, salt: Uint8Array): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", buf(utf8(passphrase.normalize("NFC"))), "PBKDF2", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "PBKDF2", hash: "SHA-256", salt: buf(salt), iterations: BACKUP_ITERATIONS },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

function associatedData(keys: PublicKeys): ArrayBuffer {
  return buf(utf8(`parley kb1\n${CURVES.map((c) => `${c}=${keys[c] ?? ""}`).join(";")}`));
}

/** The shape problem of a sealed backup, or null (what the server checks). */
export function backupProblem(text: string): string | null {
  if (text.length > MAX_BACKUP) return `longer than ${MAX_BACKUP} characters`;
  const [v, salt, iv, body, extra] = text.split(".");
  if (v !== BACKUP_VERSION || extra !== undefined) return `not a ${BACKUP_VERSION} backup`;
  if (salt?.length !== b64uLength(SALT_BYTES) || !fromB64u(salt)) return "the salt is malformed";
  if (iv?.length !== b64uLength(IV_BYTES) || !fromB64u(iv)) return "the iv is malformed";
  if (!body || !fromB64u(body)) return "the sealed keys are not base64url";
  return null;
}

/**
 * New backup keys: the pairs (private halves usable here, not extractable), their public
 * keys to register, and the private keys sealed under the passphrase to store with them.
 */
export async function createBackup(passphrase: string): Promise<{ keys: DeviceKeys; publicKeys: PublicKeys; sealed: string }> {
  const exported: Record<string, string> = {};
  const keys: DeviceKeys = {};
  for (const curve of CURVES) {
    let pair: CryptoKeyPair;
    try {
      // Extractable only here, to be sealed once; what is kept is re-imported non-extractable.
      pair = (await crypto.subtle.generateKey(ALGORITHM[curve], true, ["deriveBits"])) as CryptoKeyPair;
    } catch {
      continue;
    }
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
    exported[curve] = b64u(pkcs8);
    keys[curve] = {
      publicKey: pair.publicKey,
      privateKey: await crypto.subtle.importKey("pkcs8", buf(pkcs8), ALGORITHM[curve], false, ["deriveBits"]),
    };
  }
  const publicKeys = await publicKeysOf(keys);
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await passphraseKey(passphrase, salt);
  const body = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv: buf(iv), additionalData: associatedData(publicKeys) },
    key,
    buf(utf8(JSON.stringify(exported))),
  );
  return { keys, publicKeys, sealed: [BACKUP_VERSION, b64u(salt), b64u(iv), b64u(new Uint8Array(body))].join(".") };
}

/** The backup's key pairs, or null for a wrong passphrase or a sealed backup that was altered. */
export async function openBackup(sealed: string, passphrase: string, publicKeys: PublicKeys): Promise<DeviceKeys | null> {
  if (backupProblem(sealed)) return null;
  const [, salt, iv, body] = sealed.split(".");
  try {
    const key = await passphraseKey(passphrase, fromB64u(salt)!);
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: buf(fromB64u(iv)!), additionalData: associatedData(publicKeys) },
      key,
      buf(fromB64u(body)!),
    );
    const exported = JSON.parse(fromUtf8(new Uint8Array(plain)) ?? "null") as Record<string, string> | null;
    const keys: DeviceKeys = {};
    for (const curve of CURVES) {
      const pkcs8 = exported?.[curve] && fromB64u(exported[curve]);
      const pub = publicKeys[curve] && fromB64u(publicKeys[curve]!);
      if (!pkcs8 || !pub) continue;
      keys[curve] = {
        privateKey: await crypto.subtle.importKey("pkcs8", buf(pkcs8), ALGORITHM[curve], false, ["deriveBits"]),
        publicKey: await crypto.subtle.importKey("raw", buf(pub), ALGORITHM[curve], true, []),
      };
    }
    return keys.x25519 || keys.p256 ? keys : null;
  } catch {
    return null;
  }
}
