import type { Core } from "../core";
import type { Urls } from "../config";
import type { Snowflakes } from "../wire/snowflakes";

/** Called for every dispatch frame a session records (the harness's event log). */
export type FrameTap = (applicationFlake: string, sessionId: string, frame: string) => void;

/** What the gateway needs, built by the composition root. */
export interface GatewayContext {
  core: Pick<Core, "clock" | "bus" | "users" | "apps" | "guilds" | "dms" | "messages" | "reads">;
  flakes: Snowflakes;
  urls: Urls;
  /** Every recorded frame, when something (the harness) listens. */
  tap?: FrameTap;
}
