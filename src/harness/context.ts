import type { Core } from "../core";
import type { Snowflakes } from "../wire/snowflakes";
import type { EventLog } from "./eventlog";
import type { Faults } from "./faults";
import type { SeedAnswer } from "../world";
import type { Transcripts } from "./transcripts";
import type { Activity } from "./activity";
import type { Coverage } from "./coverage";

/** The gateway as the harness sees it. */
export interface HarnessGateway {
  hasLiveSession(botUserId: string): boolean;
  sessionsOf(applicationId: string): { session_id: string; intents: number; connected: boolean; seq: number }[];
  /** Close a live session's socket with a code (4000 keeps it resumable); false when not connected. */
  disconnect(sessionId: string, code?: number): boolean;
  /** Op 9 (d false), then a plain close; the session is gone. False when not connected. */
  invalidate(sessionId: string): boolean;
  /** The clock is about to jump to `until`: live sockets count as heartbeating through it. */
  carryThrough(until: number): void;
}

/**
 * A node of a cluster that shares gateway sessions (`--redis`): what the harness's `hold`
 * fault holds back, so a test can put two nodes in the instant of a session's takeover
 * on purpose. Each call holds until the function it answers is called.
 */
export interface ClusterHolds {
  /** The node's writes of its sessions' records and replay rings to Redis wait (its liveness beat goes on). */
  sessionWrites(): () => void;
  /** What the other nodes commit waits before this node hears it: their events, and their commits' numbers. */
  events(): () => void;
}

/** The slice of the core the harness calls (its world reset and seeding go through the root: below). */
export type HarnessCore = Pick<
  Core,
  | "apps"
  | "bus"
  | "channels"
  | "clock"
  | "devices"
  | "dms"
  | "guilds"
  | "interactionResponses"
  | "interactions"
  | "invites"
  | "media"
  | "messages"
  | "people"
  | "pins"
  | "reactions"
  | "reads"
  | "sessions"
  | "users"
  | "webhooks"
>;

/** What the harness needs, built by the composition root (test mode only). */
export interface HarnessContext {
  core: HarnessCore;
  flakes: Snowflakes;
  /** The switchable clock: virtual time on demand. */
  clock: { now(): number; readonly virtual: boolean; advance(ms: number): number; set(at: number): number };
  gateway: HarnessGateway;
  /** Every dispatch frame sent to bots. */
  events: EventLog;
  /** Faults armed by tests (faults.ts); its hooks are in the bot API's and the gateway's lists. */
  faults: Faults;
  /** What a `hold` fault holds on a node sharing gateway sessions; null on any other node. */
  cluster: ClusterHolds | null;
  /** What each application and Parley said to each other (transcripts.ts). */
  transcripts: Transcripts;
  /** Whether the bots are busy (POST /settle). */
  activity: Activity;
  /**
   * A node sharing a Postgres database: the newest commit there, and up to which this node
   * has heard every commit (GET /commits). Null on SQLite, where nothing is to be heard.
   */
  commits(): { newest: number; heard: number } | null;
  /** What the run's tests exercised (coverage.ts), kept across resets. */
  coverage: Coverage;
  /** Empty the world: every table, session and window; real time again. */
  reset(): void;
  /** Seed a world; passwords are hashed off the event loop first. */
  seed(doc: unknown): Promise<SeedAnswer>;
  /** The bot API's routes ("/channels/{channel_id}/messages"), so a fault for a route none serves is refused. */
  botRoutes: readonly { method: string; path: string }[];
}
