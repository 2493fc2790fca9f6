/**
 * Serving stored files (issue 31, docs/security.md): which file a path names, and the
 * answer's headers, decided here as a function of the request so that the door that
 * mounts it is one line.
 *
 * Every file answer carries `X-Content-Type-Options: nosniff` and a sandboxing CSP, so
 * nothing served runs on Parley's origin: an HTML file, an SVG, or an HTML/PNG polyglot
 * (which the bytes call a PNG, and a browser told nosniff shows as one). The type is the
 * one the bytes gave when they arrived (core/media-types.ts); anything not shown inline
 * (HTML, SVG, XML, PDF, archives, an image past the pixel budget) is `Content-Disposition:
 * attachment`. One byte range is answered 206 (seeking a video), several with the whole
 * file; the ETag is the content's SHA-256, so If-None-Match answers 304 and If-Range
 * holds a range to the same bytes. An unknown, foreign or expired link is 404, with no
 * hint of which.
 */
import { deflateSync, crc32 } from "node:zlib";
import { DomainError, type MediaBlob, type Media, type Emojis } from "../core";
import { errorToStatusBody } from "./errors";
import { isSnowflake } from "./snowflakes";
import type { FileLinks } from "./files";

export interface FileRequestParts {
  method: string;
  pathname: string;
  search: URLSearchParams;
  headers: Headers;
}

export interface FileDoorDeps {
  media: Pick<Media, "attachment" | "avatarBlob" | "iconBlob" | "appIconBlob" | "blob" | "open">;
  emojis: Pick<Emojis, "get">;
  flakes: { uuid(flake: string): string | null };
  links: Pick<FileLinks, "verify">;
}

/** What to answer: status, headers, and the bytes (a Blob served without copying) or none. */
export interface FileAnswer {
  status: number;
  headers: Record<string, string>;
  body: Blob | string | null;
}

export const FILE_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";
const BASE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": FILE_CSP,
  "Cross-Origin-Resource-Policy": "same-origin",
  "Referrer-Policy": "no-referrer",
};
const PRIVATE_CACHE = "private, max-age=3600";
const PUBLIC_CACHE = "public, max-age=31536000, immutable";
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HASH_FILE = /^((?:a_)?[0-9a-f]{32})\.(png|webp|jpg|jpeg|gif)$/;

/** The paths this serves, for the door's route table. */
export const FILE_PATHS = ["/attachments/", "/avatars/", "/icons/", "/app-icons/", "/emojis/", "/embed/avatars/"];

/** The file a path names and the answer for it; every refusal is the same 404. */
export function answerFile(req: FileRequestParts, deps: FileDoorDeps): FileAnswer {
  if (req.method !== "GET" && req.method !== "HEAD") return notFound();
  const found = locate(req, deps);
  if (!found) return notFound();
  const bytes = deps.media.open(found.blob.sha256);
  if (!bytes) return notFound();
  return answerBytes(req, found, bytes);
}

interface Found {
  blob: Pick<MediaBlob, "sha256" | "size" | "content_type" | "inline">;
  /** Attachments: the name to save under. */
  filename: string | null;
  cache: string;
}

function locate(req: FileRequestParts, deps: FileDoorDeps): Found | null {
  const parts = req.pathname.split("/").slice(1);
  const id = (seg: string | undefined) =>
    seg === undefined ? null : UUID_RE.test(seg) ? seg : isSnowflake(seg) ? deps.flakes.uuid(seg) : null;
  switch (parts[0]) {
    case "attachments": {
      if (parts.length !== 4) return null;
      const channelId = id(parts[1]);
      const a = id(parts[2]) ? deps.media.attachment(id(parts[2])!) : null;
      if (!a || a.channel_id !== channelId) return null;
      const sig = { ex: req.search.get("ex") ?? undefined, is: req.search.get("is") ?? undefined, hm: req.search.get("hm") ?? undefined };
      if (!deps.links.verify(a.channel_id, a.id, sig)) return null;
      return { blob: a, filename: a.filename, cache: PRIVATE_CACHE };
    }
    case "avatars":
    case "icons":
    case "app-icons": {
      const m = parts.length === 3 ? HASH_FILE.exec(parts[2]) : null;
      const owner = id(parts[1]);
      if (!m || !owner) return null;
      const look = parts[0] === "avatars" ? deps.media.avatarBlob : parts[0] === "icons" ? deps.media.iconBlob : deps.media.appIconBlob;
      const blob = look.call(deps.media, owner, m[1]);
      return blob ? { blob, filename: null, cache: PUBLIC_CACHE } : null;
    }
    case "emojis": {
      const m = parts.length === 2 ? /^([^.]+)\.(png|webp|jpg|jpeg|gif)$/.exec(parts[1]) : null;
      const emojiId = m ? id(m[1]) : null;
      const e = emojiId ? deps.emojis.get(emojiId) : null;
      const blob = e ? deps.media.blob(e.sha256) : null;
      return blob ? { blob, filename: null, cache: PUBLIC_CACHE } : null;
    }
    default:
      return null;
  }
}

