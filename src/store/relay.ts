/**
 * Domain events across processes. An operator command (`parley app rotate`, `user
 * disable`, `app install`, ...) runs in a process of its own beside the server (WAL lets
 * it); its writes reach the server's reads at once (changes.ts), but the events they
 * produced would reach only the command's own bus, and the server's live connections
 * would never hear of them: a rotated token's gateway session going on, a disabled
 * person's open client still fed, a bot installed by the CLI missing its GUILD_CREATE.
 * Every event is relayed, those that end a credential among them: the gateway and the
 * people's live connection act on an event and never know where it came from.
 *
 * The sending store keeps each write's events as one row of `relayed_events`, in the
 * write's own transaction, so a row exists exactly when the write committed, and rows
 * are numbered in commit order. The server (the only receiver: one per data directory,
 * store/lock.ts) looks every quarter second (changes.ts says with one pread whether
 * anyone else committed at all) and publishes each row's events on its bus as one
 * commit's, oldest first: the same after-commit order its own writes have. It only reads;
 * the sender keeps the table short.
 *
 * EventRelay is the seam: a cluster of servers swaps the table for its own transport
 * (Postgres LISTEN/NOTIFY, a Redis stream) behind these three calls, and neither the core
 * nor the surfaces change.
 */
import type { Database } from "bun:sqlite";
import type { Changes } from "./changes";

/** One commit's events, as another process committed them, and the commit's number (0: none). */
export interface Relayed {
  events: unknown[];
  at: number;
}

/**
 * Where a process stands in the order of commits, when commits are numbered (several
 * nodes on one Postgres database: pg/relay.ts); a relay that numbers nothing has none.
 */
export interface CommitOrder {
  /** Every commit numbered up to this one has been published on this process's bus. */
  through(): number;
  /**
   * Every commit numbered after this one has been, or will be, published here: where the
   * process began hearing the others (or began again, after a time deaf). Nothing before
   * it is known to have been published here.
   */
  since(): number;
}

export interface EventRelay {
  /** Inside a write's transaction, once it has run: keep its events for the processes listening. */
  send(events: readonly unknown[]): void;
  /** The server, as it starts listening: what was sent before now is for nobody (no connection was open). */
  listen(): void;
  /**
   * The server, outside any transaction: the events of each write other processes
   * committed since the last call, oldest write first, each in its own order, with its
   * commit's number where commits are numbered.
   */
  receive(): Relayed[];
  /** Set by the store: events arrived, publish them now (a relay that is told, not one that is polled). */
  arrived?: () => void;
  /** Set by the composition root: the relay could not hear for a while, and what it missed is unknown. */
  gap?: () => void;
  /** Just before the outermost COMMIT of a transaction that sent something (pg/relay.ts numbers it). */
  seal?(): void;
  /** Just after that COMMIT: whether it held. Answers the commit's number (0: none). */
  sealed?(ok: boolean): number;
  /** Where this process stands in the order of numbered commits (pg/relay.ts); absent where nothing is numbered. */
  readonly order?: CommitOrder;
  /**
   * Test mode (the harness's `hold` fault): what the other processes commit waits, unheard,
   * until the answer is called. Only a relay that is told (Postgres's) can be held.
   */
  hold?(): () => void;
}

/**
 * Rows kept: far more than a server falls behind by between two looks (a command makes
 * a few writes; the server looks four times a second).
 */
const KEEP = 1000;

/** The relay through a table of the shared database. */
export class TableRelay implements EventRelay {
  /** The newest row already published (or there before listening). */
  private from = 0;
  /** Other writers' commits already looked at (changes.ts counts them). */
  private looked = -1;

  constructor(
    private readonly db: Database,
    private readonly changes: Changes,
    /** This store is a command's beside a server: its writes' events are kept. */
    private readonly sends: boolean,
  ) {}

  send(events: readonly unknown[]): void {
    if (!this.sends || !events.length) return;
    this.db.query("INSERT INTO relayed_events (events) VALUES (?)").run(JSON.stringify(events));
    this.db.query("DELETE FROM relayed_events WHERE id <= last_insert_rowid() - ?").run(KEEP);
  }

  listen(): void {
    this.looked = this.changes.othersCommitted();
    this.from = (this.db.query("SELECT coalesce(max(id), 0) AS n FROM relayed_events").get() as { n: number }).n;
  }

  receive(): Relayed[] {
    // Not inside an open transaction (a group commit): its snapshot may predate the commit
    // just counted, whose rows would then wait for someone's next commit.
    if (this.changes.alone || this.db.inTransaction) return [];
    const others = this.changes.othersCommitted();
    if (others === this.looked) return [];
    this.looked = others;
    const rows = this.db.query("SELECT id, events FROM relayed_events WHERE id > ? ORDER BY id").all(this.from) as {
      id: number;
      events: string;
    }[];
    if (rows.length) this.from = rows[rows.length - 1].id;
    // One server per data directory: nothing is numbered, nothing needs to be.
    return rows.map((r) => ({ events: JSON.parse(r.events) as unknown[], at: 0 }));
  }
}
