/**
 * Shared test plumbing: a fresh in-memory Parley per test file (or per test), requests
 * through app.handle(new Request(...)) without a socket, and a standard small world.
 */
import { createParley, type Parley } from "../src/app";
import { testConfig, type Config } from "../src/config";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import type { TSchema } from "@sinclair/typebox";
import type { SeedAnswer } from "../src/world";

// Elysia's router needs a real-looking origin (a one-letter host confuses its path split).
export const ORIGIN = "http://localhost:7420";

export function makeParley(overrides: Partial<Config> = {}): Parley {
  return createParley(testConfig(overrides));
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One request in-process. `token` adds "Authorization: Bot <token>". */
export async function call<T = any>(p: Parley, method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `Bot ${opts.token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["Content-Type"] ??= "application/json";
  }
  const url = path.startsWith("/api/") ? `${ORIGIN}${path}` : `${ORIGIN}/api/v10${path}`;
  const res = await p.handle(new Request(url, { method, headers, body }));
  const text = await res.text();
  let parsed: any;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

/** The world most tests start from. */
export const BASIC_WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob"],
      roles: [{ name: "Mod", permissions: ["KICK_MEMBERS", "MANAGE_MESSAGES"], members: ["bob"] }],
      channels: [{ name: "general" }, { name: "staff", overwrites: [{ role: "@everyone", deny: ["SEND_MESSAGES"] }] }],
    },
  ],
  applications: [
    {
      name: "EchoBot",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "DIRECT_MESSAGES", "GUILD_MESSAGE_REACTIONS", "GUILD_MESSAGE_TYPING"],
      approved_privileged: ["MESSAGE_CONTENT"],
      install: ["Lab"],
    },
  ],
};

export function seedBasic(p: Parley): SeedAnswer {
  return p.seed(structuredClone(BASIC_WORLD));
}

// ---- people's API and harness helpers (people/harness issue) ----

/** Headers of a signed-in person for the people's API. */
export function session(token: string): Record<string, string> {
  return { Authorization: `Session ${token}` };
}

/**
 * A people's API request as the person holding `token` (null: anonymous). Every success
 * is checked against the answer its route declares (the contract, src/contract): an
 * answer that drifted from it fails the test that saw it.
 */
export async function client<T = any>(
  p: Parley,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<TestResponse<T>> {
  const r = await call<T>(p, method, `/api/client/v1${path}`, { headers: token ? session(token) : {}, body });
  if (r.status >= 200 && r.status < 300) checkAnswer(p, method, `/api/client/v1${path}`, r.body);
  return r;
}

/** The declared answer schemas of a Parley's routes, each with its path as a pattern. */
const answerChecks = new WeakMap<Parley, { method: string; path: RegExp; check: TypeCheck<TSchema> }[]>();

function checkAnswer(p: Parley, method: string, path: string, body: unknown): void {
  let checks = answerChecks.get(p);
  if (!checks) {
    checks = p.routes.flatMap(({ prefix, routes }) =>
      routes.flatMap((r) =>
        r.answer
          ? [
              {
                method: r.method,
                path: new RegExp(`^${(prefix + r.path).replace(/\{\w+\}/g, "[^/]+")}$`),
                check: TypeCompiler.Compile(r.answer),
              },
            ]
          : [],
      ),
    );
    answerChecks.set(p, checks);
  }
  const bare = path.replace(/\?.*$/, "");
  const route = checks.find((c) => c.method === method && c.path.test(bare));
  if (!route || route.check.Check(body)) return;
  const wrong = [...route.check.Errors(body)].slice(0, 5).map((e) => `${e.path}: ${e.message}`);
  throw new Error(`${method} ${path} answered outside its contract:\n${wrong.join("\n")}`);
}

/** A harness request. */
export function harness<T = any>(p: Parley, method: string, path: string, body?: unknown): Promise<TestResponse<T>> {
  return call<T>(p, method, `/api/harness/v1${path}`, { body });
}

/** Every domain event published from now on, by type, so tests can count what an action fired. */
export function recordEvents(p: Parley) {
  const seen: { type: string; [k: string]: unknown }[] = [];
  const stop = p.core.bus.subscribe((e) => seen.push(e as never));
  return {
    all: seen,
    events: seen,
    of: (type: string) => seen.filter((e) => e.type === type),
    count: (type: string) => seen.filter((e) => e.type === type).length,
    clear: () => void seen.splice(0),
    stop,
  };
}

/** A Parley with rate limits off, for tests that are not about them. */
export function makeUnlimitedParley(overrides: Partial<Config> = {}): Parley {
  const { SPEC_RATE_LIMITS } = require("../src/config") as typeof import("../src/config");
  return makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false }, ...overrides });
}
/** A world for administration tests: ModBot sits between the Low/Mod roles and High. */
export const ADMIN_WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }, { name: "dave" }, { name: "erin" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", "carol", "erin"],
      roles: [
        { name: "Low", permissions: [], members: ["carol"] },
        { name: "Mod", permissions: ["KICK_MEMBERS", "MANAGE_MESSAGES"], members: ["erin"] },
        {
          name: "BotRole",
          permissions: ["KICK_MEMBERS", "BAN_MEMBERS", "MANAGE_ROLES", "MANAGE_CHANNELS", "VIEW_AUDIT_LOG", "SEND_MESSAGES"],
          members: ["ModBot"],
        },
        { name: "High", permissions: ["ADMINISTRATOR"], members: ["bob"] },
      ],
      channels: [{ name: "general" }, { name: "staff" }],
    },
    { name: "Elsewhere", owner: "dave", channels: [{ name: "lobby" }] },
  ],
  applications: [
    {
      name: "ModBot",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MEMBERS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
      approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"],
      install: ["Lab"],
    },
    { name: "PlainBot", owner: "alice", intents: ["GUILDS"], install: ["Lab"] },
  ],
};

export function seedAdmin(p: Parley): SeedAnswer {
  return p.seed(structuredClone(ADMIN_WORLD));
}

/** Row counts of the given tables, to prove a refused request wrote nothing. */
export function rowCounts(p: Parley, tables: string[]): Record<string, number> {
  return Object.fromEntries(tables.map((t) => [t, (p.store.db.query(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]));
}

/** The internal id behind a seed answer's snowflake (the people's API speaks internal ids). */
export function internalId(p: Parley, flake: string): string {
  const id = p.api.flakes.uuid(flake);
  if (!id) throw new Error(`unknown snowflake ${flake}`);
  return id;
}

// ---- interactions (slash commands, components) ----

/**
 * Make the bot count as live on the gateway, so invocations are delivered rather than
 * dropped (spec 3.1), without a socket. Returns the domain events published from now on.
 */
export function liveBot(p: Parley): { events: { type: string }[] } {
  p.gateway.hasLiveSession = () => true;
  const events: { type: string }[] = [];
  p.core.bus.subscribe((e) => events.push(e));
  return { events };
}

/** Play `user` in the harness: run a command or click a component; answers the harness body. */
export async function invoke(p: Parley, user: string, body: Record<string, unknown>): Promise<TestResponse> {
  return call(p, "POST", `/api/harness/v1/users/${user}/interactions`, { body });
}

/** What the bot would receive for an interaction (the gateway builds INTERACTION_CREATE with this). */
export async function interactionPayload(p: Parley, id: string): Promise<any> {
  const { interactionCreateJson } = await import("../src/wire/serializers/interaction");
  const model = p.core.reads.interactions.create(p.api.flakes.uuid(id)!);
  return model && interactionCreateJson(p.api.flakes, model);
}

/**
 * The basic world as the people's API sees it: the people's session tokens and the
 * internal ids of the Lab server, its channels and its Mod role.
 */
export function peopleWorld() {
  const p = makeParley();
  const w = seedBasic(p);
  const lab = w.guilds.Lab;
  return {
    p,
    w,
    alice: w.users.alice.token,
    bob: w.users.bob.token,
    carol: w.users.carol.token,
    lab: internalId(p, lab.id),
    general: internalId(p, lab.channels.general),
    staff: internalId(p, lab.channels.staff),
    mod: internalId(p, lab.roles.Mod),
  };
}

/** An answer's status and its error body's code, to check both halves of a refusal at once. */
export function refusal(r: TestResponse): [number, unknown] {
  return [r.status, r.body?.code];
}

/** The in-process server behind the test SDK (parley/testing types it loosely, to need nothing of the server). */
export function serverOf(sdk: { parley?: unknown }): Parley {
  if (!sdk.parley) throw new Error("not an in-process server");
  return sdk.parley as Parley;
}
