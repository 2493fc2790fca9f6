/**
 * The Postgres bridge's worker (bridge.ts): the thread that talks to Postgres through
 * Bun.sql while the server's thread waits. It holds one reserved connection, so that a
 * transaction's statements, sent over several requests, all reach the same session.
 *
 * A reserved connection that drops stays dropped (Bun.sql never reconnects it behind our
 * back): outside a transaction the next request takes a fresh one, so a Postgres restart
 * costs nothing but the reconnect; inside one, the transaction is reported lost rather
 * than carried on over a new session that never saw its BEGIN (whose COMMIT Postgres
 * would answer with a mere warning).
 *
 * Answers are made to look like bun:sqlite's: integers as numbers (as text when too
 * large for one, or for a safeIntegers statement, for the bridge to make BigInts),
 * booleans as 0 and 1, JSON values as their text.
 */
import { SQL } from "bun";
import { errorInfo, isConnectionLoss, type ErrorInfo } from "./errors";
import {
  Channel,
  REQUEST,
  RESPONSE,
  STATE,
  type Param,
  type Ready,
  type Request,
  type Response,
  type StatementRequest,
  type StatementResult,
} from "./protocol";

declare const self: Worker;

export interface WorkerOptions {
  sab: SharedArrayBuffer;
  connection: {
    url?: string;
    path?: string;
    hostname?: string;
    port?: number;
    username?: string;
    password?: string;
    database?: string;
  };
  /** Postgres cancels a statement (or a lock wait) that runs longer. */
  statementTimeoutMs: number;
  connectTimeoutMs: number;
  applicationName: string;
}

const INT_TYPES = new Set([20, 21, 23, 26]);
const FLOAT_TYPES = new Set([700, 701, 1700]);
const BOOL = 16;
const BYTEA = 17;

class Connection {
  private sql: SQL | null = null;
  private conn: (SQL & { release(): Promise<void> }) | null = null;
  /** Set when Bun.sql reports the connection closed (a restart while idle): take a new one before the next statement. */
  private dropped = false;
  /** Which pool is current: a closed pool's late onclose must not mark its successor dropped. */
  private generation = 0;
  inTransaction = false;

  constructor(private readonly o: WorkerOptions) {}

  async open(): Promise<void> {
    if (this.conn && !this.dropped) return;
    await this.discard();
    const o = this.o;
    const generation = this.generation;
    this.sql = new SQL({
      ...o.connection,
      max: 1,
      bigint: true,
      connectionTimeout: Math.max(1, Math.ceil(o.connectTimeoutMs / 1000)),
      connection: {
        application_name: o.applicationName,
        statement_timeout: o.statementTimeoutMs,
        lock_timeout: o.statementTimeoutMs,
        // A transaction the server's thread left open (it died, it hangs) must not hold its locks for ever.
        idle_in_transaction_session_timeout: o.statementTimeoutMs * 6,
      },
      onclose: () => {
        if (generation === this.generation) this.dropped = true;
      },
    });
    this.dropped = false;
    this.conn = (await this.sql.reserve()) as never;
  }

  async discard(): Promise<void> {
    const sql = this.sql;
    this.generation++;
    this.sql = null;
    this.conn = null;
    this.inTransaction = false;
    if (sql) await sql.close({ timeout: 0 }).catch(() => {});
  }

  /**
   * Run the statements, stopping at the first that fails. They are sent together (one
   * round trip, not one each): queued statements are all inside a transaction, where a
   * failure makes Postgres refuse the ones after it, so none of them runs either.
   */
  async run(statements: StatementRequest[], retried = false): Promise<Response> {
    const results: StatementResult[] = [];
    const wasIn = this.inTransaction;
    if (this.dropped || !this.conn) {
      if (this.inTransaction) return this.lost(results, statements[0]);
      try {
        await this.open();
      } catch (e) {
        await this.discard();
        return { results, error: errorInfo(e, statements[0]?.sql), inTransaction: false };
      }
    }
    const sent = statements.map((s) => this.send(s));
    const answers = await Promise.allSettled(sent);
    for (let i = 0; i < statements.length; i++) {
      const s = statements[i];
      const a = answers[i];
      try {
        if (a.status === "rejected") throw a.reason;
        results.push(this.result(s, a.value));
      } catch (e) {
        if (!isConnectionLoss(e)) {
          if (ENDS.test(s.sql)) this.inTransaction = false;
          return { results, error: errorInfo(e, s.sql), inTransaction: this.inTransaction };
        }
        await this.discard();
        // A connection found dead by the first statement of a batch that can commit nothing
        // (a read, or a transaction's start): nothing ran, so run it again on a new one.
        if (i === 0 && !wasIn && !retried && RETRYABLE.test(s.sql) && !statements.some((x) => ENDS.test(x.sql)))
          return this.run(statements, true);
        const error = errorInfo(e, s.sql);
        if (wasIn || i > 0) error.code = "PARLEY_STORE_TRANSACTION_LOST";
        return { results, error, inTransaction: false };
      }
    }
    return { results, inTransaction: this.inTransaction };
  }

