/**
 * A file in a DM: encrypted on its own, in the sender's client, under a fresh AES-256-GCM
 * key and nonce, and uploaded as opaque bytes under a neutral name (SEALED_FILE_NAME) and
 * type; the key, the nonce, the file's real name, type, size, description and SHA-256
 * travel in the message's sealed text (content.ts). The server stores and serves
 * ciphertext it cannot open, and learns only each file's size (plus the tag).
 */
import { buf, utf8 } from "./bytes";
import { cleanFileName, cleanFileType, type SealedFile } from "./content";

/** The name and type every DM file is uploaded under: alike for all, so they say nothing of the file. */
export const SEALED_FILE_NAME = "file.bin";
export const SEALED_FILE_TYPE = "application/octet-stream";
/** A file's ciphertext is its bytes and AES-GCM's 16-byte tag. */
export const FILE_TAG_BYTES = 16;
/** Binds a file's ciphertext to its use: a message body can never be taken for a file, nor the reverse. */
const FILE_AD = buf(utf8("parley dm1 file"));

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", buf(bytes)));
}

/** Encrypt one file's bytes; its SealedFile goes into the message that names it. */
export async function sealFile(
  bytes: Uint8Array,
  facts: { name: string; type: string; description?: string | null },
): Promise<{ ciphertext: Uint8Array<ArrayBuffer>; file: SealedFile }> {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const aes = await crypto.subtle.importKey("raw", buf(key), "AES-GCM", false, ["encrypt"]);
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: buf(nonce), additionalData: FILE_AD }, aes, buf(bytes)),
  );
  const description = facts.description?.trim() || null;
  return {
    ciphertext,
    file: {
      key,
      nonce,
      sha256: await sha256(bytes),
      size: bytes.length,
      name: cleanFileName(facts.name),
      type: cleanFileType(facts.type),
      description,
    },
  };
}

/** The size a file's ciphertext must have: what a reader checks before it downloads anything. */
export function sealedFileSize(f: Pick<SealedFile, "size">): number {
  return f.size + FILE_TAG_BYTES;
}

/** A file's bytes, or null unless the ciphertext decrypts under its key and is exactly the file described (size and SHA-256). */
export async function openFile(ciphertext: Uint8Array, f: SealedFile): Promise<Uint8Array<ArrayBuffer> | null> {
  if (ciphertext.length !== sealedFileSize(f)) return null;
  try {
    const aes = await crypto.subtle.importKey("raw", buf(f.key), "AES-GCM", false, ["decrypt"]);
    const plain = new Uint8Array(
      await crypto.subtle.decrypt({ name: "AES-GCM", iv: buf(f.nonce), additionalData: FILE_AD }, aes, buf(ciphertext)),
    );
    if (plain.length !== f.size) return null;
    const digest = await sha256(plain);
    return digest.every((b, i) => b === f.sha256[i]) ? plain : null;
  } catch {
    return null;
  }
}
