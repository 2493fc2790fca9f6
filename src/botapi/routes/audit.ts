import { ok, type RouteDef } from "../http";
import { DomainError } from "../../core/errors";
import { PERMISSIONS } from "../../core/permissions";
import { auditLogJson } from "../../wire/serializers/audit";
import { boundQuery, intQuery, memberGuild } from "./guilds";

export const auditRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/guilds/{guild_id}/audit-logs",
    auth: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      req.api.core.guilds.requirePermission(gid, req.bot.botUserId, PERMISSIONS.VIEW_AUDIT_LOG);
      const limit = intQuery(req, "limit", 50, 1, 100);
      const actionType = req.query.get("action_type") ? intQuery(req, "action_type", 0, 0, 1000) : undefined;
      const userFlake = req.query.get("user_id");
      let actorId: string | undefined;
      if (userFlake) {
        if (!/^[0-9]{1,20}$/.test(userFlake)) throw DomainError.invalid("user_id", `Value "${userFlake}" is not snowflake.`, "NUMBER_TYPE_COERCE");
        // An id that never crossed the boundary acted on nothing: match no entry.
        actorId = req.api.flakes.uuid(userFlake) ?? "-";
      }
      const rows = req.api.core.audit.list(gid, {
        actorId,
        actionType,
        before: boundQuery(req, "before", false),
        after: boundQuery(req, "after", true),
        limit,
      });
      return ok(auditLogJson(req.api.flakes, req.api.core.reads.auditLog(rows)));
    },
  },
];
