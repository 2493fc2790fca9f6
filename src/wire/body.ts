/**
 * Reading request bodies, bounded, for every surface (docs/security.md). A body's limit
 * depends on the surface its path belongs to; one declared larger (Content-Length) is
 * refused before a byte is read, and a streamed one (chunked, or lying about its length)
 * is cut off as soon as it passes the limit. Either way the answer is 400 code 50035
 * naming the body as a whole, like every other over-limit body (spec 7).
 */
import { DomainError } from "../core";
import { parseRequestJson } from "./json";

const KiB = 1024;
const MiB = 1024 * KiB;

/** The largest body each surface reads, by path prefix (first match wins). */
export const BODY_LIMITS: readonly { prefix: string; bytes: number }[] = [
  // A whole message payload is 32 KB (spec 8.2); room for the other bodies.
  { prefix: "/api/v10/", bytes: 64 * KiB },
  { prefix: "/api/client/", bytes: 64 * KiB },
  // World documents list up to 1000 people, 100 servers and their channels.
  { prefix: "/api/harness/", bytes: 8 * MiB },
  { prefix: "/", bytes: 64 * KiB },
];

/** Bun's own ceiling, far above every limit: bodies are refused by Parley (with a JSON body), not by Bun. */
export const SERVER_MAX_BODY = 1024 * MiB;

export function bodyLimitFor(pathname: string): number {
  return (BODY_LIMITS.find((l) => pathname.startsWith(l.prefix)) ?? BODY_LIMITS[BODY_LIMITS.length - 1]).bytes;
}

export function tooLarge(limit: number): DomainError {
  return DomainError.invalid("", `Request entity too large: the limit is ${limit} bytes`, "REQUEST_TOO_LARGE");
}

/** The refusal of a body declared larger than `limit`, or null. Reads nothing. */
export function declaredTooLarge(request: Request, limit: number): DomainError | null {
  const declared = request.headers.get("content-length");
  if (declared === null) return null;
  // A malformed length is Bun's to refuse; only a number above the limit is ours. Most
  // are short: a length of fewer digits than the limit's cannot pass it.
  if (declared.length < 5 && limit >= 10_000) return null;
  return /^\d+$/.test(declared.trim()) && Number(declared) > limit ? tooLarge(limit) : null;
}

/**
 * A request URL's path, without parsing the whole URL (every request asks). Like
 * URL.pathname for the absolute URLs a server is given, percent-encoding untouched.
 */
export function pathnameOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.length;
  const q = url.indexOf("?", start);
  if (q >= 0) end = q;
  const h = url.indexOf("#", start);
  if (h >= 0 && h < end) end = h;
  return url.slice(start, end);
}

/**
 * The body as text, reading no more than `limit` (UTF-8, like Request.text()). Without a
 * limit, its surface's by path, and a declared length over it is refused first; with
 * one, the pipeline's screen has already looked at the declared length.
 */
export function readBodyText(request: Request, limit?: number): Promise<string> {
  if (limit === undefined) {
    const pathname = pathnameOf(request.url);
    limit = bodyLimitFor(pathname);
    const early = declaredTooLarge(request, limit);
    if (early) return Promise.reject(early);
  }
  if (!request.body) return Promise.resolve("");
  // A declared length within the limit bounds what can arrive (HTTP framing, unless the
  // body is chunked, which then decides): read it whole, with no promise of our own around it.
  if (request.headers.get("content-length") !== null && request.headers.get("transfer-encoding") === null) return request.text();
  return readStreamed(request.body, limit);
}

/** A body of unknown length, cut off as soon as it passes the limit. */
async function readStreamed(body: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    parts.push(value);
  }
  return new TextDecoder().decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
}

/**
 * A body's text as JSON: undefined when empty, whatever its Content-Type (discord.py
 * sends PUT .../bans that way); else JSON only (no multipart: no file uploads), parsed
 * losslessly with its nesting bounded (json.ts).
 */
export function parseBody(text: string, type: string | null): unknown {
  if (text.trim() === "") return undefined;
  if (type && /^multipart\//i.test(type)) {
    throw DomainError.invalid("", "Multipart bodies are not supported: Parley takes JSON only (no file uploads)", "CONTENT_TYPE_INVALID");
  }
  if (type && !/^application\/json\b/i.test(type)) {
    throw DomainError.invalid("", `Content-Type must be application/json, not ${type}`, "CONTENT_TYPE_INVALID");
  }
  return parseRequestJson(text);
}
