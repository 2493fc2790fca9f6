/**
 * The image proxy (docs/operations.md, docs/security.md finding 10): when the operator
 * turns it on, embeds' pictures are linked to `/api/media/v1/external/<signature>?url=`
 * (src/wire/media.ts) and fetched here, so a viewer's browser never contacts the host a
 * bot chose. Only links this server signed are fetched; media-fetch.ts says from where
 * and what. No session is asked for: an <img> sends none, and bots read the links too.
 */
import { Type } from "@sinclair/typebox";
import { jsonResponse } from "../wire/http";
import { MEDIA_PATH } from "../wire/media";
import type { ClientContext } from "./context";
import { route, type PeopleRoute } from "./http";
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

export function mediaProxyRoutes(p: ClientContext): PeopleRoute[] {
  const rules: FetchRules | null = p.imageProxy && {
    addresses: new AddressRules(p.imageProxy.allow),
    maxBytes: p.imageProxy.maxBytes,
    clock: p.core.clock,
  };
  const unknown = () => jsonResponse(404, { code: 0, message: "404: Not Found" });
  return [
    route({
      method: "GET",
      path: "/external/{signature}",
      caller: "none",
      summary:
        "An embed's picture through the image proxy (when the operator turned it on): the link is an embed's proxy_url, `?url=` the address it was signed for",
      query: Type.Object({ url: Type.String() }),
      answers: "image",
      handler: async ({ params, query }) => {
        const url = query.get("url");
        if (!rules || !p.flakes.media || !url || !p.flakes.media.verify(url, params.signature)) return unknown();
        const got = await fetchImage(url, rules);
        if (got.ok) return new Response(got.body, { headers: { ...IMAGE_HEADERS, "Content-Type": got.type } });
        if (got.refused)
          return jsonResponse(403, { code: 0, message: `The image proxy does not fetch from this address (${got.reason}).` });
        return jsonResponse(502, { code: 0, message: `The image could not be fetched: ${got.reason}.` });
      },
    }),
  ];
}

/** Where the image proxy's routes live (its links are MEDIA_PATH + signature, wire/media.ts). */
export const MEDIA_PREFIX = MEDIA_PATH.replace(/\/external\/$/, "");
