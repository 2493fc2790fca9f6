/**
 * The exported world: the seed's world document (docs/harness.md) extended with what a
 * running server accumulates: every entity's internal id, members with their join time,
 * messages in channels, commands in applications, and the snowflakes bots have seen.
 * `parley export` writes it; `parley import`, `--seed` and the harness's seed read it (a
 * document with the `parley` header is restored as it was, ids and all, into an empty
 * database; one without is seeded as before). Rows come from and go to the core
 * (core/world.ts); this file only renames fields and decodes JSON columns.
 *
 * References are internal ids, except an owner, which is a person's name as in a seed.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import type { WorldRows } from "../core/world";
import { validate } from "../wire/validation";
import { DomainError } from "../core/errors";

type Row = Record<string, string | number | null>;

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Opt = <T extends TSchema>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const Loose = <P extends Record<string, TSchema>>(props: P) => Type.Object(props, { additionalProperties: true });

export const EXPORT_FORMAT = 1;

/** Loose on purpose: the database's own constraints (checked at commit) catch the rest. */
export const ExportSchema = Type.Object({
  parley: Type.Object({ format: Type.Literal(EXPORT_FORMAT), version: Type.Optional(Type.String()), exported_at: Type.Optional(Type.String()) }),
  users: Type.Array(Loose({ id: Id, name: Type.String() }), { maxItems: 1_000_000 }),
  guilds: Type.Array(
    Loose({
      id: Id,
      name: Type.String(),
      owner: Type.String(),
      members: Type.Array(Loose({ user: Id })),
      roles: Type.Array(Loose({ id: Id, name: Type.String(), members: Opt(Type.Array(Id)) })),
      channels: Type.Array(Loose({ id: Id, messages: Opt(Type.Array(Loose({ id: Id, author: Id }))) })),
    }),
  ),
  applications: Type.Array(Loose({ id: Id, name: Type.String(), owner: Type.String(), bot_user_id: Id, commands: Opt(Type.Array(Loose({ id: Id }))) })),
  snowflakes: Type.Optional(Type.Record(Type.String(), Type.String({ pattern: "^[0-9]{1,20}$" }))),
});
export type ExportedWorld = Static<typeof ExportSchema>;

const bool = (v: unknown) => v === 1 || v === true;
const int = (v: unknown) => (v ? 1 : 0);
const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
const text = (v: unknown, fallback: unknown) => JSON.stringify(v ?? fallback);

/** Whether a world document is an export (restored with its ids) rather than a seed. */
export function isExport(doc: unknown): boolean {
  return !!doc && typeof doc === "object" && "parley" in doc;
}

/** Rows (core/world.ts) to the exported document. */
export function exportDocument(w: WorldRows, version: string, now: Date): ExportedWorld {
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
  return {
    parley: { format: EXPORT_FORMAT, version, exported_at: now.toISOString() },
    users: w.users.map((u) => ({
      id: u.id as string,
      name: u.username as string,
      ...(u.kind === "bot" ? { bot: true } : { admin: bool(u.is_admin) }),
      global_name: u.global_name,
      avatar: u.avatar,
      locale: u.locale,
      created_at: u.created_at,
      deleted_at: u.deleted_at,
    })),
    guilds: w.guilds.map((g) => guildOut(g, name, { members, roles, memberRoles, channels, overwrites, messages })),
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
    snowflakes: w.snowflakes,
  };
}

type Groups = Record<"members" | "roles" | "memberRoles" | "channels" | "overwrites" | "messages", Map<unknown, Row[]>>;

function guildOut(g: Row, name: Map<unknown, string>, { members, roles, memberRoles, channels, overwrites, messages }: Groups) {
  return {
    id: g.id as string,
    name: g.name as string,
    owner: name.get(g.owner_id as string) ?? (g.owner_id as string),
    icon: g.icon,
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
      overwrites: (overwrites.get(c.id) ?? []).map((o) => ({ [o.target_type === 0 ? "role" : "user"]: o.target_id, allow: String(o.allow), deny: String(o.deny) })),
      messages: (messages.get(c.id) ?? []).map(messageOut),
    })),
    };
}

function messageOut(m: Row) {
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
    reply_to: m.reference_message_id ? { message: m.reference_message_id, channel: m.reference_channel_id, guild: m.reference_guild_id } : null,
    application: m.application_id,
    pinned: bool(m.pinned),
    created_at: m.created_at,
    edited_at: m.edited_at,
  };
}

