/**
 * What one process on a Postgres database tells the others, and hears from them: the
 * relay (store/relay.ts's seam) over Postgres's LISTEN/NOTIFY.
 *
 * Each write ends with `SELECT pg_notify('parley', ...)` in its own transaction (inside
 * its savepoint in a group commit, so a write rolled back takes its notification with
 * it): the cells of the change log it bumped and the domain events it produced. Postgres
 * delivers a transaction's notifications only once it commits, in commit order, to every
 * listening connection. So invalidation and fan-out are one ordered stream: a node bumps
 * the tables first, then publishes the events on its own bus, and never serves a row
 * older than an event it has already passed on. Its own notifications come back too, and
 * are skipped by the sender's id.
 *
 * A notification's payload is at most 8000 bytes: a larger message is sent in parts,
 * which arrive together (one transaction's notifications are delivered as one run).
 *
 * The listening connection is its own (Bun.sql's `listen`, which reconnects and listens
 * again after a drop). Until it listens, and whenever it has dropped, the node is deaf:
 * its memos are off (changes.ts), and once it listens again it calls `gap`, for the live
 * connections that may have missed events to start over.
 */
import { SQL } from "bun";
import type { EventRelay } from "../relay";
import type { PgDatabase } from "./bridge";
import type { PgChanges } from "./changes";

export const CHANNEL = "parley";
/** Under Postgres's 8000-byte limit, with room for the part's envelope. */
const PART_CHARS = 2500;

/** One write's notification, whole. */
interface Message {
  /** The sending process. */
  n: string;
  /** The change log's cells it bumped. */
  t: string[];
  /** Its domain events. */
  e: readonly unknown[];
}

/** A part of a message too large for one notification. */
interface Part {
  n: string;
  /** Which message, among the sender's. */
  m: number;
  i: number;
  of: number;
  d: string;
}

export type ListenOptions = ConstructorParameters<typeof SQL>[0];

export class PgRelay implements EventRelay {
  readonly id = crypto.randomUUID();
  private sent = 0;
  private readonly heard: unknown[][] = [];
  private readonly parts = new Map<string, string[]>();
  private sql: SQL | null = null;
  private listening = false;
  /** Confirmed at least once: a later confirmation follows a drop. */
  private confirmed = false;
  /** The events that arrived, for the store to publish now (rather than at the next poll). */
  arrived: () => void = () => {};
  /** The node listens again after a time deaf: what it may have missed is unknown. */
  gap: () => void = () => {};

  constructor(
    private readonly db: PgDatabase,
    private readonly changes: PgChanges,
    private readonly connection: ListenOptions,
  ) {}

  send(events: readonly unknown[]): void {
    const tables = this.changes.drain();
    if (!tables.length && !events.length) return;
    const text = JSON.stringify({ n: this.id, t: tables, e: events } satisfies Message);
    if (text.length <= PART_CHARS) {
      this.db.notify(CHANNEL, text);
      return;
    }
    const m = ++this.sent;
    const of = Math.ceil(text.length / PART_CHARS);
    for (let i = 0; i < of; i++)
      this.db.notify(CHANNEL, JSON.stringify({ n: this.id, m, i, of, d: text.slice(i * PART_CHARS, (i + 1) * PART_CHARS) } satisfies Part));
  }

  /** Everything changed (a wipe): outside any write, committed on its own. */
  sendEverything(): void {
    this.changes.drain();
    this.db.notify(CHANNEL, JSON.stringify({ n: this.id, t: ["*"], e: [] } satisfies Message));
  }

  /** The server, as it starts: open the listening connection; deaf until Postgres confirms. */
  listen(): void {
    if (this.sql) return;
    this.changes.deaf = true;
    const sql = new SQL({ ...this.connection, max: 1, onclose: () => this.dropped() } as ListenOptions);
    this.sql = sql;
    sql
      .listen(
        CHANNEL,
        (payload) => this.hear(payload),
        () => this.listeningAgain(),
      )
      .catch(() => {
        // Not reachable now: Bun.sql retries, and onlisten ends the deafness.
      });
  }

  receive(): unknown[][] {
    return this.heard.splice(0);
  }

  close(): void {
    const sql = this.sql;
    this.sql = null;
    if (sql) void sql.close({ timeout: 0 }).catch(() => {});
  }

  /** Asked to listen (a serving node; a command only sends). */
  get listens(): boolean {
    return this.sql !== null;
  }

  /** Is the node hearing the others (for /readyz)? */
  get hearing(): boolean {
    return this.sql !== null && this.listening;
  }

  private listeningAgain(): void {
    // The first confirmation follows the start, when no connection had any event to miss.
    const gap = this.confirmed && this.changes.deaf;
    this.confirmed = true;
    this.listening = true;
    this.changes.deaf = false;
    // What was kept while deaf was loaded while deaf: start over.
    this.changes.everything();
    this.changes.drain();
    if (gap) this.gap();
  }

  private dropped(): void {
    this.listening = false;
    this.changes.deaf = true;
  }

  private hear(payload: string): void {
    let m: Message | Part;
    try {
      m = JSON.parse(payload) as Message | Part;
    } catch {
      // Someone else's notification on our channel (an operator's hand-made one included): trust nothing kept.
      this.changes.remote(["*"]);
      return;
    }
    if (m.n === this.id) return;
    if ("d" in m) {
      const whole = this.join(m);
      if (!whole) return;
      m = whole;
    }
    this.changes.remote(Array.isArray(m.t) ? m.t : ["*"]);
    if (Array.isArray(m.e) && m.e.length) {
      this.heard.push(m.e);
      this.arrived();
    }
  }

  /** A part: kept until its message is whole. */
  private join(p: Part): Message | null {
    const key = `${p.n} ${p.m}`;
    let got = this.parts.get(key);
    if (!got) this.parts.set(key, (got = []));
    got[p.i] = p.d;
    if (got.filter((x) => x !== undefined).length < p.of) return null;
    this.parts.delete(key);
    return JSON.parse(got.join("")) as Message;
  }
}
