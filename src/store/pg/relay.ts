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
 * Notifications arrive a moment after the commit, so a node could answer a request that
 * follows another node's write (a bot whose calls a balancer spreads) from a memo the
 * write's notification has not reached yet. So every transaction that notified also
 * numbers its commit: just before COMMIT it takes the next value of a one-row counter
 * (`parley_clock`, whose row lock orders the commits of all nodes) and sends it last. A
 * node knows which numbers it has heard of or made itself; in each turn of its event
 * loop that consults a memo it reads the counter once, and while a committed number is
 * unheard it trusts no memo (changes.ts). What one node has answered, the next answers
 * too, whichever node it is.
 *
 * The same number places each commit's events in the order of every node's commits: a
 * node publishes its own with the number its COMMIT took, and holds another's events
 * until their transaction's number arrives (last, in the same run), then publishes them
 * with it (`order` says up to where it has heard them all). A gateway session taken over
 * from another node is handed exactly the frames that node had not given it by these
 * numbers (gateway/shared-sessions.ts).
 *
 * The listening connection is its own (Bun.sql's `listen`, which reconnects and listens
 * again after a drop). Until it listens, and whenever it has dropped, the node is deaf:
 * its memos are off (changes.ts), and once it listens again it calls `gap`, for the live
 * connections that may have missed events to start over.
 */
import { SQL } from "bun";
import type { CommitOrder, EventRelay, Relayed } from "../relay";
import type { PgDatabase } from "./bridge";
import type { PgChanges } from "./changes";
import type { LazyRun } from "./statement";

export const CHANNEL = "parley";
/** The commit counter (one row, created with the schema: migrate.ts): the next number, sent last. */
const TICK = "WITH c AS (UPDATE parley_clock SET n = n + 1 RETURNING n) SELECT n, pg_notify($1, $2 || n || '}') FROM c";
export const READ_CLOCK = "SELECT n FROM parley_clock";
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
  /** The commit's number (`parley_clock`), on the transaction's last message. */
  c?: number;
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
  /** This transaction notified: its commit gets a number. */
  private unsealed = false;
  /** The number taken for the commit under way, read once the COMMIT has been sent. */
  private sealing: LazyRun | null = null;
  private readonly heard: Relayed[] = [];
  /** Per sending process, the events of its transaction under way, until its number arrives. */
  private readonly unnumbered = new Map<string, unknown[][]>();
  private readonly parts = new Map<string, string[]>();
  /** Where this node began hearing every numbered commit: at its last (re)start of listening; unknown before. */
  private from = Number.POSITIVE_INFINITY;
  readonly order: CommitOrder = { through: () => this.changes.through, since: () => this.from };
  private sql: SQL | null = null;
  private listening = false;
  /** Confirmed at least once: a later confirmation follows a drop. */
  private confirmed = false;
  /** Holds in place (test mode, hold()), and the notifications they keep back meanwhile. */
  private holding = 0;
  private readonly kept: string[] = [];
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
    this.unsealed = true;
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

  /**
   * Before the COMMIT of a transaction that notified: number it. Last, so the counter's row
   * lock is held only while committing, never while waiting for another lock.
   */
  seal(): void {
    if (!this.unsealed) return;
    this.unsealed = false;
    // The message is {"n":…,"t":[],"e":[],"c":N}, N filled in by Postgres.
    const head = JSON.stringify({ n: this.id, t: [], e: [] } satisfies Message).slice(0, -1);
    this.sealing = this.db.later(TICK, [CHANNEL, `${head},"c":`]);
  }

  /** After the COMMIT: a number that held is one this node need not hear of. Answers it (0: none). */
  sealed(ok: boolean): number {
    this.unsealed = false;
    const n = ok ? this.sealing?.rows?.[0]?.[0] : undefined;
    this.sealing = null;
    if (n === undefined || n === null) return 0;
    this.changes.heard(Number(n));
    return Number(n);
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
    // Only a node that listens hears the numbers it compares.
    const clock = this.db.native(READ_CLOCK);
    this.changes.readClock = () => Number((clock.get() as { n: number | string }).n);
    const sql = new SQL({ ...this.connection, max: 1, onclose: () => this.dropped() } as ListenOptions);
    this.sql = sql;
    sql
      .listen(
        CHANNEL,
        (payload) => (this.holding ? void this.kept.push(payload) : this.hear(payload)),
        () => this.listeningAgain(),
      )
      .catch(() => {
        // Not reachable now: Bun.sql retries, and onlisten ends the deafness.
      });
  }

  receive(): Relayed[] {
    return this.heard.splice(0);
  }

  /**
   * Test mode: the notifications that arrive are kept, unheard, until the answer is
   * called, then heard in the order they came: this node hears the others late, as a
   * slow listening connection would make it.
   */
  hold(): () => void {
    this.holding++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.holding > 0) return;
      for (const payload of this.kept.splice(0)) this.hear(payload);
    };
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
    // Numbers from here on are heard; what committed before is in the database already.
    try {
      this.changes.heardUpTo(Number((this.db.native(READ_CLOCK).get() as { n: number | string }).n));
      this.from = this.changes.through;
    } catch {
      // Not reachable this moment: the first read turns memos off until numbers are heard.
      this.from = Number.POSITIVE_INFINITY;
    }
    // Events whose number never came (the connection dropped between them): published unplaced.
    for (const events of this.unnumbered.values()) for (const e of events) this.heard.push({ events: e, at: 0 });
    this.unnumbered.clear();
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
      const waiting = this.unnumbered.get(m.n);
      if (waiting) waiting.push(m.e as unknown[]);
      else this.unnumbered.set(m.n, [m.e as unknown[]]);
    }
    if (typeof m.c !== "number") return;
    // The transaction's last message: its events are published with its number.
    const events = this.unnumbered.get(m.n);
    if (events) {
      this.unnumbered.delete(m.n);
      for (const e of events) this.heard.push({ events: e, at: m.c });
    }
    this.changes.heard(m.c);
    if (events) this.arrived();
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
