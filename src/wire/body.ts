/**
 * Reading request bodies, bounded, for every surface (docs/security.md). A body's limit
 * depends on the surface its path belongs to; one declared larger (Content-Length) is
 * refused before a byte is read, and a streamed one (chunked, or lying about its length)
 * is cut off as soon as it passes the limit. Either way the answer is 400 code 50035
 * naming the body as a whole, like every other over-limit body (spec 7).
 */
import { DomainError } from "../core/errors";

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

/** The refusal of a body declared larger than its surface reads, or null. Reads nothing. */
export function declaredTooLarge(request: Request, pathname: string): DomainError | null {
  const declared = request.headers.get("content-length");
  if (declared === null) return null;
  const limit = bodyLimitFor(pathname);
  // A malformed length is Bun's to refuse; only a number above the limit is ours.
  return /^\d+$/.test(declared.trim()) && Number(declared) > limit ? tooLarge(limit) : null;
}

/** The body as text, reading no more than its surface's limit (UTF-8, like Request.text()). */
export async function readBodyText(request: Request): Promise<string> {
  const limit = bodyLimitFor(new URL(request.url).pathname);
  const early = declaredTooLarge(request, new URL(request.url).pathname);
  if (early) throw early;
  if (!request.body) return "";
  const reader = request.body.getReader();
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
