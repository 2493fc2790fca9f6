/** Servers: create, read, edit, leave; their members (roles are given and taken in moderation.ts). */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { pathId, person } from "./http";
import { guildView, memberViewOf } from "./views";

export const CreateGuild = Type.Object({ name: Type.String({ minLength: 2, maxLength: 100 }) }, { additionalProperties: false });
export const EditGuild = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 100 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 120 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export function guildRoutes(p: ClientContext) {
  const core = p.core;
  return new Elysia()
    .get(
      "/guilds",
      person(p, ({ me }) => core.guilds.guildIdsOf(me.id).map((id) => guildView(core, core.guilds.require(id), me.id))),
    )
    .post(
      "/guilds",
      person(p, async ({ me, body }) => {
        const b = await body(CreateGuild);
        return guildView(core, core.people.createGuild(me.id, b.name), me.id);
      }),
    )
    .get(
      "/guilds/:guild_id",
      person(p, ({ me, params }) => guildView(core, core.people.guild(me.id, pathId(params.guild_id, "guild")), me.id)),
    )
    .patch(
      "/guilds/:guild_id",
      person(p, async ({ me, params, body }) => {
        const id = pathId(params.guild_id, "guild");
        const b = await body(EditGuild);
        return guildView(core, core.people.updateGuild(me.id, id, b), me.id);
      }),
    )
    .delete(
      "/users/@me/guilds/:guild_id",
      person(p, ({ me, params }) => {
        core.people.leave(me.id, pathId(params.guild_id, "guild"));
      }),
    )
    .get(
      "/guilds/:guild_id/members",
      person(p, ({ me, params }) => {
        const g = core.people.guild(me.id, pathId(params.guild_id, "guild"));
        return core.reads.guilds.members(g.id).flatMap((m) => (m.user ? [memberViewOf({ ...m, user: m.user })] : []));
      }),
    );
}
