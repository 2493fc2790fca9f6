import type { Parley } from "../app";
import type { Config } from "../config";
import type { SeedAnswer } from "../harness/seed";

export interface StartOptions {
  /** A world document (docs/harness.md) to seed once the server is up. */
  world?: unknown;
  /** true (default): run in this process. false: run `parley serve` as a child process. */
  inProcess?: boolean;
  /** In-process only: config overrides (e.g. rate limits). */
  config?: Partial<Config>;
  /**
   * The application(s) under test, by name: a waitFor... that times out shows their
   * transcript. Default: every application of the world that said anything.
   */
  bot?: string | string[];
}

/** An armed fault as GET /faults lists it. */
export interface ArmedFault {
  id: string;
  kind: string;
  remaining: number | null;
  [field: string]: unknown;
}

/** Faults on demand (docs/harness.md "Faults"); applications by world name or snowflake. */
export interface Faults {
  /** Close every live session of the application now (4000 by default: the bot should resume). */
  gatewayClose(app: string, code?: number): Promise<{ id: string }>;
  /** Op 9 (d false), then a plain close, for every live session: the bot must identify again. */
  invalidSession(app: string): Promise<{ id: string }>;
  /** The next `drop` heartbeats of each session get no ACK (a zombied connection). */
  dropHeartbeatAcks(app: string, drop: number): Promise<{ id: string }>;
  /** The next `times` (1) matching bot API requests answer `status` with the spec's body and headers. */
  rest(f: { route: string; status: number; method?: string; app?: string; times?: number; retryAfter?: number; global?: boolean }): Promise<{ id: string }>;
  /** Delay matching requests (every route when none is given) by `ms` real milliseconds. */
  latency(f: { ms: number; route?: string; method?: string; app?: string; times?: number }): Promise<{ id: string }>;
  list(): Promise<ArmedFault[]>;
  delete(id: string): Promise<void>;
}

/** One transcript entry (docs/harness.md "Transcripts"). */
export type TranscriptEntry =
  | { at: string; kind: "rest"; method: string; route: string; status: number; request: unknown; response: unknown }
  | { at: string; kind: "gateway"; session_id: string; direction: "in" | "out"; op: number | null; t: string | null; s: number | null; d: any };

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
  /** Run an application's context-menu command in a channel on a user (type 2; seed name or snowflake) or a message (type 3). */
  useOn(channel: string, app: string, name: string, target: { user: string } | { message: string }): Promise<{ id: string; delivered: boolean }>;
  /** Edit one's own message (in a DM the new text is encrypted again). */
  edit(messageId: string, content: string): Promise<void>;
  /** Delete a message: one's own, or anyone's with MANAGE_MESSAGES in a server channel. */
  delete(messageId: string): Promise<void>;
  /** Start typing in a channel (bots see TYPING_START). */
  type(channel: string): Promise<void>;
  /** Make an invite to a channel's server; answers its code. */
  invite(channel: string, opts?: { maxAge?: number; maxUses?: number }): Promise<string>;
  /** Join a server by invite code; answers the server's snowflake. */
  join(code: string): Promise<string>;
  /** Leave a server (by name from the seed, or snowflake). */
  leave(guild: string): Promise<void>;
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
  /**
   * Poll until `check` returns something other than undefined/null/false; that value is
   * returned. Every waitFor... that times out throws with the transcript of the bot under
   * test (StartOptions.bot) in its message, so a failing test says what the bot did.
   */
  waitFor<T>(check: () => T | Promise<T>, opts?: WaitOptions): Promise<Exclude<T, undefined | null | false>>;
  /** Wait for a message in a channel (newest first) that matches. */
  waitForMessage(channel: string, match: (m: HarnessMessage) => boolean, opts?: WaitOptions & { as?: string }): Promise<HarnessMessage>;
  /** Wait for a dispatch sent to a bot session (harness events feed, long-polled). */
  waitForEvent(match: (e: HarnessEvent) => boolean, opts?: WaitOptions): Promise<HarnessEvent>;
  /** Wait until the application's bot has a live gateway session. */
  waitForBot(app: string, opts?: WaitOptions): Promise<void>;
  /** Break things on purpose: gateway closes, invalid sessions, dropped ACKs, REST errors, latency. */
  faults: Faults;
  /** Everything between the application and Parley, in order (tokens masked). */
  transcript(app: string, opts?: { after?: string }): Promise<{ entries: TranscriptEntry[]; cursor: string }>;
  /** The same as readable lines. */
  transcriptText(app: string, opts?: { after?: string }): Promise<string>;
  advanceClock(ms: number): Promise<string>;
  setClock(iso: string): Promise<string>;
  rotate(app: string): Promise<string>;
  seed(world: unknown): Promise<SeedAnswer>;
  reset(): Promise<void>;
  /** Raw harness call, for endpoints without a helper. */
  harness<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}
