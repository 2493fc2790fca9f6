import type { RouteDef } from "../http";
import { ok } from "../http";

export const gatewayRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/gateway",
    auth: "none",
    handler: ({ api }) => ok({ url: api.urls.gateway }),
  },
  {
    method: "GET",
    path: "/gateway/bot",
    auth: "bot",
    handler: ({ api }) =>
      ok({
        url: api.urls.gateway,
        shards: 1,
        // Informational only (spec 2.8, 8.1 rule 6): IDENTIFY is not throttled.
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 86_400_000, max_concurrency: 1 },
      }),
  },
];
