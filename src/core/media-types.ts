/**
 * What a file is, judged by its bytes, never by what its uploader says (docs/security.md):
 * file-type names a type from its magic numbers, image-size reads an image's dimensions
 * from its header without decoding it, and a text check names plain text. Only safe
 * images, video, audio and plain text are shown inline; everything else (HTML, SVG, XML,
 * PDF, scripts, archives, an unknown type) is a download. An image past the pixel budget
 * is a download too: no viewer is made to decode a picture of a billion pixels.
 *
 * Also here: how a filename is cleaned before it is stored or shown.
 */
import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import { DomainError } from "./errors";
import { MediaDigestMismatch, MediaSourceFailed, MediaTooLarge, MediaWriteFailed } from "../store/media";

export interface Sniffed {
  contentType: string;
  /** Shown in the page (an image, video, audio or text viewer) rather than downloaded. */
  inline: boolean;
  width: number | null;
  height: number | null;
  /** An animated GIF, PNG or WebP (the reference's `a_` hashes). */
  animated: boolean;
  /** A raster image a browser shows (what avatars, icons and emoji must be). */
  image: boolean;
}

/** Raster images every browser shows and none runs. */
export const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"]);
/** Pictures, video, sound and text served inline (with nosniff and a sandboxing CSP, files.ts). */
const INLINE_TYPES = new Set([
  ...IMAGE_TYPES,
  "video/mp4",
  "video/webm",
  "video/ogg",
  "video/quicktime",
  "audio/mpeg",
  "audio/ogg",
  "audio/opus",
  "audio/wav",
  "audio/x-wav",
  "audio/flac",
  "audio/x-flac",
  "audio/mp4",
  "audio/x-m4a",
  "audio/aac",
  "audio/webm",
]);
export const TEXT_PLAIN = "text/plain; charset=utf-8";
const OCTET = "application/octet-stream";
/** How much of a file the text check reads. */
const TEXT_PROBE = 8 * 1024;
/** Markup a browser would render if it ever guessed: such a text is a download, never text/plain. */
const MARKUP =
  /^(?:\ufeff)?\s*<(?:!doctype|html|head|body|script|svg|\?xml|!--|iframe|object|embed|style|meta|link|xsl|math|a\s|img|div|form|base)/i;

/**
 * The type of a file from its first bytes (`head`); `more` reads further into it when
 * an image's dimensions sit past the head (a JPEG with a large EXIF block).
 */
export async function sniff(head: Uint8Array, more: () => Promise<Uint8Array>, pixelBudget: number): Promise<Sniffed> {
  const found = head.byteLength ? await fileTypeFromBuffer(head).catch(() => undefined) : undefined;
  if (!found) {
    const text = isPlainText(head);
    return { contentType: text ? TEXT_PLAIN : OCTET, inline: text, width: null, height: null, animated: false, image: false };
  }
  const type = found.mime;
  if (!IMAGE_TYPES.has(type))
    return { contentType: type, inline: INLINE_TYPES.has(type), width: null, height: null, animated: false, image: false };
  const dims = dimensions(head) ?? dimensions(await more());
  const withinBudget = dims !== null && dims.width * dims.height <= pixelBudget;
  return {
    contentType: type,
    inline: withinBudget,
    width: dims?.width ?? null,
    height: dims?.height ?? null,
    animated: animated(type, head),
    image: dims !== null,
  };
}

function dimensions(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const d = imageSize(bytes);
    return d.width && d.height ? { width: d.width, height: d.height } : null;
  } catch {
    return null;
  }
}

/** Valid UTF-8 (a sequence cut by the probe's end allowed), no NUL, and not markup. */
export function isPlainText(bytes: Uint8Array): boolean {
  const probe = bytes.subarray(0, TEXT_PROBE);
  if (probe.byteLength === 0 || probe.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(trimCutSequence(probe));
  } catch {
    return false;
  }
  return !MARKUP.test(text);
}

/** The bytes without a UTF-8 sequence the probe's end cut in two. */
function trimCutSequence(b: Uint8Array): Uint8Array {
  for (let back = 1; back <= 3 && back <= b.byteLength; back++) {
    const c = b[b.byteLength - back];
    if ((c & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > back ? b.subarray(0, b.byteLength - back) : b;
  }
  return b;
}

const ascii = (s: string) => new TextEncoder().encode(s);
const NETSCAPE = ascii("NETSCAPE2.0");
const ACTL = ascii("acTL");
const IDAT = ascii("IDAT");

/** Animated, by the header's markers: a GIF's loop extension, a PNG's acTL before its image data, a WebP's VP8X animation flag. */
function animated(type: string, head: Uint8Array): boolean {
  if (type === "image/gif") return indexOf(head, NETSCAPE) >= 0;
  if (type === "image/png") {
    const actl = indexOf(head, ACTL);
    const idat = indexOf(head, IDAT);
    return actl >= 0 && (idat < 0 || actl < idat);
  }
  if (type === "image/webp")
    return head.byteLength > 20 && String.fromCharCode(...head.subarray(12, 16)) === "VP8X" && (head[20] & 0x02) !== 0;
  return false;
}

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength).indexOf(needle);
}

// ---- filenames ----

/** Bidirectional controls: they make "exe.png" of "gnp.exe" (RLO) and hide what a name ends with. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips from file names
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const MAX_NAME_BYTES = 255;

/**
 * A filename as Parley stores and shows it: NFC; path separators become `_`; control
 * and bidirectional characters go; no leading dot (no hidden file, no `..`), no trailing
 * dots or spaces (Windows drops them); at most 255 UTF-8 bytes, the extension kept;
 * `file` when nothing is left.
 */
export function cleanFilename(raw: string): string {
  let name = raw.normalize("NFC").replace(/[/\\]/g, "_").replace(CONTROL, "").replace(BIDI, "").trim();
  name = name.replace(/^\.+/, "").replace(/[. ]+$/, "");
  if (!name) return "file";
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : "";
  let stem = "";
  let bytes = Buffer.byteLength(ext);
  for (const ch of name.slice(0, name.length - ext.length)) {
    bytes += Buffer.byteLength(ch);
    if (bytes > MAX_NAME_BYTES) break;
    stem += ch;
  }
  return (stem || "file") + ext;
}

export function invalidImage(path: string): DomainError {
  return DomainError.invalid(path, "Invalid image: a PNG, JPEG, GIF, WebP or AVIF picture is needed", "IMAGE_INVALID");
}

/** The store's failures as the core's errors. */
export function storeError(e: unknown, limit: number): unknown {
  if (e instanceof MediaTooLarge) return DomainError.tooLarge(`The file is larger than the ${limit} bytes allowed`);
  if (e instanceof MediaWriteFailed) {
    const full = e.code === "ENOSPC" || e.code === "EDQUOT";
    return new DomainError(
      "storage_failed",
      full ? "The server's disk is full; nothing was stored." : `The server could not store the file (${e.code}); nothing was stored.`,
    );
  }
  if (e instanceof MediaDigestMismatch)
    return DomainError.invalid("", `The file's bytes do not match its hash (${e.message})`, "DIGEST_MISMATCH");
  if (e instanceof MediaSourceFailed)
    return DomainError.invalid("", "The upload ended before the file did; nothing was stored.", "UPLOAD_INCOMPLETE");
  return e;
}
