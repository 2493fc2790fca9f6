/**
 * People moderating their servers: kick, ban, unban and role assignment, through the
 * same core rules as bots (permission bits and the role hierarchy). Kicking or banning
 * a bot reaches it as GUILD_DELETE. Internal ids, as everywhere in the people's API.
 */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { person } from "./http";
import { MAX_BAN_DELETE_SECONDS } from "../core/moderation";

export const BanBody = Type.Object({
  delete_message_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_BAN_DELETE_SECONDS })),
  reason: Type.Optional(Type.String({ maxLength: 512 })),
});

export const ReasonBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 512 })) });

export function moderationRoutes(p: ClientContext) {
  const mod = p.core.moderation;
  return new Elysia()
    .delete("/guilds/:guild_id/members/:user_id", person(p, async ({ me, params, body }) => {
      const b = await body(Type.Union([ReasonBody, Type.Undefined()]));
      mod.kick(params.guild_id, me.id, params.user_id, b?.reason ?? null);
    }))
    .put("/guilds/:guild_id/bans/:user_id", person(p, async ({ me, params, body }) => {
      const b = await body(Type.Union([BanBody, Type.Undefined()]));
      mod.ban(params.guild_id, me.id, params.user_id, { deleteMessageSeconds: b?.delete_message_seconds ?? 0, reason: b?.reason ?? null });
    }))
    .delete("/guilds/:guild_id/bans/:user_id", person(p, async ({ me, params, body }) => {
      const b = await body(Type.Union([ReasonBody, Type.Undefined()]));
      mod.unban(params.guild_id, me.id, params.user_id, b?.reason ?? null);
    }))
    .put("/guilds/:guild_id/members/:user_id/roles/:role_id", person(p, ({ me, params }) => {
      mod.addRole(params.guild_id, me.id, params.user_id, params.role_id);
    }))
    .delete("/guilds/:guild_id/members/:user_id/roles/:role_id", person(p, ({ me, params }) => {
      mod.removeRole(params.guild_id, me.id, params.user_id, params.role_id);
    }));
}
