/**
 * A `--rate-limits FILE`: overrides of the spec's limits (8.1), checked whole at start-up.
 * A value of the wrong kind would otherwise go straight into the limiter: a string for a
 * rule turned a limit off without a word, a negative one refused every request with 429,
 * and a misspelt key ("glboal") was ignored.
 *
 *   {"enabled"?: bool, "global"?: RULE, "default"?: RULE, "routes"?: {"METHOD /template": RULE}}
 *   RULE = {"limit": 1..1000000, "windowMs": 1..86400000}
 */
import { readFileSync } from "node:fs";
import { ConfigError } from "./errors";

interface Rule {
  limit: number;
  windowMs: number;
}

export interface RateLimitOverrides {
  enabled?: boolean;
  global?: Rule;
  default?: Rule;
  routes?: Record<string, Rule>;
}

const KEYS = ["enabled", "global", "default", "routes"];
const MAX_WINDOW_MS = 86_400_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function whole(v: unknown, min: number, max: number): boolean {
  return Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
}

function rule(v: unknown, where: string, fail: (msg: string) => never): Rule {
  if (!isObject(v)) fail(`${where} must be {"limit": N, "windowMs": MS}`);
  const extra = Object.keys(v).find((k) => k !== "limit" && k !== "windowMs");
  if (extra !== undefined) fail(`${where} has '${extra}', which is not limit or windowMs`);
  if (!whole(v.limit, 1, 1_000_000)) fail(`${where}.limit must be a whole number from 1 to 1000000, not ${JSON.stringify(v.limit)}`);
  if (!whole(v.windowMs, 1, MAX_WINDOW_MS))
    fail(`${where}.windowMs must be a whole number of ms from 1 to ${MAX_WINDOW_MS}, not ${JSON.stringify(v.windowMs)}`);
  return { limit: v.limit as number, windowMs: v.windowMs as number };
}

/** Read and check the file; every refusal is one line naming the file and the value. */
export function readRateLimitFile(path: string): RateLimitOverrides {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw new ConfigError(`--rate-limits: cannot read JSON from '${path}'`);
  }
  const fail = (msg: string): never => {
    throw new ConfigError(`--rate-limits: '${path}': ${msg}`);
  };
  if (!isObject(raw)) return fail("must hold an object");
  const unknown = Object.keys(raw).find((k) => !KEYS.includes(k));
  if (unknown !== undefined) fail(`unknown key '${unknown}' (it takes ${KEYS.join(", ")})`);
  const out: RateLimitOverrides = {};
  if (raw.enabled !== undefined) {
    if (typeof raw.enabled !== "boolean") fail(`enabled must be true or false, not ${JSON.stringify(raw.enabled)}`);
    out.enabled = raw.enabled as boolean;
  }
  if (raw.global !== undefined) out.global = rule(raw.global, "global", fail);
  if (raw.default !== undefined) out.default = rule(raw.default, "default", fail);
  if (raw.routes !== undefined) {
    const routes = raw.routes;
    if (!isObject(routes)) return fail(`routes must be an object of "METHOD /template": rule`);
    out.routes = {};
    for (const [key, value] of Object.entries(routes)) {
      if (!/^[A-Z]+ \/\S*$/.test(key)) fail(`routes: '${key}' is not "METHOD /template" (e.g. "POST /channels/{channel_id}/messages")`);
      out.routes[key] = rule(value, `routes["${key}"]`, fail);
    }
  }
  return out;
}
