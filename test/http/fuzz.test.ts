/**
 * A seeded, reproducible fuzz of every route (bot API, people's API, harness, as Elysia
 * lists them): mutated bodies, odd path parameters and content types. No answer may be a
 * 5xx (a 501 for what Parley does not implement excepted), a non-JSON body or a stack
 * trace; afterwards the database must pass `PRAGMA integrity_check`. A failure prints its
 * seed and request; `FUZZ_SEED=<n> bun test test/http/fuzz.test.ts` replays it.
 */
import { expect, test } from "bun:test";
import { BASIC_WORLD, makeUnlimitedParley, ORIGIN } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

const SEED = Number(process.env.FUZZ_SEED ?? 20250101);
const REQUESTS = 3000;
/** The world is seeded afresh this often, so deletions do not leave later requests nothing to hit. */
const RESEED_EVERY = 150;
/** Routes that end the fuzzer's own credentials or world; each is exercised by its own tests. */
// The API reference page (/api/docs) is HTML and a script by design, not a JSON API.
const SKIP = [
  /\/harness\/v1\/reset$/,
  /\/rotate$/,
  /\/auth\/signout$/,
  /\/users\/@me\/sessions(\/:session_id)?$/,
  /\/applications\/:application_id(\/token)?$/,
  /^\/api\/docs/,
];

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype);

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEMPLATES: Record<string, unknown> = {
  messages: {
    content: "hello <@1> @everyone",
    embeds: [{ title: "t", description: "d", fields: [{ name: "a", value: "b", inline: true }], color: 255, footer: { text: "f" } }],
    components: [{ type: 1, components: [{ type: 2, style: 1, label: "x", custom_id: "c" }] }],
    message_reference: { message_id: "1", fail_if_not_exists: false },
    allowed_mentions: { parse: ["users"] },
    nonce: "n",
    tts: false,
    flags: 4,
  },
  roles: { name: "r", color: 5, permissions: "8", hoist: true, mentionable: false },
  channels: {
    name: "c",
    type: 0,
    topic: "t",
    position: 1,
    nsfw: false,
    rate_limit_per_user: 0,
    permission_overwrites: [{ id: "1", type: 0, allow: "0", deny: "0" }],
  },
  commands: {
    name: "cmd",
    description: "d",
    type: 1,
    options: [{ type: 3, name: "o", description: "d", required: true, choices: [{ name: "a", value: "b" }] }],
  },
  interactions: { type: 4, data: { content: "x", flags: 64 } },
  seed: BASIC_WORLD,
  auth: { username: "fuzzer", password: "violet tractor moonbeam" },
  members: { nick: "n", roles: ["1"], mute: false, communication_disabled_until: null },
  webhooks: { name: "hook", avatar: null, content: "x", username: "u" },
  clock: { advance_ms: 1000 },
  generic: { name: "x", reason: "r", delete_message_seconds: 0, intents: ["GUILDS"], status: "online", recipient_id: "1", type: 0 },
};

function templateFor(path: string): unknown {
  for (const key of Object.keys(TEMPLATES)) if (path.includes(key)) return TEMPLATES[key];
  if (path.includes("signin") || path.includes("signup")) return TEMPLATES.auth;
  return TEMPLATES.generic;
}

interface Ids {
  bot: Record<string, string[]>;
  client: Record<string, string[]>;
  botToken: string;
  session: string;
}

