/**
 * The figures of the administrators' overview: how many people, bots, servers, channels
 * and messages there are, how large the database and the stored files are, and, over the last 30 days, the
 * messages posted, the people active and the requests answered each day.
 *
 * Requests and messages are counted as they happen, in memory, by the serving process
 * (requestServed, and message.created on its bus, once core.serve() started it), and added
 * into `day_counts` at most once a minute, when the next one comes, when the overview is
 * read and when the core closes: a count costs a map update, never a write of its own.
 * Each node of a cluster adds its own counts in. Active people are written by the
 * sessions themselves (core/sessions.ts, `activity_days`), once a day per session. Days
 * are UTC days of the one clock.
 */
import type { CoreDeps } from "./deps";
import { requireAdministrator, type Actor } from "./admins";
import { dayOf } from "./sessions";

export interface DayFigures {
  /** The day, YYYY-MM-DD (UTC). */
  day: string;
  messages: number;
  activePeople: number;
  requests: number;
}

export interface Overview {
  counts: {
    people: number;
    disabledPeople: number;
    administrators: number;
    applications: number;
    servers: number;
    channels: number;
    messages: number;
  };
  /** The database's pages and write-ahead log. */
  databaseBytes: number;
  /** Stored files (each distinct file once, as it is kept). */
  mediaBytes: number;
  /** The last 30 days, oldest first, today last. */
  days: DayFigures[];
  /** When these figures were read (the one clock): they are kept for five minutes. */
  at: number;
}

export const OVERVIEW_DAYS = 30;
const FLUSH_MS = 60_000;
const KEEP_MS = 5 * 60_000;

export class Stats {
  private readonly pending = new Map<number, { requests: number; messages: number }>();
  private lastFlush = 0;
  private kept: Overview | null = null;
  private counting = false;

  constructor(private readonly d: CoreDeps) {}

  private get db() {
    return this.d.store.db;
  }

  /**
   * The serving process counts from now on: the requests it answers, and the messages
   * posted (its bus hears every post, those of commands beside it included). Nothing
   * else counts, so no count is made twice.
   */
  start(): void {
    if (this.counting) return;
    this.counting = true;
    this.lastFlush = this.d.clock.now();
    this.d.bus.subscribe((e) => {
      if (e.type === "message.created") this.bump("messages");
    });
  }

  /** One request answered (any surface); added in with the others at most once a minute. */
  requestServed(): void {
    if (!this.counting) return;
    this.bump("requests");
    if (this.d.clock.now() - this.lastFlush >= FLUSH_MS) this.flush();
  }

  /** Add what was counted into the database now. */
  flush(): void {
    this.lastFlush = this.d.clock.now();
    if (!this.pending.size) return;
    const counts = [...this.pending];
    this.pending.clear();
    this.d.store.write(() => {
      const add = this.db.query(
        "INSERT INTO day_counts (day, requests, messages) VALUES (?, ?, ?) ON CONFLICT (day) DO UPDATE SET requests = requests + excluded.requests, messages = messages + excluded.messages",
      );
      for (const [day, c] of counts) add.run(day, c.requests, c.messages);
    });
  }

  /** The overview, for an administrator (or the operator); read anew when older than five minutes, or when `fresh`. */
  overview(actorId: Actor, fresh = false): Overview {
    requireAdministrator(this.d, actorId);
    const now = this.d.clock.now();
    if (!fresh && this.kept && now - this.kept.at < KEEP_MS) return this.kept;
    this.flush();
    const n = (sql: string) => (this.db.query(sql).get() as { n: number }).n;
    const counts = {
      people: n("SELECT count(*) AS n FROM users WHERE kind = 'person' AND deleted_at IS NULL"),
      disabledPeople: n("SELECT count(*) AS n FROM users WHERE kind = 'person' AND deleted_at IS NULL AND disabled_at IS NOT NULL"),
      administrators: n("SELECT count(*) AS n FROM users WHERE kind = 'person' AND deleted_at IS NULL AND is_admin = 1"),
      applications: n("SELECT count(*) AS n FROM applications"),
      servers: n("SELECT count(*) AS n FROM guilds"),
      channels: n("SELECT count(*) AS n FROM channels WHERE guild_id IS NOT NULL"),
      messages: n("SELECT count(*) AS n FROM messages"),
    };
    const mediaBytes = Number(n("SELECT coalesce(sum(size), 0) AS n FROM media_blobs"));
    this.kept = { counts, databaseBytes: this.d.store.sizeBytes(), mediaBytes, days: this.days(now), at: now };
    return this.kept;
  }

  private days(now: number): DayFigures[] {
    const last = dayOf(now);
    const first = last - OVERVIEW_DAYS + 1;
    const counted = new Map(
      (
        this.db.query("SELECT day, requests, messages FROM day_counts WHERE day BETWEEN ? AND ?").all(first, last) as {
          day: number;
          requests: number;
          messages: number;
        }[]
      ).map((r) => [r.day, r]),
    );
    const active = new Map(
      (
        this.db.query("SELECT day, count(*) AS n FROM activity_days WHERE day BETWEEN ? AND ? GROUP BY day").all(first, last) as {
          day: number;
          n: number;
        }[]
      ).map((r) => [r.day, r.n]),
    );
    return Array.from({ length: OVERVIEW_DAYS }, (_, i) => {
      const day = first + i;
      const c = counted.get(day);
      return {
        day: new Date(day * 86_400_000).toISOString().slice(0, 10),
        messages: c?.messages ?? 0,
        activePeople: active.get(day) ?? 0,
        requests: c?.requests ?? 0,
      };
    });
  }

  private bump(what: "requests" | "messages"): void {
    const day = dayOf(this.d.clock.now());
    let c = this.pending.get(day);
    if (!c) this.pending.set(day, (c = { requests: 0, messages: 0 }));
    c[what]++;
  }
}
