import { HarnessError } from "./wire-types.js";

/**
 * Plain HTTP calls to the harness (docs/harness.md); a non-2xx answer throws HarnessError.
 * It remembers where the event log stood when each action came (X-Event-Cursor), so a
 * wait can look only at what the latest action caused.
 */
export class HarnessClient {
  /** The event log's cursor when the latest action (any call but a read) reached the server. */
  lastAction: string | undefined;
  /** The event log's cursor as of the latest answer of any kind: a wait sleeps until something comes after it. */
  lastSeen: string | undefined;

  constructor(readonly url: string) {}

  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(this.url + path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new HarnessError(res.status, parsed, `${method} ${path}`);
    const at = res.headers.get("x-event-cursor");
    if (at !== null) this.lastSeen = at;
    if (method !== "GET" && !/^\/(settle|clock|coverage)/.test(path)) this.lastAction = at ?? this.lastAction;
    return parsed as T;
  }

  /** A GET answered with text (transcripts as readable lines). */
  async text(path: string): Promise<string> {
    const res = await fetch(this.url + path);
    const text = await res.text();
    if (!res.ok) throw new HarnessError(res.status, text ? JSON.parse(text) : undefined, `GET ${path}`);
    return text;
  }
}
