/**
 * The bot API (REST under /api/v10): the table of contents. One line per resource
 * area; each area's routes are declared in their own file under routes/ (wire/route.ts)
 * and run by the one pipeline through the bot API's door (http.ts).
 */
import type { BotApi } from "./context";
import { notImplemented, type BotRoute } from "./http";
import type { Door } from "../wire/pipeline";
import { fallback, mount, type Mounted, type RouteHost } from "../wire/mount";
import { routeKey } from "../wire/route";
import type { RateLimitRule } from "../config";
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
import { pinRoutes } from "./routes/pins";
import { emojiRoutes } from "./routes/emojis";
import { guildEditRoutes } from "./routes/guild-edit";

/** Routes whose bodies carry images as data URIs: a door of their own with a larger body limit (http.ts). */
export const botImageRoutes: BotRoute[] = [...emojiRoutes, ...guildEditRoutes];

export const botApiRoutes: BotRoute[] = [
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
  ...pinRoutes,
];

/** The spec's rate-limit rules (8.1), read off the declarations: "METHOD /template" -> rule. */
export function botApiLimits(routes: BotRoute[] = botApiRoutes): Record<string, RateLimitRule> {
  return Object.fromEntries(routes.filter((r) => r.limit).map((r) => [routeKey(r), r.limit!]));
}

/** The bot API's part of the API description, read off the declarations (wire/openapi.ts). */
export const BOT_API_DESCRIPTION = {
  tag: "bot",
  description:
    "The bot API: the reference platform's v10 dialect, for bot libraries (discord.js, discord.py). Ids are snowflakes; answers are the reference's JSON shapes; every route not listed answers 501.",
};

/** Every declared route on the app, and the spec's 501 for every other path under /api/v10. */
export function mountBotApi(app: RouteHost, door: Door<BotApi>, routes: BotRoute[] = botApiRoutes): Mounted<BotApi> {
  const mounted = mount(app, door, routes);
  fallback(app, "/api/v10/*", (request) => notImplemented(door, request));
  fallback(app, "/api/v10", (request) => notImplemented(door, request));
  return mounted;
}
