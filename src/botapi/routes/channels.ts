import { Type, type Static } from "@sinclair/typebox";
import type { BotApi } from "../context";
import { noContent, ok, route, type BotRoute } from "../http";
import { type ChannelInput, DomainError, maskPermissions } from "../../core";
import { Nullable, Snowflake } from "../../wire/validation";
import { channelOut, deletedChannelOut } from "../present";
import { known } from "./ids";

const Bits = Type.Union([Type.String({ pattern: "^[0-9]{1,20}$" }), Type.Integer({ minimum: 0 })]);
const Overwrite = Type.Object({
  id: Snowflake,
  type: Type.Union([Type.Literal(0), Type.Literal(1)]),
  allow: Type.Optional(Nullable(Bits)),
  deny: Type.Optional(Nullable(Bits)),
});

const Fields = {
  topic: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  nsfw: Type.Optional(Nullable(Type.Boolean())),
  parent_id: Type.Optional(Nullable(Snowflake)),
  rate_limit_per_user: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 21600 }))),
  user_limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 99 }))),
  bitrate: Type.Optional(Nullable(Type.Integer({ minimum: 8000, maximum: 384000 }))),
  position: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  permission_overwrites: Type.Optional(Nullable(Type.Array(Overwrite, { maxItems: 100 }))),
};

/** CreateChannelBody (spec 2.5, reference-gaps 2.1a). */
export const CreateChannelBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  type: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  ...Fields,
});

/** EditChannelBody (spec 2.5): all optional and nullable. */
export const EditChannelBody = Type.Object({
  name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  type: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  ...Fields,
});

/** PATCH /guilds/{id}/channels (reference-gaps 2.1): an array of moves; only listed channels change. */
export const ReorderChannelsBody = Type.Array(
  Type.Object({
    id: Snowflake,
    position: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1000 }))),
    lock_permissions: Type.Optional(Nullable(Type.Boolean())),
    parent_id: Type.Optional(Nullable(Snowflake)),
  }),
  { maxItems: 500 },
);

function parentOf(api: BotApi, flake: string, path: string): string {
  const id = api.flakes.uuid(flake);
  if (!id) throw DomainError.invalid(path, "Not a category channel of this server", "CHANNEL_PARENT_INVALID");
  return id;
}

export const OverwriteBody = Type.Object({
  type: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal("0"), Type.Literal("1")]),
  allow: Type.Optional(Nullable(Bits)),
  deny: Type.Optional(Nullable(Bits)),
});

/** A permission bitfield: any 64-bit value is accepted and masked to the 13 bits (spec 2.9 rule 1). */
function bits(v: string | number | null | undefined, path: string): number {
  if (v === null || v === undefined) return 0;
  const big = BigInt(v);
  if (big >= 1n << 64n) throw DomainError.invalid(path, "Permission bitfield must fit in 64 bits", "NUMBER_TYPE_MAX");
  return maskPermissions(big);
}

/** Body ids to internal ids: a parent or overwrite target that never crossed the boundary is unknown. */
function toInput(api: BotApi, b: Partial<Static<typeof EditChannelBody>>): ChannelInput {
  const out: ChannelInput = {};
  if (b.name != null) out.name = b.name;
  if (b.type != null) out.type = b.type;
  if (b.topic !== undefined) out.topic = b.topic;
  if (b.nsfw !== undefined) out.nsfw = b.nsfw;
  if (b.rate_limit_per_user !== undefined) out.rateLimitPerUser = b.rate_limit_per_user;
  if (b.user_limit !== undefined) out.userLimit = b.user_limit;
  if (b.bitrate !== undefined) out.bitrate = b.bitrate;
  if (b.position !== undefined) out.position = b.position;
  if (b.parent_id !== undefined) {
    if (b.parent_id === null) out.parentId = null;
    else {
      const id = api.flakes.uuid(String(b.parent_id));
      if (!id) throw DomainError.invalid("parent_id", "Not a category channel of this server", "CHANNEL_PARENT_INVALID");
      out.parentId = id;
    }
  }
  if (b.permission_overwrites != null)
    out.overwrites = b.permission_overwrites.map((o, i) => {
      const id = api.flakes.uuid(String(o.id));
      if (!id) throw DomainError.notFound(o.type === 0 ? "role" : "member");
      return {
        targetId: id,
        targetType: o.type,
        allow: bits(o.allow, `permission_overwrites[${i}].allow`),
        deny: bits(o.deny, `permission_overwrites[${i}].deny`),
      };
    });
  return out;
}

