/**
 * Pins, as the reference keeps them (reference-gaps 2.9), for bots and people alike:
 * pin and unpin need MANAGE_MESSAGES in a server channel (the reference's PIN_MESSAGES is
 * not one of the 13 bits, spec 2.9; MANAGE_MESSAGES is what its older routes asked); in a
 * DM either recipient may. A channel holds at most 250 pins (400 30003). A message of
 * another channel is unknown here (404 10003: spec 7 has one not-found; the reference's
 * 50019 is not in it). Pinning again, or unpinning what is not pinned, changes nothing.
 *
 * A pin updates the message (`pinned`: MESSAGE_UPDATE), posts the reference's system
 * message (type 6 CHANNEL_PINNED_MESSAGE by the pinner, its `message_reference` naming
 * the pinned message: MESSAGE_CREATE) and, in a server, audits 74 (75 on unpin) with
 * `options.channel_id` and `options.message_id`. CHANNEL_PINS_UPDATE is never dispatched
 * (spec 6.2): those two events are how bots and people hear of pins.
 */
import type { CoreDeps } from "./deps";
import type { Message } from "./models";
import type { Messages } from "./messages";
import { AUDIT, type Audit } from "./audit";
import { requireBits, type ChannelAccess } from "./access";
import { DomainError } from "./errors";
import { MESSAGE_TYPE } from "./message-types";
import { PERMISSIONS } from "./permissions";

export const MAX_PINS = 250;
/** The list's largest (and default) page; the deprecated list's whole answer. */
export const PINS_PAGE = 50;

export interface PinnedMessage {
  pinnedAt: number;
  message: Message;
}

export interface PinsPage {
  items: PinnedMessage[];
  hasMore: boolean;
}

const NO_MENTIONS = { users: false, roles: false, everyone: false, repliedUser: false };

export class Pins {
  constructor(
    private readonly d: CoreDeps,
    private readonly messages: Messages,
    private readonly audit: Audit,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /** Pin a message of this channel. Answers the system message posted, or null when it was pinned already. */
  pin(actorId: string, channelId: string, messageId: string, reason: string | null = null): Message | null {
    return this.d.store.write(() => {
      const { a, m } = this.target(actorId, channelId, messageId);
      if (m.pinned) return null;
      const n = (this.db.query("SELECT count(*) AS n FROM pins WHERE channel_id = ?").get(channelId) as { n: number }).n;
      if (n >= MAX_PINS) throw DomainError.maximum(30003, `Maximum number of pins reached (${MAX_PINS})`);
      this.db
        .query("INSERT INTO pins (message_id, channel_id, pinned_at, pinned_by) VALUES (?, ?, ?, ?)")
        .run(m.id, channelId, this.d.clock.now(), actorId);
      this.setFlag(a, m, 1);
      this.record(a, actorId, m, AUDIT.MESSAGE_PIN, reason);
      return this.messages.create({
        channelId,
        authorId: actorId,
        type: MESSAGE_TYPE.CHANNEL_PINNED_MESSAGE,
        content: "",
        reference: { messageId: m.id, channelId, guildId: a.channel.guild_id },
        allowedMentions: NO_MENTIONS,
      });
    });
  }

  /** Unpin a message of this channel; answers whether it was pinned. */
  unpin(actorId: string, channelId: string, messageId: string, reason: string | null = null): boolean {
    return this.d.store.write(() => {
      const { a, m } = this.target(actorId, channelId, messageId);
      if (!m.pinned) return false;
      this.db.query("DELETE FROM pins WHERE message_id = ?").run(m.id);
      this.setFlag(a, m, 0);
      this.record(a, actorId, m, AUDIT.MESSAGE_UNPIN, reason);
      return true;
    });
  }

  /**
   * The channel's pins, most recently pinned first: those pinned before `before` (a time
   * in ms; the reference's ISO pinned_at, parsed by the route), `limit` 1..50 (50).
   */
  list(actorId: string, channelId: string, page: { before?: number | null; limit?: number } = {}): PinsPage {
    const limit = page.limit ?? PINS_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > PINS_PAGE)
      throw DomainError.invalid("limit", `Must be between 1 and ${PINS_PAGE}.`, "NUMBER_TYPE_MAX");
    this.messages.access(actorId, channelId);
    const rows = this.db
      .query(
        "SELECT message_id, pinned_at FROM pins WHERE channel_id = ? AND pinned_at < ? ORDER BY pinned_at DESC, message_id DESC LIMIT ?",
      )
      .all(channelId, page.before ?? Number.MAX_SAFE_INTEGER, limit + 1) as { message_id: string; pinned_at: number }[];
    const items = rows.slice(0, limit).flatMap((r) => {
      const message = this.messages.get(r.message_id);
      return message ? [{ pinnedAt: r.pinned_at, message }] : [];
    });
    return { items, hasMore: rows.length > limit };
  }

  /** The deprecated list (`GET /channels/{id}/pins`): the 50 most recently pinned messages. */
  listLatest(actorId: string, channelId: string): Message[] {
    return this.list(actorId, channelId, { limit: PINS_PAGE }).items.map((i) => i.message);
  }

  /**
   * The channel as the actor may act on its pins, and the message of it (ephemeral ones
   * cannot be pinned), read under a lock on the channel's pins (Store.serialize), so that
   * the 250 and "pinned once" are checked by one writer at a time on every node.
   */
  private target(actorId: string, channelId: string, messageId: string): { a: ChannelAccess; m: Message } {
    const a = this.messages.access(actorId, channelId);
    if (!a.isDm) requireBits(a, PERMISSIONS.MANAGE_MESSAGES);
    this.d.store.serialize(`pins:${channelId}`);
    const m = this.messages.require(channelId, messageId, actorId);
    if (m.ephemeral_user_id) throw DomainError.notFound("message");
    return { a, m };
  }

  private setFlag(a: ChannelAccess, m: Message, pinned: 0 | 1): void {
    this.db.query("UPDATE messages SET pinned = ? WHERE id = ?").run(pinned, m.id);
    this.d.search.changed({ ...m, pinned }, a.channel);
    this.d.store.emit({ type: "message.updated", messageId: m.id, channelId: m.channel_id, guildId: a.channel.guild_id });
  }

  private record(a: ChannelAccess, actorId: string, m: Message, actionType: number, reason: string | null): void {
    if (!a.channel.guild_id) return;
    this.audit.record({
      guildId: a.channel.guild_id,
      actorId,
      actionType,
      targetId: m.author_id,
      options: { channel_id: m.channel_id, message_id: m.id },
      reason,
    });
  }
}
