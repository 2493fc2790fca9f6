/**
 * What a sealed DM says: its text and, since files, what its reader needs to open each of
 * its files. It is the padded block's payload (padding.ts), so all of it is under the
 * message's AES-GCM tag and associated data (channel, author, sending device).
 *
 * - Kind `01` (KIND_TEXT): the UTF-8 text. Every message without files is sealed so, as
 *   every message was before files, and opens exactly as it always did.
 * - Kind `02` (KIND_FILES): `text length (4) | UTF-8 text | file count (1) | records`,
 *   each record `key (32) | nonce (12) | SHA-256 of the file (32) | size (8) |
 *   name length (2) | UTF-8 name | type length (1) | ASCII type | description length (2)
 *   | UTF-8 description` (lengths big-endian, in bytes). Record i is the message's
 *   attachment at position i: the server keeps a message's files in the order they were
 *   sent and never reorders them; if it did, each file's own key would fail on the other.
 *
 * Reading is strict: a count, length or name out of bounds, a byte left over, or text
 * that is not UTF-8 is no content at all (the message "could not be decrypted").
 */
import { concat, fromUtf8, utf8 } from "./bytes";
import { KIND_FILES, KIND_TEXT, padBlock, unpadBlock } from "./padding";

/** A file as its message's sealed text describes it: the secret to open it and its own facts. */
export interface SealedFile {
  /** AES-256-GCM key (32 bytes) and nonce (12 bytes) of this file alone. */
  key: Uint8Array;
  nonce: Uint8Array;
  /** SHA-256 of the file's bytes. */
  sha256: Uint8Array;
  /** The file's size in bytes (its ciphertext is 16 bytes longer). */
  size: number;
  /** Its name, cleaned (cleanFileName), and its type (a lower-case MIME type without parameters). */
  name: string;
  type: string;
  /** The alternative text the sender gave it, or null. */
  description: string | null;
}

export interface MessageContent {
  text: string;
  files: SealedFile[];
}

/** Files one message carries (the reference's limit, which the server holds to as well). */
export const MAX_FILES = 10;
/** A description's longest, in characters (the server's limit on a file's alternative text). */
export const MAX_FILE_DESCRIPTION = 1024;
const MAX_NAME_BYTES = 255;
const MAX_TYPE = 127;
const FIXED = 32 + 12 + 32 + 8;
const TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
export const OCTET_STREAM = "application/octet-stream";

/** Bidirectional controls: they make "exe.png" of "gnp.exe" (RLO) and hide what a name ends with. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips from file names
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * A file's name as a DM carries it, by the server's rules for the names it stores
 * (core/media-types.ts, which this module may not import): NFC; path separators become
 * `_`; control and bidirectional characters go; no leading dot, no trailing dots or
 * spaces; at most 255 UTF-8 bytes, the extension kept; `file` when nothing is left.
 */
export function cleanFileName(raw: string): string {
  let name = raw.normalize("NFC").replace(/[/\\]/g, "_").replace(CONTROL, "").replace(BIDI, "").trim();
  name = name.replace(/^\.+/, "").replace(/[. ]+$/, "");
  if (!name) return "file";
  if (utf8(name).length <= MAX_NAME_BYTES) return name;
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : "";
  let stem = "";
  let bytes = utf8(ext).length;
  for (const ch of name.slice(0, name.length - ext.length)) {
    bytes += utf8(ch).length;
    if (bytes > MAX_NAME_BYTES) break;
    stem += ch;
  }
  return (stem || "file") + ext;
}

/** A type as a DM carries it: lower case, no parameters; anything unusual is application/octet-stream. */
export function cleanFileType(raw: string): string {
  const t = raw.split(";")[0]!.trim().toLowerCase();
  return t.length <= MAX_TYPE && TYPE.test(t) ? t : OCTET_STREAM;
}

