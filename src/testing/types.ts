/**
 * The public types of parley/testing. They import nothing of the server, so the SDK's
 * declarations typecheck in a bot's repository with plain tsc (no Bun types, no Node
 * types); interactions.ts, person.ts and the rest hold the behaviour.
 */
import type { FakeTimers } from "./timers.js";
import type { InteractionResult, InteractionState, InteractionView, Person } from "./person-types.js";
import type { Cursor, HarnessEvent, HarnessMessage, SeedAnswer, TranscriptEntry, WaitOptions } from "./wire-types.js";

export type { FakeTimers } from "./timers.js";
export type * from "./person-types.js";
export type { Cursor, HarnessEvent, HarnessMessage, SeedAnswer, TranscriptEntry, WaitOptions } from "./wire-types.js";
export { HarnessError } from "./wire-types.js";

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/** Rate limits as `parley serve --rate-limits FILE` takes them (docs/operations.md). */
export interface RateLimits {
  enabled?: boolean;
  global?: RateLimitRule;
  default?: RateLimitRule;
  /** Keyed by "METHOD /template", e.g. "POST /channels/{channel_id}/messages". */
  routes?: Record<string, RateLimitRule>;
}

/** What every mode takes: the world, the bot under test, strictness and the world options. */
export interface WorldOptions {
  /** A world document (docs/harness.md) to seed (after a reset, when attaching). */
  world?: unknown;
  /** The application(s) under test, by name: their transcripts go with failures. Default: every application of the world. */
  bot?: string | string[];
  /**
   * Strict mode (default true): the reference's 3-second first-response rule, and
   * `strictViolations()` (which the test hooks run after each test) reports interactions
   * left unanswered, errors the bot's library raised, and 4xx answers the test did not allow.
   */
  strict?: boolean;
  /** Every world seeded starts at this instant on the virtual clock (`start_time`): ids and times repeat run after run. */
  startTime?: string;
  /** A person's DM to a bot carries its text, as on the reference (a departure from spec 1.6; test mode only). */
  referenceDms?: boolean;
  /** The test's fake timers (vi, jest): `advance` moves them with the server's clock, and the SDK's waits sleep on the server meanwhile. */
  timers?: FakeTimers;
}

/** The server's own options, in both modes (in this process, or `parley serve` as a child). */
export interface ServerOptions {
  /** Gateway HELLO's heartbeat_interval in ms (100 to 41250; the spec's 41250 by default). */
  heartbeatIntervalMs?: number;
  /** "on" (the spec's limits, the default), "off", or limits of your own. */
  rateLimits?: "on" | "off" | RateLimits;
}

export interface StartOptions extends WorldOptions, ServerOptions {
  /** true: run the server in this process (needs Bun); false: run `parley serve` as a child process. Default: true under Bun without fake timers, false otherwise. */
  inProcess?: boolean;
  /** Child process: the command that runs Parley (default: Bun on this package's src/main.ts; or PARLEY_COMMAND). */
  command?: string | string[];
  /** In this process only: raw overrides of the server's Config (src/config), for what ServerOptions does not name. */
  config?: Record<string, unknown>;
}

/** A bot's gateway session as GET /applications/{id}/sessions lists it. */
export interface GatewaySession {
  session_id: string;
  intents: number;
  connected: boolean;
  seq: number;
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
  /**
   * The next `times` (1) matching bot API requests answer `status` with the spec's body and
   * headers. Match a route template (`route`) or one concrete path (`path`, e.g. a channel's).
   */
  rest(f: {
    route?: string;
    path?: string;
    status: number;
    method?: string;
    app?: string;
    times?: number;
    retryAfter?: number;
    global?: boolean;
  }): Promise<{ id: string }>;
  /** Delay matching requests (every route when none is given) by `ms` real milliseconds. */
  latency(f: { ms: number; route?: string; path?: string; method?: string; app?: string; times?: number }): Promise<{ id: string }>;
  list(): Promise<ArmedFault[]>;
  delete(id: string): Promise<void>;
}

/** A bot answer the test expects (strict mode counts any other 4xx as a failure). */
export interface AllowedAnswer {
  status: number;
  /** A route template ("/channels/{channel_id}/messages") or a concrete path; any when absent. */
  route?: string;
  method?: string;
  app?: string;
}

/** Something a bot's library emits errors on: a discord.js Client, a shard, any EventEmitter. */
export interface ErrorSource {
  on(event: "error", listener: (e: unknown) => void): unknown;
  off?(event: "error", listener: (e: unknown) => void): unknown;
}

/** A discord.js Client, as far as `login` needs it. */
export interface LoginClient extends ErrorSource {
  login(token: string): Promise<unknown>;
  destroy(): unknown;
  isReady?(): boolean;
  once?(event: string, listener: (...a: unknown[]) => void): unknown;
  rest?: { options?: { api?: string } };
}

/** The in-process server (src/app.ts's Parley), for tests that reach inside; typed loosely so the SDK's declarations need nothing of the server. */
export interface InProcessServer {
  readonly clock: { now(): number; advance(ms: number): number; readonly virtual: boolean };
  stop(): Promise<void>;
  [part: string]: any;
}

