import type { Core } from "../core";
import type { Urls } from "../config";
import type { Snowflakes } from "../wire/snowflakes";
import type { BotAuthorization } from "../wire/tokens";
import type { SharedLimits } from "./shared-limits";
import type { RateLimiter } from "./ratelimit";
import type { RequestHooks } from "./hooks";

/** The slice of the core bot API handlers call (the root hands over the whole Core; tests may pass less). */
export type BotCore = Pick<
  Core,
  | "apps"
  | "audit"
  | "batched"
  | "channels"
  | "clock"
  | "commands"
  | "dms"
  | "emojis"
  | "guilds"
  | "interactionResponses"
  | "invites"
  | "media"
  | "messages"
  | "moderation"
  | "notifications"
  | "pins"
  | "reactions"
  | "reads"
  | "roles"
  | "servers"
  | "transaction"
  | "users"
  | "webhooks"
>;

/** What bot API handlers work with: core services, the snowflake boundary, limits, addresses. Built by the composition root. */
export interface BotApi {
  core: BotCore;
  flakes: Snowflakes;
  /** Reads `Authorization: Bot <token>` headers (wire/tokens.ts). */
  tokens: BotAuthorization;
  limiter: RateLimiter;
  /** The windows several nodes share in Redis (`--redis`), counted there while it answers; null: `limiter` alone. */
  shared: SharedLimits | null;
  urls: Urls;
  /** Observers and interceptors of every request (faults, transcripts, logs, metrics). */
  hooks: RequestHooks[];
}
