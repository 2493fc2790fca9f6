/**
 * The world as rows, for export and import (the operator's `parley export` / `import`):
 * people, bot users, applications, servers, roles, members, channels, overwrites,
 * commands and server messages, with their internal ids, so an import reproduces ids,
 * ordering and (through the snowflake pairs) every id a bot has seen.
 *
 * Deleted people and bot users are carried (their messages still name them).
 * Never carried: passwords, tokens (token versions restart at 0, with no token), people's
 * sessions, webhooks (they hold tokens) and their messages, interactions, invites, bans,
 * the audit log, direct messages (end-to-end encrypted between people's clients) and
 * ephemeral messages. Reactions are not carried either.
 *
 * Files (issue 31) are carried as rows naming their bytes by SHA-256: the blobs that
 * avatars, icons, emoji and carried messages' attachments name; the bytes themselves
 * travel beside the document (cli/data.ts), checked against their hash on the way in.
 */
import type { CoreDeps } from "./deps";
import { DomainError } from "./errors";

type Row = Record<string, string | number | null>;

export interface WorldSnapshot {
  users: Row[];
  applications: Row[];
  guilds: Row[];
  roles: Row[];
  members: Row[];
  member_roles: Row[];
  channels: Row[];
  overwrites: Row[];
  commands: Row[];
  messages: Row[];
  media_blobs: Row[];
  emojis: Row[];
  attachments: Row[];
  /** uuid -> snowflake (decimal) for every row above that has crossed the boundary. */
  snowflakes: Record<string, string>;
}

/** What each table carries: secrets and derived columns are left out. Order is insertion order. */
const CARRIED_MESSAGES =
  "webhook_id IS NULL AND ephemeral_user_id IS NULL AND channel_id IN (SELECT id FROM channels WHERE guild_id IS NOT NULL)";
const CARRIED_FILES = `SELECT avatar_sha256 FROM users UNION SELECT icon_sha256 FROM guilds UNION SELECT sha256 FROM emojis
  UNION SELECT sha256 FROM attachments WHERE message_id IN (SELECT id FROM messages WHERE ${CARRIED_MESSAGES})`;

const TABLES: { name: Exclude<keyof WorldSnapshot, "snowflakes">; columns: string[]; where: string; order: string }[] = [
  {
    name: "media_blobs",
    columns: ["sha256", "size", "content_type", "inline", "width", "height", "animated", "created_at"],
    where: `sha256 IN (${CARRIED_FILES})`,
    order: "sha256",
  },
  {
    name: "users",
    // Deleted people and bots stay: their messages and memberships still name them.
    columns: ["id", "kind", "username", "global_name", "avatar", "avatar_sha256", "is_admin", "locale", "created_at", "deleted_at"],
    where: "1",
    order: "id",
  },
  {
    name: "applications",
    columns: [
      "id",
      "owner_id",
      "bot_user_id",
      "name",
      "description",
      "intents",
      "privileged_requested",
      "privileged_approved",
      "public_key",
      "interactions_endpoint_url",
      "created_at",
    ],
    where: "1",
    order: "id",
  },
  {
    name: "guilds",
    columns: ["id", "name", "owner_id", "icon", "icon_sha256", "description", "preferred_locale", "system_channel_id", "created_at"],
    where: "1",
    order: "id",
  },
  {
    name: "emojis",
    columns: ["id", "guild_id", "name", "sha256", "animated", "creator_id", "created_at"],
    where: "1",
    order: "guild_id, id",
  },
  {
    name: "roles",
    columns: [
      "id",
      "guild_id",
      "name",
      "permissions",
      "color",
      "hoist",
      "mentionable",
      "position",
      "is_everyone",
      "icon",
      "unicode_emoji",
      "bot_user_id",
      "created_at",
    ],
    where: "1",
    order: "guild_id, position, id",
  },
  { name: "members", columns: ["guild_id", "user_id", "nick", "joined_at"], where: "1", order: "guild_id, joined_at, user_id" },
  { name: "member_roles", columns: ["guild_id", "user_id", "role_id"], where: "1", order: "guild_id, user_id, role_id" },
  {
    name: "channels",
    columns: [
      "id",
      "guild_id",
      "type",
      "name",
      "topic",
      "position",
      "parent_id",
      "nsfw",
      "rate_limit_per_user",
      "user_limit",
      "bitrate",
      "created_at",
    ],
    where: "guild_id IS NOT NULL",
    order: "guild_id, position, id",
  },
  {
    name: "overwrites",
    columns: ["channel_id", "target_id", "target_type", "allow", "deny"],
    where: "channel_id IN (SELECT id FROM channels WHERE guild_id IS NOT NULL)",
    order: "channel_id, target_id",
  },
  {
    name: "commands",
    columns: ["id", "application_id", "guild_id", "name", "type", "body", "version", "created_at"],
    where: "1",
    order: "id",
  },
  {
    name: "messages",
    columns: [
      "id",
      "channel_id",
      "author_id",
      "type",
      "content",
      "embeds",
      "components",
      "flags",
      "tts",
      "mention_everyone",
      "mentions",
      "mention_roles",
      "reference_message_id",
      "reference_channel_id",
      "reference_guild_id",
      "application_id",
      "pinned",
      "created_at",
      "edited_at",
      // Not imported (a document has none): the export derives the message's number from it.
      "position",
    ],
    where: CARRIED_MESSAGES,
    order: "channel_id, id",
  },
  {
    name: "attachments",
    columns: ["id", "message_id", "channel_id", "uploader_id", "sha256", "filename", "description", "ordinal", "flags"],
    where: `message_id IN (SELECT id FROM messages WHERE ${CARRIED_MESSAGES})`,
    order: "message_id, ordinal",
  },
];

