/**
 * The first look at every request, before routing and before any body is read
 * (docs/security.md): a body declared larger than its surface reads is refused from
 * Content-Length; on the people's API and the harness, a request a browser sent from
 * another site (its Origin is not this server's) is refused, and so is a body that says
 * it is not JSON, so a cross-site form or `text/plain` post can change nothing.
 * Requests without an Origin (the CLI, SDKs, bots, curl) are not cross-site requests.
 */
import type { Urls } from "../config";
import { bodyLimitFor, declaredTooLarge, pathnameOf } from "./body";
import { errorResponse, jsonResponse } from "./http";
import { DomainError } from "../core";

/** Surfaces a browser may reach with a person's session or none: they take same-origin requests only. */
const SAME_ORIGIN_ONLY = ["/api/client/", "/api/harness/"];

export function screenRequest(request: Request, urls: Urls): Response | undefined {
  const pathname = pathnameOf(request.url);
  const sameOriginOnly = pathname.startsWith(SAME_ORIGIN_ONLY[0]) || pathname.startsWith(SAME_ORIGIN_ONLY[1]);
  return screen(request, bodyLimitFor(pathname), sameOriginOnly, urls);
}

/**
 * The first look for one door's routes, whose rules are known without reading the path:
 * its body limit, and whether it takes same-origin JSON only (the people's API).
 */
export function screenFor(rules: { bodyLimit: number; sameOrigin: boolean }, urls: Urls): (request: Request) => Response | undefined {
  const { bodyLimit, sameOrigin } = rules;
  return (request) => screen(request, bodyLimit, sameOrigin, urls);
}

/**
 * The first look for a file's raw bytes (PUT /api/client/v1/uploads/{id}): same-origin
 * like the rest of the people's API, any Content-Type (a file is not JSON), and a
 * declared length past the largest file refused as too large before a byte is read,
 * with the connection closed.
 */
export function screenUpload(maxBytes: number, urls: Urls): (request: Request) => Response | undefined {
  return (request) => {
    const declared = request.headers.get("content-length");
    if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes)
      return errorResponse(DomainError.tooLarge(`Request entity too large: a file may have at most ${maxBytes} bytes`), {
        Connection: "close",
      });
    const origin = request.headers.get("origin");
    if (origin !== null && !sameOrigin(origin, request, urls))
      return jsonResponse(403, { code: 0, message: "Cross-origin requests are not accepted here." });
  };
}

function screen(request: Request, limit: number, sameOriginOnly: boolean, urls: Urls): Response | undefined {
  const big = declaredTooLarge(request, limit);
  // Close the connection: the rest of the declared body will not be read.
  if (big) return errorResponse(big, { Connection: "close" });
  if (!sameOriginOnly) return;
  const origin = request.headers.get("origin");
  if (origin !== null && !sameOrigin(origin, request, urls)) {
    return jsonResponse(403, { code: 0, message: "Cross-origin requests are not accepted here." });
  }
  const type = request.headers.get("content-type");
  if (type !== null && !/^application\/json\s*(;|$)/i.test(type.trim())) {
    return errorResponse(
      DomainError.invalid("", `Content-Type must be application/json, not ${type.slice(0, 64)}`, "CONTENT_TYPE_INVALID"),
    );
  }
}

/**
 * The server's own origin: the public base URL, or the host the request was sent to
 * (whatever name the server is reached by; behind a TLS proxy the scheme differs, the host not).
 */
function sameOrigin(origin: string, request: Request, urls: Urls): boolean {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file: pages) and garbage
  }
  if (o.origin === new URL(urls.base).origin) return true;
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return o.host === host.toLowerCase() && (o.protocol === "http:" || o.protocol === "https:");
}
