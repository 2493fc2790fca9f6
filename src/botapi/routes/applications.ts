import { ok, route, type BotRoute, type Req } from "../http";
import { applicationJson } from "../../wire/serializers/application";

function own({ ctx: api, caller: bot }: Req) {
  const a = api.core.apps.require(bot.app.id);
  return ok(applicationJson(api.flakes, a, api.core.users.require(a.bot_user_id), api.core.users.get(a.owner_id)));
}

/** discord.py calls /oauth2/applications/@me at login; both paths answer the bot's own application. */
export const applicationRoutes: BotRoute[] = [
  route({ method: "GET", path: "/applications/@me", caller: "bot", summary: "The bot's own application", handler: own }),
  route({
    method: "GET",
    path: "/oauth2/applications/@me",
    caller: "bot",
    summary: "The bot's own application (the OAuth2 path discord.py reads at login)",
    handler: own,
  }),
];
