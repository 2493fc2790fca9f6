/**
 * The image proxy (docs/operations.md, docs/security.md finding 10): when the operator
 * turns it on, embeds' pictures are linked to `/api/media/v1/external/<signature>?url=`
 * (src/wire/media.ts) and fetched here, so a viewer's browser never contacts the host a
 * bot chose. Only links this server signed are fetched; media-fetch.ts says from where
 * and what. No session is asked for: an <img> sends none, and bots read the links too.
 */
import { Elysia } from "elysia";
import { jsonResponse } from "../wire/http";
import { MEDIA_PATH } from "../wire/media";
import type { ClientContext } from "./context";
import { AddressRules } from "./media-addresses";
import { fetchImage, type FetchRules } from "./media-fetch";

/** An image as the proxy passes it on: its own type, never sniffed, never a document that runs anything. */
const IMAGE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Cache-Control": "public, max-age=3600",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
};

export function mediaProxyRoutes(p: ClientContext) {
  const rules: FetchRules | null = p.imageProxy && { addresses: new AddressRules(p.imageProxy.allow), maxBytes: p.imageProxy.maxBytes, clock: p.core.clock };
  const unknown = () => jsonResponse(404, { code: 0, message: "404: Not Found" });
  return new Elysia({ name: "media" }).get(`${MEDIA_PATH}:signature`, async ({ params, request }) => {
    const url = new URL(request.url).searchParams.get("url");
    if (!rules || !p.flakes.media || !url || !p.flakes.media.verify(url, params.signature)) return unknown();
    const got = await fetchImage(url, rules);
    if (got.ok) return new Response(got.body, { headers: { ...IMAGE_HEADERS, "Content-Type": got.type } });
    if (got.refused) return jsonResponse(403, { code: 0, message: `The image proxy does not fetch from this address (${got.reason}).` });
    return jsonResponse(502, { code: 0, message: `The image could not be fetched: ${got.reason}.` });
  });
}
