/**
 * Tests drive the router production uses: every declared route, asked in-process
 * (`parley.handle`, the Elysia app) and over a real socket (the listening server, where
 * Bun's native router matches the bot API first), answers alike: status, headers (but
 * the transport's own) and body. Also the spellings where the two routers could part:
 * "%40me" and "@me", a trailing slash, HEAD, a method a path lacks, the 501 fallback and
 * a path nothing declares. Requests that could change the world are sent so that they
 * do not (no credential, or ids that name nothing), so each pair sees the same world.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { internalId, makeUnlimitedParley, ORIGIN, seedBasic } from "../helpers";

let p: Parley;
let w: SeedAnswer;
let base: string;
let messageFlake: string;

beforeAll(() => {
  p = makeUnlimitedParley();
  w = seedBasic(p);
  p.clock.set(Date.parse("2026-05-01T00:00:00Z"));
  const general = w.guilds.Lab.channels.general;
  messageFlake = p.api.flakes.of(p.core.messages.send(internalId(p, w.users.bob.id), internalId(p, general), { content: "hello" }).id);
  p.listen();
  base = p.api.urls.base;
});

afterAll(() => p.stop());

/** Headers the transport adds or owns: not the pipeline's to answer. */
const TRANSPORT = new Set(["date", "content-length", "connection", "keep-alive", "transfer-encoding"]);

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function seen(r: Response): Promise<Seen> {
  const headers: Record<string, string> = {};
  r.headers.forEach((v, k) => {
    if (!TRANSPORT.has(k)) headers[k] = v;
  });
  // The harness's world number counts resets and seeds: the second of two resets answers the next one.
  if (headers["x-harness-world"])
    headers["x-harness-world"] = /^\d+$/.test(headers["x-harness-world"]) ? "(a number)" : headers["x-harness-world"];
  return { status: r.status, headers, body: await r.text() };
}

/** One request both ways: in-process first, then over the socket, at the same virtual instant. */
async function both(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<[Seen, Seen]> {
  // A person's writes share one window per 10 s: each pair starts a fresh one.
  p.clock.advance(11_000);
  const init = { method, headers, body };
  const inProcess = await seen(await p.handle(new Request(`${ORIGIN}${path}`, init)));
  const served = await seen(await fetch(`${base}${path}`, init));
  return [inProcess, served];
}

/** Answers that describe the process itself (uptime, CPU, counters), so differ between any two asks. */
const VOLATILE = new Set(["GET /metrics", "GET /healthz"]);

const junkUuid = "00000000-0000-7000-8000-000000000000";

/** A value for each path parameter: the seeded world's where a read should find it, an unknown one for writes. */
function fill(prefix: string, template: string, write: boolean): string {
  const people = prefix === "/api/client/v1";
  const id = (flake: string) => (people ? internalId(p, flake) : flake);
  const known: Record<string, string> = {
    channel_id: id(w.guilds.Lab.channels.general),
    guild_id: id(w.guilds.Lab.id),
    user_id: id(w.users.bob.id),
    message_id: id(messageFlake),
    role_id: id(w.guilds.Lab.roles.Mod),
    application_id: id(w.applications.EchoBot.id),
    emoji: "%F0%9F%91%8D",
  };
  return (
    prefix +
    template.replace(/\{(\w+)\}/g, (_m, name: string) => {
      if (!write && known[name]) return known[name];
      if (name === "emoji") return known.emoji;
      return people ? junkUuid : name.endsWith("_id") ? "1" : "nothing";
    })
  );
}

describe("every declared route answers alike in-process and over the socket", () => {
  test("without a credential, and with one", async () => {
    const bot = { Authorization: `Bot ${w.applications.EchoBot.token}` };
    const person = { Authorization: `Session ${w.users.bob.token}` };
    // These end the session that asks, which the second request of the pair would then miss.
    const ending = new Set(["POST /auth/signout", "DELETE /users/@me/sessions"]);
    let pairs = 0;
    for (const { prefix, routes } of p.routes) {
      for (const r of routes) {
        const write = r.method !== "GET";
        const body = r.body ? "{}" : undefined;
        const json: Record<string, string> = body ? { "Content-Type": "application/json" } : {};
        const what = `${r.method} ${prefix}${r.path}`;
        const anonymous = await both(r.method, fill(prefix, r.path, true), json, body);
        // The process's own figures move between two asks: their status and headers must match.
        if (VOLATILE.has(what)) for (const s of anonymous) s.body = "(volatile)";
        expect({ what, anonymous: anonymous[1] }).toEqual({ what, anonymous: anonymous[0] });
        if (r.caller !== "bot" && r.caller !== "session") continue;
        if (ending.has(`${r.method} ${r.path}`)) continue;
        const cred = r.caller === "bot" ? bot : person;
        const asked = await both(r.method, fill(prefix, r.path, write), { ...cred, ...json }, body);
        expect({ what, asked: asked[1] }).toEqual({ what, asked: asked[0] });
        pairs++;
      }
    }
    expect(pairs).toBeGreaterThan(120);
  });

  test("the spellings where two routers could part", async () => {
    const bot = { Authorization: `Bot ${w.applications.EchoBot.token}` };
    const cases: [string, string][] = [
      ["GET", "/api/v10/users/@me"],
      ["GET", "/api/v10/users/%40me"],
      ["GET", "/api/v10/users/@me/"],
      ["GET", `/api/v10/guilds/${w.guilds.Lab.id}/members/%40me`],
      ["HEAD", "/api/v10/users/@me"],
      ["PUT", "/api/v10/users/@me"],
      ["GET", "/api/v10/no/such/route"],
      ["POST", "/api/v10"],
      ["GET", "/api/client/v1/users/@me"],
      ["GET", "/api/nowhere"],
      ["GET", "/healthz"],
    ];
    for (const [method, path] of cases) {
      const [inProcess, served] = await both(method, path, bot);
      expect({ method, path, served }).toEqual({ method, path, served: inProcess });
    }
  });
});
