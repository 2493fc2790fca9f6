/**
 * Longer than 400 lines because the statement facade, its deferral and the wait loop share one
 * buffer's protocol with the worker.
 *
 * Postgres behind the same synchronous calls the core makes on bun:sqlite: `query(sql)`
 * and `prepare(sql)` give statements with get/all/values/run, `exec`, `transaction(fn)`
 * and `inTransaction`. The core stays synchronous; this thread blocks in Atomics.wait
 * while a worker (worker.ts) runs the statements with Bun.sql.
 *
 * Every wait costs a round trip and two thread wake-ups, so statements whose answer
 * nobody needs yet are not sent at once: inside a transaction, `run()` only queues its
 * statement, and the queue goes with the next statement that must wait (a read, a
 * COMMIT, a `changes` read) in one crossing. `flush()` sends it now; a transaction made
 * with `transaction()` flushes before it ends, so an error is thrown inside the write
 * that caused it, never in the next one. Outside a transaction every statement is waited
 * for (it commits on its own). A failed statement stops the crossing: the ones queued
 * after it never run.
 *
 * Every crossing has a deadline: Postgres cancels a statement (or a lock wait) past the
 * timeout, and should the server not answer at all the bridge gives up a little later,
 * drops the worker and its connection (Postgres rolls its transaction back), and starts a
 * fresh one for the next statement. Either way the caller gets a StoreError with a
 * PARLEY_STORE_* code, never a hang.
 */
import { StoreError, toError } from "./errors";
import {
  Channel,
  IDLE,
  REQUEST,
  RESPONSE,
  STATE,
  type Param,
  type Ready,
  type Response,
  type StatementRequest,
  type StatementResult,
} from "./protocol";
import { LazyRun, PgStatement, settled, type RunResult, type Runner } from "./statement";
import { translate, type Translated } from "./translate";
import type { WorkerOptions } from "./worker";

export interface PgOptions {
  /** postgres://user:pass@host:port/db (the operator's --database). */
  url?: string;
  /** A unix socket: its path, or the directory holding `.s.PGSQL.<port>`. */
  path?: string;
  hostname?: string;
  port?: number;
  username?: string;
  password?: string;
  database?: string;
  /** Longest a statement may run or wait for a lock; Postgres cancels it then. Default 5000. */
  timeoutMs?: number;
  /** Longest to wait for a connection. Default 5000. */
  connectTimeoutMs?: number;
  applicationName?: string;
}

/**
 * The worker's script: beside this file when Parley runs from its sources; in the compiled
 * executable, where `bun build --compile` put the worker's own entrypoint (scripts/build.ts),
 * under the same root as main's bundle, which this code is then part of.
 */
const WORKER_URL = new URL(import.meta.url.endsWith("/bridge.ts") ? "./worker.ts" : "./store/pg/worker.ts", import.meta.url).href;

/** How much longer than the statement timeout the bridge waits before it gives up on the server. */
const GRACE_MS = 1000;
/** Statements kept prepared per database by text (the core has about 200; dynamic ones come and go). */
const CACHE = 2000;

interface Queued {
  /** Its place among every statement ever queued: what a transaction() scope began with. */
  seq: number;
  req: StatementRequest;
  control: Translated["control"];
  result: LazyRun | null;
}

export class PgDatabase implements Runner {
  private channel: Channel | null = null;
  private worker: Worker | null = null;
  private queue: Queued[] = [];
  /** The transaction once the queue has run: none, open, or lost with its connection. */
  private tx: "none" | "open" | "lost" = "none";
  private depth = 0;
  private queued = 0;
  /** The last failure a crossing threw, and the number of the queued statement that failed (or of the next one, for the statement that was waited for). */
  private failure: { error: unknown; seq: number } | null = null;
  private readonly statements = new Map<string, PgStatement>();
  private readonly timeoutMs: number;
  private readonly connectTimeoutMs: number;
  /** Told of every statement of SQLite's dialect given to this database, before it runs (the store's change log). */
  observer: ((sql: string) => void) | null = null;
  /** Round trips to the worker so far, and how many times the bridge gave up on one (tests and metrics). */
  crossings = 0;
  restarts = 0;

