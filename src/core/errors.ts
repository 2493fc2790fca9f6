/**
 * The one error type of the core. Each carries a stable kind; exactly one mapping per
 * surface (bot API, people's API) turns kinds into status and body. Messages are for
 * humans and never contain a stack.
 */
export type ErrorKind =
  | "not_found" // any unknown or invisible object
  | "forbidden" // missing permission
  | "invalid" // malformed or over-limit input; `path` names the offending field
  | "unauthorized" // missing or bad credentials
  | "already_acknowledged" // interaction already answered
  | "unknown_interaction" // interaction token expired, never issued or mismatched
  | "not_implemented" // a route or feature Parley decided not to implement
  | "not_implemented_invalid" // interaction callback types 8 and 9
  | "conflict" // e.g. a username already taken (people's API)
  | "rate_limited"
  | "unavailable" // e.g. session store gone
  | "unknown_emoji" // a well-formed custom emoji that does not exist
  | "maximum" // a count at its limit (pins per channel): 400 with the reference's 300xx code
  | "parent_limit" // a channel reorder that moves more than one channel to another category (40009)
  | "too_large" // a file or body past its limit, or past a person's storage (refused before the body is read when its size is known)
  | "storage_failed"; // the disk refused a file (full, an I/O error): nothing was stored

export interface FieldIssue {
  path: string; // e.g. "embeds[0].fields[3].value"; "" for the body as a whole
  code: string; // reference-style UPPER_SNAKE code
  message: string;
}

export class DomainError extends Error {
  /** For "rate_limited": how long the caller must wait. */
  retryAfterMs = 0;
  /** For "maximum": the reference's code for that limit (30003: pins). */
  limitCode = 0;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
    this.name = "DomainError";
  }

  /** Slowmode (a channel's rate_limit_per_user): answered like a rate limit, so clients wait and retry. */
  static slowmode(retryAfterMs: number): DomainError {
    const e = new DomainError("rate_limited", "This action cannot be performed due to slowmode rate limit.");
    e.retryAfterMs = retryAfterMs;
    return e;
  }

  /** A limit of how many there may be, reached: 400 with the reference's code (reference-gaps 6.2: 30003 pins). */
  static maximum(code: number, message: string): DomainError {
    const e = new DomainError("maximum", message);
    e.limitCode = code;
    return e;
  }

  static notFound(what = "object"): DomainError {
    return new DomainError("not_found", `Unknown ${what}`);
  }
  static forbidden(message = "Missing Permissions"): DomainError {
    return new DomainError("forbidden", message);
  }
  static invalid(path: string, message: string, code = "BASE_TYPE_INVALID"): DomainError {
    const where = path ? `${path}: ` : "";
    return new DomainError("invalid", `Invalid Form Body (${where}${message})`, [{ path, code, message }]);
  }
  static invalidMany(issues: FieldIssue[]): DomainError {
    const first = issues[0];
    const where = first?.path ? `${first.path}: ` : "";
    return new DomainError("invalid", `Invalid Form Body (${where}${first?.message ?? "invalid"})`, issues);
  }
  static unauthorized(message = "401: Unauthorized"): DomainError {
    return new DomainError("unauthorized", message);
  }
  static tooLarge(message = "Request entity too large"): DomainError {
    return new DomainError("too_large", message);
  }
  static notImplemented(message = "Not implemented by this server"): DomainError {
    return new DomainError("not_implemented", message);
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}
