import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { Dms } from "./dms";
import { AUDIT, diffChanges, type Audit } from "./audit";
import type { Channel } from "./models";
import type { ChannelSnapshot } from "./composites";
import { DomainError } from "./errors";
import { accessChannel, requireBits, type ChannelAccess } from "./access";
import { ALL_PERMISSIONS, hasPermission, PERMISSIONS } from "./permissions";
import { appliesTo, asHeld, changedBits, changedByReplacing, requireOverwriteChange, type OverwriteRights } from "./overwrite-rights";
import { reorderChannels, type ChannelMove } from "./channel-order";
import { auditView, checkFields, type ChannelInput } from "./channel-fields";
import { carrySynced, syncedWith } from "./category-sync";
import { auditOverwrites, overwritesValue } from "./overwrite-audit";

export type { ChannelMove } from "./channel-order";
export { CHANNEL_LIMITS, type ChannelInput } from "./channel-fields";

export type { ChannelSnapshot } from "./composites";

/** Channel types a bot may create (spec 1.5: threads, forums, stages and the rest are refused with 501). */
export const CREATABLE_TYPES = new Set([0, 2, 4, 5]);
export const UNSUPPORTED_TYPES = new Set([10, 11, 12, 13, 14, 15, 16]);
const VOICE = 2;
const CATEGORY = 4;

/**
 * Guild channels as actors change them: create, edit, delete (a deleted category's
 * children move to the top level, one channel.updated each), permission overwrites and
 * typing. Every check takes the actor; handlers only decode and serialize.
 */
export class Channels {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly audit: Audit,
    private readonly dms: Dms,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  access(actorId: string, channelId: string): ChannelAccess {
    return accessChannel(this.d, this.guilds, actorId, channelId);
  }

  get(actorId: string, channelId: string): Channel {
    return this.access(actorId, channelId).channel;
  }

  /** A guild's channels, for a member (404 for anyone else). */
  list(actorId: string, guildId: string): Channel[] {
    this.requireGuildMember(actorId, guildId);
    return this.guilds.channels(guildId);
  }

  create(actorId: string, guildId: string, input: ChannelInput & { name: string }, reason: string | null = null): Channel {
    checkFields(input);
    return this.d.store.write(() => {
      this.requireGuildMember(actorId, guildId);
      const perms = this.guilds.permissions(guildId, actorId);
      if (!hasPermission(perms, PERMISSIONS.MANAGE_CHANNELS)) throw DomainError.forbidden();
      this.guilds.lockChannels(guildId);
      if (input.overwrites?.length && !hasPermission(perms, PERMISSIONS.MANAGE_ROLES)) throw DomainError.forbidden();
      const type = input.type ?? 0;
      this.checkType(type, "type");
      const parentId = input.parentId ?? null;
      if (parentId) this.checkParent(guildId, parentId, type);
      if (input.overwrites?.length) {
        for (const o of input.overwrites) this.requireTarget(guildId, o.targetId, o.targetType);
        requireOverwriteChange(this.rightsIn(guildId, actorId, parentId, false), changedByReplacing([], input.overwrites));
      }
      const c = this.guilds.createChannel({
        guildId,
        name: input.name,
        type,
        topic: input.topic ?? null,
        parentId,
        nsfw: input.nsfw ?? false,
        rateLimitPerUser: input.rateLimitPerUser ?? 0,
        position: input.position ?? undefined,
      });
      if (type === VOICE) {
        c.user_limit = input.userLimit ?? 0;
        c.bitrate = input.bitrate ?? 64000;
        this.db.query("UPDATE channels SET user_limit = ?, bitrate = ? WHERE id = ?").run(c.user_limit, c.bitrate, c.id);
      }
      for (const o of input.overwrites ?? []) this.writeOverwrite(c, o.targetId, o.targetType, o.allow, o.deny);
      const overwrites = overwritesValue(this.guilds.overwrites(c.id));
      this.audit.record({
        guildId,
        actorId,
        actionType: AUDIT.CHANNEL_CREATE,
        targetId: c.id,
        // The reference lists the new channel's overwrites among its fields (an empty list is left out).
        changes: diffChanges(null, { ...auditView(c), permission_overwrites: overwrites.length ? overwrites : null }),
        reason,
      });
      return c;
    });
  }