/** Headers, conditional requests and one range, for bytes already found. */
export function answerBytes(req: Pick<FileRequestParts, "method" | "headers">, found: Found, bytes: Blob): FileAnswer {
  const { blob } = found;
  const etag = `"${blob.sha256}"`;
  const headers: Record<string, string> = {
    ...BASE_HEADERS,
    "Content-Type": blob.content_type,
    ETag: etag,
    "Accept-Ranges": "bytes",
    "Cache-Control": found.cache,
  };
  if (found.filename !== null || !blob.inline) headers["Content-Disposition"] = contentDisposition(found.filename ?? "file", !!blob.inline);
  if (matchesEtag(req.headers.get("if-none-match"), etag)) return { status: 304, headers, body: null };
  const size = bytes.size;
  const ifRange = req.headers.get("if-range");
  const range = ifRange !== null && ifRange !== etag ? null : parseRange(req.headers.get("range"), size);
  const head = req.method === "HEAD";
  if (range === "unsatisfiable")
    return { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}`, "Content-Length": "0" }, body: head ? null : "" };
  if (range) {
    const [start, end] = range;
    headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
    headers["Content-Length"] = String(end - start + 1);
    return { status: 206, headers, body: head ? null : bytes.slice(start, end + 1) };
  }
  headers["Content-Length"] = String(size);
  return { status: 200, headers, body: head ? null : bytes };
}

/** The answer as a Response (a Blob body is sent by Bun without copying it into memory). */
export function fileResponse(a: FileAnswer): Response {
  return new Response(a.body, { status: a.status, headers: a.headers });
}

function notFound(): FileAnswer {
  const { status, body } = errorToStatusBody(DomainError.notFound("file"));
  return { status, headers: { ...BASE_HEADERS, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

/**
 * One `bytes=` range (`a-b`, `a-`, `-n`) as [start, end] inclusive; null for no range,
 * a malformed one or several (the whole file is answered); "unsatisfiable" when it
 * starts past the end.
 */
export function parseRange(header: string | null, size: number): [number, number] | "unsatisfiable" | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0) return "unsatisfiable";
    return [Math.max(0, size - n), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return "unsatisfiable";
  if (end < start) return null;
  return [start, end];
}

/**
 * `inline` or `attachment`, with the name twice: an ASCII fallback (quotes and
 * backslashes escaped, anything else outside printable ASCII as `_`) and the exact name
 * (RFC 5987) for browsers that read it.
 */
export function contentDisposition(filename: string, inline: boolean): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

// ---- the reference's default avatars: /embed/avatars/{0-5}.png ----

/** The reference's six default avatar colours, by index (discord.js and discord.py link them for users without an avatar). */
const DEFAULT_COLOURS = [0x5865f2, 0x757e8a, 0x3ba55c, 0xfaa61a, 0xed4245, 0xeb459f];

/** A default avatar: a plain disc of the index's colour, drawn on request (no file ships for it; it takes well under a millisecond). */
export function defaultAvatar(pathname: string): FileAnswer | null {
  const m = /^\/embed\/avatars\/([0-5])\.png$/.exec(pathname);
  if (!m) return null;
  const png = discPng(64, DEFAULT_COLOURS[Number(m[1])]);
  const sha = new Bun.CryptoHasher("sha256").update(png).digest("hex");
  return {
    status: 200,
    headers: {
      ...BASE_HEADERS,
      "Content-Type": "image/png",
      ETag: `"${sha}"`,
      "Cache-Control": PUBLIC_CACHE,
      "Content-Length": String(png.byteLength),
    },
    body: new Blob([png]),
  };
}

/** A size x size RGBA PNG of a filled circle. */
function discPng(size: number, rgb: number): Uint8Array<ArrayBuffer> {
  const raw = new Uint8Array(size * (size * 4 + 1));
  const r = size / 2;
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    for (let x = 0; x < size; x++) {
      const inside = (x + 0.5 - r) ** 2 + (y + 0.5 - r) ** 2 <= r * r;
      raw.set([(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, inside ? 255 : 0], row + 1 + x * 4);
    }
  }
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, size);
  new DataView(ihdr.buffer).setUint32(4, size);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const chunks = [chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array())];
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]));
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.byteLength, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}
