import { ok, route, type BotRoute } from "../http";

export const gatewayRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: "/gateway",
    summary: "The gateway's address",
    caller: "none",
    handler: ({ ctx: api }) => ok({ url: api.urls.gateway }),
  }),
  route({
    method: "GET",
    path: "/gateway/bot",
    summary: "The gateway's address, shards and session start limit",
    caller: "bot",
    handler: ({ ctx: api }) =>
      ok({
        url: api.urls.gateway,
        shards: 1,
        // Informational only (spec 2.8, 8.1 rule 6): IDENTIFY is not throttled.
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 86_400_000, max_concurrency: 1 },
      }),
  }),
];