/** The exported document back to rows; throws 50035-style refusals for a malformed one. */
export function importRows(doc: unknown, now: number): WorldRows {
  const d = validate(ExportSchema, doc) as any;
  const people = new Map<string, string>();
  for (const u of d.users) if (!u.bot) people.set(String(u.name).toLowerCase(), u.id);
  const person = (ref: string, path: string) => {
    const id = people.get(ref.toLowerCase()) ?? (d.users.some((u: any) => u.id === ref) ? ref : null);
    if (!id) throw DomainError.invalid(path, `Unknown person '${ref}'`, "UNKNOWN_REFERENCE");
    return id;
  };
  const w: WorldRows = { users: [], applications: [], guilds: [], roles: [], members: [], member_roles: [], channels: [], overwrites: [], commands: [], messages: [], snowflakes: d.snowflakes ?? {} };
  for (const u of d.users)
    w.users.push({ id: u.id, kind: u.bot ? "bot" : "person", username: u.name, global_name: u.global_name ?? null, avatar: u.avatar ?? null, is_admin: int(u.admin), locale: u.locale ?? undefined, created_at: u.created_at ?? now, deleted_at: u.deleted_at ?? null } as Row);
  d.applications.forEach((a: any, i: number) => {
    w.applications.push({
      id: a.id, owner_id: person(a.owner, `applications[${i}].owner`), bot_user_id: a.bot_user_id, name: a.name, description: a.description ?? "", intents: a.intents ?? 0,
      privileged_requested: a.requested_privileged ?? 0, privileged_approved: a.approved_privileged ?? 0, public_key: a.public_key ?? "", interactions_endpoint_url: a.interactions_endpoint_url ?? null, created_at: a.created_at ?? now,
    });
    for (const c of a.commands ?? [])
      w.commands.push({ id: c.id, application_id: a.id, guild_id: c.guild ?? null, name: c.name, type: c.type ?? 1, body: text(c.body, {}), version: c.version ?? 1, created_at: c.created_at ?? now });
  });
  d.guilds.forEach((g: any, i: number) => guildRows(w, g, person(g.owner, `guilds[${i}].owner`), now));
  return w;
}

function guildRows(w: WorldRows, g: any, owner: string, now: number): void {
  w.guilds.push({ id: g.id, name: g.name, owner_id: owner, icon: g.icon ?? null, description: g.description ?? null, preferred_locale: g.locale ?? undefined, system_channel_id: g.system_channel ?? null, created_at: g.created_at ?? now } as Row);
  for (const m of g.members) w.members.push({ guild_id: g.id, user_id: m.user, nick: m.nick ?? null, joined_at: m.joined_at ?? now });
  for (const r of g.roles) {
    w.roles.push({
      id: r.id, guild_id: g.id, name: r.name, permissions: Number(r.permissions ?? 0), color: r.color ?? 0, hoist: int(r.hoist), mentionable: int(r.mentionable), position: r.position ?? 0,
      is_everyone: int(r.everyone), icon: r.icon ?? null, unicode_emoji: r.unicode_emoji ?? null, bot_user_id: r.bot ?? null, created_at: r.created_at ?? now,
    });
    for (const u of r.members ?? []) w.member_roles.push({ guild_id: g.id, user_id: u, role_id: r.id });
  }
  for (const c of g.channels) {
    w.channels.push({
      id: c.id, guild_id: g.id, type: c.type ?? 0, name: c.name ?? null, topic: c.topic ?? null, position: c.position ?? 0, parent_id: c.parent ?? null, nsfw: int(c.nsfw),
      rate_limit_per_user: c.rate_limit_per_user ?? 0, user_limit: c.user_limit ?? null, bitrate: c.bitrate ?? null, created_at: c.created_at ?? now,
    });
    for (const o of c.overwrites ?? [])
      w.overwrites.push({ channel_id: c.id, target_id: o.role ?? o.user, target_type: o.role ? 0 : 1, allow: Number(o.allow ?? 0), deny: Number(o.deny ?? 0) });
    for (const m of c.messages ?? [])
      w.messages.push({
        id: m.id, channel_id: c.id, author_id: m.author, type: m.type ?? 0, content: m.content ?? "", embeds: text(m.embeds, []), components: text(m.components, []), flags: m.flags ?? 0,
        tts: int(m.tts), mention_everyone: int(m.mention_everyone), mentions: text(m.mentions, []), mention_roles: text(m.mention_roles, []),
        reference_message_id: m.reply_to?.message ?? null, reference_channel_id: m.reply_to?.channel ?? null, reference_guild_id: m.reply_to?.guild ?? null,
        application_id: m.application ?? null, pinned: int(m.pinned), created_at: m.created_at ?? now, edited_at: m.edited_at ?? null,
      });
  }
}
