/**
 * The people's API over HTTP (/api/client/v1) with the session token of this browser.
 * The token lives in localStorage; it never goes into a URL.
 */
const BASE = "/api/client/v1";
const TOKEN_KEY = "parley.session";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** The 50035 body's nested errors, when the server named fields. */
    readonly errors: Record<string, unknown> | null,
  ) {
    super(message);
  }

  /** The first message the server gave for a field, if any (to show next to it). */
  field(name: string): string | null {
    const e = this.errors?.[name] as { _errors?: { message: string }[] } | undefined;
    return e?._errors?.[0]?.message ?? null;
  }
}

/**
 * A form's errors from a failed request: each named field's first message, and the
 * request's own message for the whole form when none of its fields got one (a refusal
 * naming a field the form does not show is still said).
 */
export function formErrors<K extends string>(err: unknown, fields: readonly K[]): Partial<Record<K | "form", string>> {
  if (!(err instanceof ApiError)) return { form: "The server could not be reached." } as Partial<Record<K | "form", string>>;
  const out: Partial<Record<K | "form", string>> = {};
  for (const f of fields) {
    const message = err.field(f);
    if (message) out[f] = message;
  }
  if (!fields.some((f) => out[f])) out.form = err.message;
  return out;
}

export function storedToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Private mode without storage: the session lasts as long as the page.
  }
  current = token;
}

let current: string | null = storedToken();

export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (current) headers.Authorization = `Session ${current}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const json = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const j = (json ?? {}) as { code?: number; message?: string; errors?: Record<string, unknown> };
    throw new ApiError(res.status, j.code ?? 0, refusalText(j, res.status), j.errors ?? null);
  }
  return json as T;
}

/**
 * What a refusal says to a person: the server's message, but for a refused form (a 400)
 * the field's own sentence ("Must be 2000 or fewer in length.") without the developers'
 * wrapper around it ("Invalid Form Body (content: …)"); whatever page shows it says
 * first what was refused ("The message was not edited: …").
 */
export function refusalText(body: { message?: string; errors?: unknown } | undefined, status: number): string {
  const field = firstFieldMessage(body?.errors);
  if (field) return field;
  const message = body?.message;
  if (!message) return `HTTP ${status}`;
  const inner = /^Invalid Form Body \((.*)\)$/s.exec(message)?.[1];
  return inner ? inner.replace(/^[A-Za-z_][\w.[\]]*: /, "") : message;
}

function firstFieldMessage(errors: unknown): string | null {
  if (!errors || typeof errors !== "object") return null;
  const own = (errors as { _errors?: { message?: string }[] })._errors?.[0]?.message;
  if (own) return own;
  for (const [key, inner] of Object.entries(errors)) {
    const found = key === "_errors" ? null : firstFieldMessage(inner);
    if (found) return found;
  }
  return null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