  /** PATCH /channels/{id}: MANAGE_CHANNELS; replacing overwrites also needs MANAGE_ROLES. */
  edit(actorId: string, channelId: string, patch: ChannelInput, reason: string | null = null): Channel {
    checkFields(patch);
    return this.d.store.write(() => {
      const a = this.access(actorId, channelId);
      if (a.isDm) throw DomainError.forbidden("Cannot edit a direct message channel");
      requireBits(a, PERMISSIONS.MANAGE_CHANNELS);
      if (patch.overwrites != null) requireBits(a, PERMISSIONS.MANAGE_ROLES);
      const c = this.layout(a.channel);
      const next: Channel = { ...c };
      if (patch.name != null) next.name = patch.name;
      if (patch.type != null && patch.type !== c.type) {
        // The reference converts only between text and announcement channels.
        if (!((c.type === 0 && patch.type === 5) || (c.type === 5 && patch.type === 0)))
          throw DomainError.invalid("type", "Only text and announcement channels can be converted into each other", "CHANNEL_TYPE_INVALID");
        next.type = patch.type;
      }
      if (patch.topic !== undefined) next.topic = patch.topic;
      if (patch.nsfw != null) next.nsfw = patch.nsfw ? 1 : 0;
      if (patch.rateLimitPerUser !== undefined) next.rate_limit_per_user = patch.rateLimitPerUser ?? 0;
      if (patch.position != null) next.position = patch.position;
      if (c.type === VOICE) {
        if (patch.userLimit !== undefined) next.user_limit = patch.userLimit ?? 0;
        if (patch.bitrate !== undefined) next.bitrate = patch.bitrate ?? 64000;
      }
      if (patch.parentId !== undefined) {
        if (patch.parentId !== null) this.checkParent(c.guild_id!, patch.parentId, next.type, c.id);
        next.parent_id = patch.parentId;
      }
      if (patch.overwrites != null) {
        for (const o of patch.overwrites) this.requireTarget(c.guild_id!, o.targetId, o.targetType);
        requireOverwriteChange(
          this.rightsIn(c.guild_id!, actorId, c.id, true),
          changedByReplacing(this.guilds.overwrites(c.id), patch.overwrites),
        );
      }
      const synced = patch.overwrites != null ? syncedWith(this.d, this.guilds, c) : null;
      const overwritesBefore = this.guilds.overwrites(c.id);
      this.db
        .query(
          "UPDATE channels SET name = ?, type = ?, topic = ?, nsfw = ?, rate_limit_per_user = ?, position = ?, user_limit = ?, bitrate = ?, parent_id = ? WHERE id = ?",
        )
        .run(
          next.name,
          next.type,
          next.topic,
          next.nsfw,
          next.rate_limit_per_user,
          next.position,
          next.user_limit,
          next.bitrate,
          next.parent_id,
          c.id,
        );
      if (patch.overwrites != null) {
        this.db.query("DELETE FROM overwrites WHERE channel_id = ?").run(c.id);
        for (const o of patch.overwrites) this.writeOverwrite(next, o.targetId, o.targetType, o.allow, o.deny);
      }
      const changes = diffChanges(auditView(c), auditView(next));
      const act = { guildId: c.guild_id!, actorId, reason };
      if (changes.length) this.audit.record({ ...act, actionType: AUDIT.CHANNEL_UPDATE, targetId: c.id, changes });
      // Replacing the list is audited as the reference does a PUT or DELETE of each overwrite that differs.
      if (patch.overwrites != null) auditOverwrites(this.audit, this.guilds, act, c.id, overwritesBefore, this.guilds.overwrites(c.id));
      this.d.store.emit({ type: "channel.updated", channelId: c.id, guildId: c.guild_id });
      if (synced) carrySynced(this.d, this.guilds, c, synced, { audit: this.audit, act });
      return next;
    });
  }

