/**
 * Big worlds for the benches of how cost grows (scripts/bench/growth.ts), written with
 * bulk SQL in one transaction each so that a million messages take seconds, not the
 * hours a million posts would. Bench-only, so it lives here and reaches the database
 * the way tools do, through `Parley.store`. The rows are what the core itself would
 * write (UUIDv7 ids in time order, the columns' defaults), so every read path sees an
 * ordinary world, only a large one.
 */
import type { Store } from "../../../src/store/db";
import type { Clock } from "../../../src/core/clock";

export class BulkSeed {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * `count` messages by `authorId` in a channel, one per millisecond ending now, ids in
   * creation order (UUIDv7 with that millisecond); answers the oldest and newest ids.
   */
  messages(channelId: string, authorId: string, count: number): { oldest: string; newest: string } {
    const start = this.clock.now() - count;
    this.store.write(() => {
      this.store.db
        .query(
          `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?4 - 1)
           INSERT INTO messages (id, channel_id, author_id, type, content, created_at)
           SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7000-' || printf('%x', 8 + abs(random()) % 4) || substr(r, 1, 3) || '-' || substr(r, 4, 12),
                  ?1, ?2, 0, 'the quick brown fox jumps over the lazy dog, message ' || i, ?3 + i
           FROM (SELECT i, printf('%012x', ?3 + i) AS h, lower(hex(randomblob(8))) AS r FROM n)`,
        )
        .run(channelId, authorId, start, count);
    });
    const ends = this.store.db.query("SELECT min(id) AS oldest, max(id) AS newest FROM messages WHERE channel_id = ?").get(channelId) as {
      oldest: string;
      newest: string;
    };
    return ends;
  }

  /** `count` new people, each a member of the guild (usernames `<prefix><n>`, a prefix no other username has); answers their ids in order. */
  members(guildId: string, prefix: string, count: number): string[] {
    const now = this.clock.now();
    this.store.write(() => {
      const db = this.store.db;
      db.query(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?3 - 1)
         INSERT INTO users (id, kind, username, created_at)
         SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || printf('%03x', i % 4096) || '-8' || substr(r, 1, 3) || '-' || substr(r, 4, 12),
                'person', ?2 || i, ?1
         FROM (SELECT i, printf('%012x', ?1 - 10000000 + i / 4096) AS h, lower(hex(randomblob(8))) AS r FROM n)`,
      ).run(now, prefix, count);
      db.query(
        "INSERT INTO members (guild_id, user_id, joined_at) SELECT ?1, id, ?3 FROM users WHERE kind = 'person' AND substr(username, 1, length(?2)) = ?2",
      ).run(guildId, prefix, now);
    });
    return (
      this.store.db
        .query("SELECT id FROM users WHERE kind = 'person' AND substr(username, 1, length(?1)) = ?1 ORDER BY id")
        .all(prefix) as { id: string }[]
    ).map((r) => r.id);
  }
}
