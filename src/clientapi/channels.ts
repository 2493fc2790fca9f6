/** Channels of a server and their permission overwrites. */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { pathId, person } from "./http";
import { channelView } from "./views";
import { PermissionList, permissionBits, Uuid } from "./schemas";

export const CreateChannel = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    type: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(2), Type.Literal(4), Type.Literal(5)])),
    topic: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
    parent_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
    nsfw: Type.Optional(Type.Boolean()),
    rate_limit_per_user: Type.Optional(Type.Integer({ minimum: 0, maximum: 21600 })),
  },
  { additionalProperties: false },
);

export const Overwrite = Type.Object(
  {
    type: Type.Union([Type.Literal("role"), Type.Literal("member")]),
    allow: Type.Optional(PermissionList),
    deny: Type.Optional(PermissionList),
  },
  { additionalProperties: false },
);

export function channelRoutes(p: ClientContext) {
  const core = p.core;
  return new Elysia()
    .get(
      "/guilds/:guild_id/channels",
      person(p, ({ me, params }) => {
        const g = core.people.guild(me.id, pathId(params.guild_id, "guild"));
        return core.guilds.channels(g.id).map((c) => channelView(core, c));
      }),
    )
    .post(
      "/guilds/:guild_id/channels",
      person(p, async ({ me, params, body }) => {
        const g = pathId(params.guild_id, "guild");
        const b = await body(CreateChannel);
        const c = core.people.createChannel(me.id, g, {
          name: b.name,
          type: b.type,
          topic: b.topic ?? null,
          parentId: b.parent_id ?? null,
          nsfw: b.nsfw,
          rateLimitPerUser: b.rate_limit_per_user,
        });
        return channelView(core, c);
      }),
    )
    .get(
      "/channels/:channel_id",
      person(p, ({ me, params }) => channelView(core, core.people.channel(me.id, pathId(params.channel_id, "channel")), me.id)),
    )
    .put(
      "/channels/:channel_id/overwrites/:target_id",
      person(p, async ({ me, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        const target = pathId(params.target_id, "overwrite target");
        core.channels.access(me.id, c);
        const b = await body(Overwrite);
        const allow = permissionBits(b.allow, "allow") ?? 0;
        const deny = permissionBits(b.deny, "deny") ?? 0;
        core.channels.putOverwrite(me.id, c, target, b.type === "role" ? 0 : 1, allow, deny);
        return channelView(core, core.channels.get(me.id, c), me.id);
      }),
    )
    .delete(
      "/channels/:channel_id/overwrites/:target_id",
      person(p, ({ me, params }) => {
        const c = pathId(params.channel_id, "channel");
        core.channels.deleteOverwrite(me.id, c, pathId(params.target_id, "overwrite"));
        return channelView(core, core.channels.get(me.id, c), me.id);
      }),
    );
}
