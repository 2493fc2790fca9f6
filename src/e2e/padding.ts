/**
 * Padding: the text goes into the smallest bucket that holds it, so the server learns a
 * message's length only to within a power of two. Layout of the padded block:
 * `01` (a text message) | length (4 bytes, big-endian) | UTF-8 text | zero bytes.
 */
import { BUCKETS } from "./format";
import { fromUtf8, utf8 } from "./bytes";

const TEXT = 1;
const HEADER = 5;

/** The padded block for a text, or null when it is too long for the largest bucket. */
export function pad(text: string): Uint8Array | null {
  const bytes = utf8(text);
  const size = BUCKETS.find((b) => b >= bytes.length + HEADER);
  if (size === undefined) return null;
  const out = new Uint8Array(size);
  out[0] = TEXT;
  new DataView(out.buffer).setUint32(1, bytes.length);
  out.set(bytes, HEADER);
  return out;
}

/** The text of a padded block; null unless every byte is as `pad` writes it. */
export function unpad(block: Uint8Array): string | null {
  if (!(BUCKETS as readonly number[]).includes(block.length) || block[0] !== TEXT) return null;
  const n = new DataView(block.buffer, block.byteOffset, block.byteLength).getUint32(1);
  if (n > block.length - HEADER) return null;
  for (let i = HEADER + n; i < block.length; i++) if (block[i] !== 0) return null;
  return fromUtf8(block.subarray(HEADER, HEADER + n));
}
