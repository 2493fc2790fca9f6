import type { Core } from "../core";
import type { Config } from "../config";
import type { Snowflakes } from "../wire/snowflakes";
import type { RateLimiter } from "./ratelimit";

/** Public addresses, fixed once the server listens (or given by config behind a proxy). */
export interface Urls {
  base: string; // http(s)://host:port
  gateway: string; // ws(s)://host:port/gateway
  portal: string;
}

/** What bot API handlers work with. Built once by the composition root. */
export interface BotApi {
  core: Core;
  config: Config;
  flakes: Snowflakes;
  limiter: RateLimiter;
  urls: Urls;
}