  private lost(results: StatementResult[], s: StatementRequest | undefined): Response {
    const control = s?.sql.trim().toUpperCase() ?? "";
    // The transaction is gone already: rolling it back is done.
    if (control === "ROLLBACK") {
      void this.discard();
      return { results: [{ changes: 0 }], inTransaction: false };
    }
    void this.discard();
    const error: ErrorInfo = {
      message: "the connection to Postgres was lost inside a transaction: none of its writes were committed",
      code: "PARLEY_STORE_TRANSACTION_LOST",
      sql: s?.sql,
    };
    return { results, error, inTransaction: false };
  }

  private send(s: StatementRequest): Promise<unknown> {
    const conn = this.conn!;
    if (s.mode === "exec") return conn.unsafe(s.sql).simple();
    const q = conn.unsafe(s.sql, s.params.map(param));
    return s.mode === "run" ? q : q.values();
  }

  private result(s: StatementRequest, answer: unknown): StatementResult {
    const r = answer as unknown[][] & { command: string | null; affectedRows: number; columns: { name: string; type: number }[] | null };
    this.track(s.sql, s.mode === "exec" ? "" : (r.command ?? ""));
    if (s.mode === "exec") return { changes: 0 };
    if (s.mode === "run") return { changes: r.affectedRows ?? 0 };
    return rows(r, r.columns ?? [], s.mode === "get" ? 1 : Infinity, s.safe === true);
  }

  /** Follow the transaction by the statements that begin and end one, and refuse a COMMIT that rolled back. */
  private track(sql: string, command: string): void {
    if (BEGINS.test(sql)) this.inTransaction = true;
    else if (ENDS.test(sql)) {
      this.inTransaction = false;
      // A COMMIT of a transaction an error had aborted rolls it back, and says so only in its tag.
      if (command.toUpperCase() === "ROLLBACK" && /^\s*(COMMIT|END)\b/i.test(sql))
        throw Object.assign(new Error("the transaction was rolled back (a statement in it had failed)"), { errno: "40000" });
    }
  }
}

/** A statement that commits nothing on its own. */
const RETRYABLE = /^\s*(BEGIN|START\s+TRANSACTION|SELECT)\b/i;
const BEGINS = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;
/** COMMIT, END, ROLLBACK, ABORT; not ROLLBACK TO a savepoint. */
const ENDS = /^\s*(COMMIT|END|ABORT)\b|^\s*ROLLBACK(\s+(WORK|TRANSACTION))?\s*;?\s*$/i;

function param(p: Param): unknown {
  return p !== null && typeof p === "object" ? Buffer.from(p.bytes, "base64") : p;
}

/** Rows as arrays of JSON-safe values, the columns that need the bridge's help marked. */
function rows(r: unknown[][], columns: { name: string; type: number }[], limit: number, safe: boolean): StatementResult {
  const big: number[] = [];
  const bytes: number[] = [];
  columns.forEach((c, i) => {
    if (c.type === BYTEA) bytes.push(i);
    else if (safe && INT_TYPES.has(c.type)) big.push(i);
  });
  const out: unknown[][] = [];
  const n = Math.min(limit, r.length);
  for (let k = 0; k < n; k++) {
    const row = r[k];
    for (let i = 0; i < row.length; i++) row[i] = value(row[i], columns[i]?.type ?? 0, safe, big, i);
    out.push(row);
  }
  return {
    changes: 0,
    columns: columns.map((c) => c.name),
    rows: out,
    big: big.length ? big : undefined,
    bytes: bytes.length ? bytes : undefined,
  };
}

function value(v: unknown, type: number, safe: boolean, big: number[], i: number): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") {
    if (safe) return String(v);
    if (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)) return Number(v);
    // Too large for a number: its exact text, which BigInt() takes (snowflakes).
    if (!big.includes(i)) big.push(i);
    return String(v);
  }
  if (typeof v === "number") return safe && INT_TYPES.has(type) ? String(v) : v;
  if (typeof v === "boolean" || type === BOOL) return v ? 1 : 0;
  if (FLOAT_TYPES.has(type) && typeof v === "string") return Number(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") return JSON.stringify(v);
  return v;
}

async function serve(channel: Channel, connection: Connection): Promise<void> {
  const ctrl = channel.ctrl;
  for (;;) {
    const state = Atomics.load(ctrl, STATE);
    if (state !== REQUEST) {
      const w = Atomics.waitAsync(ctrl, STATE, state);
      if (w.async) await w.value;
      continue;
    }
    const req = channel.read<Request>();
    if (req.op === "close") {
      await connection.discard();
      channel.write({ results: [], inTransaction: false } satisfies Response, RESPONSE);
      return;
    }
    let res: Response;
    try {
      res = await connection.run(req.statements);
    } catch (e) {
      res = { results: [], error: errorInfo(e), inTransaction: connection.inTransaction };
    }
    try {
      channel.write(res, RESPONSE);
    } catch (e) {
      channel.write({ results: [], error: errorInfo(e), inTransaction: connection.inTransaction } satisfies Response, RESPONSE);
    }
  }
}

self.onmessage = async (e: MessageEvent<WorkerOptions>) => {
  const o = e.data;
  const channel = new Channel(o.sab);
  const connection = new Connection(o);
  let ready: Ready = { ready: true };
  try {
    await connection.open();
  } catch (err) {
    ready = { ready: true, error: errorInfo(err) };
    await connection.discard();
  }
  channel.write(ready, RESPONSE);
  await serve(channel, connection);
  process.exit(0);
};
