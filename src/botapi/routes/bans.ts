import { Type } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute } from "../http";
import { Nullable } from "../../wire/validation";
import { type Ban, MAX_BAN_DELETE_SECONDS, type User } from "../../core";
import { userJson } from "../../wire/serializers/user";
import { boundQuery, idParam, intQuery, memberGuild } from "./guilds";
import type { BotApi } from "../context";

export const BanBody = Type.Object({
  delete_message_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_BAN_DELETE_SECONDS }))),
  /** Deprecated alias, in days. */
  delete_message_days: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 7 }))),
});

/** Ban (reference-gaps 3.11). */
function banJson(api: BotApi, b: { ban: Ban; user: User }) {
  return { reason: b.ban.reason, user: userJson(api.flakes, b.user) };
}

export const banRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: "/guilds/{guild_id}/bans",
    caller: "bot",
    summary: "A server's bans (BAN_MEMBERS)",
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
      before: Type.Optional(Type.String()),
      after: Type.Optional(Type.String()),
    }),
    handler: (req) => {
      const gid = memberGuild(req);
      const page = {
        limit: intQuery(req, "limit", 1000, 1, 1000),
        before: boundQuery(req, "before", false),
        after: boundQuery(req, "after", true),
      };
      return ok(req.ctx.core.moderation.bans(gid, req.caller.botUserId, page).map((b) => banJson(req.ctx, b)));
    },
  }),
  route({
    method: "GET",
    path: "/guilds/{guild_id}/bans/{user_id}",
    caller: "bot",
    summary: "One ban",
    handler: (req) => {
      const gid = memberGuild(req);
      return ok(banJson(req.ctx, req.ctx.core.moderation.getBan(gid, req.caller.botUserId, idParam(req, "user_id", "ban"))));
    },
  }),
  route({
    method: "PUT",
    path: "/guilds/{guild_id}/bans/{user_id}",
    caller: "bot",
    summary: "Ban someone, deleting their recent messages if asked",
    body: BanBody,
    bodyOptional: true,
    handler: (req) => {
      const gid = memberGuild(req);
      const uid = idParam(req, "user_id", "user");
      const b = req.body();
      const seconds = b.delete_message_seconds ?? (b.delete_message_days != null ? b.delete_message_days * 86_400 : 0);
      req.ctx.core.moderation.ban(gid, req.caller.botUserId, uid, { deleteMessageSeconds: seconds, reason: req.auditReason });
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: "/guilds/{guild_id}/bans/{user_id}",
    caller: "bot",
    summary: "Lift a ban",
    handler: (req) => {
      const gid = memberGuild(req);
      req.ctx.core.moderation.unban(gid, req.caller.botUserId, idParam(req, "user_id", "ban"), req.auditReason);
      return noContent();
    },
  }),
];
