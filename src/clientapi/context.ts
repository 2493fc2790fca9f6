import type { Core, Report } from "../core";
import type { Snowflakes } from "../wire/snowflakes";
import type { Config, Urls } from "../config";
import type { PeopleLimits } from "./limits";

/** The slice of the core the people's API and its live connection call. */
export type ClientCore = Pick<
  Core,
  | "accounts"
  | "apps"
  | "audit"
  | "bus"
  | "channels"
  | "clock"
  | "devices"
  | "dms"
  | "emojis"
  | "guilds"
  | "instance"
  | "interactions"
  | "invites"
  | "media"
  | "messages"
  | "moderation"
  | "notifications"
  | "passwordResets"
  | "setup"
  | "people"
  | "pins"
  | "presence"
  | "profiles"
  | "reactions"
  | "readStates"
  | "reads"
  | "roles"
  | "search"
  | "servers"
  | "sessions"
  | "stats"
  | "transaction"
  | "users"
>;

/** What the people's API needs, built by the composition root. */
export interface ClientContext {
  core: ClientCore;
  /**
   * Only to format the bot token the portal shows once (its first part names the bot
   * user), to read an install link that names the application by its snowflake, and to
   * show a person the ids bots see (bot-ids.ts, portal.ts); `files` signs attachments'
   * links (wire/files.ts).
   */
  flakes: Pick<Snowflakes, "of" | "uuid" | "media" | "files">;
  /** Public addresses, fixed once the server listens: the portal's install links, administrators' reset links. */
  urls: Pick<Urls, "portal" | "base">;
  /** Whether a bot is live on the gateway (an interaction to a bot that is not is dropped, spec 3.1). */
  bots: { hasLiveSession(botUserId: string): boolean };
  /** Sign-in, sign-up and write throttles (limits.ts); the composition root resets them with the world. */
  limits: PeopleLimits;
  /** The image proxy's fetching rules, when the operator turned it on (media.ts; its links are `flakes.media`). */
  imageProxy: Pick<Config["imageProxy"], "allow" | "maxBytes"> | null;
  /**
   * Told of a failure no request answers (a presence update on the live connection); the
   * root points it at the log. Absent: one JSON line on stderr (core/report.ts).
   */
  report?: Report;
  /** This build's version and how long its process has run, for the administrators' overview (the operator's health says the same). */
  about?: { version: string; uptimeSeconds(): number };
}
