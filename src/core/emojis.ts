/**
 * A server's own emoji (issue 31): a name and a small image, managed by those holding
 * MANAGE_EXPRESSIONS (one of the 13 bits; the reference's CREATE_GUILD_EXPRESSIONS folds
 * into it), audited as the reference does (60 create, 61 update, 62 delete). Names are
 * 2 to 32 letters, digits and underscores; as on the reference, two may share one (an
 * emoji is its id: a bot cloning one into its own server keeps the name); a server holds at most
 * 50 still and 50 animated emoji (the reference's base tier), each image at most
 * media.emojiBytes. GUILD_EMOJIS_UPDATE is never dispatched (spec 6.2): every change is a
 * GUILD_UPDATE, whose guild carries `emojis`, so libraries' emoji caches stay right.
 */
import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { Audit } from "./audit";
import type { Media, ImageSource } from "./media";
import type { CustomEmoji } from "./models";
import { AUDIT } from "./audit";
import { DomainError } from "./errors";
import { hasPermission, PERMISSIONS } from "./permissions";
import { Memo } from "./memo";

export const EMOJI_NAME = /^[A-Za-z0-9_]{2,32}$/;
/** Still and animated emoji a server may hold, each. */
export const MAX_EMOJIS = 50;

export interface NewEmoji {
  name: string;
  image: ImageSource;
}

export class Emojis {
  /** A server's emoji, kept while the table is unchanged: every GUILD_CREATE and guild read shows them. */
  private readonly byGuild: Memo<readonly CustomEmoji[]>;

  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly media: Media,
    private readonly audit: Audit,
  ) {
    this.byGuild = new Memo(d.store, ["emojis"], { max: 2000, enabled: d.fastPaths.memo });
  }

  private get db() {
    return this.d.store.db;
  }

  /** Every emoji of a server, oldest first (no rights: read models show them to members). */
  of(guildId: string): readonly CustomEmoji[] {
    return this.byGuild.get(
      guildId,
      () => this.db.query("SELECT * FROM emojis WHERE guild_id = ? ORDER BY id").all(guildId) as CustomEmoji[],
    );
  }

  get(id: string): CustomEmoji | null {
    return this.db.query("SELECT * FROM emojis WHERE id = ?").get(id) as CustomEmoji | null;
  }

  /** The emoji of this server with this id, or null: what a reaction may use. */
  inGuild(guildId: string | null, id: string): CustomEmoji | null {
    if (!guildId) return null;
    return this.of(guildId).find((e) => e.id === id) ?? null;
  }

  /** A member's view of the server's emoji (404 to anyone else). */
  list(actorId: string, guildId: string): readonly CustomEmoji[] {
    this.requireMember(actorId, guildId);
    return this.of(guildId);
  }

  /** One emoji of the server (404 10003 when it is not there). */
  require(actorId: string, guildId: string, emojiId: string): CustomEmoji {
    this.requireMember(actorId, guildId);
    const e = this.inGuild(guildId, emojiId);
    if (!e) throw DomainError.notFound("emoji");
    return e;
  }

  /** Whether the actor may manage the server's emoji (the reference shows an emoji's `user` only to them). */
  mayManage(actorId: string, guildId: string): boolean {
    return (
      this.guilds.isMember(guildId, actorId) && hasPermission(this.guilds.permissions(guildId, actorId), PERMISSIONS.MANAGE_EXPRESSIONS)
    );
  }

  async create(actorId: string, guildId: string, input: NewEmoji, reason: string | null = null): Promise<CustomEmoji> {
    this.requireManager(actorId, guildId);
    checkName(input.name);
    const img = await this.media.prepareImage(actorId, input.image, "emoji", this.d.media.limits.emojiBytes, "image");
    return this.d.store.write(() => {
      this.requireManager(actorId, guildId);
      const held = this.held(guildId);
      const animated = img.animated ? 1 : 0;
      const same = held.filter((e) => e.animated === animated).length;
      if (same >= MAX_EMOJIS)
        throw DomainError.invalid("", `Maximum number of ${animated ? "animated" : "still"} emojis reached (${MAX_EMOJIS})`, "MAX_EMOJIS");
      const blob = img.commit();
      const e: CustomEmoji = {
        id: this.d.ids.next(),
        guild_id: guildId,
        name: input.name,
        sha256: blob.sha256,
        animated,
        creator_id: actorId,
        created_at: this.d.clock.now(),
      };
      this.db
        .query(
          "INSERT INTO emojis (id, guild_id, name, sha256, animated, creator_id, created_at) VALUES ($id, $guild_id, $name, $sha256, $animated, $creator_id, $created_at)",
        )
        .run(e as never);
      this.audit.record({
        guildId,
        actorId,
        actionType: AUDIT.EMOJI_CREATE,
        targetId: e.id,
        changes: [{ key: "name", new_value: e.name }],
        reason,
      });
      this.d.store.emit({ type: "guild.updated", guildId });
      return e;
    });
  }

  /** Rename (the reference's `roles` are not kept: every member may use every emoji). */
  edit(actorId: string, guildId: string, emojiId: string, patch: { name?: string }, reason: string | null = null): CustomEmoji {
    return this.d.store.write(() => {
      this.requireManager(actorId, guildId);
      const e = this.require(actorId, guildId, emojiId);
      if (patch.name === undefined || patch.name === e.name) return e;
      checkName(patch.name);
      this.db.query("UPDATE emojis SET name = ? WHERE id = ?").run(patch.name, e.id);
      this.audit.record({
        guildId,
        actorId,
        actionType: AUDIT.EMOJI_UPDATE,
        targetId: e.id,
        changes: [{ key: "name", old_value: e.name, new_value: patch.name }],
        reason,
      });
      this.d.store.emit({ type: "guild.updated", guildId });
      return { ...e, name: patch.name };
    });
  }

  /** Delete; reactions made with it stay (showing its id), as on the reference; its bytes go with the collector. */
  delete(actorId: string, guildId: string, emojiId: string, reason: string | null = null): void {
    this.d.store.write(() => {
      this.requireManager(actorId, guildId);
      const e = this.require(actorId, guildId, emojiId);
      this.db.query("DELETE FROM emojis WHERE id = ?").run(e.id);
      this.audit.record({
        guildId,
        actorId,
        actionType: AUDIT.EMOJI_DELETE,
        targetId: e.id,
        changes: [{ key: "name", old_value: e.name }],
        reason,
      });
      this.d.store.emit({ type: "guild.updated", guildId });
    });
  }

  private requireMember(actorId: string, guildId: string): void {
    if (!this.guilds.get(guildId) || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
  }

  private requireManager(actorId: string, guildId: string): void {
    this.requireMember(actorId, guildId);
    this.guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_EXPRESSIONS);
  }

  /**
   * Inside a write: the server's emoji as the database holds them, read under a lock on
   * the server (Store.serialize), so that a count under 50 is checked by one writer at a
   * time on every node; the memo may not have heard another node yet.
   */
  private held(guildId: string): { id: string; name: string; animated: number }[] {
    this.d.store.serialize(`emojis:${guildId}`);
    return this.db.query("SELECT id, name, animated FROM emojis WHERE guild_id = ?").all(guildId) as never;
  }
}

function checkName(name: string): void {
  if (typeof name !== "string" || !EMOJI_NAME.test(name))
    throw DomainError.invalid("name", "Must be 2 to 32 letters, digits or underscores.", "EMOJI_NAME_INVALID");
}
