import type { Core } from "../core";
import type { Snowflakes } from "../wire/snowflakes";
import type { PeopleLimits } from "./limits";

/** What the people's API needs, built by the composition root. */
export interface ClientContext {
  core: Core;
  /** Only to format the bot token the portal shows once (its first part names the bot user). */
  flakes: Pick<Snowflakes, "of">;
  /** Whether a bot is live on the gateway (an interaction to a bot that is not is dropped, spec 3.1). */
  bots: { hasLiveSession(botUserId: string): boolean };
  /** Sign-in, sign-up and write throttles (limits.ts); the composition root resets them with the world. */
  limits: PeopleLimits;
}