  /**
   * DELETE /channels/{id}: MANAGE_CHANNELS. Answers the snapshot of what was deleted.
   * A DM is closed for the one who asks (core/dms.ts): nothing is deleted, the other
   * recipient keeps it, and no bot hears of it.
   */
  delete(actorId: string, channelId: string, reason: string | null = null): ChannelSnapshot {
    return this.d.store.write(() => {
      const a = this.access(actorId, channelId);
      if (a.isDm) {
        this.dms.close(actorId, a.channel.id);
        return { channel: a.channel, overwrites: this.guilds.overwrites(a.channel.id) };
      }
      requireBits(a, PERMISSIONS.MANAGE_CHANNELS);
      const c = this.layout(a.channel);
      const snapshot: ChannelSnapshot = { channel: c, overwrites: this.guilds.overwrites(c.id) };
      if (c.type === CATEGORY) {
        const children = this.db.query("SELECT id FROM channels WHERE parent_id = ? ORDER BY position, id").all(c.id) as { id: string }[];
        for (const ch of children) {
          this.db.query("UPDATE channels SET parent_id = NULL WHERE id = ?").run(ch.id);
          this.d.store.emit({ type: "channel.updated", channelId: ch.id, guildId: c.guild_id });
        }
      }
      this.db.query("DELETE FROM channels WHERE id = ?").run(c.id);
      this.audit.record({
        guildId: c.guild_id!,
        actorId,
        actionType: AUDIT.CHANNEL_DELETE,
        targetId: c.id,
        changes: diffChanges(
          { ...auditView(c), permission_overwrites: snapshot.overwrites.length ? overwritesValue(snapshot.overwrites) : null },
          null,
        ),
        reason,
      });
      const g = this.guilds.get(c.guild_id!);
      if (g?.system_channel_id === c.id) {
        this.db.query("UPDATE guilds SET system_channel_id = NULL WHERE id = ?").run(g.id);
        this.d.store.emit({ type: "guild.updated", guildId: g.id });
      }
      this.d.store.emit({ type: "channel.deleted", channelId: c.id, guildId: c.guild_id, snapshot });
      return snapshot;
    });
  }

  /**
   * PATCH /guilds/{id}/channels: positions and categories of several channels at once
   * (core/channel-order.ts). Answers the guild's channels after the move.
   */
  reorder(actorId: string, guildId: string, moves: ChannelMove[], reason: string | null = null): Channel[] {
    return reorderChannels(
      { d: this.d, guilds: this.guilds, audit: this.audit, rights: (g, a, c) => this.rightsIn(g, a, c, true) },
      actorId,
      guildId,
      moves,
      reason,
    );
  }

  /** PUT /channels/{id}/permissions/{target}: MANAGE_ROLES; bits outside the 13 are dropped. */
  putOverwrite(
    actorId: string,
    channelId: string,
    targetId: string,
    targetType: 0 | 1,
    allow: number,
    deny: number,
    reason: string | null = null,
  ): void {
    this.d.store.write(() => {
      const a = this.access(actorId, channelId);
      if (a.isDm) throw DomainError.forbidden("Direct messages have no permission overwrites");
      requireBits(a, PERMISSIONS.MANAGE_ROLES);
      const guildId = a.channel.guild_id!;
      this.requireTarget(guildId, targetId, targetType);
      const before = this.guilds.overwrites(channelId).find((o) => o.target_id === targetId) ?? null;
      const wanted = { allow: allow & ALL_PERMISSIONS, deny: deny & ALL_PERMISSIONS };
      requireOverwriteChange(this.rightsIn(guildId, actorId, channelId, true), changedBits(before, wanted));
      const synced = syncedWith(this.d, this.guilds, a.channel);
      const overwritesBefore = this.guilds.overwrites(channelId);
      this.writeOverwrite(a.channel, targetId, targetType, allow, deny);
      const act = { guildId, actorId, reason };
      auditOverwrites(this.audit, this.guilds, act, channelId, overwritesBefore, this.guilds.overwrites(channelId));
      this.d.store.emit({ type: "channel.updated", channelId, guildId });
      // After the category's own update, as the reference sends them.
      carrySynced(this.d, this.guilds, a.channel, synced, { audit: this.audit, act });
    });
  }

  /** DELETE /channels/{id}/permissions/{target}: MANAGE_ROLES; 404 when there is no such overwrite. */
  deleteOverwrite(actorId: string, channelId: string, targetId: string, reason: string | null = null): void {
    this.d.store.write(() => {
      const a = this.access(actorId, channelId);
      if (a.isDm) throw DomainError.forbidden("Direct messages have no permission overwrites");
      requireBits(a, PERMISSIONS.MANAGE_ROLES);
      const before = this.guilds.overwrites(channelId).find((o) => o.target_id === targetId);
      if (!before) throw DomainError.notFound("overwrite");
      requireOverwriteChange(this.rightsIn(a.channel.guild_id!, actorId, channelId, true), changedBits(before, null));
      const synced = syncedWith(this.d, this.guilds, a.channel);
      const overwritesBefore = this.guilds.overwrites(channelId);
      this.db.query("DELETE FROM overwrites WHERE channel_id = ? AND target_id = ?").run(channelId, targetId);
      const act = { guildId: a.channel.guild_id!, actorId, reason };
      auditOverwrites(this.audit, this.guilds, act, channelId, overwritesBefore, this.guilds.overwrites(channelId));
      this.d.store.emit({ type: "channel.updated", channelId, guildId: a.channel.guild_id });
      // After the category's own update, as the reference sends them.
      carrySynced(this.d, this.guilds, a.channel, synced, { audit: this.audit, act });
    });
  }

