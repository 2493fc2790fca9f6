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

  /** The server's world (X-Harness-World: its resets and seeds so far) as this client set it up, and as last seen. */
  private ownWorld: string | undefined;
  private seenWorld: string | undefined;

  /** `ended` says how the server's process ended, when the SDK started it and it has. */
  constructor(
    readonly url: string,
    private readonly ended: () => string | undefined = () => undefined,
  ) {}

  /**
   * A request the server never answered: name the server and, when it is known to have
   * ended (killed, crashed), say so, rather than a bare "Unable to connect".
   */
  private async fetch(what: string, path: string, init?: RequestInit): Promise<Response> {
    try {
      return await fetch(this.url + path, init);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      const ended = this.ended();
      const server = this.url.replace(/\/api\/harness\/v1$/, "");
      throw new Error(
        ended
          ? `${what}: the Parley server at ${server} ${ended}`
          : `${what}: the Parley server at ${server} did not answer (${why}): is it still running?`,
      );
    }
  }

  /** Whether something else (another test run on this server) reset or seeded the world since this client last did, or first called. */
  get worldLost(): boolean {
    return this.ownWorld !== undefined && this.seenWorld !== this.ownWorld;
  }

  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetch(`${method} ${path}`, path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    this.sawWorld(res, method === "POST" && (path === "/reset" || (path === "/seed" && res.ok)));
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new HarnessError(res.status, parsed, `${method} ${path}`, this.worldLost ? WORLD_LOST : undefined);
    const at = res.headers.get("x-event-cursor");
    if (at !== null) this.lastSeen = at;
    if (method !== "GET" && !/^\/(settle|clock|coverage)/.test(path)) this.lastAction = at ?? this.lastAction;
    return parsed as T;
  }

  /** A GET answered with text (transcripts as readable lines). */
  async text(path: string): Promise<string> {
    const res = await this.fetch(`GET ${path}`, path);
    this.sawWorld(res, false);
    const text = await res.text();
    if (!res.ok)
      throw new HarnessError(res.status, text ? JSON.parse(text) : undefined, `GET ${path}`, this.worldLost ? WORLD_LOST : undefined);
    return text;
  }

  private sawWorld(res: Response, ownReset: boolean): void {
    const world = res.headers.get("x-harness-world");
    if (world === null) return;
    this.seenWorld = world;
    if (ownReset || this.ownWorld === undefined) this.ownWorld = world;
  }
}

/** What a refusal means when the world this SDK seeded was reset under it. */
export const WORLD_LOST =
  "The world this test seeded is gone: something else reset this server or seeded into it (another test run on it?). A server holds one world at a time: give each parallel run its own server (startParley), or run the files against it one after another.";
