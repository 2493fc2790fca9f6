/**
 * parley/testing: start Parley as a test double for a bot, act as the people around
 * it, and wait for what the bot did. Wraps the harness (docs/harness.md).
 *
 *   const parley = await startParley({ world });
 *   // point the bot at parley.apiBase with parley.tokenOf("EchoBot")
 *   await parley.as("alice").say("general", "!ping");
 *   await parley.waitForMessage("general", (m) => m.content === "pong");
 *   await parley.stop();
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createParley, type Parley } from "../app";
import { testConfig, type Config } from "../config";
import type { SeedAnswer } from "../harness/seed";

export type { SeedAnswer } from "../harness/seed";

export interface StartOptions {
  /** A world document (docs/harness.md) to seed once the server is up. */
  world?: unknown;
  /** true (default): run in this process. false: run `parley serve` as a child process. */
  inProcess?: boolean;
  /** In-process only: config overrides (e.g. rate limits). */
  config?: Partial<Config>;
}

/** A message as the harness shows it: the bot API's shape, full content. */
export interface HarnessMessage {
  id: string;
  channel_id: string;
  author: { id: string; username: string; bot: boolean };
  content: string;
  embeds: any[];
  components: any[];
  flags: number;
  message_reference?: { message_id: string; channel_id: string; guild_id?: string };
  [key: string]: unknown;
}

export interface HarnessEvent {
  t: string;
  d: any;
  application_id: string;
  session_id: string;
  [key: string]: unknown;
}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