/** Longer than 80 lines because it is one table of value generators. */
function fuzzer(rand: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const nested = (depth: number, leaf: unknown): unknown =>
    depth === 0 ? leaf : rand() < 0.5 ? [nested(depth - 1, leaf)] : { k: nested(depth - 1, leaf) };
  const strings = [
    "",
    " ",
    "a\u0000b",
    "x".repeat(5000),
    "é漢字🙂",
    "<@123>",
    "@everyone",
    "\ud800",
    "${x}",
    "null",
    "../../etc/passwd",
    "%00",
    "1".repeat(25),
  ];
  const numbers = [0, -1, 1.5, 2 ** 53, -(2 ** 53), 1e308, -0, 4294967296, 0xffffff + 1, 64, 8];
  const value = (depth = 0): unknown => {
    const r = rand();
    if (r < 0.25) return pick(strings);
    if (r < 0.45) return pick(numbers);
    if (r < 0.55) return pick([true, false, null]);
    if (r < 0.62) return nested(Math.floor(rand() * 40), pick([1, "x", null]));
    if (depth > 3) return null;
    if (r < 0.8) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
    return Object.fromEntries(
      Array.from({ length: Math.floor(rand() * 4) }, () => [
        pick(["name", "type", "id", "content", "0", "__proto__", "constructor"]),
        value(depth + 1),
      ]),
    );
  };
  const mutate = (v: unknown, depth = 0): unknown => {
    if (rand() < 0.2 || depth > 6) return value();
    if (Array.isArray(v)) return rand() < 0.2 ? [...v, value()] : v.map((x) => (rand() < 0.3 ? mutate(x, depth + 1) : x));
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
      for (const k of Object.keys(out)) {
        const r = rand();
        if (r < 0.1) delete out[k];
        else if (r < 0.4) out[k] = mutate(out[k], depth + 1);
      }
      if (rand() < 0.2) out[pick(["extra", "type", "id", "name"])] = value();
      return out;
    }
    return value();
  };
  const text = (template: unknown): string => {
    const r = rand();
    if (r < 0.05) return "";
    const json = JSON.stringify(mutate(structuredClone(template))) ?? "null";
    if (r < 0.1) return json.slice(0, Math.floor(rand() * json.length)); // truncated
    if (r < 0.13) return json.replace(/\d+/, "1e999"); // Infinity once parsed
    if (r < 0.16) return json.replace(/"[^"]*"/, '"' + "9".repeat(30) + '"').replace(/:\s*"9+"/, ":" + "9".repeat(30));
    if (r < 0.18) return "\u0000\uffff{";
    if (r < 0.4) {
      // One value nested thousands deep (in text: building it as a value would overflow here).
      const n = 1000 + Math.floor(rand() * 6000);
      const spots = [...json.matchAll(/:(-?\d+(\.\d+)?|true|false|null|"[^"]*")/g)];
      if (!spots.length) return json;
      const at = pick(spots);
      return `${json.slice(0, at.index)}:${"[".repeat(n)}1${"]".repeat(n)}${json.slice(at.index! + at[0].length)}`;
    }
    return json;
  };
  const contentType = () =>
    pick([
      "application/json",
      "application/json",
      "application/json",
      "application/json; charset=utf-8",
      "text/plain",
      "multipart/form-data; boundary=x",
      "",
    ]);
  return { pick, text, contentType, rand };
}

function collectIds(p: Parley, w: SeedAnswer): Ids {
  const lab = w.guilds.Lab;
  const flake = Object.values(lab.channels);
  const users = Object.values(w.users).map((u) => u.id);
  const m = p.core.messages.create({
    channelId: p.api.flakes.uuid(lab.channels.general)!,
    authorId: p.api.flakes.uuid(w.users.alice.id)!,
    content: "target",
  });
  const bot: Record<string, string[]> = {
    channel: flake,
    guild: [lab.id],
    message: [p.api.flakes.of(m.id)],
    user: [...users, w.applications.EchoBot.bot_user_id],
    role: Object.values(lab.roles),
    application: [w.applications.EchoBot.id],
  };
  const uuid = (xs: string[]) => xs.map((x) => p.api.flakes.uuid(x) ?? x);
  const client = Object.fromEntries(Object.entries(bot).map(([k, v]) => [k, uuid(v)]));
  return { bot, client, botToken: w.applications.EchoBot.token, session: w.users.alice.token };
}

const GARBAGE = [
  "0",
  "-1",
  "abc",
  "99999999999999999999999",
  "%00",
  "..%2F..",
  "x".repeat(300),
  "@me",
  "%F0%9F%91%8D",
  "00000000-0000-7000-8000-000000000000",
];

function fillPath(path: string, ids: Ids, f: ReturnType<typeof fuzzer>): string {
  const pool = path.startsWith("/api/v10") ? ids.bot : ids.client;
  return path.replace(/:(\w+)/g, (_, name: string) => {
    if (f.rand() < 0.3) return f.pick(GARBAGE);
    if (name === "user" && path.includes("/harness/")) return f.pick(["alice", "bob", "nobody"]);
    if (name === "emoji") return f.pick(["%F0%9F%91%8D", "custom:123", "x"]);
    const key = Object.keys(pool).find((k) => name.startsWith(k) || (k === "user" && /member|target|recipient/.test(name)));
    return key ? f.pick(pool[key]) : f.pick(GARBAGE);
  });
}

function problem(status: number, type: string | null, text: string): string | null {
  if (status >= 500 && status !== 501) return `status ${status}`;
  if (text === "") return status === 204 || status === 200 ? null : "empty error body";
  if (type !== "application/json") return `content type ${type}`;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return "body is not JSON";
  }
  if (/\n\s+at\s|\.ts:\d+|SQLITE_|TypeError|RangeError/.test(text)) return "stack trace or internal error text";
  if (status >= 400 && (typeof body?.code !== "number" || typeof body?.message !== "string")) return "error body without code and message";
  return null;
}

