/**
 * Padding: what a message says goes into the smallest bucket that holds it, so the server
 * learns a message's length only to within a power of two. Layout of the padded block:
 * kind (1 byte) | length (4 bytes, big-endian) | that many bytes | zero bytes. The kind
 * says how to read the bytes (content.ts): `01` is UTF-8 text, as every message was
 * before files; `02` is text with files.
 */
import { BUCKETS } from "./format";
import { fromUtf8, utf8 } from "./bytes";

/** A text message: its bytes are the UTF-8 text. */
export const KIND_TEXT = 1;
/** A message with files: its bytes are content.ts's encoding. */
export const KIND_FILES = 2;
const KINDS: readonly number[] = [KIND_TEXT, KIND_FILES];
const HEADER = 5;

/** The padded block for `bytes` of a kind, or null when they are too long for the largest bucket. */
export function padBlock(kind: number, bytes: Uint8Array): Uint8Array | null {
  const size = BUCKETS.find((b) => b >= bytes.length + HEADER);
  if (size === undefined) return null;
  const out = new Uint8Array(size);
  out[0] = kind;
  new DataView(out.buffer).setUint32(1, bytes.length);
  out.set(bytes, HEADER);
  return out;
}

/** The kind and bytes of a padded block; null unless every byte is as `padBlock` writes it, of a known kind. */
export function unpadBlock(block: Uint8Array): { kind: number; bytes: Uint8Array } | null {
  if (!(BUCKETS as readonly number[]).includes(block.length) || !KINDS.includes(block[0]!)) return null;
  const n = new DataView(block.buffer, block.byteOffset, block.byteLength).getUint32(1);
  if (n > block.length - HEADER) return null;
  for (let i = HEADER + n; i < block.length; i++) if (block[i] !== 0) return null;
  return { kind: block[0]!, bytes: block.subarray(HEADER, HEADER + n) };
}

/** The padded block for a text, or null when it is too long for the largest bucket. */
export function pad(text: string): Uint8Array | null {
  return padBlock(KIND_TEXT, utf8(text));
}

/** The text of a padded text block; null unless every byte is as `pad` writes it. */
export function unpad(block: Uint8Array): string | null {
  const b = unpadBlock(block);
  return b && b.kind === KIND_TEXT ? fromUtf8(b.bytes) : null;
}
