import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { Messages } from "./messages";
import { DomainError } from "./errors";

/**
 * Reactions. (Minimal version written by the people/harness issue so the harness's
 * reaction routes compile; the messages issue owns this file and its full rules.)
 * `emoji` is a unicode emoji ("👍") or a custom one ("name:id", "a:name:id").
 */
export class Reactions {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly messages: Messages,
  ) {}

  add(userId: string, messageId: string, emoji: string): void {
    this.change(userId, messageId, emoji, true);
  }

  remove(userId: string, messageId: string, emoji: string): void {
    this.change(userId, messageId, emoji, false);
  }

  private change(userId: string, messageId: string, emoji: string, add: boolean): void {
    const e = parseEmoji(emoji);
    this.d.store.write(() => {
      const m = this.messages.get(messageId);
      const ch = m ? this.guilds.channel(m.channel_id) : null;
      if (!m || !ch || !this.messages.canSee(ch, userId) || (m.ephemeral_user_id && m.ephemeral_user_id !== userId))
        throw DomainError.notFound("message");
      const res = add
        ? this.d.store.db
            .query(
              "INSERT OR IGNORE INTO reactions (message_id, emoji_key, emoji_name, emoji_id, emoji_animated, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .run(m.id, e.key, e.name, e.id, e.animated ? 1 : 0, userId, this.d.clock.now())
        : this.d.store.db.query("DELETE FROM reactions WHERE message_id = ? AND emoji_key = ? AND user_id = ?").run(m.id, e.key, userId);
      if (!res.changes) return;
      this.d.store.emit({
        type: add ? "reaction.added" : "reaction.removed",
        messageId: m.id,
        channelId: ch.id,
        guildId: ch.guild_id,
        userId,
        emoji: { name: e.name, id: e.id, animated: e.animated },
        messageAuthorId: m.author_id,
      });
    });
  }
}

export function parseEmoji(raw: string): { key: string; name: string | null; id: string | null; animated: boolean } {
  const custom = /^(a:)?([A-Za-z0-9_~]{1,32}):([0-9]{1,20})$/.exec(raw);
  if (custom) return { key: custom[3], name: custom[2], id: custom[3], animated: !!custom[1] };
  if (raw.length === 0 || raw.length > 64 || /\s/.test(raw)) throw DomainError.invalid("emoji", "Unknown emoji", "BASE_TYPE_INVALID");
  return { key: raw, name: raw, id: null, animated: false };
}
