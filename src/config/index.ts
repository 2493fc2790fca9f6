/**
 * Configuration is read once, here, from flags and PARLEY_* environment variables into
 * one validated object. Nothing else in Parley reads process.env or argv.
 * Longer than 400 lines because every flag, its default and its check sit in this one
 * place, beside the others an operator reads in `parley serve --help`.
 */
import { join, resolve } from "node:path";
import { isIP } from "node:net";
import pkg from "../../package.json" with { type: "json" };
import { ConfigError, type RawFlags } from "./errors";
import { readRateLimitFile } from "./rate-limits";
import { MEDIA_DIR_FLAG, MEDIA_FLAGS, mediaConfigOf, mediaDirOf, type MediaConfig } from "./media";
export { mediaConfigOf, mediaRoot, type MediaConfig } from "./media";
import { fastPathsOf, type FastPaths } from "./fast-paths";
import { STANDARD_PASSWORD_COST, TEST_PASSWORD_COST, type PasswordCost } from "./passwords";
export { STANDARD_PASSWORD_COST, type PasswordCost } from "./passwords";

export type { FastPaths } from "./fast-paths";

/** Parley's version (package.json), printed by --version, the banner and /healthz. */
export const VERSION: string = pkg.version;

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  /** A directory, or ":memory:". */
  data: string;
  /** The SQLite path derived from `data`. */
  dbPath: string;
  /**
   * A Postgres URL (postgres://user:pass@host:port/db) holding the data instead of
   * SQLite, or null (the default: SQLite in `data`). `data` still holds the secret key
   * and the lock (docs/scaling.md).
   */
  database: string | null;
  /** A Redis (or Valkey) URL for what several nodes share in memory: the bot API's rate limits (docs/scaling.md); null: each node its own. */
  redis: string | null;
  harness: boolean;
  seedFile: string | null;
  baseUrl: string | null; // null: derived from the listening address
  /**
   * Addresses of the reverse proxies in front (--trusted-proxy): a request from one of them
   * is counted by the client address its X-Forwarded-For names, for the per-address sign-in
   * and sign-up throttles. Empty (the default): the TCP peer, whatever a header says.
   */
  trustedProxies: string[];
  gatewayUrl: string | null;
  portalUrl: string | null;
  synchronous: "NORMAL" | "FULL";
  demo: boolean;
  rateLimits: {
    enabled: boolean;
    global: RateLimitRule;
    /**
     * Overrides of the routes' own rules (each bot API route declares the spec's, wire/route.ts),
     * keyed by "METHOD /template" (template without the /api/v10 prefix): a --rate-limits file's.
     */
    routes: Record<string, RateLimitRule>;
    default: RateLimitRule;
  };
  quiet: boolean;
  /** Gateway HELLO's heartbeat_interval: the spec's 41250 ms; test mode may shorten it so zombie tests take seconds. */
  heartbeatIntervalMs: number;
  /** Request and connection lines are "info"; --quiet means "error" unless a level is given. */
  logLevel: LogLevel;
  logFormat: "pretty" | "json";
  /** Print how long each start-up step took (finding what sits before the first answer). */
  timings: boolean;
  /** How long a graceful shutdown may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  /**
   * The image proxy (docs/operations.md): off by default, when the web client loads an
   * embed's picture only once a person asks. On, pictures come through Parley, which
   * fetches only public addresses but those `allow`ed (addresses or CIDR blocks), and
   * at most `maxBytes` of an image.
   */
  imageProxy: { enabled: boolean; allow: string[]; maxBytes: number };
  /** People's sessions end after `idleMs` unused, and `absoluteMs` after sign-in however used (core/sessions.ts). */
  sessions: { idleMs: number; absoluteMs: number };
  /** What a password hash costs (passwords.ts): the OWASP baseline; testConfig's far less. */
  passwordCost: PasswordCost;
  /** A switch per cache and fast path, all on; no flag sets them: tests (`testConfig({ fastPaths })`) and benches do (fast-paths.ts). */
  fastPaths: FastPaths;
  /** Running a community: see the block at the end of this file. */
  devices: DeviceSettings;
}

export { ConfigError, type RawFlags } from "./errors";

/** Where the developer portal is served when --portal-url names no other address. */
export const DEFAULT_PORTAL_PATH = "/developers";

/** Public addresses, fixed once the server listens (or given by config behind a proxy). */
export interface Urls {
  base: string; // http(s)://host:port
  gateway: string; // ws(s)://host:port/gateway
  /** The developer portal: the base URL + /developers unless --portal-url says otherwise. */
  portal: string;
}

