/** Roles of a server. */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { pathId, person } from "./http";
import { roleView } from "./views";
import { PermissionList, permissionBits } from "./schemas";

export const CreateRole = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    permissions: Type.Optional(PermissionList),
    color: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xffffff })),
    hoist: Type.Optional(Type.Boolean()),
    mentionable: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export function roleRoutes(p: ClientContext) {
  const core = p.core;
  return new Elysia()
    .get(
      "/guilds/:guild_id/roles",
      person(p, ({ me, params }) => core.guilds.roles(core.people.guild(me.id, pathId(params.guild_id, "guild")).id).map(roleView)),
    )
    .post(
      "/guilds/:guild_id/roles",
      person(p, async ({ me, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const b = await body(CreateRole);
        const role = core.people.createRole(me.id, g, {
          name: b.name,
          permissions: permissionBits(b.permissions, "permissions"),
          color: b.color,
          hoist: b.hoist,
          mentionable: b.mentionable,
        });
        return roleView(role);
      }),
    );
}
