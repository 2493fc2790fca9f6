/**
 * A statement of the Postgres bridge, called as bun:sqlite's are: get/all/values/run
 * with positional or named arguments, checked and converted as bun:sqlite converts them,
 * and rows given back in its shapes. The bridge (bridge.ts) runs it.
 */
import type { Mode, Param, StatementRequest, StatementResult } from "./protocol";
import type { Translated } from "./translate";

/** What a statement needs of the bridge. */
export interface Runner {
  /** Run it now (with whatever is queued) and answer its rows. */
  answer(req: StatementRequest): StatementResult;
  /** Queue it inside a transaction, or run it now outside one. */
  submit(req: StatementRequest, control: Translated["control"]): RunResult;
  /** Send what is queued. */
  flush(): void;
  /** Told of every statement given (its SQLite text), before it runs: the change log's feed (changes.ts). */
  observe?(sql: string): void;
}

type Bindable = string | number | bigint | boolean | null | undefined | Uint8Array;

/** bun:sqlite's run() answer; read lazily here, since reading it waits for the statement. */
export interface RunResult {
  readonly changes: number;
  readonly lastInsertRowid: number;
}

export class LazyRun implements RunResult {
  done = false;
  value = 0;
  /** What a statement queued by `later()` answered (bridge.ts), once sent. */
  rows: unknown[][] | undefined = undefined;
  error: Error | null = null;
  readonly lastInsertRowid = 0;
  constructor(private readonly db: Runner) {}
  get changes(): number {
    if (!this.done) this.db.flush();
    if (this.error) throw this.error;
    return this.value;
  }
}

export const settled = (changes: number): RunResult => ({ changes, lastInsertRowid: 0 });

export class PgStatement {
  private safe = false;

  constructor(
    private readonly db: Runner,
    private readonly source: string,
    private readonly t: Translated,
  ) {}

  get(...args: Bindable[] | [Record<string, Bindable>]): unknown {
    const r = this.rows(args, "get");
    return r.rows.length ? objectOf(r.columns, r.rows[0]) : null;
  }

  all(...args: Bindable[] | [Record<string, Bindable>]): unknown[] {
    const r = this.rows(args, "all");
    return r.rows.map((row) => objectOf(r.columns, row));
  }

  values(...args: Bindable[] | [Record<string, Bindable>]): unknown[][] {
    return this.rows(args, "values").rows;
  }

  *iterate(...args: Bindable[] | [Record<string, Bindable>]): IterableIterator<unknown> {
    yield* this.all(...args);
  }

  run(...args: Bindable[] | [Record<string, Bindable>]): RunResult {
    if (this.t.control === null) this.db.observe?.(this.source);
    return this.db.submit(this.request(args, "run"), this.t.control);
  }

  /** Integers as BigInt, as bun:sqlite's safeIntegers(). */
  safeIntegers(on = true): this {
    this.safe = on;
    return this;
  }

  finalize(): void {}

  toString(): string {
    return this.source;
  }

  /** The rows, their marked columns made what bun:sqlite gives: BigInts (safeIntegers), bytes. */
  private rows(args: unknown[], mode: Mode): { columns: string[]; rows: unknown[][] } {
    if (this.t.control === null) this.db.observe?.(this.source);
    const r = this.db.answer(this.request(args, mode));
    const rows = r.rows ?? [];
    for (const row of rows) {
      if (this.safe) for (const i of r.big ?? []) if (row[i] !== null) row[i] = BigInt(row[i] as string);
      for (const i of r.bytes ?? []) if (row[i] !== null) row[i] = new Uint8Array(Buffer.from(row[i] as string, "base64"));
    }
    return { columns: r.columns ?? [], rows };
  }

  private request(args: unknown[], mode: Mode): StatementRequest {
    const req: StatementRequest = { sql: this.t.text, params: bind(this.t, args), mode };
    if (this.safe) req.safe = true;
    return req;
  }
}

/** A row as bun:sqlite gives it: an object by column name (a later column of the same name wins). */
function objectOf(columns: string[], row: unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) o[columns[i]] = row[i];
  return o;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !(v instanceof Uint8Array) && !Array.isArray(v);

/** The arguments of a call as the worker sends them, checked as bun:sqlite checks them. */
function bind(t: Translated, args: unknown[]): Param[] {
  const n = t.slots.length;
  if (args.length === 1 && isPlainObject(args[0]) && t.slots.some((s) => s !== null)) {
    const o = args[0];
    return t.slots.map((name, i) => {
      if (name === null) throw new RangeError(`Missing parameter "?${i + 1}"`);
      for (const key of [name, `$${name}`, `:${name}`, `@${name}`]) if (key in o) return param(o[key]);
      throw new RangeError(`Missing parameter "${name}"`);
    });
  }
  if (args.length !== n) throw new RangeError(`the statement expected ${n} values, received ${args.length}`);
  return args.map(param);
}

function param(v: unknown): Param {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case "string":
      return v;
    case "number":
    case "bigint":
      return String(v);
    case "boolean":
      return v ? "1" : "0";
  }
  if (v instanceof Uint8Array) return { bytes: Buffer.from(v).toString("base64") };
  throw new TypeError("Binding expected string, TypedArray, boolean, number, bigint or null");
}