test(`fuzz: ${REQUESTS} mutated requests across every route, seed ${SEED}`, async () => {
  const p = makeUnlimitedParley();
  p.clock.advance(0); // virtual time: the people's windows are moved past below
  const f = fuzzer(mulberry32(SEED));
  const routes = ((p.http as any).routes as { method: string; path: string }[])
    .filter((r) => r.path.startsWith("/api/") && !SKIP.some((s) => s.test(r.path)))
    .map((r) => ({ method: r.method, path: r.path }));
  expect(routes.length).toBeGreaterThan(100);
  let ids = collectIds(p, p.seed(structuredClone(BASIC_WORLD)));
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < REQUESTS && failures.length < 5; i++) {
    if (i > 0 && i % RESEED_EVERY === 0) {
      p.reset();
      p.clock.advance(0);
      ids = collectIds(p, p.seed(structuredClone(BASIC_WORLD)));
    }
    p.clock.advance(11_000);
    const route = f.pick(routes);
    const url = `${ORIGIN}${fillPath(route.path, ids, f)}`;
    const headers: Record<string, string> = {};
    if (route.path.startsWith("/api/v10")) headers.Authorization = `Bot ${ids.botToken}`;
    if (route.path.startsWith("/api/client")) headers.Authorization = `Session ${ids.session}`;
    let body: string | undefined;
    if (route.method !== "GET") {
      body = f.text(templateFor(route.path));
      const type = f.contentType();
      if (type) headers["Content-Type"] = type;
    }
    let res: Response;
    try {
      res = await p.handle(new Request(url, { method: route.method, headers, body }));
    } catch (e) {
      failures.push(`#${i} ${route.method} ${url} threw ${String(e).slice(0, 200)}`);
      continue;
    }
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const why = problem(res.status, res.headers.get("content-type"), text);
    if (why)
      failures.push(
        `#${i} ${route.method} ${url} body ${JSON.stringify(body?.slice(0, 300))}: ${why}: ${res.status} ${text.slice(0, 300)}`,
      );
  }
  if (failures.length) console.error(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED}):\n${failures.join("\n")}`);
  expect(failures).toEqual([]);
  // No body reached Object.prototype ("__proto__" keys in bodies and in error paths).
  expect(Object.getOwnPropertyNames(Object.prototype).filter((k) => !PROTOTYPE_KEYS.includes(k))).toEqual([]);
  // The mutations reached past validation, not only refusals.
  expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
  expect(p.store.db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  expect(p.store.db.query("PRAGMA foreign_key_check").all()).toEqual([]);
  await p.stop();
}, 60_000);
