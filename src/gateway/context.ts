import type { Core, Report } from "../core";
import type { Urls } from "../config";
import type { Snowflakes } from "../wire/snowflakes";
import type { SharedSessions } from "./shared-sessions";

/** A session as hooks see it. */
export interface SessionRef {
  readonly id: string;
  readonly intents: number;
  readonly owner: { readonly appId: string; readonly appFlake: string; readonly botUserId: string };
}

/**
 * Observers of the gateway, set by the composition root: the harness's event log,
 * faults and transcripts, the operator's logs and metrics. Every hook is optional.
 */
export interface GatewayHooks {
  /** A dispatch numbered for a session: sent if it is live, kept in its ring for RESUME if not. */
  dispatched?(s: SessionRef, frame: string): void;
  /** `frames` dispatches numbered, for hooks that only count them: once per publish, not per session. */
  numbered?(frames: number): void;
  /** Any other frame sent on a socket (HELLO, heartbeat ACKs, op 9, replayed dispatches). */
  sent?(connId: number, s: SessionRef | null, frame: string): void;
  /** A frame received on a socket. */
  received?(connId: number, s: SessionRef | null, raw: string): void;
  opened?(connId: number): void;
  /** A session became live on a socket (IDENTIFY or RESUME). */
  attached?(connId: number, s: SessionRef, how: "identify" | "resume"): void;
  /** The socket closed: `code` when the server closed it, null when the client (or Bun) did. */
  closed?(connId: number, s: SessionRef | null, code: number | null): void;
  /** Whether to answer a heartbeat with op 11; false drops the ACK (a zombied connection). */
  acknowledge?(s: SessionRef | null): boolean;
}

/** What the gateway needs, built by the composition root. */
export interface GatewayContext {
  core: Pick<Core, "clock" | "bus" | "users" | "apps" | "guilds" | "dms" | "messages" | "reads">;
  flakes: Snowflakes;
  urls: Urls;
  hooks: GatewayHooks[];
  /** HELLO's heartbeat_interval; the spec's 41250 unless a test server shortens it (config). */
  heartbeatIntervalMs?: number;
  /**
   * Told of a socket handler that threw (a bug: frames are checked before they are acted
   * on); the root points it at the log. Absent: one JSON line on stderr (core/report.ts).
   */
  report?: Report;
  /**
   * Sessions and replay rings shared by every node through Redis (`--redis`), so a RESUME
   * works on any node (shared-sessions.ts). Absent: sessions live on their node only.
   */
  sessions?: SharedSessions;
  /** The gateway's fast paths (config/fast-paths.ts); the root passes config.fastPaths. Absent: all on. */
  fastPaths?: Partial<GatewayFastPaths>;
}

/** The switches of config/fast-paths.ts the gateway honours (the names are FastPaths'). */
export interface GatewayFastPaths {
  /** Off: GUILD_CREATE bodies are serialized for every session sent one (caches.ts). */
  guildCreateCache: boolean;
  /** Off: a guild's bots with sessions are listed again for every delivery (caches.ts). */
  guildBots: boolean;
  /** Off: a message dispatch is serialized once per session, not once per view (dispatch-messages.ts). */
  messageViews: boolean;
  /** Off: every delivery visits every session; no fan-out is remembered (fanout.ts, plans.ts). */
  plans: boolean;
  /** Off: each live session is a cohort of its own, sent its own frames (cohorts.ts). */
  cohorts: boolean;
  /** Off: each member of a cohort records its frames in its own ring, not once in the cohort's (cohorts.ts, session.ts). */
  cohortRings: boolean;
}

/** Whether a fast path is on: every one is, unless the root switched it off. */
export function fastPathOn(ctx: Pick<GatewayContext, "fastPaths">, name: keyof GatewayFastPaths): boolean {
  return ctx.fastPaths?.[name] ?? true;
}
