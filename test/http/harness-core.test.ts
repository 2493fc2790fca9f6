import { describe, expect, test, beforeEach } from "bun:test";
import { call, harness, makeParley, recordEvents, rowCounts, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import { BASIC_WORLD } from "../helpers";

let p: Parley;
const TABLES = [
  "users",
  "guilds",
  "roles",
  "members",
  "member_roles",
  "channels",
  "overwrites",
  "applications",
  "person_sessions",
  "snowflakes",
];

beforeEach(() => {
  p = makeParley();
});

describe("POST /seed", () => {
  test("answers the ids and secrets of everything created, as the contract shows", async () => {
    const r = await harness(p, "POST", "/seed", BASIC_WORLD);
    expect(r.status).toBe(200);
    const w = r.body;
    expect(Object.keys(w).sort()).toEqual(["applications", "guilds", "users"]);
    expect(w.users.alice).toEqual({ id: expect.stringMatching(/^[0-9]{17,20}$/), token: expect.stringMatching(/^ps_/) });
    expect(Object.keys(w.guilds.Lab.channels)).toEqual(["general", "staff"]);
    expect(Object.keys(w.guilds.Lab.roles).sort()).toEqual(["@everyone", "Mod"]);
    expect(w.guilds.Lab.roles["@everyone"]).toBe(w.guilds.Lab.id);
    expect(w.applications.EchoBot).toEqual({
      id: expect.stringMatching(/^[0-9]{17,20}$/),
      bot_user_id: expect.stringMatching(/^[0-9]{17,20}$/),
      token: expect.any(String),
      public_key: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // the bot token works, with the approved privileged intent baked in
    const me = await call(p, "GET", "/users/@me", { token: w.applications.EchoBot.token });
    expect(me.body.id).toBe(w.applications.EchoBot.bot_user_id);
    // the people's token works on the people's API
    const person = await call(p, "GET", "/api/client/v1/users/@me", { headers: { Authorization: `Session ${w.users.bob.token}` } });
    expect(person.body.username).toBe("bob");
  });

  test("@everyone defaults to SEND_MESSAGES, CREATE_INSTANT_INVITE and ATTACH_FILES; a seed may set it", async () => {
    const r = await harness(p, "POST", "/seed", {
      users: [{ name: "al" }],
      guilds: [
        { name: "Plain", owner: "al" },
        { name: "Strict", owner: "al", roles: [{ name: "@everyone", permissions: ["SEND_MESSAGES"] }] },
      ],
    });
    const plain = p.core.guilds.role(p.api.flakes.uuid(r.body.guilds.Plain.id)!, p.api.flakes.uuid(r.body.guilds.Plain.id)!)!;
    expect(plain.permissions).toBe((1 << 11) | (1 << 0) | (1 << 15));
    const strict = p.api.flakes.uuid(r.body.guilds.Strict.id)!;
    expect(p.core.guilds.role(strict, strict)!.permissions).toBe(1 << 11);
    expect(Object.keys(r.body.guilds.Plain.channels)).toEqual(["general"]);
  });

  test("role members may name applications (their bot users); privileged intents need approved_privileged", async () => {
    const r = await harness(p, "POST", "/seed", {
      users: [{ name: "al" }],
      guilds: [{ name: "G1", owner: "al", roles: [{ name: "Bots", permissions: "8", members: ["Bot1"] }] }],
      applications: [
        {
          name: "Bot1",
          owner: "al",
          intents: ["GUILDS", "MESSAGE_CONTENT", "GUILD_MEMBERS"],
          approved_privileged: ["GUILD_MEMBERS"],
          install: ["G1"],
        },
      ],
    });
    expect(r.status).toBe(200);
    const app = p.core.apps.get(p.api.flakes.uuid(r.body.applications.Bot1.id)!)!;
    expect(app.token_intents).toBe(1 | 2);
    const g = p.api.flakes.uuid(r.body.guilds.G1.id)!;
    expect(p.core.guilds.memberRoleIds(g, app.bot_user_id)).toEqual([p.api.flakes.uuid(r.body.guilds.G1.roles.Bots)!]);
  });

  test("an invalid world is refused whole: 400 50035 naming the path, nothing created", async () => {
    const before = rowCounts(p, TABLES);
    const cases: [unknown, string][] = [
      [{ users: [{ name: "al" }], guilds: [{ name: "Gx", owner: "nobody" }] }, "guilds[0].owner"],
      [{ users: [{ name: "al" }, { name: "Bad Name" }] }, "users[1].name"],
      [{ users: [{ name: "al" }, { name: "AL" }] }, "users[1].name"],
      [
        { users: [{ name: "al" }], guilds: [{ name: "Gx", owner: "al", roles: [{ name: "R", permissions: ["FLY"] }] }] },
        "guilds[0].roles[0].permissions[0]",
      ],
      [{ users: [{ name: "al" }], applications: [{ name: "A1", owner: "al", intents: ["NOPE"] }] }, "applications[0].intents[0]"],
      [{ users: [{ name: "al" }], applications: [{ name: "A1", owner: "al", install: ["Nowhere"] }] }, "applications[0].install[0]"],
      [
        {
          users: [{ name: "al" }],
          guilds: [{ name: "Gx", owner: "al", channels: [{ name: "c", overwrites: [{ role: "Ghost", deny: [] }] }] }],
        },
        "guilds[0].channels[0].overwrites[0].role",
      ],
      [{ users: "no" }, "users"],
      // A misspelt section would otherwise seed nothing of it, and say nothing.
      [{ users: [{ name: "al" }], guild: [{ name: "Gx", owner: "al" }] }, "guild"],
    ];
    for (const [doc, path] of cases) {
      const r = await harness(p, "POST", "/seed", doc);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
      expect(r.body.message).toContain(`(${path}:`);
    }
    const bad = await call(p, "POST", "/api/harness/v1/seed", { rawBody: "{nope", headers: { "Content-Type": "application/json" } });
    expect(refusal(bad)).toEqual([400, 50035]);
    expect(rowCounts(p, TABLES)).toEqual(before);
  });

  test("seeding an existing name again is refused with the path, and the first world stays", async () => {
    await harness(p, "POST", "/seed", { users: [{ name: "al" }] });
    const before = rowCounts(p, TABLES);
    const r = await harness(p, "POST", "/seed", { users: [{ name: "bo" }, { name: "al" }] });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.message).toContain("users[1].name");
    expect(rowCounts(p, TABLES)).toEqual(before);
  });
});

describe("POST /reset", () => {
  test("204; the world is empty and the clock is real again", async () => {
    await harness(p, "POST", "/seed", BASIC_WORLD);
    await harness(p, "POST", "/clock", { set: "2030-01-01T00:00:00.000Z" });
    const ev = recordEvents(p);
    const r = await harness(p, "POST", "/reset");
    expect(r.status).toBe(204);
    expect(ev.count("world.reset")).toBe(1);
    expect(Object.values(rowCounts(p, TABLES)).every((n) => n === 0)).toBe(true);
    expect(p.clock.virtual).toBe(false);
    // the same world can be seeded again
    expect((await harness(p, "POST", "/seed", BASIC_WORLD)).status).toBe(200);
  });
});

describe("POST /clock", () => {
  test("advance_ms switches to virtual time and fires due timers in order", async () => {
    const fired: string[] = [];
    const start = p.clock.now();
    p.clock.setTimeout(() => fired.push("c@3000"), 3000);
    p.clock.setTimeout(() => fired.push("a@1000"), 1000);
    p.clock.setTimeout(() => {
      fired.push("b@2000");
      p.clock.setTimeout(() => fired.push("d@2500 (set by b)"), 500);
    }, 2000);
    p.clock.setTimeout(() => fired.push("late@10000"), 10_000);
    const r = await harness(p, "POST", "/clock", { advance_ms: 3000 });
    expect(r.status).toBe(200);
    expect(p.clock.virtual).toBe(true);
    expect(fired).toEqual(["a@1000", "b@2000", "d@2500 (set by b)", "c@3000"]);
    expect(Date.parse(r.body.now)).toBeGreaterThanOrEqual(start + 3000);
    expect(r.body.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // time stands still until told
    const again = await harness(p, "POST", "/clock", { advance_ms: 0 });
    expect(again.body.now).toBe(r.body.now);
  });

  test("set jumps to an instant, firing what falls due on the way", async () => {
    const fired: number[] = [];
    p.clock.advance(0);
    const t0 = p.clock.now();
    p.clock.setTimeout(() => fired.push(1), 60_000);
    const target = new Date(t0 + 3_600_000).toISOString();
    const r = await harness(p, "POST", "/clock", { set: target });
    expect(r.body).toEqual({ now: target });
    expect(fired).toEqual([1]);
    expect(p.clock.now()).toBe(t0 + 3_600_000);
  });

  test("bad bodies are 400 50035", async () => {
    for (const body of [{}, { advance_ms: -1 }, { advance_ms: "5" }, { set: "tomorrow" }, { advance_ms: 1, set: "2030-01-01T00:00:00Z" }]) {
      const r = await harness(p, "POST", "/clock", body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
    expect(p.clock.virtual).toBe(false);
  });

  test("a bad body names the field and what is wrong with it, not only 'not one of the accepted choices'", async () => {
    const said = async (body: unknown) => {
      const r = await harness(p, "POST", "/clock", body);
      expect(r.status).toBe(400);
      return r.body.message;
    };
    expect(await said({ advance_ms: -5 })).toBe("Invalid Form Body (advance_ms: int value should be greater than or equal to 0.)");
    expect(await said({ advance_ms: "5" })).toBe('Invalid Form Body (advance_ms: Value "5" is not a number.)');
    expect(await said({ set: 5 })).toBe("Invalid Form Body (set: Could not interpret the value as string.)");
    expect(await said({ advance_ms: 5, zombie: "yes" })).toBe("Invalid Form Body (zombie: Must be either true or false.)");
    expect(await said({})).toBe("Invalid Form Body (Give one of: advance_ms, set)");
    expect(await said({ advance_ms: 1, set: "2030-01-01T00:00:00Z" })).toBe("Invalid Form Body (Give one of: advance_ms, set)");
  });

  test("an instant before 2025, where ids and snowflakes start, is refused and the clock stays as it was", async () => {
    for (const set of ["1960-01-01T00:00:00Z", "2024-12-31T23:59:59.999Z"]) {
      const r = await harness(p, "POST", "/clock", { set });
      expect(refusal(r)).toEqual([400, 50035]);
      expect(r.body.message).toBe("Invalid Form Body (set: Must be 2025-01-01T00:00:00Z or later: ids and snowflakes count from there)");
    }
    expect(p.clock.virtual).toBe(false);
    expect((await harness(p, "POST", "/clock", { set: "2025-01-01T00:00:00Z" })).body.now).toBe("2025-01-01T00:00:00.000Z");
  });
});

describe("POST /applications/{id}/rotate", () => {
  test("200 {token}; the old token stops working at once", async () => {
    const w = (await harness(p, "POST", "/seed", BASIC_WORLD)).body;
    const old = w.applications.EchoBot.token;
    const r = await harness(p, "POST", `/applications/${w.applications.EchoBot.id}/rotate`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["token"]);
    expect(refusal(await call(p, "GET", "/users/@me", { token: old }))).toEqual([401, 0]);
    expect((await call(p, "GET", "/users/@me", { token: r.body.token })).status).toBe(200);
    const unknown = await harness(p, "POST", "/applications/12345678901234567/rotate");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(10003);
  });
});

describe("GET /commits", () => {
  test("a single node on SQLite has no other node's commits to hear: both numbers null", async () => {
    expect((await harness(p, "POST", "/seed", BASIC_WORLD)).status).toBe(200);
    const r = await harness(p, "GET", "/commits");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ newest: null, heard: null });
  });
});

describe("POST /faults", () => {
  test("a rest or latency fault for a route no bot API route serves is refused: it could never fire", async () => {
    expect((await harness(p, "POST", "/seed", BASIC_WORLD)).status).toBe(200);
    const arm = async (body: Record<string, unknown>) => {
      const r = await harness(p, "POST", "/faults", body);
      return r.status === 200 ? 200 : [r.status, r.body.code, Object.keys(r.body.errors ?? {})];
    };
    // "channel" for "channels": armed, it would wait forever and the test's retry would never be exercised.
    expect(await arm({ kind: "rest", route: "/channel/{channel_id}/messages", status: 500 })).toEqual([400, 50035, ["route"]]);
    expect(await arm({ kind: "latency", route: "/channels/{channel_id}/mesages", ms: 10 })).toEqual([400, 50035, ["route"]]);
    expect(await arm({ kind: "rest", path: "/channels/123/nothing", status: 500 })).toEqual([400, 50035, ["path"]]);
    expect(await arm({ kind: "rest", route: "/channels/{channel_id}/messages", method: "PUT", status: 500 })).toEqual([
      400,
      50035,
      ["method"],
    ]);
    // What the docs show is armed: templates, /api/v10 leading, concrete ids and paths, any method.
    expect(await arm({ kind: "rest", route: "/api/v10/channels/{id}/messages", method: "POST", status: 500 })).toBe(200);
    expect(await arm({ kind: "rest", route: "/channels/123456789012345678/messages", status: 429 })).toBe(200);
    expect(await arm({ kind: "rest", path: "/channels/1/messages/2/reactions/%F0%9F%91%8D/@me", status: 500 })).toBe(200);
    expect(await arm({ kind: "latency", route: "/guilds/{guild_id}", ms: 10 })).toBe(200);
    expect(await arm({ kind: "latency", ms: 10 })).toBe(200);
    expect((await harness(p, "GET", "/faults")).body).toHaveLength(5);
  });
});