export const channelRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: "/channels/{channel_id}",
    summary: "A channel",
    caller: "bot",
    handler: ({ ctx: api, params, caller: bot }) =>
      ok(channelOut(api, api.core.channels.get(bot.botUserId, known(api, params.channel_id, "channel")), bot.botUserId)),
  }),
  route({
    method: "PATCH",
    path: "/channels/{channel_id}",
    summary: "Edit a channel (name, topic, position, overwrites, ...)",
    caller: "bot",
    body: EditChannelBody,
    limit: { limit: 2, windowMs: 600_000 },
    handler: (req) => {
      const { ctx: api, params, caller: bot, auditReason } = req;
      const channelId = known(api, params.channel_id, "channel");
      api.core.channels.access(bot.botUserId, channelId);
      const body = req.body();
      const c = api.core.channels.edit(bot.botUserId, channelId, toInput(api, body), auditReason);
      return ok(channelOut(api, c, bot.botUserId));
    },
  }),
  route({
    method: "DELETE",
    path: "/channels/{channel_id}",
    summary: "Delete a channel (answers it as it was)",
    caller: "bot",
    handler: ({ ctx: api, params, caller: bot, auditReason }) => {
      const snap = api.core.channels.delete(bot.botUserId, known(api, params.channel_id, "channel"), auditReason);
      return ok(deletedChannelOut(api, snap, bot.botUserId));
    },
  }),
  route({
    method: "GET",
    path: "/guilds/{guild_id}/channels",
    summary: "A server's channels",
    caller: "bot",
    handler: ({ ctx: api, params, caller: bot }) =>
      ok(api.core.channels.list(bot.botUserId, known(api, params.guild_id, "guild")).map((c) => channelOut(api, c, bot.botUserId))),
  }),
  route({
    method: "POST",
    path: "/guilds/{guild_id}/channels",
    summary: "Create a channel",
    caller: "bot",
    body: CreateChannelBody,
    handler: (req) => {
      const { ctx: api, params, caller: bot, auditReason } = req;
      const guildId = known(api, params.guild_id, "guild");
      api.core.channels.list(bot.botUserId, guildId);
      const body = req.body();
      const c = api.core.channels.create(bot.botUserId, guildId, { ...toInput(api, body), name: body.name }, auditReason);
      return ok(channelOut(api, c, bot.botUserId));
    },
  }),
  route({
    method: "PATCH",
    path: "/guilds/{guild_id}/channels",
    summary: "Reorder channels, and move one into or out of a category",
    caller: "bot",
    body: ReorderChannelsBody,
    answers: "empty",
    handler: (req) => {
      const { ctx: api, params, caller: bot, auditReason } = req;
      const guildId = known(api, params.guild_id, "guild");
      api.core.channels.list(bot.botUserId, guildId);
      // An id that never crossed the boundary names no channel: the core reports it by index.
      const moves = req.body().map((m, i) => ({
        channelId: api.flakes.uuid(String(m.id)),
        position: m.position,
        lockPermissions: m.lock_permissions,
        ...(m.parent_id === undefined
          ? {}
          : { parentId: m.parent_id === null ? null : parentOf(api, String(m.parent_id), `[${i}].parent_id`) }),
      }));
      api.core.channels.reorder(bot.botUserId, guildId, moves, auditReason);
      return noContent();
    },
  }),
  route({
    method: "PUT",
    path: "/channels/{channel_id}/permissions/{overwrite_id}",
    summary: "Set a permission overwrite on a channel",
    caller: "bot",
    body: OverwriteBody,
    handler: (req) => {
      const { ctx: api, params, caller: bot, auditReason } = req;
      const channelId = known(api, params.channel_id, "channel");
      api.core.channels.access(bot.botUserId, channelId);
      const body = req.body();
      const type = Number(body.type) as 0 | 1;
      const target = known(api, params.overwrite_id, type === 0 ? "role" : "member");
      api.core.channels.putOverwrite(
        bot.botUserId,
        channelId,
        target,
        type,
        bits(body.allow, "allow"),
        bits(body.deny, "deny"),
        auditReason,
      );
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: "/channels/{channel_id}/permissions/{overwrite_id}",
    summary: "Remove a permission overwrite",
    caller: "bot",
    handler: ({ ctx: api, params, caller: bot, auditReason }) => {
      const channelId = known(api, params.channel_id, "channel");
      api.core.channels.deleteOverwrite(bot.botUserId, channelId, known(api, params.overwrite_id, "overwrite"), auditReason);
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/channels/{channel_id}/typing",
    summary: "Say the bot is typing",
    limit: { limit: 5, windowMs: 5000 },
    caller: "bot",
    handler: ({ ctx: api, params, caller: bot }) => {
      api.core.channels.typing(bot.botUserId, known(api, params.channel_id, "channel"));
      return noContent();
    },
  }),
];