  constructor(private readonly opts: PgOptions) {
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.connectTimeoutMs = opts.connectTimeoutMs ?? 5000;
    const ready = this.start();
    if (ready.error) {
      this.stopWorker();
      throw toError(ready.error);
    }
  }

  query(sql: string): PgStatement {
    let s = this.statements.get(sql);
    if (!s) {
      if (this.statements.size >= CACHE) this.statements.clear();
      s = this.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  prepare(sql: string): PgStatement {
    return new PgStatement(this, sql, translate(sql));
  }

  /** A statement already in Postgres's dialect ($1..$n), for the store's own Postgres-only SQL: not translated. */
  native(sql: string): PgStatement {
    let n = 0;
    for (const m of sql.matchAll(/\$(\d+)/g)) n = Math.max(n, Number(m[1]));
    return new PgStatement(this, sql, { text: sql, slots: new Array(n).fill(null), control: null });
  }

  /**
   * A notification on `channel`, in the open transaction (delivered if it commits) or at
   * once. Its payload is checked here, so it cannot fail on the server: it goes with the
   * next crossing, and a write does not send it on its own.
   */
  notify(channel: string, payload: string): void {
    if (Buffer.byteLength(payload) >= 8000) throw new RangeError("a notification's payload is under 8000 bytes");
    this.submit({ sql: "SELECT pg_notify($1, $2)", params: [channel, payload], mode: "run" }, "notify");
  }

  /**
   * Postgres text queued in the open transaction, its rows read once it has been sent
   * (with the COMMIT, at the latest): a write's last statement costs no crossing of its own.
   */
  later(sql: string, params: Param[]): LazyRun {
    if (this.predicted() !== "open") throw new Error("later() is for a statement inside a transaction");
    const result = new LazyRun(this);
    this.queue.push({ seq: this.queued++, req: { sql, params, mode: "all" }, control: null, result });
    return result;
  }

  /** Postgres text run as it is (several statements may be given): the schema, the store's own SQL. */
  execNative(sql: string): RunResult {
    return this.submit({ sql, params: [], mode: "exec" }, null);
  }

  /** Run SQL text without parameters (several statements may be given). */
  exec(sql: string): RunResult {
    const t = translate(sql);
    if (t.control === null) this.observer?.(sql);
    if (t.slots.length) throw new RangeError("exec() takes no parameters: use query(sql).run(...)");
    return this.submit({ sql: t.text, params: [], mode: t.control ? "run" : "exec" }, t.control);
  }

  run(sql: string): RunResult {
    return this.exec(sql);
  }

  get inTransaction(): boolean {
    return this.predicted() !== "none";
  }

  /**
   * fn in a transaction (a savepoint when one is open), as bun:sqlite's: committed when fn
   * returns, rolled back when it throws. fn's statements are all sent before it ends, so
   * every error of theirs is thrown here.
   */
  transaction<A extends unknown[], T>(
    fn: (...args: A) => T,
  ): ((...args: A) => T) & { deferred: (...args: A) => T; immediate: (...args: A) => T; exclusive: (...args: A) => T } {
    const run = (...args: A): T => {
      const outer = !this.inTransaction;
      const name = `parley_${++this.depth}`;
      const mark = this.queued;
      this.exec(outer ? "BEGIN" : `SAVEPOINT ${name}`);
      try {
        const result = fn(...args);
        if (outer) this.exec("COMMIT");
        else {
          this.exec(`RELEASE ${name}`);
          // Only a statement of fn's can fail here: when a read already sent them all, the
          // RELEASE (which cannot) waits for the next crossing instead of making one.
          if (this.queue.some((q) => q.control === null)) this.flush();
        }
        return result;
      } catch (e) {
        this.undo(outer, name, mark, e);
        throw e;
      } finally {
        this.depth--;
      }
    };
    return Object.assign(run, { deferred: run, immediate: run, exclusive: run });
  }

  /**
   * The end of a write: send what is queued if any of it can fail, so that a failure is
   * thrown inside that write; what only ends a savepoint waits for the next crossing.
   */
  flushWrites(): void {
    if (this.queue.some((q) => q.control === null)) this.flush();
  }

  /** Send what is queued now (the end of a write): throws the first failure among it. */
  flush(): void {
    if (!this.queue.length) return;
    this.cross([]);
  }

  close(): void {
    this.queue = [];
    if (this.channel) {
      try {
        this.channel.write({ op: "close" }, REQUEST);
        this.wait(this.channel, 2000);
      } catch {}
    }
    this.stopWorker();
    this.tx = "none";
  }

  // -- the Runner a PgStatement calls ----------------------------------------------------

  observe(sql: string): void {
    this.observer?.(sql);
  }

  /** A statement whose rows are wanted: everything queued goes with it. */
  answer(req: StatementRequest): StatementResult {
    this.refuseIfLost();
    return this.cross([req]).at(-1)!;
  }

  /** A statement whose answer may wait: queued inside a transaction, sent at once otherwise. */
  submit(req: StatementRequest, control: Translated["control"]): RunResult {
    if (this.predicted() === "lost") {
      if (control === "rollback") {
        this.queue = [];
        this.tx = "none";
        return settled(0);
      }
      this.refuseIfLost(control === "commit");
    }
    if (control === "rollback") {
      // Whatever is queued would be undone: it is not sent. And a transaction none of whose
      // statements has left yet has nothing to roll back on the server.
      const unsent = this.tx === "none";
      this.drop(this.queue[0]?.seq ?? this.queued, "rolled back");
      if (unsent) return settled(0);
    }
    const after = control === "begin" ? "open" : control === "commit" || control === "rollback" ? "none" : this.predicted();
    if (after === "open" && control !== "commit") {
      const result = new LazyRun(this);
      this.queue.push({ seq: this.queued++, req, control, result });
      return result;
    }
    try {
      return settled(this.cross([req]).at(-1)!.changes);
    } finally {
      // A COMMIT ends the transaction whatever became of it (a lost one is over too).
      if (control === "commit" && this.tx === "lost") this.tx = "none";
    }
  }

  // -- internals --------------------------------------------------------------------------

  private predicted(): "none" | "open" | "lost" {
    let state = this.tx;
    for (const q of this.queue) {
      if (q.control === "begin") state = "open";
      else if (q.control === "commit" || q.control === "rollback") state = "none";
    }
    return state;
  }

  private refuseIfLost(ending = false): void {
    if (this.tx !== "lost") return;
    if (ending) this.tx = "none";
    throw new StoreError(
      "the connection to Postgres was lost inside this transaction: none of its writes were committed; roll it back",
      "PARLEY_STORE_TRANSACTION_LOST",
    );
  }

  /** Undo a transaction() whose fn threw `error`. */
  private undo(outer: boolean, name: string, mark: number, error: unknown): void {
    const state = this.predicted();
    if (state === "none") return;
    // A statement queued before this scope began failed, so its SAVEPOINT never ran: the
    // scope that queued that statement undoes it.
    const failure = this.failure;
    if (!outer && failure !== null && failure.error === error && failure.seq < mark) return;
    if (state === "lost") {
      if (outer) this.exec("ROLLBACK");
      return;
    }
    // Its BEGIN or SAVEPOINT never left: forget it with all that followed, and send nothing.
    const unsent = this.queue[0] !== undefined && this.queue[0].seq <= mark;
    this.drop(mark, "rolled back");
    if (unsent) return;
    if (outer) this.exec("ROLLBACK");
    else {
      this.exec(`ROLLBACK TO ${name}`);
      this.exec(`RELEASE ${name}`);
    }
  }

  /** Forget the queued statements from the one numbered `seq` on; reading their results throws. */
  private drop(seq: number, why: string): void {
    const keep = this.queue.filter((q) => q.seq < seq);
    for (const q of this.queue.slice(keep.length)) {
      if (q.result && !q.result.done) {
        q.result.done = true;
        q.result.error = new StoreError(`the statement never ran: its transaction was ${why}`, "PARLEY_STORE_ERROR");
      }
    }
    this.queue = keep;
  }

  /** One crossing: the queue, then `more`; answers every result, throws the first failure. */
  private cross(more: StatementRequest[]): StatementResult[] {
    const sent = this.queue;
    this.queue = [];
    const statements = [...sent.map((q) => q.req), ...more];
    let res: Response;
    try {
      res = this.exchange(statements);
    } catch (e) {
      for (const q of sent) if (q.result) Object.assign(q.result, { done: true, error: e });
      this.failure = { error: e, seq: sent[0]?.seq ?? this.queued };
      throw e;
    }
    const failedAt = res.error ? res.results.length : -1;
    const error = res.error ? toError(res.error) : null;
    if (error) this.failure = { error, seq: failedAt < sent.length ? sent[failedAt].seq : this.queued };
    sent.forEach((q, i) => {
      if (!q.result) return;
      q.result.done = true;
      if (i < res.results.length) {
        q.result.value = res.results[i].changes;
        q.result.rows = res.results[i].rows;
      } else
        q.result.error = i === failedAt ? error : new StoreError("the statement never ran: one before it failed", "PARLEY_STORE_ERROR");
    });
    this.tx = res.error?.code === "PARLEY_STORE_TRANSACTION_LOST" ? "lost" : res.inTransaction ? "open" : "none";
    if (error) throw error;
    return res.results;
  }

  private exchange(statements: StatementRequest[]): Response {
    if (!this.channel) {
      const ready = this.start();
      if (ready.error) {
        this.stopWorker();
        if (this.tx === "open") this.tx = "lost";
        throw toError(ready.error);
      }
    }
    const channel = this.channel!;
    this.crossings++;
    channel.write({ op: "run", statements }, REQUEST);
    if (!this.wait(channel, this.timeoutMs + GRACE_MS)) {
      // The server (or the worker) does not answer: give both up. Postgres rolls back the
      // open transaction when the connection goes; the next statement starts afresh.
      this.stopWorker();
      this.restarts++;
      const lost = this.tx !== "none" || statements.some((s) => /^\s*BEGIN\b/i.test(s.sql));
      this.tx = lost ? "lost" : "none";
      throw new StoreError(
        `Postgres did not answer within ${this.timeoutMs + GRACE_MS} ms`,
        lost ? "PARLEY_STORE_TRANSACTION_LOST" : "PARLEY_STORE_TIMEOUT",
      );
    }
    return channel.read<Response>();
  }

  /** Block until the worker answers or the deadline passes; false on the deadline. */
  private wait(channel: Channel, ms: number): boolean {
    const deadline = performance.now() + ms;
    while (Atomics.load(channel.ctrl, STATE) !== RESPONSE) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(channel.ctrl, STATE, REQUEST, left);
    }
    Atomics.store(channel.ctrl, STATE, IDLE);
    return true;
  }

  private start(): Ready {
    const channel = Channel.create();
    const worker = new Worker(WORKER_URL);
    // An open store must not keep a process alive on its own (Bun has unref on workers; the DOM type does not say so).
    (worker as unknown as { unref?: () => void }).unref?.();
    const o = this.opts;
    const options: WorkerOptions = {
      sab: channel.sab,
      connection: {
        url: o.url,
        path: o.path,
        hostname: o.hostname,
        port: o.port,
        username: o.username,
        password: o.password,
        database: o.database,
      },
      statementTimeoutMs: this.timeoutMs,
      connectTimeoutMs: this.connectTimeoutMs,
      applicationName: o.applicationName ?? "parley",
    };
    for (const k of Object.keys(options.connection) as (keyof WorkerOptions["connection"])[])
      if (options.connection[k] === undefined) delete options.connection[k];
    Atomics.store(channel.ctrl, STATE, REQUEST);
    worker.postMessage(options);
    this.channel = channel;
    this.worker = worker;
    if (!this.wait(channel, this.connectTimeoutMs + GRACE_MS)) {
      this.stopWorker();
      return {
        ready: true,
        error: { message: `no connection to Postgres within ${this.connectTimeoutMs} ms`, code: "PARLEY_STORE_UNAVAILABLE" },
      };
    }
    return channel.read<Ready>();
  }

  private stopWorker(): void {
    void this.worker?.terminate();
    this.worker = null;
    this.channel = null;
  }
}

export { PgStatement, type RunResult } from "./statement";
