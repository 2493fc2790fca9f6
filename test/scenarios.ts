/**
 * Table-driven route tests, after PocketBase's ApiScenario: each row is one request by one
 * actor against a fresh in-process Parley with a seeded world, and what it must answer.
 *
 *   scenarios("invites", [
 *     { name: "a stranger cannot invite", actor: "carol", method: "POST", path: "/channels/{channel:general}/invites",
 *       body: {}, status: 404, code: 10003, events: { "*": 0 } },
 *   ]);
 *
 * Actors: an application's name (its bot token, on the bot API), a person's name (their
 * session, on the people's API), or "anon" (no Authorization, on the bot API). A path
 * that starts with /api/ is taken as it is; any other is under the actor's API.
 *
 * Placeholders in the path, the headers and the body's strings come from the seed answer:
 * {guild:Lab}, {channel:general} (or {channel:Lab/general}), {role:Mod} (or {role:Lab/Mod}),
 * {user:bob}, {app:EchoBot} (application id), {bot:EchoBot} (its bot user's id),
 * {token:bob} / {token:EchoBot} (a session or bot token), and {name} for a value the row's
 * setup() answered. Ids are snowflakes, except on the people's API (/api/client/v1), which
 * speaks internal ids; {snowflake:guild:Lab} and {internal:guild:Lab} force either.
 *
 * A refusal (status 400 and up) must name its error code: a status alone lets a wrong code
 * through. `events` counts the domain events the request published, by type; "*": 0 means
 * no event of any other type.
 */
import { describe, expect, test } from "bun:test";
import type { Parley } from "../src/app";
import type { Config } from "../src/config";
import type { SeedAnswer } from "../src/world";
import { BASIC_WORLD, call, makeParley, recordEvents, type TestResponse } from "./helpers";

export interface ScenarioContext {
  p: Parley;
  w: SeedAnswer;
  /** Fill placeholders in a string as the request's path would be filled (`api`: which id form). */
  fill(s: string, api?: "bot" | "people"): string;
}

export interface Scenario {
  name: string;
  /** An application's name, a person's name, or "anon". */
  actor: string;
  method: string;
  path: string;
  body?: unknown;
  /** Extra request headers (placeholders filled); they override the actor's Authorization. */
  headers?: Record<string, string>;
  status: number;
  /** The error body's code; required for a status of 400 and up. */
  code?: number;
  /** Substrings the answer's raw text must contain / must not contain. */
  contains?: string[];
  notContains?: string[];
  /** Domain event type -> how many the request published; "*": 0 means nothing else. */
  events?: Record<string, number>;
  /** The world to seed (default BASIC_WORLD) and the server's configuration. */
  world?: object;
  config?: Partial<Config>;
  /** Before the request (and before events are counted): state the row needs; may answer placeholder values. */
  setup?(ctx: ScenarioContext): void | Record<string, string> | Promise<void | Record<string, string>>;
  /** After the request's checks: anything the table cannot say. */
  after?(ctx: ScenarioContext & { res: TestResponse }): void | Promise<void>;
}

const PEOPLE = "/api/client/v1";

/** The absolute path a row's request goes to. */
function absolute(path: string, actorKind: "bot" | "person" | "anon"): string {
  if (path.startsWith("/api/")) return path;
  return actorKind === "person" ? `${PEOPLE}${path}` : `/api/v10${path}`;
}

function actorKind(w: SeedAnswer, actor: string): "bot" | "person" | "anon" {
  if (actor === "anon") return "anon";
  if (w.applications[actor]) return "bot";
  if (w.users[actor]) return "person";
  throw new Error(`scenario actor "${actor}" is neither an application, a person nor "anon"`);
}

function oneOf<T>(what: string, name: string, found: T[]): T {
  if (found.length === 1) return found[0];
  throw new Error(`placeholder {${what}:${name}}: ${found.length ? "ambiguous, name the guild (Guild/name)" : "no such name in the seed"}`);
}

/** The snowflake a placeholder names. */
function flakeOf(w: SeedAnswer, kind: string, name: string): string {
  const inGuilds = (key: "channels" | "roles") => {
    const [g, n] = name.includes("/") ? name.split("/", 2) : [null, name];
    const guilds = Object.entries(w.guilds).filter(([gn]) => g === null || gn === g);
    return oneOf(
      kind,
      name,
      guilds.flatMap(([, gv]) => (n in gv[key] ? [gv[key][n]] : [])),
    );
  };
  switch (kind) {
    case "guild":
      return oneOf(kind, name, w.guilds[name] ? [w.guilds[name].id] : []);
    case "channel":
      return inGuilds("channels");
    case "role":
      return inGuilds("roles");
    case "user":
      return oneOf(kind, name, w.users[name] ? [w.users[name].id] : []);
    case "app":
      return oneOf(kind, name, w.applications[name] ? [w.applications[name].id] : []);
    case "bot":
      return oneOf(kind, name, w.applications[name] ? [w.applications[name].bot_user_id] : []);
  }
  throw new Error(`unknown placeholder kind "${kind}" in {${kind}:${name}}`);
}

