import { Type } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute } from "../http";
import { DomainError } from "../../core";
import { selfUserJson, userJson } from "../../wire/serializers/user";
import { partialGuildJson } from "../../wire/serializers/guild";

function clampInt(v: string | null, def: number, min: number, max: number, name: string): number {
  if (v === null || v === "") return def;
  if (!/^\d+$/.test(v)) throw DomainError.invalid(name, `Value "${v}" is not int.`, "NUMBER_TYPE_COERCE");
  const n = Number(v);
  if (n < min || n > max) throw DomainError.invalid(name, `Must be between ${min} and ${max}.`, "NUMBER_TYPE_MAX");
  return n;
}

export const userRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: "/users/@me",
    summary: "The bot's own user",
    caller: "bot",
    handler: ({ ctx: api, caller: bot }) => ok(selfUserJson(api.flakes, api.core.users.require(bot.botUserId))),
  }),
  route({
    method: "GET",
    path: "/users/{user_id}",
    summary: "A user",
    caller: "bot",
    handler: ({ ctx: api, params }) => {
      const id = api.flakes.uuid(params.user_id);
      const u = id ? api.core.users.get(id) : null;
      if (!u || u.deleted_at) throw DomainError.notFound("user");
      return ok(userJson(api.flakes, u, "false"));
    },
  }),
  route({
    method: "GET",
    path: "/users/@me/guilds",
    summary: "The servers the bot is in",
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
      before: Type.Optional(Type.String()),
      after: Type.Optional(Type.String()),
      with_counts: Type.Optional(Type.Boolean()),
    }),
    caller: "bot",
    handler: ({ ctx: api, caller: bot, query }) => {
      const limit = clampInt(query.get("limit"), 200, 1, 200, "limit");
      const before = query.get("before");
      const after = query.get("after");
      let ids = api.core.guilds.guildIdsOf(bot.botUserId);
      if (after) ids = ids.filter((g) => g > api.flakes.bound(after, true));
      if (before) ids = ids.filter((g) => g < api.flakes.bound(before, false));
      const withCounts = /^(true|1)$/i.test(query.get("with_counts") ?? "");
      const slice = before && !after ? ids.slice(-limit) : ids.slice(0, limit);
      return ok(
        slice.map((g) =>
          partialGuildJson(api.flakes, api.core.reads.guilds.partialGuild(g, bot.botUserId, { counts: withCounts }), bot.botUserId),
        ),
      );
    },
  }),
  route({
    method: "DELETE",
    path: "/users/@me/guilds/{guild_id}",
    summary: "Leave a server",
    caller: "bot",
    handler: ({ ctx: api, caller: bot, params }) => {
      const gid = api.flakes.uuid(params.guild_id);
      if (!gid || !api.core.guilds.isMember(gid, bot.botUserId)) throw DomainError.notFound("guild");
      api.core.guilds.removeMember(gid, bot.botUserId);
      return noContent();
    },
  }),
];