/** Why a file's facts cannot be sealed (or were not sealed by a client keeping to these rules), or null. */
function fileProblem(f: SealedFile): string | null {
  if (f.key.length !== 32 || f.nonce.length !== 12 || f.sha256.length !== 32) return "a file's key, nonce or hash has the wrong length";
  if (!Number.isSafeInteger(f.size) || f.size < 0) return "a file's size is not a whole number of bytes";
  if (!f.name || cleanFileName(f.name) !== f.name) return "a file's name is not a clean file name";
  if (f.type.length > MAX_TYPE || !TYPE.test(f.type)) return "a file's type is not a MIME type";
  if (f.description !== null && (f.description === "" || f.description.length > MAX_FILE_DESCRIPTION))
    return `a file's description is empty or longer than ${MAX_FILE_DESCRIPTION} characters`;
  return null;
}

function u16(n: number): Uint8Array {
  return new Uint8Array([n >> 8, n & 255]);
}

function encodeFile(f: SealedFile): Uint8Array {
  const size = new Uint8Array(8);
  new DataView(size.buffer).setBigUint64(0, BigInt(f.size));
  const name = utf8(f.name);
  const description = utf8(f.description ?? "");
  return concat(
    f.key,
    f.nonce,
    f.sha256,
    size,
    u16(name.length),
    name,
    new Uint8Array([f.type.length]),
    utf8(f.type),
    u16(description.length),
    description,
  );
}

/** The padded block of a message's content, or null when it is too long for the largest bucket. Throws on a file's facts no reader would take. */
export function padContent(c: MessageContent): Uint8Array | null {
  if (!c.files.length) return padBlock(KIND_TEXT, utf8(c.text));
  if (c.files.length > MAX_FILES) throw new Error(`A message carries at most ${MAX_FILES} files`);
  for (const f of c.files) {
    const problem = fileProblem(f);
    if (problem) throw new Error(`This file cannot be sent: ${problem}`);
  }
  const text = utf8(c.text);
  const head = new Uint8Array(5);
  new DataView(head.buffer).setUint32(0, text.length);
  head[4] = c.files.length;
  return padBlock(KIND_FILES, concat(head.subarray(0, 4), text, head.subarray(4), ...c.files.map(encodeFile)));
}

/** A message's content from its padded block; null unless it is exactly what padContent writes. */
export function unpadContent(block: Uint8Array): MessageContent | null {
  const b = unpadBlock(block);
  if (!b) return null;
  if (b.kind === KIND_TEXT) {
    const text = fromUtf8(b.bytes);
    return text === null ? null : { text, files: [] };
  }
  return decodeFiles(b.bytes);
}

/** Kind 02, read by a cursor that refuses to run past the end. */
function decodeFiles(bytes: Uint8Array): MessageContent | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const take = (n: number): Uint8Array | null => (at + n <= bytes.length ? bytes.subarray(at, (at += n)) : null);
  const int = (n: 1 | 2 | 4): number | null => {
    if (at + n > bytes.length) return null;
    const v = n === 1 ? view.getUint8(at) : n === 2 ? view.getUint16(at) : view.getUint32(at);
    at += n;
    return v;
  };
  const str = (n: number | null): string | null => {
    const raw = n === null ? null : take(n);
    return raw && fromUtf8(raw);
  };
  const text = str(int(4));
  const count = int(1);
  if (text === null || count === null || count < 1 || count > MAX_FILES) return null;
  const files: SealedFile[] = [];
  for (let i = 0; i < count; i++) {
    const fixed = take(FIXED);
    if (!fixed) return null;
    const size = new DataView(fixed.buffer, fixed.byteOffset + 76, 8).getBigUint64(0);
    const name = str(int(2));
    const type = str(int(1));
    const description = str(int(2));
    if (name === null || type === null || description === null || size > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    const f: SealedFile = {
      key: fixed.slice(0, 32),
      nonce: fixed.slice(32, 44),
      sha256: fixed.slice(44, 76),
      size: Number(size),
      name,
      type,
      description: description === "" ? null : description,
    };
    if (fileProblem(f)) return null;
    files.push(f);
  }
  return at === bytes.length ? { text, files } : null;
}
