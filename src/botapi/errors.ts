/**
 * The one mapping from core errors to the bot API's status and error body (spec 2.3, 7).
 * Anything that is not a DomainError is a bug: it is logged and answered 500 code 0,
 * without a stack.
 */
import { DomainError, type FieldIssue } from "../core/errors";

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
};

export function errorToStatusBody(e: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (e instanceof DomainError) {
    const [status, code] = STATUS[e.kind];
    if (e.kind === "rate_limited") {
      // Slowmode: the reference's code 20016 with a rate-limit body and headers, so that
      // discord.js and discord.py wait and retry (discord.py needs Via to trust a 429).
      const retry = Math.max(0.001, e.retryAfterMs / 1000);
      return {
        status,
        body: { code: 20016, message: e.message, retry_after: Number(retry.toFixed(3)), global: false },
        headers: { "Retry-After": String(Math.ceil(retry)), Via: "1.1 parley", "X-RateLimit-Scope": "user" },
      };
    }
    const body: ErrorBody = { code, message: e.message };
    if (e.kind === "invalid" && e.issues.length) body.errors = nestIssues(e.issues);
    return { status, body };
  }
  console.error("internal error:", e);
  return { status: 500, body: { code: 0, message: "500: Internal Server Error" } };
}

/** The reference's nested `errors` object: keys follow the body's shape, arrays by index. */
export function nestIssues(issues: FieldIssue[]): Record<string, unknown> {
  const root: Record<string, any> = {};
  for (const is of issues) {
    const keys = is.path ? is.path.replace(/\[(\d+)\]/g, ".$1").split(".").filter(Boolean) : [];
    let node = root;
    for (const k of keys) node = node[k] ??= {};
    (node._errors ??= []).push({ code: is.code, message: is.message });
  }
  return root;
}
