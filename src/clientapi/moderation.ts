/**
 * People moderating their servers: kick, ban, unban and role assignment, through the
 * same core rules as bots (permission bits and the role hierarchy). Kicking or banning
 * a bot reaches it as GUILD_DELETE. Internal ids, as everywhere in the people's API.
 */
import type { ClientContext } from "./context";
import { BanBody, ReasonBody } from "../contract";
import { route, type PeopleRoute } from "./http";

export function moderationRoutes(p: ClientContext): PeopleRoute[] {
  const mod = p.core.moderation;
  return [
    route({
      method: "DELETE",
      path: "/guilds/{guild_id}/members/{user_id}",
      caller: "session",
      summary: "Kick a member",
      answers: "empty",
      body: ReasonBody,
      bodyOptional: true,
      handler: ({ caller: { user: me }, params, body }) => {
        const b = body();
        mod.kick(params.guild_id, me.id, params.user_id, b.reason ?? null);
      },
    }),
    route({
      method: "PUT",
      path: "/guilds/{guild_id}/bans/{user_id}",
      caller: "session",
      summary: "Ban someone",
      answers: "empty",
      body: BanBody,
      bodyOptional: true,
      handler: ({ caller: { user: me }, params, body }) => {
        const b = body();
        mod.ban(params.guild_id, me.id, params.user_id, { deleteMessageSeconds: b.delete_message_seconds ?? 0, reason: b.reason ?? null });
      },
    }),
    route({
      method: "DELETE",
      path: "/guilds/{guild_id}/bans/{user_id}",
      caller: "session",
      summary: "Lift a ban",
      answers: "empty",
      body: ReasonBody,
      bodyOptional: true,
      handler: ({ caller: { user: me }, params, body }) => {
        const b = body();
        mod.unban(params.guild_id, me.id, params.user_id, b.reason ?? null);
      },
    }),
    route({
      method: "PUT",
      path: "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
      caller: "session",
      summary: "Give a member a role",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        mod.addRole(params.guild_id, me.id, params.user_id, params.role_id);
      },
    }),
    route({
      method: "DELETE",
      path: "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
      caller: "session",
      summary: "Take a role from a member",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        mod.removeRole(params.guild_id, me.id, params.user_id, params.role_id);
      },
    }),
  ];
}
