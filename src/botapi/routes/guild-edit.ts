/**
 * PATCH /guilds/{guild_id}: the reference's Modify Guild, for the fields a server here
 * has: `name`, `description`, `icon` (a data URI, or null), `system_channel_id` and
 * `default_message_notifications` (0 or 1). MANAGE_GUILD; bots hear GUILD_UPDATE; the
 * audit log gets GUILD_UPDATE (1) entries naming what changed. The reference's other
 * fields (verification level, AFK channel, banner, locale, ...) describe things a
 * server here does not have: like the reference with unknown fields, they are ignored,
 * except `owner_id`, which only an owner may send and a bot never owns a server.
 * Every field's shape is checked before anything changes; the image is judged by its
 * bytes (core/media.ts) before anything is written, and every change is one write.
 */
import { Type } from "@sinclair/typebox";
import { ok, route, type BotRoute, type Req } from "../http";
import { DomainError, PERMISSIONS } from "../../core";
import { imageDataIn } from "../../wire/files";
import { guildJson } from "../../wire/serializers/guild";
import { known } from "./ids";

/** Read here field by field, with the reference's messages; declared so the pipeline reads it. */
const JSON_OBJECT = Type.Record(Type.String(), Type.Unknown());

interface GuildEdit {
  fields: { name?: string; description?: string | null; systemChannelId?: string | null };
  level?: number;
  icon?: Uint8Array | null;
}

function text(b: Record<string, unknown>, key: string, min: number, max: number, nullable: boolean): string | null | undefined {
  const v = b[key];
  if (v === undefined || (v === null && nullable)) return v as null | undefined;
  if (typeof v !== "string") throw DomainError.invalid(key, "Could not interpret value as string.", "BASE_TYPE_STRING");
  const n = v.trim().length;
  if (n < min || v.length > max) throw DomainError.invalid(key, `Must be between ${min} and ${max} in length.`, "BASE_TYPE_BAD_LENGTH");
  return v;
}

function editOf(req: Req, gid: string): GuildEdit {
  const b = req.json();
  if (!b || typeof b !== "object" || Array.isArray(b)) throw DomainError.invalid("", "Must be a JSON object.", "DICT_TYPE_CONVERT");
  const body = b as Record<string, unknown>;
  if (body.owner_id !== undefined && body.owner_id !== null) {
    const owner = req.ctx.core.guilds.require(gid).owner_id;
    if (req.ctx.flakes.uuid(String(body.owner_id)) !== owner) throw DomainError.forbidden("Only the server's owner can transfer it");
  }
  const edit: GuildEdit = { fields: {} };
  const name = text(body, "name", 2, 100, false);
  if (name !== undefined && name !== null) edit.fields.name = name;
  const description = text(body, "description", 0, 120, true);
  if (description !== undefined) edit.fields.description = description;
  const sys = body.system_channel_id;
  if (sys === null) edit.fields.systemChannelId = null;
  else if (sys !== undefined) {
    const id = typeof sys === "string" || typeof sys === "number" ? req.ctx.flakes.uuid(String(sys)) : null;
    if (!id) throw DomainError.invalid("system_channel_id", "Not a text channel of this server", "CHANNEL_TYPE_INVALID");
    edit.fields.systemChannelId = id;
  }
  const level = body.default_message_notifications;
  if (level !== undefined && level !== null) {
    if (level !== 0 && level !== 1) throw DomainError.invalid("default_message_notifications", "Must be 0 or 1.", "BASE_TYPE_CHOICES");
    edit.level = level;
  }
  if (body.icon !== undefined) edit.icon = body.icon === null ? null : imageDataIn(body.icon, "icon");
  return edit;
}

export const guildEditRoutes: BotRoute[] = [
  route({
    method: "PATCH",
    path: "/guilds/{guild_id}",
    summary:
      "Edit a server (MANAGE_GUILD): `name`, `description`, `icon` (data URI or null), `system_channel_id`, `default_message_notifications`",
    caller: "bot",
    body: JSON_OBJECT,
    handler: async (req) => {
      const me = req.caller.botUserId;
      const gid = known(req.ctx, req.params.guild_id, "guild");
      req.ctx.core.guilds.requireMember(gid, me);
      req.ctx.core.guilds.requirePermission(gid, me, PERMISSIONS.MANAGE_GUILD);
      const edit = editOf(req, gid);
      // The image judged first (its bytes, asynchronously); then every change in one write,
      // so a field the core refuses (a system channel of another server) leaves the icon too.
      const icon =
        edit.icon === undefined ? undefined : await req.ctx.core.media.prepareGuildIcon(me, gid, edit.icon && { bytes: edit.icon });
      req.ctx.core.transaction(() => {
        if (icon !== undefined) req.ctx.core.media.commitGuildIcon(me, gid, icon, req.auditReason);
        if (edit.level !== undefined) req.ctx.core.notifications.setServerDefault(me, gid, edit.level, req.auditReason);
        if (Object.keys(edit.fields).length) req.ctx.core.servers.update(me, gid, edit.fields, req.auditReason);
      });
      return ok(guildJson(req.ctx.flakes, req.ctx.core.reads.guilds.guild(gid)));
    },
  }),
];
