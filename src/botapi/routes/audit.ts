import { Type } from "@sinclair/typebox";
import { ok, route, type BotRoute } from "../http";
import { DomainError } from "../../core";
import { auditLogJson } from "../../wire/serializers/audit";
import { boundQuery, intQuery, memberGuild } from "./guilds";

export const auditRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: "/guilds/{guild_id}/audit-logs",
    caller: "bot",
    summary: "A server's audit log (VIEW_AUDIT_LOG)",
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      action_type: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
      user_id: Type.Optional(Type.String()),
      before: Type.Optional(Type.String()),
      after: Type.Optional(Type.String()),
    }),
    handler: (req) => {
      const gid = memberGuild(req);
      const limit = intQuery(req, "limit", 50, 1, 100);
      const actionType = req.query.get("action_type") ? intQuery(req, "action_type", 0, 0, 1000) : undefined;
      const userFlake = req.query.get("user_id");
      let actorId: string | undefined;
      if (userFlake) {
        if (!/^[0-9]{1,20}$/.test(userFlake))
          throw DomainError.invalid("user_id", `Value "${userFlake}" is not snowflake.`, "NUMBER_TYPE_COERCE");
        // An id that never crossed the boundary acted on nothing: match no entry.
        actorId = req.ctx.flakes.uuid(userFlake) ?? "-";
      }
      // The core checks VIEW_AUDIT_LOG, for bots as for people.
      const rows = req.ctx.core.audit.forMember(req.caller.botUserId, gid, {
        actorId,
        actionType,
        before: boundQuery(req, "before", false),
        after: boundQuery(req, "after", true),
        limit,
      });
      return ok(auditLogJson(req.ctx.flakes, req.ctx.core.reads.auditLog(rows)));
    },
  }),
];
