/**
 * The bot API (REST under /api/v10): the table of contents. One line per resource
 * area; each area's routes live in their own file under routes/.
 */
import { Elysia } from "elysia";
import type { BotApi } from "./context";
import { elysiaPath, notImplemented, run, type RouteDef } from "./http";
import { gatewayRoutes } from "./routes/gateway";
import { userRoutes } from "./routes/users";
import { applicationRoutes } from "./routes/applications";
import { unsupportedRoutes } from "./routes/unsupported";
import { messageRoutes } from "./routes/messages";
import { channelRoutes } from "./routes/channels";
import { reactionRoutes } from "./routes/reactions";
import { dmRoutes } from "./routes/dms";
import { inviteRoutes } from "./routes/invites";
import { guildRoutes } from "./routes/guilds";
import { roleRoutes } from "./routes/roles";
import { memberRoutes } from "./routes/members";
import { banRoutes } from "./routes/bans";
import { auditRoutes } from "./routes/audit";
import { webhookRoutes } from "./routes/webhooks";
import { commandRoutes } from "./routes/commands";
import { interactionRoutes } from "./routes/interactions";

export const botApiRoutes: RouteDef[] = [
  ...gatewayRoutes,
  ...userRoutes,
  ...applicationRoutes,
  ...messageRoutes,
  ...channelRoutes,
  ...reactionRoutes,
  ...dmRoutes,
  ...inviteRoutes,
  ...commandRoutes,
  ...interactionRoutes,
  ...unsupportedRoutes,
  ...guildRoutes,
  ...roleRoutes,
  ...memberRoutes,
  ...banRoutes,
  ...auditRoutes,
  ...webhookRoutes,
];

/** A handler of Bun.serve's native router. */
type ServerRoute = (req: Request & { params: Record<string, string> }) => Response | Promise<Response>;

/**
 * The same routes for Bun.serve's native router, which matches them before any
 * JavaScript runs (Elysia's router and context cost a cheap read about a fifth of its
 * time). Exact matches only: anything else (a trailing slash, a method a path lacks,
 * the 501 fallback) still reaches the Elysia app, which has every route, and tests
 * in-process (app.handle) take that way. Both end in run(); `screen` is the first look
 * the Elysia app gives every request (src/wire/screen.ts). One difference is handed
 * back: Bun decodes "%40me" into a parameter where Elysia matches the static "@me"
 * route, so a match with an "@" in a parameter goes to `elsewhere` (the Elysia app).
 */
export function botApiServerRoutes(
  api: BotApi,
  screen: (req: Request) => Response | undefined,
  elsewhere: (req: Request) => Response | Promise<Response>,
  routes: RouteDef[] = botApiRoutes,
) {
  const table: Record<string, Partial<Record<RouteDef["method"], ServerRoute>>> = {};
  for (const def of routes) {
    const byMethod = (table[elysiaPath(def.path)] ??= {});
    byMethod[def.method] = (req) => {
      const params = req.params;
      for (const k in params) if (params[k].includes("@")) return elsewhere(req);
      return screen(req) ?? run(api, def, req, params);
    };
  }
  return table;
}

export function botApiPlugin(api: BotApi, routes: RouteDef[] = botApiRoutes) {
  const app = new Elysia({ name: "botapi" });
  for (const def of routes) {
    // Elysia guesses from a handler's source whether it is async ("=> f(", "return f(",
    // "await") and then awaits every answer, costing each a turn of the event loop. run()
    // answers a cheap read synchronously; the two returns keep the transpiler from
    // folding the call into a "return run(" that Elysia would take for async
    // (test/http/sync-answers.test.ts keeps this so).
    const handler = ({ request, params }: { request: Request; params: Record<string, string> }) => {
      const answer = run(api, def, request, params);
      if (answer instanceof Promise) return answer;
      return answer;
    };
    app.route(def.method, elysiaPath(def.path), handler);
  }
  app.all("/api/v10/*", ({ request }) => notImplemented(api, request));
  app.all("/api/v10", ({ request }) => notImplemented(api, request));
  return app;
}
