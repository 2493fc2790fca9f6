import type { Core } from "../core";
import type { Snowflakes } from "../wire/snowflakes";
import type { EventLog } from "./eventlog";
import type { SeedAnswer } from "./seed";

/** The gateway as the harness sees it. */
export interface HarnessGateway {
  hasLiveSession(botUserId: string): boolean;
  sessionsOf(applicationId: string): { session_id: string; intents: number; connected: boolean; seq: number }[];
}

/** What the harness needs, built by the composition root (test mode only). */
export interface HarnessContext {
  core: Core;
  flakes: Snowflakes;
  /** The switchable clock: virtual time on demand. */
  clock: { now(): number; advance(ms: number): number; set(at: number): number };
  gateway: HarnessGateway;
  /** Every dispatch frame sent to bots. */
  events: EventLog;
  /** Empty the world: every table, session and window; real time again. */
  reset(): void;
  /** Seed a world; passwords are hashed off the event loop first. */
  seed(doc: unknown): Promise<SeedAnswer>;
}
