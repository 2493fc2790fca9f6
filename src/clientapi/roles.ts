/**
 * Roles of a server: list, create, edit, delete and reorder, through the same core
 * operations as the bot API (core/roles.ts), so the hierarchy, the bits one may grant and
 * the audit entries are the same whoever asks.
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { CreateRole, EditRole, ReorderRoles } from "../contract";
import * as C from "../contract";
import { pathId, route, type PeopleRoute } from "./http";
import { roleView } from "./views";
import { permissionBits } from "./schemas";

export function roleRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/guilds/{guild_id}/roles",
      caller: "session",
      summary: "A server's roles",
      answer: Type.Array(C.Role),
      handler: ({ caller: { user: me }, params }) =>
        core.guilds.roles(core.people.guild(me.id, pathId(params.guild_id, "guild")).id).map(roleView),
    }),
    route({
      method: "POST",
      path: "/guilds/{guild_id}/roles",
      caller: "session",
      summary: "Create a role (just above @everyone)",
      answer: C.Role,
      body: CreateRole,
      handler: ({ caller: { user: me }, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const b = body();
        // A person's new role holds nothing unless asked (the bot API's default is @everyone's bits).
        const role = core.roles.create(g, me.id, { ...b, permissions: permissionBits(b.permissions, "permissions") ?? 0 });
        return roleView(role);
      },
    }),
    route({
      method: "PATCH",
      path: "/guilds/{guild_id}/roles",
      caller: "session",
      summary: "Reorder roles below one's highest",
      answer: Type.Array(C.Role),
      body: ReorderRoles,
      handler: ({ caller: { user: me }, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const b = body();
        return core.roles
          .reorder(
            g,
            me.id,
            b.map((it) => ({ roleId: it.id, position: it.position })),
          )
          .map(roleView);
      },
    }),
    route({
      method: "PATCH",
      path: "/guilds/{guild_id}/roles/{role_id}",
      caller: "session",
      summary: "Edit a role",
      answer: C.Role,
      body: EditRole,
      handler: ({ caller: { user: me }, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const r = pathId(params.role_id, "role");
        const b = body();
        return roleView(core.roles.edit(g, r, me.id, { ...b, permissions: permissionBits(b.permissions, "permissions") }));
      },
    }),
    route({
      method: "DELETE",
      path: "/guilds/{guild_id}/roles/{role_id}",
      caller: "session",
      summary: "Delete a role",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.roles.delete(pathId(params.guild_id, "guild"), pathId(params.role_id, "role"), me.id);
      },
    }),
  ];
}
