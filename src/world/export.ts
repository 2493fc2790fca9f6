/**
 * The exported world: the seed's document extended with what a running server
 * accumulates: every entity's internal id, members with their join time, messages in
 * channels, commands in applications, and the snowflakes bots have seen. `parley export`
 * writes it. Records come from the core (core/world.ts); this file only renames fields
 * and decodes JSON columns. References are internal ids, except an owner, which is a
 * person's name as in a seed.
 */
import type { WorldSnapshot } from "../core";
import { derivedNumber } from "../wire/snowflakes";
import { EXPORT_FORMAT, type ExportedWorld } from "./document";

type Row = Record<string, string | number | null>;

const bool = (v: unknown) => v === 1 || v === true;
const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);

/**
 * The numbers of messages that hold their position (migration 023): stored nowhere, so
 * written out as pairs; the import stores them, and bots keep the ids they saw.
 */
function derivedPairs(messages: Row[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of messages) {
    const n = derivedNumber(m.position as number | null);
    if (n !== null) out[m.id as string] = n.toString();
  }
  return out;
}

/** Rows (core/world.ts) to the exported document. */
export function exportDocument(w: WorldSnapshot, version: string, now: Date): ExportedWorld {
  const name = new Map(w.users.map((u) => [u.id, u.username as string]));
  const by = <T extends Row>(rows: T[], key: string) => {
    const m = new Map<unknown, T[]>();
    for (const r of rows) {
      const list = m.get(r[key]);
      if (list) list.push(r);
      else m.set(r[key], [r]);
    }
    return m;
  };
  const members = by(w.members, "guild_id");
  const roles = by(w.roles, "guild_id");
  const memberRoles = by(w.member_roles, "role_id");
  const channels = by(w.channels, "guild_id");
  const overwrites = by(w.overwrites, "channel_id");
  const messages = by(w.messages, "channel_id");
  const commands = by(w.commands, "application_id");
  const emojis = by(w.emojis, "guild_id");
  const attachments = by(w.attachments, "message_id");
  return {
    parley: { format: EXPORT_FORMAT, version, exported_at: now.toISOString() },
    users: w.users.map((u) => ({
      id: u.id as string,
      name: u.username as string,
      ...(u.kind === "bot" ? { bot: true } : { admin: bool(u.is_admin) }),
      global_name: u.global_name,
      avatar: u.avatar,
      avatar_file: u.avatar_sha256,
      locale: u.locale,
      created_at: u.created_at,
      deleted_at: u.deleted_at,
    })),
    guilds: w.guilds.map((g) => guildOut(g, name, { members, roles, memberRoles, channels, overwrites, messages, emojis, attachments })),
    applications: w.applications.map((a) => ({
      id: a.id as string,
      name: a.name as string,
      owner: name.get(a.owner_id as string) ?? (a.owner_id as string),
      bot_user_id: a.bot_user_id as string,
      description: a.description,
      intents: a.intents,
      requested_privileged: a.privileged_requested,
      approved_privileged: a.privileged_approved,
      public_key: a.public_key,
      interactions_endpoint_url: a.interactions_endpoint_url,
      created_at: a.created_at,
      commands: (commands.get(a.id) ?? []).map((c) => ({
        id: c.id as string,
        guild: c.guild_id,
        name: c.name,
        type: c.type,
        body: json(c.body),
        version: c.version,
        created_at: c.created_at,
      })),
    })),
    snowflakes: { ...derivedPairs(w.messages), ...w.snowflakes },
    files: w.media_blobs.map((b) => ({
      sha256: b.sha256 as string,
      size: Number(b.size),
      content_type: b.content_type as string,
      inline: bool(b.inline),
      width: b.width,
      height: b.height,
      animated: bool(b.animated),
      created_at: b.created_at,
    })),
  };
}

type Groups = Record<
  "members" | "roles" | "memberRoles" | "channels" | "overwrites" | "messages" | "emojis" | "attachments",
  Map<unknown, Row[]>
>;

function guildOut(
  g: Row,
  name: Map<unknown, string>,
  { members, roles, memberRoles, channels, overwrites, messages, emojis, attachments }: Groups,
) {
  return {
    id: g.id as string,
    name: g.name as string,
    owner: name.get(g.owner_id as string) ?? (g.owner_id as string),
    icon: g.icon,
    icon_file: g.icon_sha256,
    emojis: (emojis.get(g.id) ?? []).map((e) => ({
      id: e.id as string,
      name: e.name,
      file: e.sha256,
      animated: bool(e.animated),
      creator: e.creator_id,
      created_at: e.created_at,
    })),
    description: g.description,
    locale: g.preferred_locale,
    system_channel: g.system_channel_id,
    created_at: g.created_at,
    members: (members.get(g.id) ?? []).map((m) => ({ user: m.user_id as string, nick: m.nick, joined_at: m.joined_at })),
    roles: (roles.get(g.id) ?? []).map((r) => ({
      id: r.id as string,
      name: r.name as string,
      permissions: String(r.permissions),
      color: r.color,
      hoist: bool(r.hoist),
      mentionable: bool(r.mentionable),
      position: r.position,
      everyone: bool(r.is_everyone),
      icon: r.icon,
      unicode_emoji: r.unicode_emoji,
      bot: r.bot_user_id,
      created_at: r.created_at,
      members: (memberRoles.get(r.id) ?? []).map((m) => m.user_id as string),
    })),
    channels: (channels.get(g.id) ?? []).map((c) => ({
      id: c.id as string,
      name: c.name,
      type: c.type,
      topic: c.topic,
      position: c.position,
      parent: c.parent_id,
      nsfw: bool(c.nsfw),
      rate_limit_per_user: c.rate_limit_per_user,
      user_limit: c.user_limit,
      bitrate: c.bitrate,
      created_at: c.created_at,
      overwrites: (overwrites.get(c.id) ?? []).map((o) => ({
        [o.target_type === 0 ? "role" : "user"]: o.target_id,
        allow: String(o.allow),
        deny: String(o.deny),
      })),
      messages: (messages.get(c.id) ?? []).map((m) => messageOut(m, attachments.get(m.id) ?? [])),
    })),
  };
}

function messageOut(m: Row, files: Row[]) {
  return {
    id: m.id as string,
    author: m.author_id as string,
    type: m.type,
    content: m.content,
    embeds: json(m.embeds),
    components: json(m.components),
    flags: m.flags,
    tts: bool(m.tts),
    mention_everyone: bool(m.mention_everyone),
    mentions: json(m.mentions),
    mention_roles: json(m.mention_roles),
    reply_to: m.reference_message_id
      ? { message: m.reference_message_id, channel: m.reference_channel_id, guild: m.reference_guild_id }
      : null,
    application: m.application_id,
    pinned: bool(m.pinned),
    created_at: m.created_at,
    edited_at: m.edited_at,
    ...(files.length
      ? {
          attachments: files.map((a) => ({
            id: a.id as string,
            uploader: a.uploader_id,
            file: a.sha256,
            filename: a.filename,
            description: a.description,
            flags: a.flags,
          })),
        }
      : {}),
  };
}