/**
 * The spec's global and default limits (8.1); each route's own rule is on its declaration
 * (the bot API's routes, `limit`). A deployment may override any of them.
 */
export const SPEC_RATE_LIMITS: Config["rateLimits"] = {
  enabled: true,
  global: { limit: 50, windowMs: 1000 },
  default: { limit: 10, windowMs: 10_000 },
  routes: {},
};

interface FlagSpec {
  name: string;
  env: string;
  kind: "string" | "int" | "bool";
  help: string;
}

export const SERVE_FLAGS: FlagSpec[] = [
  { name: "port", env: "PARLEY_PORT", kind: "int", help: "port to listen on (default 7420; 0 picks a free port)" },
  { name: "host", env: "PARLEY_HOST", kind: "string", help: "address to bind (default 127.0.0.1)" },
  { name: "data", env: "PARLEY_DATA", kind: "string", help: "data directory, or :memory: (default ./parley-data)" },
  {
    name: "database",
    env: "PARLEY_DATABASE",
    kind: "string",
    help: "postgres://user:pass@host:port/db to keep the data in Postgres (default: SQLite in --data)",
  },
  {
    name: "redis",
    env: "PARLEY_REDIS",
    kind: "string",
    help: "redis://host:port for the rate limits several nodes share (with --database; default: each node its own)",
  },
  { name: "harness", env: "PARLEY_HARNESS", kind: "bool", help: "mount the test harness at /api/harness/v1" },
  { name: "seed", env: "PARLEY_SEED", kind: "string", help: "world document (JSON) to seed at start-up" },
  { name: "base-url", env: "PARLEY_BASE_URL", kind: "string", help: "public base URL (behind a proxy)" },
  { name: "gateway-url", env: "PARLEY_GATEWAY_URL", kind: "string", help: "public gateway URL (ws:// or wss://)" },
  {
    name: "trusted-proxy",
    env: "PARLEY_TRUSTED_PROXY",
    kind: "string",
    help: "address(es) of the reverse proxy in front, comma-separated: its X-Forwarded-For names the client",
  },
  {
    name: "portal-url",
    env: "PARLEY_PORTAL_URL",
    kind: "string",
    help: "public developer portal URL (default: the base URL + /developers)",
  },
  { name: "synchronous", env: "PARLEY_SYNCHRONOUS", kind: "string", help: "SQLite synchronous mode: NORMAL (default) or FULL" },
  { name: "rate-limits", env: "PARLEY_RATE_LIMITS", kind: "string", help: "on (default) or off; or a JSON file overriding limits" },
  { name: "demo", env: "PARLEY_DEMO", kind: "bool", help: "create and print a demo world when the database is empty" },
  { name: "quiet", env: "PARLEY_QUIET", kind: "bool", help: "print nothing but errors" },
  {
    name: "heartbeat-interval",
    env: "PARLEY_HEARTBEAT_INTERVAL",
    kind: "int",
    help: "test mode only: gateway heartbeat_interval in ms (default 41250)",
  },
  { name: "log-level", env: "PARLEY_LOG_LEVEL", kind: "string", help: "trace, debug, info (default), warn, error or silent" },
  {
    name: "log-format",
    env: "PARLEY_LOG_FORMAT",
    kind: "string",
    help: "pretty (default: one readable line) or json (one JSON object a line)",
  },
  { name: "timings", env: "PARLEY_TIMINGS", kind: "bool", help: "print how long each start-up step took" },
  { name: "shutdown-timeout", env: "PARLEY_SHUTDOWN_TIMEOUT", kind: "int", help: "seconds a graceful shutdown may take (default 10)" },
  {
    name: "image-proxy",
    env: "PARLEY_IMAGE_PROXY",
    kind: "bool",
    help: "show embeds' pictures through Parley instead of asking each viewer first",
  },
  {
    name: "image-proxy-allow",
    env: "PARLEY_IMAGE_PROXY_ALLOW",
    kind: "string",
    help: "private addresses or CIDR blocks the image proxy may fetch from (comma-separated)",
  },
  {
    name: "image-proxy-max-bytes",
    env: "PARLEY_IMAGE_PROXY_MAX_BYTES",
    kind: "int",
    help: "largest image the proxy fetches (default 8388608)",
  },
  { name: "session-idle", env: "PARLEY_SESSION_IDLE", kind: "int", help: "a person's session unused this many days ends (default 30)" },
  {
    name: "session-max",
    env: "PARLEY_SESSION_MAX",
    kind: "int",
    help: "a person's session ends this many days after sign-in (default 365)",
  },
  ...communityFlags(),
];