export class HarnessError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: ${status} ${JSON.stringify(body)}`);
    this.name = "HarnessError";
  }
}

export interface Person {
  /** Post a message in a channel (name like "general" or "Lab/general", or snowflake). */
  say(channel: string, content: string, opts?: { embeds?: unknown[]; replyTo?: string }): Promise<{ id: string }>;
  /** Send a direct message to a person or a bot (name or snowflake); the harness encrypts it. */
  dm(recipient: string, content: string): Promise<{ channel_id: string; id: string }>;
  react(channel: string, messageId: string, emoji: string): Promise<void>;
  unreact(channel: string, messageId: string, emoji: string): Promise<void>;
  /** Run a slash command or click a component (harness interactions endpoint). */
  interact(body: Record<string, unknown>): Promise<{ id: string; delivered: boolean }>;
}

export interface RunningParley {
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  /** What discord.js takes as `rest: { api }` (baseUrl + "/api"). */
  apiBase: string;
  /** The v10 REST root (baseUrl + "/api/v10"), as discord.py's Route.BASE. */
  restBase: string;
  gatewayUrl: string;
  harnessUrl: string;
  /** The seed answer: ids (snowflakes) and secrets of everything created. */
  world: SeedAnswer;
  /** The in-process server (undefined for a child process). */
  parley?: Parley;
  tokenOf(app: string): string;
  /** A channel's snowflake by name ("general", "Lab/general") or snowflake. */
  channelId(ref: string): string;
  as(user: string): Person;
  messages(channel: string, opts?: { as?: string; limit?: number }): Promise<HarnessMessage[]>;
  /** Poll until `check` returns something other than undefined/null/false; that value is returned. */
  waitFor<T>(check: () => T | Promise<T>, opts?: WaitOptions): Promise<Exclude<T, undefined | null | false>>;
  /** Wait for a message in a channel (newest first) that matches. */
  waitForMessage(channel: string, match: (m: HarnessMessage) => boolean, opts?: WaitOptions & { as?: string }): Promise<HarnessMessage>;
  /** Wait for a dispatch sent to a bot session (harness events feed, long-polled). */
  waitForEvent(match: (e: HarnessEvent) => boolean, opts?: WaitOptions): Promise<HarnessEvent>;
  /** Wait until the application's bot has a live gateway session. */
  waitForBot(app: string, opts?: WaitOptions): Promise<void>;
  advanceClock(ms: number): Promise<string>;
  setClock(iso: string): Promise<string>;
  rotate(app: string): Promise<string>;
  seed(world: unknown): Promise<SeedAnswer>;
  reset(): Promise<void>;
  /** Raw harness call, for endpoints without a helper. */
  harness<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export async function startParley(opts: StartOptions = {}): Promise<RunningParley> {
  const inProcess = opts.inProcess ?? true;
  let baseUrl: string;
  let stopServer: () => Promise<void>;
  let parley: Parley | undefined;
  if (inProcess) {
    parley = createParley(testConfig({ ...opts.config, harness: true }));
    parley.listen();
    baseUrl = parley.api.urls.base;
    const p = parley;
    stopServer = () => p.stop();
  } else {
    const child = await spawnServer();
    baseUrl = child.baseUrl;
    stopServer = child.stop;
  }
  const harnessUrl = `${baseUrl}/api/harness/v1`;

  async function harness<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(harnessUrl + path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new HarnessError(res.status, parsed, `${method} ${path}`);
    return parsed as T;
  }

  const gw = (await (await fetch(`${baseUrl}/api/v10/gateway`)).json()) as { url: string };
  let world: SeedAnswer = { users: {}, guilds: {}, applications: {} };
  const tokens = new Map<string, string>();
  const remember = (w: SeedAnswer) => {
    world = w;
    for (const [name, a] of Object.entries(w.applications)) tokens.set(name, a.token);
    return w;
  };
  try {
    if (opts.world !== undefined) remember(await harness<SeedAnswer>("POST", "/seed", opts.world));
  } catch (e) {
    await stopServer();
    throw e;
  }

  const appOf = (name: string) => {
    const a = world.applications[name];
    if (!a) throw new Error(`no application '${name}' in the seeded world`);
    return a;
  };

  const channelId = (ref: string): string => {
    if (/^[0-9]{17,20}$/.test(ref)) return ref;
    const m = /^(.+)[/#]([^/#]+)$/.exec(ref);
    const found: string[] = [];
    for (const [gname, g] of Object.entries(world.guilds)) {
      if (m && m[1] !== gname) continue;
      const id = g.channels[m ? m[2] : ref];
      if (id) found.push(id);
    }
    if (found.length !== 1) throw new Error(found.length ? `channel '${ref}' is ambiguous: name its server ("Guild/${ref}")` : `no channel '${ref}'`);
    return found[0];
  };

  async function waitFor<T>(check: () => T | Promise<T>, w: WaitOptions = {}): Promise<Exclude<T, undefined | null | false>> {
    const deadline = Date.now() + (w.timeoutMs ?? 5000);
    for (;;) {
      const v = await check();
      if (v !== undefined && v !== null && v !== false) return v as Exclude<T, undefined | null | false>;
      if (Date.now() >= deadline) throw new Error(`waitFor: nothing matched within ${w.timeoutMs ?? 5000} ms`);
      await new Promise((r) => setTimeout(r, w.intervalMs ?? 25));
    }
  }

  const messages = (channel: string, o: { as?: string; limit?: number } = {}) => {
    const q = new URLSearchParams();
    if (o.as) q.set("as", o.as);
    if (o.limit) q.set("limit", String(o.limit));
    return harness<HarnessMessage[]>("GET", `/channels/${channelId(channel)}/messages${q.size ? `?${q}` : ""}`);
  };

  let cursor: string | undefined;
  const running: RunningParley = {
    baseUrl,
    apiBase: `${baseUrl}/api`,
    restBase: `${baseUrl}/api/v10`,
    gatewayUrl: gw.url,
    harnessUrl,
    get world() {
      return world;
    },
    parley,
    tokenOf: (app) => tokens.get(app) ?? appOf(app).token,
    channelId,
    as(user) {
      const u = encodeURIComponent(user);
      return {
        say: (channel, content, o = {}) =>
          harness("POST", `/users/${u}/messages`, {
            channel_id: channelId(channel),
            content,
            ...(o.embeds ? { embeds: o.embeds } : {}),
            ...(o.replyTo ? { reply_to: o.replyTo } : {}),
          }),
        dm: (recipient, content) => {
          const app = world.applications[recipient];
          return harness("POST", `/users/${u}/dms`, { recipient_id: app ? app.bot_user_id : recipient, content });
        },
        react: (channel, message_id, emoji) => harness("PUT", `/users/${u}/reactions`, { channel_id: channelId(channel), message_id, emoji }),
        unreact: (channel, message_id, emoji) => harness("DELETE", `/users/${u}/reactions`, { channel_id: channelId(channel), message_id, emoji }),
        interact: (body) => {
          const b: Record<string, unknown> = { ...body };
          if (typeof b.channel_id === "string") b.channel_id = channelId(b.channel_id);
          if (typeof b.application_id === "string" && world.applications[b.application_id]) b.application_id = world.applications[b.application_id].id;
          return harness("POST", `/users/${u}/interactions`, b);
        },
      };
    },
    messages,
    waitFor,
    waitForMessage: (channel, match, o = {}) =>
      waitFor(async () => (await messages(channel, { as: o.as })).find(match), o),
    async waitForEvent(match, o = {}) {
      const deadline = Date.now() + (o.timeoutMs ?? 5000);
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`waitForEvent: nothing matched within ${o.timeoutMs ?? 5000} ms`);
        const q = new URLSearchParams({ wait_ms: String(Math.min(left, 1000)) });
        if (cursor !== undefined) q.set("after", cursor);
        const page = await harness<{ events: HarnessEvent[]; cursor: string }>("GET", `/events?${q}`);
        cursor = page.cursor;
        const hit = page.events.find(match);
        if (hit) return hit;
      }
    },
    async waitForBot(app, o = {}) {
      const id = appOf(app).id;
      await waitFor(async () => (await harness<{ connected: boolean }[]>("GET", `/applications/${id}/sessions`)).some((s) => s.connected), o);
    },
    advanceClock: async (ms) => (await harness<{ now: string }>("POST", "/clock", { advance_ms: ms })).now,
    setClock: async (iso) => (await harness<{ now: string }>("POST", "/clock", { set: iso })).now,
    async rotate(app) {
      const { token } = await harness<{ token: string }>("POST", `/applications/${appOf(app).id}/rotate`);
      tokens.set(app, token);
      return token;
    },
    seed: async (doc) => remember(await harness<SeedAnswer>("POST", "/seed", doc)),
    async reset() {
      await harness("POST", "/reset");
      tokens.clear();
      cursor = undefined;
      world = { users: {}, guilds: {}, applications: {} };
    },
    harness,
    stop: stopServer,
  };
  return running;
}

/** `bun src/main.ts serve --port 0 --data :memory: --harness`, port read from its first line. */
async function spawnServer(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const bun = process.versions.bun ? process.execPath : join(ROOT, "node_modules/.bin/bun");
  if (!existsSync(bun)) throw new Error(`cannot find bun at ${bun}`);
  const child: ChildProcess = spawn(bun, [join(ROOT, "src/main.ts"), "serve", "--port", "0", "--data", ":memory:", "--harness"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  let errors = "";
  child.stderr!.on("data", (d) => (errors += String(d)));
  const baseUrl = await new Promise<string>((resolveUrl, reject) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error("parley did not start within 15 s")), 15_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(e);
    };
    child.stdout!.on("data", (d) => {
      out += String(d);
      const m = /parley listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    child.once("exit", (code) => fail(new Error(`parley exited (${code}) before listening: ${errors.trim()}`)));
  });
  // Keep draining stdout so the child never blocks on a full pipe.
  child.stdout!.resume();
  return {
    baseUrl,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