function filler(p: Parley, w: SeedAnswer, vars: Record<string, string>) {
  return (s: string, api: "bot" | "people" = "bot"): string =>
    s.replace(
      /\{([a-z]+:)?([a-z]+):([^{}]+)\}|\{(\w+)\}/g,
      (all, force: string | undefined, kind: string, name: string, v: string | undefined) => {
        if (v !== undefined) {
          if (!(v in vars)) throw new Error(`placeholder {${v}}: setup() answered no such value`);
          return vars[v];
        }
        if (kind === "token") {
          const t = w.applications[name]?.token ?? w.users[name]?.token;
          if (!t) throw new Error(`placeholder {token:${name}}: no such application or person`);
          return t;
        }
        const form = force ? force.slice(0, -1) : api === "people" ? "internal" : "snowflake";
        if (form !== "snowflake" && form !== "internal") throw new Error(`placeholder ${all}: say snowflake: or internal:`);
        const flake = flakeOf(w, kind, name);
        return form === "snowflake" ? flake : p.api.flakes.uuid(flake)!;
      },
    );
}

function fillDeep(v: unknown, fill: (s: string) => string): unknown {
  if (typeof v === "string") return fill(v);
  if (Array.isArray(v)) return v.map((x) => fillDeep(x, fill));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillDeep(x, fill)]));
  return v;
}

/** Run one row on a fresh Parley and check everything it states. */
export async function runScenario(s: Scenario): Promise<TestResponse> {
  if (s.status >= 400 && s.code === undefined) throw new Error(`scenario "${s.name}": a ${s.status} must name its error code`);
  if (s.events && "*" in s.events && s.events["*"] !== 0) throw new Error(`scenario "${s.name}": "*" can only be 0 (nothing else)`);
  const p = makeParley(s.config);
  try {
    const w = p.seed(structuredClone(s.world ?? BASIC_WORLD));
    const vars: Record<string, string> = {};
    const ctx: ScenarioContext = { p, w, fill: filler(p, w, vars) };
    Object.assign(vars, (await s.setup?.(ctx)) ?? {});

    const kind = actorKind(w, s.actor);
    const path = absolute(s.path, kind);
    const fill = (x: string) => ctx.fill(x, path.startsWith(PEOPLE) ? "people" : "bot");
    const headers: Record<string, string> = {};
    if (kind === "bot") headers.Authorization = `Bot ${w.applications[s.actor].token}`;
    if (kind === "person") headers.Authorization = `Session ${w.users[s.actor].token}`;
    for (const [k, v] of Object.entries(s.headers ?? {})) headers[k] = fill(v);

    const ev = recordEvents(p);
    const res = await call(p, s.method, fill(path), { headers, body: s.body === undefined ? undefined : fillDeep(s.body, fill) });
    ev.stop();

    const where = `${s.method} ${s.path} as ${s.actor}`;
    if (s.code === undefined) expect({ where, status: res.status }).toEqual({ where, status: s.status });
    else expect({ where, status: res.status, code: res.body?.code }).toEqual({ where, status: s.status, code: s.code });
    for (const c of s.contains ?? []) expect(res.text).toContain(c);
    for (const c of s.notContains ?? []) expect(res.text).not.toContain(c);
    if (s.events) {
      const counts: Record<string, number> = {};
      for (const e of ev.all) counts[e.type] = (counts[e.type] ?? 0) + 1;
      const want = Object.fromEntries(Object.entries(s.events).filter(([t]) => t !== "*"));
      const got = Object.fromEntries(Object.keys(want).map((t) => [t, counts[t] ?? 0]));
      if ("*" in s.events) for (const t of Object.keys(counts)) if (!(t in want)) got[t] = counts[t];
      expect(got).toEqual(want);
    }
    await s.after?.({ ...ctx, res });
    return res;
  } finally {
    await p.stop();
  }
}

/** Register a table: one test per row, named by the row. */
export function scenarios(title: string, rows: Scenario[], defaults: Partial<Scenario> = {}): void {
  describe(title, () => {
    for (const row of rows) {
      const s = { ...defaults, ...row } as Scenario;
      test(s.name, async () => void (await runScenario(s)));
    }
  });
}
