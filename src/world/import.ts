/**
 * An exported world back into an empty database (ids and snowflakes as they were), or a
 * seed created fresh: `parley import`, `npm start --seed` with either document.
 */
import type { Core, WorldSnapshot } from "../core";
import { DomainError, positionOf } from "../core";
import { derivedNumber, type Snowflakes } from "../wire/snowflakes";
import { validate } from "../wire/validation";
import { ExportSchema, type SeedAnswer } from "./document";
import { checkWorld } from "./seed";

type Row = Record<string, string | number | null>;

const int = (v: unknown) => (v ? 1 : 0);
const text = (v: unknown, fallback: unknown) => JSON.stringify(v ?? fallback);

/** Whether a world document is an export (restored with its ids) rather than a seed. */
export function isExport(doc: unknown): boolean {
  return !!doc && typeof doc === "object" && "parley" in doc;
}

/** What an import did: a seed (with fresh tokens), or a restored export (with none). */
export type ImportReport =
  | { kind: "seeded"; answer: SeedAnswer }
  | {
      kind: "restored";
      people: number;
      servers: number;
      messages: number;
      needToken: { name: string; id: string }[];
      needPassword: string[];
    };

/** A seed document, or an exported world restored into an empty database. */
export function importWorld(
  p: { core: Pick<Core, "world">; flakes: Snowflakes; now(): number; seed(doc: unknown): SeedAnswer },
  doc: unknown,
): ImportReport {
  if (!isExport(doc)) return { kind: "seeded", answer: p.seed(doc) };
  const rows = importRows(doc, p.now());
  p.core.world.restore(rows);
  p.flakes.clearCache();
  const persons = rows.users.filter((u) => u.kind === "person" && u.deleted_at === null);
  return {
    kind: "restored",
    people: persons.length,
    servers: rows.guilds.length,
    messages: rows.messages.length,
    needToken: rows.applications.map((a) => ({ name: String(a.name), id: p.flakes.of(String(a.id)) })),
    needPassword: persons.map((u) => String(u.username)),
  };
}

/**
 * Whether an export or a seed document is well formed, checked without a database (the
 * operator's import, before it makes a data directory): throws the refusal the import
 * would. What needs the database (a name already taken) is still the import's to refuse.
 */
export function checkDocument(doc: unknown): void {
  if (isExport(doc)) importRows(doc, 0);
  else checkWorld(doc);
}

/** The exported document back to rows; throws 50035-style refusals for a malformed one. */
// Longer than 80 lines because it maps the document's sections to rows in the schema's order, one after another.
export function importRows(doc: unknown, now: number): WorldSnapshot {
  const d = validate(ExportSchema, doc) as any;
  const people = new Map<string, string>();
  for (const u of d.users) if (!u.bot) people.set(String(u.name).toLowerCase(), u.id);
  const person = (ref: string, path: string) => {
    const id = people.get(ref.toLowerCase()) ?? (d.users.some((u: any) => u.id === ref) ? ref : null);
    if (!id) throw DomainError.invalid(path, `Unknown person '${ref}'`, "UNKNOWN_REFERENCE");
    return id;
  };
  const w: WorldSnapshot = {
    users: [],
    applications: [],
    guilds: [],
    roles: [],
    members: [],
    member_roles: [],
    channels: [],
    overwrites: [],
    commands: [],
    messages: [],
    media_blobs: [],
    emojis: [],
    attachments: [],
    snowflakes: d.snowflakes ?? {},
  };
  for (const f of d.files ?? [])
    w.media_blobs.push({
      sha256: f.sha256,
      size: f.size,
      content_type: f.content_type,
      inline: int(f.inline),
      width: f.width ?? null,
      height: f.height ?? null,
      animated: int(f.animated),
      created_at: f.created_at ?? now,
    });
  // An avatar is its hash and its file together: one without the other is none.
  for (const u of d.users) {
    const file = u.avatar_file ?? null;
    w.users.push({
      id: u.id,
      kind: u.bot ? "bot" : "person",
      username: u.name,
      global_name: u.global_name ?? null,
      avatar: file ? (u.avatar ?? null) : null,
      avatar_sha256: file,
      is_admin: int(u.admin),
      locale: u.locale ?? undefined,
      created_at: u.created_at ?? now,
      deleted_at: u.deleted_at ?? null,
    } as Row);
  }
  d.applications.forEach((a: any, i: number) => {
    w.applications.push({
      id: a.id,
      owner_id: person(a.owner, `applications[${i}].owner`),
      bot_user_id: a.bot_user_id,
      name: a.name,
      description: a.description ?? "",
      intents: a.intents ?? 0,
      privileged_requested: a.requested_privileged ?? 0,
      privileged_approved: a.approved_privileged ?? 0,
      public_key: a.public_key ?? "",
      interactions_endpoint_url: a.interactions_endpoint_url ?? null,
      created_at: a.created_at ?? now,
    });
    for (const c of a.commands ?? [])
      w.commands.push({
        id: c.id,
        application_id: a.id,
        guild_id: c.guild ?? null,
        name: c.name,
        type: c.type ?? 1,
        body: text(c.body, {}),
        version: c.version ?? 1,
        created_at: c.created_at ?? now,
      });
  });
  d.guilds.forEach((g: any, i: number) => guildRows(w, g, person(g.owner, `guilds[${i}].owner`), now));
  keepPositions(w);
  return w;
}