  /** POST /channels/{id}/typing: SEND_MESSAGES in guild channels; fires typing.started. */
  typing(actorId: string, channelId: string): void {
    this.d.store.write(() => {
      const a = this.access(actorId, channelId);
      if (!a.isDm) requireBits(a, PERMISSIONS.SEND_MESSAGES);
      this.d.store.emit({ type: "typing.started", channelId, guildId: a.channel.guild_id, userId: actorId, at: this.d.clock.now() });
    });
  }

  /**
   * What the actor may write into overwrites (core/overwrite-rights.ts): in an existing
   * channel (`inChannel`), or in a new one under `channelId` (its parent category, if any).
   */
  private rightsIn(guildId: string, actorId: string, channelId: string | null, inChannel: boolean): OverwriteRights {
    const guildPerms = this.guilds.permissions(guildId, actorId);
    const here = channelId ? this.guilds.permissions(guildId, actorId, channelId) : 0;
    const admin = hasPermission(guildPerms, PERMISSIONS.ADMINISTRATOR);
    let viaOverwrite = false;
    if (inChannel && channelId && !admin && hasPermission(here, PERMISSIONS.MANAGE_ROLES)) {
      const roleIds = this.guilds.memberRoleIds(guildId, actorId);
      viaOverwrite = this.guilds
        .overwrites(channelId)
        .some((o) => appliesTo(o, guildId, actorId, roleIds) && (o.allow & PERMISSIONS.MANAGE_ROLES) !== 0);
    }
    return { admin, held: asHeld(guildPerms) | asHeld(here), viaOverwrite };
  }

  private requireTarget(guildId: string, targetId: string, targetType: 0 | 1): void {
    if (targetType === 0) {
      if (!this.guilds.role(guildId, targetId)) throw DomainError.notFound("role");
    } else if (!this.guilds.isMember(guildId, targetId)) throw DomainError.notFound("member");
  }

  private writeOverwrite(c: Channel, targetId: string, targetType: 0 | 1, allow: number, deny: number): void {
    this.requireTarget(c.guild_id!, targetId, targetType);
    this.guilds.requireOverwriteRoom(c.id, targetId);
    this.db
      .query(
        "INSERT INTO overwrites (channel_id, target_id, target_type, allow, deny) VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_id, target_id) DO UPDATE SET target_type = excluded.target_type, allow = excluded.allow, deny = excluded.deny",
      )
      .run(c.id, targetId, targetType, allow & ALL_PERMISSIONS, deny & ALL_PERMISSIONS);
  }

  private requireGuildMember(actorId: string, guildId: string): void {
    if (!this.guilds.get(guildId) || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
  }

  private checkType(type: number, path: string): void {
    if (UNSUPPORTED_TYPES.has(type))
      throw DomainError.notImplemented("501: Not Implemented. Threads, forums, stages and directories are not supported by Parley.");
    if (!CREATABLE_TYPES.has(type)) throw DomainError.invalid(path, `Value "${type}" is not a valid channel type.`, "BASE_TYPE_CHOICES");
  }

  /**
   * A server channel about to move, change or go, as the database holds it under the
   * server's layout lock (Guilds.lockChannels): another node may have just moved or
   * deleted it, or the category it names.
   */
  private layout(c: Channel): Channel {
    this.guilds.lockChannels(c.guild_id!);
    const row = this.guilds.channelRow(c.id);
    if (!row) throw DomainError.notFound("channel");
    return row;
  }

  /** Under the layout lock: read past the memo. */
  private checkParent(guildId: string, parentId: string, type: number, selfId?: string): void {
    const p = this.guilds.channelRow(parentId);
    if (!p || p.guild_id !== guildId || p.type !== CATEGORY || p.id === selfId || type === CATEGORY)
      throw DomainError.invalid("parent_id", "Not a category channel of this server", "CHANNEL_PARENT_INVALID");
  }
}
