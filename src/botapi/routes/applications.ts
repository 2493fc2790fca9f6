import type { RouteDef, Req } from "../http";
import { ok } from "../http";
import { applicationJson } from "../../wire/serializers/application";

function own({ api, bot }: Req) {
  const a = api.core.apps.require(bot.app.id);
  return ok(applicationJson(api.flakes, a, api.core.users.require(a.bot_user_id), api.core.users.get(a.owner_id)));
}

/** discord.py calls /oauth2/applications/@me at login; both paths answer the bot's own application. */
export const applicationRoutes: RouteDef[] = [
  { method: "GET", path: "/applications/@me", auth: "bot", handler: own },
  { method: "GET", path: "/oauth2/applications/@me", auth: "bot", handler: own },
];
