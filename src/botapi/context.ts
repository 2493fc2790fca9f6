import type { Core } from "../core";
import type { Urls } from "../config";
import type { Snowflakes } from "../wire/snowflakes";
import type { RateLimiter } from "./ratelimit";

/** What bot API handlers work with: core services, the snowflake boundary, limits, addresses. Built by the composition root. */
export interface BotApi {
  core: Core;
  flakes: Snowflakes;
  limiter: RateLimiter;
  urls: Urls;
}