const DAY_MS = 86_400_000;

/** Parse `--name value`, `--name=value` and bare boolean flags against a flag list. */
export function parseFlags(argv: string[], specs: { name: string; kind: string }[]): { flags: RawFlags; rest: string[] } {
  const flags: RawFlags = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) {
      rest.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = specs.find((s) => s.name === name);
    if (!spec) throw new ConfigError(`unknown flag --${name}`);
    if (spec.kind === "bool") {
      const v = eq === -1 ? "true" : arg.slice(eq + 1);
      flags[name] = parseBool(v, `--${name}`);
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith("--"))) throw new ConfigError(`--${name} needs a value`);
    flags[name] = value;
  }
  return { flags, rest };
}

function parseBool(v: string, what: string): boolean {
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new ConfigError(`${what} must be true or false, not '${v}'`);
}

function parseUrl(v: string, what: string, schemes: string[]): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`${what} is not a URL: '${v}'`);
  }
  if (!schemes.includes(u.protocol)) throw new ConfigError(`${what} must use ${schemes.join(" or ")}`);
  return v.replace(/\/+$/, "");
}

/** An address as compared: an IPv4-mapped IPv6 one (Bun's peer on a dual-stack socket) as its IPv4. */
export function plainAddress(a: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? mapped[1] : a.toLowerCase();
}

/** A comma-separated list of IP addresses (IPv4-mapped IPv6 written as IPv4). */
function parseAddresses(v: string | undefined, what: string): string[] {
  if (v === undefined) return [];
  const list = v
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");
  for (const a of list) if (isIP(a) === 0) throw new ConfigError(`${what} takes IP addresses, comma-separated, not '${a}'`);
  return list.map(plainAddress);
}

/** How the server is reached from outside: its public addresses, and the proxies in front. */
function publicFacing(str: (name: string) => string | undefined): Pick<Config, "baseUrl" | "gatewayUrl" | "portalUrl" | "trustedProxies"> {
  const url = (name: string, schemes: string[]) => {
    const v = str(name);
    return v ? parseUrl(v, `--${name}`, schemes) : null;
  };
  return {
    baseUrl: url("base-url", ["http:", "https:"]),
    gatewayUrl: url("gateway-url", ["ws:", "wss:"]),
    portalUrl: url("portal-url", ["http:", "https:"]),
    trustedProxies: parseAddresses(str("trusted-proxy"), "--trusted-proxy"),
  };
}

/** Build the validated config from flags (winning) and environment. */
export function loadConfig(flags: RawFlags, env: Record<string, string | undefined>): Config {
  try {
    return checkedConfig(flags, env);
  } catch (e) {
    throw e instanceof ConfigError ? new ConfigError(namedAsGiven(e.message, flags, env)) : e;
  }
}

/**
 * A refusal names the flag; when the value came from its environment variable (a CI
 * job's PARLEY_PORT), it names that instead, which is what the operator must correct.
 */
function namedAsGiven(message: string, flags: RawFlags, env: Record<string, string | undefined>): string {
  const m = /^--([a-z-]+)/.exec(message);
  const spec = m ? SERVE_FLAGS.find((f) => f.name === m[1]) : undefined;
  if (!spec || flags[spec.name] !== undefined || !env[spec.env]) return message;
  return `${spec.env}${message.slice(m![0].length)}`;
}

