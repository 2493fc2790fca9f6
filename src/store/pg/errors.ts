/**
 * Postgres's failures as the rest of Parley reads store failures: by `code`. A broken
 * constraint keeps SQLite's code family (SQLITE_CONSTRAINT_*), which the core already
 * tells apart from everything else (an import that does not hold together); what only a
 * server engine has (a timeout, a server gone, a transaction lost with its connection)
 * gets a PARLEY_STORE_* code, which the surfaces are to answer with 503. Postgres's own
 * SQLSTATE stays beside it, in `sqlState`.
 */

/** A statement of SQLite's dialect the translator has no safe Postgres form for: it needs a dual form. */
export class UntranslatableSql extends Error {
  readonly code = "PARLEY_SQL_UNTRANSLATABLE";
  constructor(message: string) {
    super(message);
    this.name = "UntranslatableSql";
  }
}

export type StoreErrorCode =
  /** No answer in time: the statement (or the server) was too slow, or a lock was held too long. */
  | "PARLEY_STORE_TIMEOUT"
  /** The server cannot be reached, or the connection dropped. */
  | "PARLEY_STORE_UNAVAILABLE"
  /** The open transaction's connection was lost: none of its writes were committed. */
  | "PARLEY_STORE_TRANSACTION_LOST"
  /** Another transaction stood in the way (deadlock, serialization): running the write again may succeed. */
  | "PARLEY_STORE_CONFLICT"
  /** A value Postgres cannot hold or read (SQLSTATE class 22: a NUL in text, a number out of range) that got past validation. */
  | "PARLEY_STORE_INVALID"
  | "SQLITE_CONSTRAINT_UNIQUE"
  | "SQLITE_CONSTRAINT_PRIMARYKEY"
  | "SQLITE_CONSTRAINT_FOREIGNKEY"
  | "SQLITE_CONSTRAINT_NOTNULL"
  | "SQLITE_CONSTRAINT_CHECK"
  | "SQLITE_CONSTRAINT"
  /** Any other error the server reported (a syntax error, a bad value). */
  | "PARLEY_STORE_ERROR";

export class StoreError extends Error {
  constructor(
    message: string,
    readonly code: StoreErrorCode,
    /** Postgres's SQLSTATE, when the server said it. */
    readonly sqlState?: string,
    /** The statement that failed (its Postgres text). */
    readonly sql?: string,
  ) {
    super(message);
    this.name = "StoreError";
  }
}

/** The plain shape of an error as it crosses from the worker. */
export interface ErrorInfo {
  message: string;
  code: StoreErrorCode;
  sqlState?: string;
  sql?: string;
}

/** What a Postgres (or Bun.sql) error means to Parley. */
export function classify(e: unknown, constraint?: string): StoreErrorCode {
  const state = sqlStateOf(e);
  const bunCode = String((e as { code?: unknown })?.code ?? "");
  if (state === "23505") return constraint?.endsWith("_pkey") ? "SQLITE_CONSTRAINT_PRIMARYKEY" : "SQLITE_CONSTRAINT_UNIQUE";
  if (state === "23503") return "SQLITE_CONSTRAINT_FOREIGNKEY";
  if (state === "23502") return "SQLITE_CONSTRAINT_NOTNULL";
  if (state === "23514") return "SQLITE_CONSTRAINT_CHECK";
  if (state?.startsWith("23")) return "SQLITE_CONSTRAINT";
  // query_canceled (statement_timeout), lock_not_available (lock_timeout)
  if (state === "57014" || state === "55P03") return "PARLEY_STORE_TIMEOUT";
  if (state === "40P01" || state === "40001") return "PARLEY_STORE_CONFLICT";
  if (state?.startsWith("22")) return "PARLEY_STORE_INVALID";
  if (isConnectionLoss(e)) return "PARLEY_STORE_UNAVAILABLE";
  // Insufficient resources: too many connections, disk full, out of memory. Not now, not a bug.
  if (state?.startsWith("53")) return "PARLEY_STORE_UNAVAILABLE";
  if (bunCode.includes("TIMEOUT")) return "PARLEY_STORE_TIMEOUT";
  return "PARLEY_STORE_ERROR";
}

function sqlStateOf(e: unknown): string | undefined {
  const errno = (e as { errno?: unknown })?.errno;
  return typeof errno === "string" && /^[0-9A-Z]{5}$/.test(errno) ? errno : undefined;
}

/** The connection is gone (server shut down or restarted, socket closed, never opened). */
export function isConnectionLoss(e: unknown): boolean {
  const state = sqlStateOf(e);
  if (state && (state.startsWith("08") || state === "57P01" || state === "57P02" || state === "57P03")) return true;
  const code = String((e as { code?: unknown })?.code ?? "");
  return (
    /^ERR_POSTGRES_(CONNECTION_CLOSED|CONNECTION_TIMEOUT|CONNECTION_REFUSED|SERVER_CLOSED|IDLE_TIMEOUT|LIFETIME_TIMEOUT|UNSUPPORTED_AUTHENTICATION)/.test(
      code,
    ) || /ECONNREFUSED|ENOENT|ECONNRESET|EPIPE/.test(code)
  );
}

export function errorInfo(e: unknown, sql?: string): ErrorInfo {
  const constraint = (e as { constraint?: unknown })?.constraint;
  return {
    message: e instanceof Error ? e.message : String(e),
    code: classify(e, typeof constraint === "string" ? constraint : undefined),
    sqlState: sqlStateOf(e),
    sql,
  };
}

export const toError = (i: ErrorInfo) => new StoreError(i.message, i.code, i.sqlState, i.sql);
