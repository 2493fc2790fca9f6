/**
 * Running a server as a person: a member's nickname and roles, the ban list, the server's
 * invites, its audit log, its channels' order and categories, giving it away and deleting
 * it. Every right is the core's (the same rules and hierarchy as for bots); this file
 * only reads ids and shapes answers (docs/people-api.md).
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { EditMember, ReorderChannels, TransferOwnership } from "../contract";
import * as C from "../contract";
import { DomainError } from "../core";
import { pathId, route, type PeopleRoute } from "./http";
import { channelView, guildView, inviteView, memberViewOf } from "./views";
import { auditEntryView, banView, deletionView } from "./community-views";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An optional whole-number query parameter within bounds; anything else is 400 naming it. */
function intQuery(q: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const v = q.get(name);
  if (v === null || v === "") return undefined;
  if (!/^\d{1,6}$/.test(v) || +v < min || +v > max)
    throw DomainError.invalid(name, `Must be a whole number from ${min} to ${max}.`, "NUMBER_TYPE_COERCE");
  return +v;
}

/** An optional id query parameter: anything not shaped like one is 400 naming it. */
function idQuery(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  if (v === null || v === "") return undefined;
  if (!UUID.test(v)) throw DomainError.invalid(name, "Not an id.", "ID_INVALID");
  return v;
}

/** Body ids that are not ids name nothing: the core reports them by index. */
const idOrNull = (v: string) => (UUID.test(v) ? v : null);

/** Longer than 80 lines because it is a table: one declaration per route. */
export function communityRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "PATCH",
      path: "/guilds/{guild_id}/members/{user_id}",
      caller: "session",
      summary: "Edit a member: nickname, roles (MANAGE_NICKNAMES / MANAGE_ROLES, below one's rank)",
      answer: C.Member,
      body: EditMember,
      handler: ({ caller: { user: me }, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const u = pathId(params.user_id, "member");
        const b = body();
        const patch = {
          ...(b.nick === undefined ? {} : { nick: b.nick === "" ? null : b.nick }),
          ...(b.roles === undefined ? {} : { roles: b.roles.map(idOrNull) }),
        };
        core.moderation.editMember(g, me.id, u, patch, b.reason ?? null);
        const m = core.reads.guilds.member(g, u);
        if (!m?.user) throw DomainError.notFound("member");
        return memberViewOf({ ...m, user: m.user });
      },
    }),
    route({
      method: "GET",
      path: "/guilds/{guild_id}/bans",
      caller: "session",
      summary: "A server's bans, with their reasons (BAN_MEMBERS)",
      answer: Type.Array(C.Ban),
      handler: ({ caller: { user: me }, params }) =>
        core.moderation.bans(pathId(params.guild_id, "guild"), me.id, { limit: 1000 }).map(banView),
    }),
    route({
      method: "GET",
      path: "/guilds/{guild_id}/invites",
      caller: "session",
      summary: "A server's invites, with their uses and creators (MANAGE_GUILD)",
      answer: Type.Array(C.Invite),
      handler: ({ caller: { user: me }, params }) =>
        core.invites.forGuild(me.id, pathId(params.guild_id, "guild")).map((i) => inviteView(core, i)),
    }),
    route({
      method: "GET",
      path: "/guilds/{guild_id}/audit-log",
      caller: "session",
      summary: "A server's audit log, newest first, by action and by person (VIEW_AUDIT_LOG)",
      query: Type.Object({
        action_type: Type.Optional(Type.Integer()),
        user_id: Type.Optional(Type.String()),
        before: Type.Optional(Type.String()),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      }),
      answer: Type.Array(C.AuditEntry),
      handler: ({ caller: { user: me }, params, query }) => {
        const g = pathId(params.guild_id, "guild");
        const rows = core.audit.forMember(me.id, g, {
          actionType: intQuery(query, "action_type", 0, 1000),
          actorId: idQuery(query, "user_id"),
          before: idQuery(query, "before"),
          limit: intQuery(query, "limit", 1, 100) ?? 50,
        });
        const user = (id: string | null) => (id ? core.users.get(id) : null);
        return rows.map((r) => auditEntryView(r, user(r.actor_id), user(r.target_id)));
      },
    }),
    route({
      method: "PATCH",
      path: "/guilds/{guild_id}/channels",
      caller: "session",
      summary: "Reorder channels, and move one into or out of a category (MANAGE_CHANNELS)",
      answer: Type.Array(C.Channel),
      body: ReorderChannels,
      handler: ({ caller: { user: me }, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const moves = body().map((m) => ({
          channelId: idOrNull(m.id),
          position: m.position,
          lockPermissions: m.lock_permissions,
          ...(m.parent_id === undefined ? {} : { parentId: m.parent_id === null ? null : (idOrNull(m.parent_id) ?? "") }),
        }));
        return core.channels.reorder(me.id, g, moves).map((c) => channelView(core, c, me.id));
      },
    }),
    route({
      method: "PUT",
      path: "/guilds/{guild_id}/owner",
      caller: "session",
      summary: "Give the server to another member (its owner)",
      answer: C.Guild,
      body: TransferOwnership,
      handler: ({ caller: { user: me }, params, body }) => {
        const b = body();
        const g = core.servers.transfer(me.id, pathId(params.guild_id, "guild"), pathId(b.owner_id, "member"), b.reason ?? null);
        return guildView(core, g, me.id);
      },
    }),
    route({
      method: "GET",
      path: "/guilds/{guild_id}/deletion",
      caller: "session",
      summary: "What deleting the server would take with it (its owner)",
      answer: C.GuildDeletion,
      handler: ({ caller: { user: me }, params }) => deletionView(core.servers.deletion(me.id, pathId(params.guild_id, "guild"))),
    }),
    route({
      method: "DELETE",
      path: "/guilds/{guild_id}",
      caller: "session",
      summary: "Delete the server and everything in it (its owner)",
      answer: C.GuildDeletion,
      handler: ({ caller: { user: me }, params }) => deletionView(core.servers.delete(me.id, pathId(params.guild_id, "guild"))),
    }),
  ];
}