function checkedConfig(flags: RawFlags, env: Record<string, string | undefined>): Config {
  const get = (name: string): string | boolean | undefined => {
    if (flags[name] !== undefined) return flags[name];
    const spec = SERVE_FLAGS.find((s) => s.name === name)!;
    const e = env[spec.env];
    if (e === undefined || e === "") return undefined;
    return spec.kind === "bool" ? parseBool(e, spec.env) : e;
  };
  const str = (name: string) => {
    const v = get(name);
    return v === undefined ? undefined : String(v);
  };
  const bool = (name: string) => get(name) === true;

  const portRaw = str("port") ?? "7420";
  if (!/^\d+$/.test(portRaw) || +portRaw > 65535) throw new ConfigError(`--port must be 0 to 65535, not '${portRaw}'`);
  const data = str("data") ?? "./parley-data";
  // An empty --data (a script's unset "$DATA_DIR") would resolve to the working directory and fill it.
  if (!data.trim()) throw new ConfigError(`--data must name a directory (or :memory:), not '${data}'`);
  const sync = (str("synchronous") ?? "NORMAL").toUpperCase();
  if (sync !== "NORMAL" && sync !== "FULL") throw new ConfigError(`--synchronous must be NORMAL or FULL, not '${sync}'`);

  const beatRaw = str("heartbeat-interval");
  if (beatRaw !== undefined && (!/^\d+$/.test(beatRaw) || +beatRaw < 100 || +beatRaw > 41_250))
    throw new ConfigError(`--heartbeat-interval must be 100 to 41250 (ms), not '${beatRaw}'`);
  // Outside test mode the spec's interval holds: a shorter one only makes sense for a test double.
  if (beatRaw !== undefined && !bool("harness")) throw new ConfigError("--heartbeat-interval needs --harness (test mode)");
  const host = str("host") ?? "127.0.0.1";
  if (!validHost(host)) throw new ConfigError(`--host must be an IP address or a host name, not '${host}'`);
  const quiet = bool("quiet");
  const logLevel = (str("log-level") ?? (quiet ? "error" : "info")).toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, not '${logLevel}'`);
  const logFormat = (str("log-format") ?? "pretty").toLowerCase();
  if (logFormat !== "pretty" && logFormat !== "json") throw new ConfigError(`--log-format must be pretty or json, not '${logFormat}'`);
  const shutdownRaw = str("shutdown-timeout") ?? "10";
  if (!/^\d+$/.test(shutdownRaw) || +shutdownRaw < 1 || +shutdownRaw > 600)
    throw new ConfigError(`--shutdown-timeout must be 1 to 600 seconds, not '${shutdownRaw}'`);

  const imageProxy = imageProxyOf(bool("image-proxy"), str("image-proxy-allow"), str("image-proxy-max-bytes"));
  const idleDays = days(str("session-idle") ?? "30", "--session-idle");
  const maxDays = days(str("session-max") ?? "365", "--session-max");
  if (idleDays > maxDays) throw new ConfigError(`--session-idle (${idleDays}) cannot exceed --session-max (${maxDays})`);

  const database = databaseOf(str("database"), data);

  const rateLimits = structuredClone(SPEC_RATE_LIMITS);
  const rl = str("rate-limits");
  if (rl !== undefined) {
    if (/^(off|false|0)$/i.test(rl)) rateLimits.enabled = false;
    else if (!/^(on|true|1)$/i.test(rl)) Object.assign(rateLimits, readRateLimitFile(rl));
  }

  return {
    port: +portRaw,
    host,
    data,
    dbPath: data === ":memory:" ? ":memory:" : join(resolve(data), "parley.db"),
    database,
    redis: redisOf(str("redis"), database),
    harness: bool("harness"),
    seedFile: str("seed") ?? null,
    ...publicFacing(str),
    synchronous: sync,
    demo: bool("demo"),
    rateLimits,
    quiet,
    logLevel,
    logFormat,
    timings: bool("timings"),
    shutdownTimeoutMs: +shutdownRaw * 1000,
    heartbeatIntervalMs: beatRaw === undefined ? 41_250 : +beatRaw,
    imageProxy,
    sessions: { idleMs: idleDays * DAY_MS, absoluteMs: maxDays * DAY_MS },
    passwordCost: STANDARD_PASSWORD_COST,
    fastPaths: fastPathsOf(),
    devices: deviceSettingsOf(str("device-expiry")),
    media: mediaConfigOf(flags, env),
    mediaDir: mediaDirOf(str("media-dir")),
  };
}

/** The image proxy's settings, each checked: an allowed entry is an address or a CIDR block. */
function imageProxyOf(enabled: boolean, allowRaw: string | undefined, maxRaw: string | undefined): Config["imageProxy"] {
  const allow = (allowRaw ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  for (const a of allow) {
    const [addr, bits, more] = a.split("/");
    const family = isIP(addr.replace(/^\[|\]$/g, ""));
    const max = family === 6 ? 128 : 32;
    if (!family || more !== undefined || (bits !== undefined && (!/^\d+$/.test(bits) || +bits > max)))
      throw new ConfigError(`--image-proxy-allow takes addresses or CIDR blocks (10.0.0.0/8, fd00::/8), not '${a}'`);
  }
  const maxBytes = maxRaw === undefined ? 8 * 1024 * 1024 : +maxRaw;
  if (maxRaw !== undefined && (!/^\d+$/.test(maxRaw) || maxBytes < 1024 || maxBytes > 100 * 1024 * 1024))
    throw new ConfigError(`--image-proxy-max-bytes must be 1024 to 104857600, not '${maxRaw}'`);
  return { enabled, allow, maxBytes };
}

/** --database: a postgres:// URL, beside a data directory for the key and the lock (never :memory:, whose key dies with the process). */
function databaseOf(raw: string | undefined, data: string): string | null {
  if (raw === undefined) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError("--database is not a URL (postgres://user:password@host:port/database)");
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:")
    throw new ConfigError(`--database must be a postgres:// URL, not ${u.protocol}//`);
  if (data === ":memory:") throw new ConfigError("--database needs a --data directory for the server's secret key, not :memory:");
  return raw;
}

