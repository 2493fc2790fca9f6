import { Type } from "@sinclair/typebox";
import { noContent, ok, type RouteDef } from "../http";
import { Nullable } from "../../wire/validation";
import { MAX_BAN_DELETE_SECONDS } from "../../core/moderation";
import { userJson } from "../../wire/serializers/user";
import { boundQuery, idParam, intQuery, memberGuild } from "./guilds";
import type { BanRow } from "../../core/moderation";
import type { UserRow } from "../../core/types";
import type { BotApi } from "../context";

export const BanBody = Type.Object({
  delete_message_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_BAN_DELETE_SECONDS }))),
  /** Deprecated alias, in days. */
  delete_message_days: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 7 }))),
});

/** Ban (reference-gaps 3.11). */
function banJson(api: BotApi, b: { ban: BanRow; user: UserRow }) {
  return { reason: b.ban.reason, user: userJson(api.flakes, b.user) };
}

export const banRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/guilds/{guild_id}/bans",
    auth: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      const page = {
        limit: intQuery(req, "limit", 1000, 1, 1000),
        before: boundQuery(req, "before", false),
        after: boundQuery(req, "after", true),
      };
      return ok(req.api.core.moderation.bans(gid, req.bot.botUserId, page).map((b) => banJson(req.api, b)));
    },
  },
  {
    method: "GET",
    path: "/guilds/{guild_id}/bans/{user_id}",
    auth: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      return ok(banJson(req.api, req.api.core.moderation.getBan(gid, req.bot.botUserId, idParam(req, "user_id", "ban"))));
    },
  },
  {
    method: "PUT",
    path: "/guilds/{guild_id}/bans/{user_id}",
    auth: "bot",
    handler: async (req) => {
      const gid = memberGuild(req);
      const uid = idParam(req, "user_id", "user");
      const b = (await req.json()) === undefined ? {} : await req.body(BanBody);
      const seconds = b.delete_message_seconds ?? (b.delete_message_days != null ? b.delete_message_days * 86_400 : 0);
      req.api.core.moderation.ban(gid, req.bot.botUserId, uid, { deleteMessageSeconds: seconds, reason: req.auditReason });
      return noContent();
    },
  },
  {
    method: "DELETE",
    path: "/guilds/{guild_id}/bans/{user_id}",
    auth: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      req.api.core.moderation.unban(gid, req.bot.botUserId, idParam(req, "user_id", "ban"), req.auditReason);
      return noContent();
    },
  },
];
