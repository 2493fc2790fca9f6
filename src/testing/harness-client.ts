import { HarnessError } from "./types";

/** Plain HTTP calls to the harness (docs/harness.md); a non-2xx answer throws HarnessError. */
export class HarnessClient {
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