/** --redis: a redis:// URL, only beside --database (nodes on one SQLite file cannot be several). */
function redisOf(raw: string | undefined, database: string | null): string | null {
  if (raw === undefined) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError("--redis is not a URL (redis://host:port)");
  }
  if (!["redis:", "rediss:", "valkey:", "valkeys:"].includes(u.protocol))
    throw new ConfigError(`--redis must be a redis:// URL, not ${u.protocol}//`);
  if (!database) throw new ConfigError("--redis is for several nodes, which share a Postgres database: give --database too");
  return raw;
}

/** A database URL fit for a log line or an error: its password hidden. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}

/** A whole number of days, 1 to 3650. */
function days(raw: string, what: string): number {
  if (!/^\d+$/.test(raw) || +raw < 1 || +raw > 3650) throw new ConfigError(`${what} must be 1 to 3650 (days), not '${raw}'`);
  return +raw;
}

/** An IP address, or a host name of letters, digits, dots and hyphens (RFC 1123 labels). */
function validHost(host: string): boolean {
  if (isIP(host.replace(/^\[|\]$/g, ""))) return true;
  return host.length <= 253 && /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$/i.test(host);
}

/** The portal's public URL: --portal-url, or the base URL + /developers. */
export function portalUrlOf(config: Pick<Config, "portalUrl">, base: string): string {
  return config.portalUrl ?? `${base}${DEFAULT_PORTAL_PATH}`;
}

/**
 * The paths this server answers portal pages at: /developers, and --portal-url's own
 * path when a proxy forwards it unchanged ("" when the portal is the root of its own
 * host: then only its install links reach this server). Paths the server answers
 * otherwise are never taken.
 */
export function portalPaths(config: Pick<Config, "portalUrl">): string[] {
  const paths = [DEFAULT_PORTAL_PATH];
  if (!config.portalUrl) return paths;
  const path = new URL(config.portalUrl).pathname.replace(/\/+$/, "");
  if (!paths.includes(path) && !/^\/(api|gateway|channels|admin)(\/|$)/.test(path)) paths.push(path);
  return paths;
}

/**
 * A config for tests and embedding: in-memory, harness on, passwords hashed at the test
 * cost (passwords.ts), everything else default.
 * `fastPaths` names only the switches it changes (`{ fastPaths: { memo: false } }`).
 */
export function testConfig(overrides: Partial<Omit<Config, "fastPaths">> & { fastPaths?: Partial<FastPaths> } = {}): Config {
  const { fastPaths, ...rest } = overrides;
  const loaded = loadConfig({ data: ":memory:", harness: true, port: "0", quiet: true }, {});
  return { ...loaded, passwordCost: TEST_PASSWORD_COST, ...rest, fastPaths: fastPathsOf(fastPaths) };
}

// ---- running a community (issue 29): device expiry ----

/** When the end-to-end devices of people's browsers expire (core/devices.ts). */
export interface DeviceSettings {
  /** A device whose sign-in went unused this long is removed; null: never. */
  expireAfterMs: number | null;
}

// A function, not a const: SERVE_FLAGS above spreads it while this module is still being read.
function communityFlags(): FlagSpec[] {
  return [
    {
      name: "device-expiry",
      env: "PARLEY_DEVICE_EXPIRY",
      kind: "int",
      help: "a browser's encryption device unused this many days is removed (default 90; 0: never)",
    },
  ];
}

function deviceSettingsOf(raw: string | undefined): DeviceSettings {
  const v = raw ?? "90";
  if (!/^\d+$/.test(v) || +v > 3650) throw new ConfigError(`--device-expiry must be 0 to 3650 (days; 0: never), not '${v}'`);
  return { expireAfterMs: +v === 0 ? null : +v * DAY_MS };
}

// ---- media: files, images, avatars and emoji (media.ts) ----

export interface Config {
  media: MediaConfig;
  /** `--media-dir`: where files' bytes live (a directory every node shares); null: `media/` beside the database (media.ts). */
  mediaDir: string | null;
}

SERVE_FLAGS.push(MEDIA_DIR_FLAG);
SERVE_FLAGS.push(...MEDIA_FLAGS.map((f) => ({ name: f.name, env: f.env, kind: "int" as const, help: f.help })));