export interface RunningParley {
  /** "in-process", "child-process", or "attached" (a server started elsewhere: stop() leaves it running). */
  mode: "in-process" | "child-process" | "attached";
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
  /** The in-process server (undefined for a child process or an attached one). */
  parley?: InProcessServer;
  tokenOf(app: string): string;
  /** A channel's snowflake by name ("general", "Lab/general") or snowflake. */
  channelId(ref: string): string;
  as(user: string): Person;
  messages(channel: string, opts?: { as?: string; limit?: number }): Promise<HarnessMessage[]>;
  /** What became of an interaction: its state, response and follow-ups (ephemeral ones included). */
  interaction(id: string): Promise<InteractionView>;
  /** Wait until an interaction reaches a state (or one of several): the result, as `slash()` answers it. */
  waitForInteraction(id: string, state: InteractionState | InteractionState[], opts?: WaitOptions): Promise<InteractionResult>;
  /**
   * Poll until `check` returns something other than undefined/null/false; that value is
   * returned. Every waitFor... that times out throws with the transcript of the bot under
   * test (StartOptions.bot) in its message, so a failing test says what the bot did.
   */
  waitFor<T>(check: () => T | Promise<T>, opts?: WaitOptions): Promise<Exclude<T, undefined | null | false>>;
  /** Wait for a message in a channel (newest first) that matches. */
  waitForMessage(channel: string, match: (m: HarnessMessage) => boolean, opts?: WaitOptions & { as?: string }): Promise<HarnessMessage>;
  /**
   * Wait for a dispatch sent to a bot session that matches, among those after `after`:
   * by default the event log as the latest action (say, slash, click...) found it, so an
   * older event never matches; "start" for every event of the world.
   */
  waitForEvent(match: (e: HarnessEvent) => boolean, opts?: WaitOptions & { after?: Cursor | string | "start" }): Promise<HarnessEvent>;
  /** Wait until the application's bot has a live gateway session. */
  waitForBot(app: string, opts?: WaitOptions): Promise<void>;
  /** The application's gateway sessions (by world name or snowflake): whether each is live, its intents and sequence. */
  sessions(app: string): Promise<GatewaySession[]>;
  /** Where the event log and the transcripts stand now ("from now" for waitForEvent and transcript). */
  cursor(): Promise<Cursor>;
  /** Break things on purpose: gateway closes, invalid sessions, dropped ACKs, REST errors, latency. */
  faults: Faults;
  /** Everything between the application and Parley, in order (tokens masked). */
  transcript(app: string, opts?: { after?: Cursor | string }): Promise<{ entries: TranscriptEntry[]; cursor: string }>;
  /** The same as readable lines. */
  transcriptText(app: string, opts?: { after?: Cursor | string }): Promise<string>;
  /**
   * The transcript with what varies between runs taken out (heartbeats, session ids,
   * nonces, the server's address; with `ids: "placeholders"` ids too), one line per
   * entry: for `expect(...).toMatchSnapshot()`. Ids and times are stable as they are in a
   * world with a start time.
   */
  transcriptSnapshot(app: string, opts?: { after?: Cursor | string; ids?: "keep" | "placeholders"; times?: boolean }): Promise<string>;
  /**
   * Move time by `ms`: the server's clock and, with fake timers (StartOptions.timers or
   * useTimers), the bot's, in steps, each left to settle. Live sessions survive. `zombie`:
   * the bot was silent through the jump, so only the server's clock moves and its deadlines
   * fall due (docs/harness.md "The clock and live sessions"). Answers the server's new time.
   */
  advance(
    ms: number,
    opts?: {
      zombie?: boolean /** with fake timers: how far each step goes (default 10 s, or a hundredth of a longer jump) */;
      stepMs?: number;
    },
  ): Promise<string>;
  /**
   * The test's fake timers from now on (null: real timers again). Only for a server apart
   * from the test's process (`startParley({ timers })` or `{ inProcess: false }`): fake
   * timers would stop one in it, so there this throws.
   */
  useTimers(timers: FakeTimers | null): void;
  /** Move the server's clock only (the bot's timers stay). */
  advanceClock(ms: number): Promise<string>;
  setClock(iso: string): Promise<string>;
  rotate(app: string): Promise<string>;
  seed(world: unknown): Promise<SeedAnswer>;
  /** Empty the world (and seed `world` again, if given). */
  reset(world?: unknown): Promise<void>;
  /** Begin a test: transcripts, waits and strict checks count from here. The test hooks call it. */
  mark(): Promise<Cursor>;
  /** Strict mode: an answer the test expects the bot to get (a 4xx it handles). Until the next mark(). */
  allow(answer: AllowedAnswer): void;
  /** Strict mode: count errors `source` emits (a discord.js Client, a shard) as the bot's, until stopBots(). */
  watch(source: ErrorSource): void;
  /**
   * Log a discord.js Client in as the application (pointing its REST at this server), wait
   * for its own ready and for its live session, and watch its errors; stopBots() destroys it.
   */
  login<C extends LoginClient>(client: C, app: string): Promise<C>;
  /** Destroy the clients `login` started and stop watching; the server keeps running. */
  stopBots(): Promise<void>;
  /** Strict mode: what went wrong since mark() (empty when nothing did, or strict is off). */
  strictViolations(): Promise<string[]>;
  /** The transcripts of the bots under test since mark(), for a failing test's report. */
  failureReport(): Promise<string>;
  /** What the run's tests exercised (docs/harness.md "Coverage"). */
  coverage(): Promise<{ applications: Record<string, any> }>;
  /** The same as a readable report: per bot, commands and components never used. */
  coverageReport(): Promise<string>;
  /** Raw harness call, for endpoints without a helper. */
  harness<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** Stop the bots `login` started, then the server (an attached server keeps running). */
  stop(): Promise<void>;
}
