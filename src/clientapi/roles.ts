/**
 * Roles of a server: list, create, edit, delete and reorder, through the same core
 * operations as the bot API (core/roles.ts), so the hierarchy, the bits one may grant and
 * the audit entries are the same whoever asks.
 */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { pathId, person } from "./http";
import { roleView } from "./views";
import { PermissionList, permissionBits, Uuid } from "./schemas";

const Fields = {
  permissions: Type.Optional(PermissionList),
  color: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xffffff })),
  hoist: Type.Optional(Type.Boolean()),
  mentionable: Type.Optional(Type.Boolean()),
};

export const CreateRole = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), ...Fields }, { additionalProperties: false });
export const EditRole = Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...Fields }, { additionalProperties: false });
export const ReorderRoles = Type.Array(
  Type.Object({ id: Uuid, position: Type.Integer({ minimum: 0, maximum: 1000 }) }, { additionalProperties: false }),
  { maxItems: 250 },
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
        // A person's new role holds nothing unless asked (the bot API's default is @everyone's bits).
        const role = core.roles.create(g, me.id, { ...b, permissions: permissionBits(b.permissions, "permissions") ?? 0 });
        return roleView(role);
      }),
    )
    .patch(
      "/guilds/:guild_id/roles",
      person(p, async ({ me, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const b = await body(ReorderRoles);
        return core.roles.reorder(g, me.id, b.map((it) => ({ roleId: it.id, position: it.position }))).map(roleView);
      }),
    )
    .patch(
      "/guilds/:guild_id/roles/:role_id",
      person(p, async ({ me, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const r = pathId(params.role_id, "role");
        const b = await body(EditRole);
        return roleView(core.roles.edit(g, r, me.id, { ...b, permissions: permissionBits(b.permissions, "permissions") }));
      }),
    )
    .delete(
      "/guilds/:guild_id/roles/:role_id",
      person(p, ({ me, params }) => {
        core.roles.delete(pathId(params.guild_id, "guild"), pathId(params.role_id, "role"), me.id);
      }),
    );
}
