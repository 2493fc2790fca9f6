import { describe, expect, test, beforeEach } from "bun:test";
import { call, makeParley, seedBasic, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { SPEC_RATE_LIMITS } from "../../src/config";

let p: Parley;
let w: SeedAnswer;
let token: string;
let app: string;
let guild: string;

const ping = { name: "ping", description: "Replies with pong" };

beforeEach(() => {
  p = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  w = seedBasic(p);
  token = w.applications.EchoBot.token;
  app = w.applications.EchoBot.id;
  guild = w.guilds.Lab.id;
});

const G = () => `/applications/${app}/commands`;
const L = () => `/applications/${app}/guilds/${guild}/commands`;

describe("global and guild commands", () => {
  for (const [label, base] of [
    ["global", G],
    ["guild", L],
  ] as const) {
    test(`${label}: create, list, get, patch (version increments), delete`, async () => {
      const created = await call(p, "POST", base(), { token, body: ping });
      expect(created.status).toBe(201);
      const c = created.body;
      expect(c.id).toMatch(/^[0-9]{17,20}$/);
      expect(c.application_id).toBe(app);
      expect(c.name).toBe("ping");
      expect(c.type).toBe(1);
      expect(c.version).toMatch(/^[0-9]{17,20}$/);
      expect(c.default_member_permissions).toBeNull();
      // dm_permission is a global command's only: the reference leaves it off a server's.
      if (label === "guild") expect([c.guild_id, "dm_permission" in c]).toEqual([guild, false]);
      else expect([c.guild_id, c.dm_permission]).toEqual([undefined, true]);

      const listed = await call(p, "GET", base(), { token });
      expect(listed.status).toBe(200);
      expect(listed.body.map((x: any) => x.id)).toEqual([c.id]);
      expect((await call(p, "GET", `${base()}/${c.id}`, { token })).body).toEqual(c);

      const patched = await call(p, "PATCH", `${base()}/${c.id}`, { token, body: { description: "Pong!" } });
      expect(patched.status).toBe(200);
      expect(patched.body.description).toBe("Pong!");
      expect(patched.body.name).toBe("ping");
      expect(BigInt(patched.body.version)).toBeGreaterThan(BigInt(c.version));

      expect((await call(p, "DELETE", `${base()}/${c.id}`, { token })).status).toBe(204);
      expect((await call(p, "GET", `${base()}/${c.id}`, { token })).body.code).toBe(10003);
      expect((await call(p, "GET", base(), { token })).body).toEqual([]);
    });
  }

  test("global and guild scopes are separate; a command id of one scope is unknown in the other", async () => {
    const g = (await call(p, "POST", G(), { token, body: ping })).body;
    const l = (await call(p, "POST", L(), { token, body: ping })).body;
    expect(g.id).not.toBe(l.id);
    expect(refusal(await call(p, "GET", `${L()}/${g.id}`, { token }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "GET", `${G()}/${l.id}`, { token }))).toEqual([404, 10003]);
  });

  test("POST with an existing name updates it (200, same id, new version)", async () => {
    const a = (await call(p, "POST", G(), { token, body: ping })).body;
    const b = await call(p, "POST", G(), { token, body: { ...ping, description: "again" } });
    expect(b.status).toBe(200);
    expect(b.body.id).toBe(a.id);
    expect(b.body.description).toBe("again");
    expect(BigInt(b.body.version)).toBeGreaterThan(BigInt(a.version));
    expect((await call(p, "GET", G(), { token })).body).toHaveLength(1);
    // Same name, other type: a separate command.
    const user = await call(p, "POST", G(), { token, body: { name: "ping", type: 2 } });
    expect(user.status).toBe(201);
    expect((await call(p, "GET", G(), { token })).body).toHaveLength(2);
  });

  test("the same body again, by POST or PATCH, keeps the version (frameworks re-send what they find unchanged)", async () => {
    const a = (await call(p, "POST", G(), { token, body: ping })).body;
    const again = await call(p, "POST", G(), { token, body: ping });
    expect(again.status).toBe(200);
    expect(again.body.version).toBe(a.version);
    const patched = await call(p, "PATCH", `${G()}/${a.id}`, { token, body: { description: ping.description } });
    expect(patched.body.version).toBe(a.version);
    const changed = await call(p, "PATCH", `${G()}/${a.id}`, { token, body: { description: "changed" } });
    expect(BigInt(changed.body.version)).toBeGreaterThan(BigInt(a.version));
  });

  test("PATCH to a name another command has is refused", async () => {
    await call(p, "POST", G(), { token, body: ping });
    const b = (await call(p, "POST", G(), { token, body: { name: "pong", description: "x" } })).body;
    const r = await call(p, "PATCH", `${G()}/${b.id}`, { token, body: { name: "ping" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(50035);
  });

  test("options round-trip with nesting, choices, bounds, channel types and autocomplete", async () => {
    const body = {
      name: "admin",
      description: "Admin tools",
      default_member_permissions: "8",
      dm_permission: false,
      options: [
        {
          type: 2,
          name: "user",
          description: "User tools",
          options: [
            {
              type: 1,
              name: "warn",
              description: "Warn someone",
              options: [
                { type: 6, name: "target", description: "Who", required: true },
                { type: 3, name: "reason", description: "Why", min_length: 2, max_length: 50, autocomplete: true },
                { type: 4, name: "days", description: "How long", min_value: 1, max_value: 7, choices: undefined },
                { type: 7, name: "where", description: "Channel", channel_types: [0] },
                {
                  type: 10,
                  name: "level",
                  description: "Level",
                  choices: [
                    { name: "low", value: 0.5 },
                    { name: "high", value: 2 },
                  ],
                },
              ],
            },
          ],
        },
        { type: 1, name: "stats", description: "Stats" },
      ],
    };
    const r = await call(p, "POST", G(), { token, body });
    expect(r.status).toBe(201);
    expect(r.body.default_member_permissions).toBe("8");
    expect(r.body.dm_permission).toBe(false);
    const warn = r.body.options[0].options[0];
    expect(warn.options[0]).toEqual({ type: 6, name: "target", description: "Who", required: true });
    expect(warn.options[1]).toMatchObject({ min_length: 2, max_length: 50, autocomplete: true });
    expect(warn.options[2]).toMatchObject({ min_value: 1, max_value: 7 });
    expect(warn.options[3].channel_types).toEqual([0]);
    expect(warn.options[4].choices).toEqual([
      { name: "low", value: 0.5 },
      { name: "high", value: 2 },
    ]);
    // A sub-command without options is shown without the key, whether it was sent or not.
    expect(r.body.options[1]).toEqual({ type: 1, name: "stats", description: "Stats" });
    const sent = await call(p, "PUT", L(), {
      token,
      body: [
        { ...ping, options: [{ type: 2, name: "g", description: "G", options: [{ type: 1, name: "s", description: "S", options: [] }] }] },
      ],
    });
    expect(sent.body[0].options).toEqual([{ type: 2, name: "g", description: "G", options: [{ type: 1, name: "s", description: "S" }] }]);
  });
});

describe("validation names the offending path", () => {
  const cases: [string, unknown, string][] = [
    ["uppercase name", { name: "Ping", description: "x" }, "name"],
    ["name too long", { name: "a".repeat(33), description: "x" }, "name"],
    ["bad characters", { name: "hello world", description: "x" }, "name"],
    ["missing description", { name: "ping" }, "description"],
    ["description too long", { name: "ping", description: "x".repeat(101) }, "description"],
    ["option type 12", { ...ping, options: [{ type: 12, name: "a", description: "b" }] }, "options"],
    ["option missing description", { ...ping, options: [{ type: 3, name: "a" }] }, "options"],
    ["option uppercase", { ...ping, options: [{ type: 3, name: "A", description: "b" }] }, "options"],
    [
      "too many choices",
      {
        ...ping,
        options: [
          { type: 3, name: "a", description: "b", choices: Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `v${i}` })) },
        ],
      },
      "options",
    ],
    [
      "choices on a boolean",
      { ...ping, options: [{ type: 5, name: "a", description: "b", choices: [{ name: "x", value: "y" }] }] },
      "options",
    ],
    [
      "integer choice not integer",
      { ...ping, options: [{ type: 4, name: "a", description: "b", choices: [{ name: "x", value: 1.5 }] }] },
      "options",
    ],
    ["min_value on a string", { ...ping, options: [{ type: 3, name: "a", description: "b", min_value: 1 }] }, "options"],
    ["min_length on an integer", { ...ping, options: [{ type: 4, name: "a", description: "b", min_length: 1 }] }, "options"],
    ["channel_types on a string", { ...ping, options: [{ type: 3, name: "a", description: "b", channel_types: [0] }] }, "options"],
    [
      "required after optional",
      {
        ...ping,
        options: [
          { type: 3, name: "a", description: "b" },
          { type: 3, name: "c", description: "d", required: true },
        ],
      },
      "options",
    ],
    [
      "duplicate option names",
      {
        ...ping,
        options: [
          { type: 3, name: "a", description: "b" },
          { type: 4, name: "a", description: "d" },
        ],
      },
      "options",
    ],
    [
      "subcommand mixed with a value option",
      {
        ...ping,
        options: [
          { type: 1, name: "a", description: "b" },
          { type: 3, name: "c", description: "d" },
        ],
      },
      "options",
    ],
    [
      "group holding a string",
      { ...ping, options: [{ type: 2, name: "g", description: "b", options: [{ type: 3, name: "c", description: "d" }] }] },
      "options",
    ],
    [
      "subcommand holding a subcommand",
      { ...ping, options: [{ type: 1, name: "s", description: "b", options: [{ type: 1, name: "c", description: "d" }] }] },
      "options",
    ],
    ["context menu with description", { name: "Report", type: 3, description: "nope" }, "description"],
    ["bad type", { name: "ping", description: "x", type: 4 }, "type"],
    [
      "more than 25 options",
      { ...ping, options: Array.from({ length: 26 }, (_, i) => ({ type: 3, name: `o${i}`, description: "d" })) },
      "options",
    ],
  ];
  for (const [label, body, root] of cases) {
    test(label, async () => {
      const r = await call(p, "POST", G(), { token, body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
      expect(r.body.message).toContain(root);
      expect(r.body.errors).toHaveProperty(root);
      expect((await call(p, "GET", G(), { token })).body).toEqual([]);
    });
  }

  test("context menu commands (user, message) allow capitals and spaces and no description", async () => {
    const r = await call(p, "POST", G(), { token, body: { name: "Report Message", type: 3 } });
    expect(r.status).toBe(201);
    expect(r.body.description).toBe("");
  });
});

describe("the 100-command bound", () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `c${i}`, description: "d" }));

  test("a scope holds 100; the 101st POST is 400 50035 and nothing changes", async () => {
    expect((await call(p, "PUT", G(), { token, body: many(100) })).status).toBe(200);
    const r = await call(p, "POST", G(), { token, body: { name: "extra", description: "d" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(50035);
    expect(r.body.errors._errors[0].code).toBe("APPLICATION_COMMANDS_MAX");
    expect((await call(p, "GET", G(), { token })).body).toHaveLength(100);
    // Updating one of the 100 by name still works, and the guild scope is a separate 100.
    expect((await call(p, "POST", G(), { token, body: { name: "c5", description: "new" } })).status).toBe(200);
    expect((await call(p, "POST", L(), { token, body: ping })).status).toBe(201);
  });

  test("a PUT of 101 is 400 50035 and the old set stays", async () => {
    await call(p, "PUT", G(), { token, body: [ping] });
    const r = await call(p, "PUT", G(), { token, body: many(101) });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(50035);
    expect((await call(p, "GET", G(), { token })).body.map((c: any) => c.name)).toEqual(["ping"]);
  });
});

describe("bulk overwrite", () => {
  test("replaces the set in one go; names that stay keep their id", async () => {
    const first = (await call(p, "PUT", L(), { token, body: [ping, { name: "echo", description: "e" }] })).body;
    expect(first).toHaveLength(2);
    const second = await call(p, "PUT", L(), {
      token,
      body: [
        { ...ping, description: "changed" },
        { name: "new", description: "n" },
      ],
    });
    expect(second.status).toBe(200);
    expect(second.body.map((c: any) => c.name)).toEqual(["ping", "new"]);
    expect(second.body[0].id).toBe(first[0].id);
    expect(BigInt(second.body[0].version)).toBeGreaterThan(BigInt(first[0].version));
    const names = (await call(p, "GET", L(), { token })).body.map((c: any) => c.name).sort();
    expect(names).toEqual(["new", "ping"]);
  });

  test("a bad command anywhere in the array leaves the old set intact (all or nothing)", async () => {
    const old = (await call(p, "PUT", G(), { token, body: [ping] })).body;
    const r = await call(p, "PUT", G(), {
      token,
      body: [
        { name: "fine", description: "ok" },
        { name: "BAD", description: "x" },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(50035);
    expect(r.body.errors).toHaveProperty("1");
    expect((await call(p, "GET", G(), { token })).body).toEqual(old);
  });

  test("duplicate names in one PUT are refused", async () => {
    const r = await call(p, "PUT", G(), { token, body: [ping, ping] });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(50035);
  });

  test("an empty array clears the scope", async () => {
    await call(p, "PUT", G(), { token, body: [ping] });
    expect((await call(p, "PUT", G(), { token, body: [] })).body).toEqual([]);
    expect((await call(p, "GET", G(), { token })).body).toEqual([]);
  });
});

describe("who may manage which commands", () => {
  test("another application's id is 403 50001, as is a bogus id", async () => {
    const other = p.seed({ users: [{ name: "dave" }], applications: [{ name: "OtherBot", owner: "dave" }] }).applications.OtherBot.id;
    for (const id of [other, "12345678901234567", "not-a-flake"]) {
      const r = await call(p, "GET", `/applications/${id}/commands`, { token });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(50001);
      expect(refusal(await call(p, "POST", `/applications/${id}/commands`, { token, body: ping }))).toEqual([403, 50001]);
    }
  });

  test("the bot's own user id names its application, as on the reference (where the two are one id)", async () => {
    const bot = w.applications.EchoBot.bot_user_id;
    const put = await call(p, "PUT", `/applications/${bot}/guilds/${guild}/commands`, { token, body: [ping] });
    expect(put.status).toBe(200);
    expect(put.body[0].application_id).toBe(app);
    expect((await call(p, "GET", L(), { token })).body.map((c: any) => c.name)).toEqual(["ping"]);
    expect((await call(p, "POST", `/applications/${bot}/commands`, { token, body: ping })).status).toBe(201);
    const other = p.seed({ users: [{ name: "erin" }], applications: [{ name: "ThirdBot", owner: "erin" }] }).applications.ThirdBot;
    expect(refusal(await call(p, "GET", `/applications/${other.bot_user_id}/commands`, { token }))).toEqual([403, 50001]);
  });

  test("no token is 401; an unknown guild is 404 10003; a guild the bot is not in is 403 50001", async () => {
    expect(refusal(await call(p, "GET", G()))).toEqual([401, 0]);
    const unknown = await call(p, "GET", `/applications/${app}/guilds/12345678901234567/commands`, { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(10003);
    const other = p.seed({ users: [{ name: "erin" }], guilds: [{ name: "Elsewhere", owner: "erin" }] }).guilds.Elsewhere.id;
    const r = await call(p, "GET", `/applications/${app}/guilds/${other}/commands`, { token });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(50001);
  });

  test("command permissions routes answer 501 for every method", async () => {
    const c = (await call(p, "POST", G(), { token, body: ping })).body;
    const paths = [`${G()}/permissions`, `${L()}/permissions`, `${G()}/${c.id}/permissions`, `${L()}/${c.id}/permissions`];
    for (const path of paths)
      for (const method of ["GET", "PUT", "POST", "PATCH", "DELETE"]) {
        const r = await call(p, method, path, { token, body: method === "GET" || method === "DELETE" ? undefined : { permissions: [] } });
        expect(r.status).toBe(501);
        expect(r.body.code).toBe(0);
      }
  });

  test("commands of a deleted application are gone with it", async () => {
    await call(p, "PUT", G(), { token, body: [ping] });
    await call(p, "PUT", L(), { token, body: [ping] });
    expect(p.core.commands.list(p.api.flakes.uuid(app)!, null)).toHaveLength(1);
    p.core.apps.delete(p.api.flakes.uuid(app)!);
    const n = p.store.db.query("SELECT count(*) AS n FROM commands").get() as { n: number };
    expect(n.n).toBe(0);
    expect(refusal(await call(p, "GET", G(), { token }))).toEqual([401, 0]);
  });
});
