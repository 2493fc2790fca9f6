/**
 * A server's emoji and the bot's own avatar (issue 31): the reference's
 * routes, whose images arrive as data URIs in JSON (`data:image/png;base64,...`). They
 * are not message uploads (spec 1.5 still holds: a bot attaches no file to a message),
 * and are judged by their bytes like every file (core/media.ts). These routes read
 * bodies larger than the rest of the bot API, so they have a door of their own (http.ts).
 */
import { Type } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute, type Req } from "../http";
import { DomainError } from "../../core";
import { imageDataIn } from "../../wire/files";
import { emojiJson } from "../../wire/serializers/attachment";
import { selfUserJson } from "../../wire/serializers/user";
import { known } from "./ids";

const BASE = "/guilds/{guild_id}/emojis";
/** Read here field by field, with the reference's messages; declared so the pipeline reads it. */
const JSON_OBJECT = Type.Record(Type.String(), Type.Unknown());

function guildOf(req: Req): string {
  const gid = known(req.ctx, req.params.guild_id, "guild");
  req.ctx.core.guilds.requireMember(gid, req.caller.botUserId);
  return gid;
}

function emojiOf(req: Req): string {
  return req.ctx.flakes.uuid(req.params.emoji_id) ?? "unknown";
}

function body(req: Req): Record<string, unknown> {
  const b = req.json();
  if (!b || typeof b !== "object" || Array.isArray(b)) throw DomainError.invalid("", "Must be a JSON object.", "DICT_TYPE_CONVERT");
  return b as Record<string, unknown>;
}

function name(v: unknown, required: boolean): string | undefined {
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string") throw DomainError.invalid("name", "This field is required", "BASE_TYPE_REQUIRED");
  return v;
}

export const emojiRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: BASE,
    summary: "A server's emoji (`user` shown to those with MANAGE_EXPRESSIONS)",
    caller: "bot",
    handler: (req) => {
      const gid = guildOf(req);
      const me = req.caller.botUserId;
      return ok(req.ctx.core.reads.emojis(me, gid, req.ctx.core.emojis.list(me, gid)).map((m) => emojiJson(req.ctx.flakes, m)));
    },
  }),
  route({
    method: "GET",
    path: `${BASE}/{emoji_id}`,
    summary: "One of a server's emoji",
    caller: "bot",
    handler: (req) => {
      const gid = guildOf(req);
      const me = req.caller.botUserId;
      const e = req.ctx.core.emojis.require(me, gid, emojiOf(req));
      return ok(emojiJson(req.ctx.flakes, req.ctx.core.reads.emojis(me, gid, [e])[0]!));
    },
  }),
  route({
    method: "POST",
    path: BASE,
    summary: "Add an emoji: `name` and `image` as a data URI (MANAGE_EXPRESSIONS); 50 still and 50 animated",
    caller: "bot",
    body: JSON_OBJECT,
    handler: async (req) => {
      const gid = guildOf(req);
      const me = req.caller.botUserId;
      const b = body(req);
      const n = name(b.name, true)!;
      const image = imageDataIn(b.image, "image");
      const e = await req.ctx.core.emojis.create(me, gid, { name: n, image: { bytes: image } }, req.auditReason);
      return { status: 201, body: emojiJson(req.ctx.flakes, req.ctx.core.reads.emojis(me, gid, [e])[0]!) };
    },
  }),
  route({
    method: "PATCH",
    path: `${BASE}/{emoji_id}`,
    summary: "Rename an emoji (MANAGE_EXPRESSIONS); `roles` are not kept",
    caller: "bot",
    body: JSON_OBJECT,
    handler: (req) => {
      const gid = guildOf(req);
      const me = req.caller.botUserId;
      const id = emojiOf(req);
      req.ctx.core.emojis.require(me, gid, id);
      const e = req.ctx.core.emojis.edit(me, gid, id, { name: name(body(req).name, false) }, req.auditReason);
      return ok(emojiJson(req.ctx.flakes, req.ctx.core.reads.emojis(me, gid, [e])[0]!));
    },
  }),
  route({
    method: "DELETE",
    path: `${BASE}/{emoji_id}`,
    summary: "Delete an emoji (MANAGE_EXPRESSIONS)",
    caller: "bot",
    handler: (req) => {
      const gid = guildOf(req);
      req.ctx.core.emojis.delete(req.caller.botUserId, gid, emojiOf(req), req.auditReason);
      return noContent();
    },
  }),
  route({
    method: "PATCH",
    path: "/users/@me",
    summary: "Change the bot's own avatar (`avatar`: a data URI, or null)",
    caller: "bot",
    body: JSON_OBJECT,
    handler: async (req) => {
      const b = body(req);
      const me = req.caller.botUserId;
      if (b.username !== undefined)
        throw DomainError.invalid("username", "A bot's name is its application's: change it in the developer portal", "USERNAME_IMMUTABLE");
      if (b.avatar !== undefined)
        await req.ctx.core.media.setAvatar(me, b.avatar === null ? null : { bytes: imageDataIn(b.avatar, "avatar") });
      return ok(selfUserJson(req.ctx.flakes, req.ctx.core.users.require(me)));
    },
  }),
];
