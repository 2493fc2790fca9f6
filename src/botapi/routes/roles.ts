import { Type, type Static } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute } from "../http";
import { Nullable, Snowflake } from "../../wire/validation";
import { maskPermissions } from "../../core";
import { roleJson } from "../../wire/serializers/role";
import { idParam, memberGuild } from "./guilds";

const Permissions = Type.Union([Type.String({ pattern: "^[0-9]{1,20}$" }), Type.Integer({ minimum: 0 })]);
const Color = Type.Integer({ minimum: 0, maximum: 0xffffff });

const RoleFields = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  permissions: Type.Optional(Nullable(Permissions)),
  color: Type.Optional(Nullable(Color)),
  // discord.js 14.2x sends colors; only the primary one exists in Parley.
  colors: Type.Optional(
    Nullable(
      Type.Object({
        primary_color: Type.Optional(Nullable(Color)),
        secondary_color: Type.Optional(Nullable(Color)),
        tertiary_color: Type.Optional(Nullable(Color)),
      }),
    ),
  ),
  hoist: Type.Optional(Nullable(Type.Boolean())),
  mentionable: Type.Optional(Nullable(Type.Boolean())),
  icon: Type.Optional(Nullable(Type.String({ maxLength: 1_000_000 }))),
  unicode_emoji: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
};
/** Create and edit take the same fields (spec 2.6), every one optional and nullable. */
export const RoleBody = Type.Object(RoleFields);
export const ReorderRolesBody = Type.Array(
  Type.Object({ id: Snowflake, position: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1000 }))) }),
  { maxItems: 250 },
);

/** Body fields -> core fields; permission strings are masked to the 13 honoured bits (spec 2.9). */
function roleFields(b: Static<typeof RoleBody>) {
  const perms = b.permissions;
  return {
    name: b.name,
    permissions: perms === undefined || perms === null ? perms : maskPermissions(perms),
    color: b.color !== undefined ? b.color : b.colors?.primary_color,
    hoist: b.hoist,
    mentionable: b.mentionable,
    icon: b.icon,
    unicode_emoji: b.unicode_emoji,
  };
}

export const roleRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: "/guilds/{guild_id}/roles",
    summary: "A server's roles",
    caller: "bot",
    handler: (req) => ok(req.ctx.core.roles.list(memberGuild(req)).map((r) => roleJson(req.ctx.flakes, r))),
  }),
  route({
    method: "GET",
    path: "/guilds/{guild_id}/roles/{role_id}",
    summary: "One role",
    caller: "bot",
    handler: (req) => ok(roleJson(req.ctx.flakes, req.ctx.core.roles.get(memberGuild(req), idParam(req, "role_id", "role")))),
  }),
  route({
    method: "POST",
    path: "/guilds/{guild_id}/roles",
    summary: "Create a role",
    caller: "bot",
    body: RoleBody,
    bodyOptional: true,
    handler: (req) => {
      const gid = memberGuild(req);
      const body = req.body();
      const role = req.ctx.core.roles.create(gid, req.caller.botUserId, roleFields(body), req.auditReason);
      return ok(roleJson(req.ctx.flakes, role));
    },
  }),
  route({
    method: "PATCH",
    path: "/guilds/{guild_id}/roles",
    summary: "Reorder roles",
    caller: "bot",
    body: ReorderRolesBody,
    handler: (req) => {
      const gid = memberGuild(req);
      const body = req.body();
      const items = body.map((it) => ({ roleId: req.ctx.flakes.uuid(String(it.id)), position: it.position }));
      const roles = req.ctx.core.roles.reorder(gid, req.caller.botUserId, items, req.auditReason);
      return ok(roles.map((r) => roleJson(req.ctx.flakes, r)));
    },
  }),
  route({
    method: "PATCH",
    path: "/guilds/{guild_id}/roles/{role_id}",
    summary: "Edit a role",
    caller: "bot",
    body: RoleBody,
    bodyOptional: true,
    handler: (req) => {
      const gid = memberGuild(req);
      const rid = idParam(req, "role_id", "role");
      const body = req.body();
      const role = req.ctx.core.roles.edit(gid, rid, req.caller.botUserId, roleFields(body), req.auditReason);
      return ok(roleJson(req.ctx.flakes, role));
    },
  }),
  route({
    method: "DELETE",
    path: "/guilds/{guild_id}/roles/{role_id}",
    summary: "Delete a role",
    caller: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      req.ctx.core.roles.delete(gid, idParam(req, "role_id", "role"), req.caller.botUserId, req.auditReason);
      return noContent();
    },
  }),
];
