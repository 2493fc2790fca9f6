/** Servers: create, read, edit, leave; their members (roles are given and taken in moderation.ts). */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { pathId, route, type PeopleRoute } from "./http";
import { guildView, memberViewOf } from "./views";

export const CreateGuild = Type.Object({ name: Type.String({ minLength: 2, maxLength: 100 }) }, { additionalProperties: false });
export const EditGuild = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 100 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 120 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export function guildRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/guilds",
      caller: "session",
      summary: "The servers one is in",
      handler: ({ caller: { user: me } }) => core.guilds.guildIdsOf(me.id).map((id) => guildView(core, core.guilds.require(id), me.id)),
    }),
    route({
      method: "POST",
      path: "/guilds",
      caller: "session",
      summary: "Create a server",
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
      handler: ({ caller: { user: me }, params }) => guildView(core, core.people.guild(me.id, pathId(params.guild_id, "guild")), me.id),
    }),
    route({
      method: "PATCH",
      path: "/guilds/{guild_id}",
      caller: "session",
      summary: "Edit a server",
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
      handler: ({ caller: { user: me }, params }) => {
        core.people.leave(me.id, pathId(params.guild_id, "guild"));
      },
    }),
    route({
      method: "GET",
      path: "/guilds/{guild_id}/members",
      caller: "session",
      summary: "A server's members",
      handler: ({ caller: { user: me }, params }) => {
        const g = core.people.guild(me.id, pathId(params.guild_id, "guild"));
        return core.reads.guilds.members(g.id).flatMap((m) => (m.user ? [memberViewOf({ ...m, user: m.user })] : []));
      },
    }),
  ];
}
