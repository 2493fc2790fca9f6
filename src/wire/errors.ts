/**
 * The one mapping from core errors to a status and the spec's error body (spec 2.3, 7),
 * used by every surface. Anything that is not a DomainError is a bug: it is answered 500
 * code 0, without a stack, and whoever caught it reports it to the operator's log
 * (the pipeline does, through its door: `isInternal`). The mapping itself stays pure.
 */
import { DomainError, type FieldIssue } from "../core";

export interface ErrorBody {
  code: number;
  message: string;
  errors?: Record<string, unknown>;
  retry_after?: number;
  global?: boolean;
}

const STATUS: Record<DomainError["kind"], [number, number]> = {
  not_found: [404, 10003],
  forbidden: [403, 50001],
  invalid: [400, 50035],
  unauthorized: [401, 0],
  already_acknowledged: [400, 40060],
  unknown_interaction: [404, 10062],
  not_implemented: [501, 0],
  not_implemented_invalid: [501, 50035],
  conflict: [400, 50035],
  rate_limited: [429, 0],
  unavailable: [503, 0],
  // The reference's Unknown Emoji, a 400 (reference-gaps 6.2), not a not-found.
  unknown_emoji: [400, 10014],
  // Its code is the limit's own (30003 pins), carried by the error.
  maximum: [400, 30000],
  // PATCH /guilds/{id}/channels moving more than one channel to another parent (reference-gaps 2.1).
  parent_limit: [400, 40009],
  // The reference's "Request entity too large" (40005); the disk's failure has no code of its own.
  too_large: [413, 40005],
  storage_failed: [507, 0],
};

export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/** Slowmode's code; a rate limit proper answers code 0. */
export const SLOWMODE_CODE = 20016;

/**
 * A 429 as the reference shapes it (spec 8.1 rule 5): `retry_after` in decimal seconds,
 * `Retry-After` rounded up, and `Via` on every one, because discord.py treats a 429
 * without it as a ban and gives up. `X-RateLimit-Global` only on global ones: discord.js
 * reads the mere presence of that header as "global".
 */
export function rateLimitedAnswer(opts: { retryAfterMs: number; global: boolean; code?: number; message?: string }): ErrorAnswer {
  const retry = Math.max(0.001, opts.retryAfterMs / 1000);
  const headers: Record<string, string> = {
    "Retry-After": String(Math.ceil(retry)),
    Via: "1.1 parley",
    "X-RateLimit-Scope": opts.global ? "global" : "user",
  };
  if (opts.global) headers["X-RateLimit-Global"] = "true";
  return {
    status: 429,
    body: {
      message: opts.message ?? "You are being rate limited.",
      retry_after: Number(retry.toFixed(3)),
      global: opts.global,
      code: opts.code ?? 0,
    },
    headers,
  };
}

export function errorToStatusBody(e: unknown): ErrorAnswer {
  if (e instanceof DomainError) {
    const [status, code] = STATUS[e.kind];
    // Slowmode: a rate-limit body and headers, so that libraries wait and retry.
    if (e.kind === "rate_limited")
      return rateLimitedAnswer({ retryAfterMs: e.retryAfterMs, global: false, code: SLOWMODE_CODE, message: e.message });
    const body: ErrorBody = { code: e.kind === "maximum" ? e.limitCode : code, message: e.message };
    if (e.kind === "invalid" && e.issues.length) body.errors = nestIssues(e.issues);
    return { status, body };
  }
  // The store could not answer (Postgres timed out, went away, or lost the transaction with
  // its connection): nothing was committed, and the same request may succeed in a moment.
  if (storeUnavailable(e)) return { status: 503, body: { code: 0, message: "503: Service Unavailable" }, headers: { "Retry-After": "1" } };
  // Postgres refused a row naming one that another node deleted in the same instant (a post
  // into a channel being deleted there). Nothing was committed; asked again, the request
  // meets the core's own answer for what is gone (10003 Unknown Channel, and so on).
  if (crossNodeDelete(e)) return { status: 503, body: { code: 0, message: "503: Service Unavailable" }, headers: { "Retry-After": "1" } };
  // SQLite's disk is full: the transaction was rolled back whole, nothing stored, nothing
  // lost. Not a bug, and not over in a second: the media store's answer to a full disk.
  if (diskFull(e)) return { status: 507, body: { code: 0, message: "507: Insufficient Storage" } };
  // A value the store cannot hold (Postgres's text has no NUL; its integers end at 64 bits)
  // that validation let through: the request's fault, though still reported as a slip.
  if ((e as { code?: unknown } | null)?.code === "PARLEY_STORE_INVALID")
    return { status: 400, body: { code: 50035, message: "Invalid Form Body" } };
  return { status: 500, body: { code: 0, message: "500: Internal Server Error" } };
}

/** The store's codes for "not now" (store/pg/errors.ts), read by code: the wire layer does not import the store. */
const UNAVAILABLE_CODES = new Set([
  "PARLEY_STORE_TIMEOUT",
  "PARLEY_STORE_UNAVAILABLE",
  "PARLEY_STORE_TRANSACTION_LOST",
  "PARLEY_STORE_CONFLICT",
]);

/**
 * Also SQLite's lock held past the busy timeout (an operator's command writing beside the
 * server, a backup's copy): nothing was committed, and the same request may succeed in a
 * moment. Bun's errors carry SQLite's extended codes (SQLITE_BUSY_SNAPSHOT, ...).
 */
export function storeUnavailable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/** SQLite could not grow its files: the disk (or the database's page limit) is full. */
export function diskFull(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === "SQLITE_FULL";
}

/**
 * A foreign key Postgres enforced (it says its SQLSTATE; SQLite's errors carry none). On
 * one SQLite node the core reads and writes in one transaction, so a broken key there is a
 * bug; between nodes, a row can go between another node's read and this one's write.
 */
function crossNodeDelete(e: unknown): boolean {
  const err = e as { code?: unknown; sqlState?: unknown } | null;
  return err?.code === "SQLITE_CONSTRAINT_FOREIGNKEY" && err.sqlState === "23503";
}

/** A bug rather than a refusal: answered 500, and worth a line in the operator's log. */
export function isInternal(e: unknown): boolean {
  return !(e instanceof DomainError);
}

/**
 * The reference's nested `errors` object: keys follow the body's shape, arrays by index.
 * Keys come from the client's body ("__proto__" included), so every node is a
 * prototype-less object: a key is only ever an own property, never Object.prototype.
 */
export function nestIssues(issues: FieldIssue[]): Record<string, unknown> {
  const root: Record<string, any> = Object.create(null);
  for (const is of issues) {
    const keys = is.path
      ? is.path
          .replace(/\[(\d+)\]/g, ".$1")
          .split(".")
          .filter(Boolean)
      : [];
    let node = root;
    for (const k of keys) node = Object.hasOwn(node, k) ? node[k] : (node[k] = Object.create(null));
    (node._errors ??= []).push({ code: is.code, message: is.message });
  }
  return root;
}