/**
 * A message whose number was derived from its position (wire/snowflakes.ts) takes its
 * position back instead of a stored pair, so no later message can take that position
 * and with it the same number.
 */
function keepPositions(w: WorldSnapshot): void {
  for (const m of w.messages) {
    const id = m.id as string;
    const position = positionOf(id);
    const pair = w.snowflakes[id];
    if (pair === undefined || derivedNumber(position)?.toString() !== pair) continue;
    m.position = position;
    delete w.snowflakes[id];
  }
}

// Longer than 80 lines because a server's rows (roles, channels, members, messages, files, emoji) follow one another in the order their keys need.
function guildRows(w: WorldSnapshot, g: any, owner: string, now: number): void {
  const icon = g.icon_file ?? null;
  w.guilds.push({
    id: g.id,
    name: g.name,
    owner_id: owner,
    icon: icon ? (g.icon ?? null) : null,
    icon_sha256: icon,
    description: g.description ?? null,
    preferred_locale: g.locale ?? undefined,
    system_channel_id: g.system_channel ?? null,
    created_at: g.created_at ?? now,
  } as Row);
  for (const e of g.emojis ?? [])
    w.emojis.push({
      id: e.id,
      guild_id: g.id,
      name: e.name,
      sha256: e.file,
      animated: int(e.animated),
      creator_id: e.creator ?? null,
      created_at: e.created_at ?? now,
    });
  for (const m of g.members) w.members.push({ guild_id: g.id, user_id: m.user, nick: m.nick ?? null, joined_at: m.joined_at ?? now });
  for (const r of g.roles) {
    w.roles.push({
      id: r.id,
      guild_id: g.id,
      name: r.name,
      permissions: Number(r.permissions ?? 0),
      color: r.color ?? 0,
      hoist: int(r.hoist),
      mentionable: int(r.mentionable),
      position: r.position ?? 0,
      is_everyone: int(r.everyone),
      icon: r.icon ?? null,
      unicode_emoji: r.unicode_emoji ?? null,
      bot_user_id: r.bot ?? null,
      created_at: r.created_at ?? now,
    });
    for (const u of r.members ?? []) w.member_roles.push({ guild_id: g.id, user_id: u, role_id: r.id });
  }
  for (const c of g.channels) {
    w.channels.push({
      id: c.id,
      guild_id: g.id,
      type: c.type ?? 0,
      name: c.name ?? null,
      topic: c.topic ?? null,
      position: c.position ?? 0,
      parent_id: c.parent ?? null,
      nsfw: int(c.nsfw),
      rate_limit_per_user: c.rate_limit_per_user ?? 0,
      user_limit: c.user_limit ?? null,
      bitrate: c.bitrate ?? null,
      created_at: c.created_at ?? now,
    });
    for (const o of c.overwrites ?? [])
      w.overwrites.push({
        channel_id: c.id,
        target_id: o.role ?? o.user,
        target_type: o.role ? 0 : 1,
        allow: Number(o.allow ?? 0),
        deny: Number(o.deny ?? 0),
      });
    for (const m of c.messages ?? []) {
      w.messages.push({
        id: m.id,
        channel_id: c.id,
        author_id: m.author,
        type: m.type ?? 0,
        content: m.content ?? "",
        embeds: text(m.embeds, []),
        components: text(m.components, []),
        flags: m.flags ?? 0,
        tts: int(m.tts),
        mention_everyone: int(m.mention_everyone),
        mentions: text(m.mentions, []),
        mention_roles: text(m.mention_roles, []),
        reference_message_id: m.reply_to?.message ?? null,
        reference_channel_id: m.reply_to?.channel ?? null,
        reference_guild_id: m.reply_to?.guild ?? null,
        application_id: m.application ?? null,
        pinned: int(m.pinned),
        created_at: m.created_at ?? now,
        edited_at: m.edited_at ?? null,
      });
      (m.attachments ?? []).forEach((a: any, i: number) =>
        w.attachments.push({
          id: a.id,
          message_id: m.id,
          channel_id: c.id,
          uploader_id: a.uploader ?? m.author,
          sha256: a.file,
          filename: a.filename,
          description: a.description ?? null,
          ordinal: i,
          flags: a.flags ?? 0,
        }),
      );
    }
  }
}
