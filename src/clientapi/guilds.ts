/** Servers: create, read, edit, leave; their members (roles are given and taken in moderation.ts). */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { CreateGuild, EditGuild } from "../contract";
import * as C from "../contract";
import { pathId, route, type PeopleRoute } from "./http";
import { guildView, memberViewOf } from "./views";

export function guildRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/guilds",
      caller: "session",
      summary: "The servers one is in",
      answer: Type.Array(C.Guild),
      handler: ({ caller: { user: me } }) => core.guilds.guildIdsOf(me.id).map((id) => guildView(core, core.guilds.require(id), me.id)),
    }),
    route({
      method: "POST",
      path: "/guilds",
      caller: "session",
      summary: "Create a server",
      answer: C.Guild,
      body: CreateGuild,
      handler: ({ caller: { user: me }, body }) => {
        const b = body();
        return guildView(core, core.people.createGuild(me.id, b.name), me.id);
      },
    }),
    route({
      method: "GET",
      path: "/guilds/{guild_id}",
      caller: "session",
      summary: "A server",
      answer: C.Guild,
      handler: ({ caller: { user: me }, params }) => guildView(core, core.people.guild(me.id, pathId(params.guild_id, "guild")), me.id),
    }),
    route({
      method: "PATCH",
      path: "/guilds/{guild_id}",
      caller: "session",
      summary: "Edit a server",
      answer: C.Guild,
      body: EditGuild,
      handler: ({ caller: { user: me }, params, body }) => {
        const id = pathId(params.guild_id, "guild");
        const b = body();
        return guildView(core, core.people.updateGuild(me.id, id, b), me.id);
      },
    }),
    route({
      method: "DELETE",
      path: "/users/@me/guilds/{guild_id}",
      caller: "session",
      summary: "Leave a server",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.people.leave(me.id, pathId(params.guild_id, "guild"));
      },
    }),
    route({
      method: "GET",
      path: "/guilds/{guild_id}/members",
      caller: "session",
      summary: "A server's members",
      answer: Type.Array(C.Member),
      handler: ({ caller: { user: me }, params }) => {
        const g = core.people.guild(me.id, pathId(params.guild_id, "guild"));
        return core.reads.guilds.members(g.id).flatMap((m) => (m.user ? [memberViewOf({ ...m, user: m.user })] : []));
      },
    }),
  ];
}