export class World {
  constructor(private readonly d: CoreDeps) {}

  private get db() {
    return this.d.store.db;
  }

  /** Every carried row, read in one transaction (a consistent snapshot beside live writers). */
  snapshot(): WorldSnapshot {
    this.d.store.flush();
    return this.db.transaction(() => {
      const out = { snowflakes: {} } as WorldSnapshot;
      for (const t of TABLES)
        out[t.name] = this.db.query(`SELECT ${t.columns.join(", ")} FROM ${t.name} WHERE ${t.where} ORDER BY ${t.order}`).all() as Row[];
      const pairs = this.db.query("SELECT uuid, CAST(flake AS TEXT) AS flake FROM snowflakes").all() as { uuid: string; flake: string }[];
      const carried = new Set<string>();
      for (const t of TABLES) for (const r of out[t.name]) if (typeof r.id === "string") carried.add(r.id);
      for (const p of pairs) if (carried.has(p.uuid)) out.snowflakes[p.uuid] = p.flake;
      return out;
    })();
  }

  /**
   * Insert a world's rows into an empty database in one transaction: all of it, or
   * nothing (a broken reference fails the foreign key check at the end).
   */
  restore(w: WorldSnapshot): void {
    try {
      this.insertAll(w);
    } catch (e) {
      const code = (e as { code?: string }).code ?? "";
      if (!code.startsWith("SQLITE_CONSTRAINT")) throw e;
      // Row by row the document looked fine; as a whole it names something it does not hold.
      throw DomainError.invalid(
        "",
        `The world does not hold together (${(e as Error).message}): a reference names an id it does not define`,
        "WORLD_INVALID",
      );
    }
  }

  private insertAll(w: WorldSnapshot): void {
    this.d.store.write(() => {
      const taken = (this.db.query("SELECT count(*) AS n FROM users").get() as { n: number }).n;
      if (taken > 0) throw new DomainError("conflict", "The database already holds a world: import into an empty one");
      this.db.exec("PRAGMA defer_foreign_keys = ON");
      for (const t of TABLES) {
        for (const r of w[t.name] ?? []) {
          // Only the columns a row gives: the others keep their defaults.
          const cols = t.columns.filter((c) => r[c] !== undefined);
          this.db
            .query(`INSERT INTO ${t.name} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`)
            .run(...cols.map((c) => r[c]));
        }
      }
      const pair = this.db.query("INSERT INTO snowflakes (uuid, flake) VALUES (?, ?)");
      for (const [uuid, flake] of Object.entries(w.snowflakes ?? {})) pair.run(uuid, BigInt(flake));
      // A pinned message counts as pinned when it was written, and every message is searchable.
      this.db
        .query("INSERT INTO pins (message_id, channel_id, pinned_at) SELECT id, channel_id, created_at FROM messages WHERE pinned = 1")
        .run();
      this.d.search.reindexAll();
    });
  }
}
