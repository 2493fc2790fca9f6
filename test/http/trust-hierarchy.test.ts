/**
 * The role hierarchy on every surface (security finding 3; reference-gaps 1.3): new roles
 * sit just above @everyone whoever makes them; people reorder roles below their own
 * highest one; nobody edits, assigns or removes a role at or above their own highest, or
 * acts on a member ranked at or above them; the owner is out of reach and above it all.
 */
import { describe, expect, test } from "bun:test";
import { SPEC_RATE_LIMITS } from "../../src/config";
import { call, client, internalId, makeUnlimitedParley, refusal } from "../helpers";
import { scenarios, type Scenario, type ScenarioContext } from "../scenarios";

describe("the issue's story: the owner makes Admin, then Moderator", () => {
  test("Moderator cannot give itself Admin, move Moderator above Admin or kick admins, on either API", async () => {
    const p = makeUnlimitedParley();
    try {
      const w = p.seed({
        users: [{ name: "alice" }, { name: "bob" }, { name: "dave" }],
        guilds: [{ name: "Lab", owner: "alice", members: ["bob", "dave"], channels: [{ name: "general" }] }],
        applications: [{ name: "ModBot", owner: "alice", intents: ["GUILDS"], install: ["Lab"] }],
      });
      const [alice, bob] = [w.users.alice.token, w.users.bob.token];
      const lab = internalId(p, w.guilds.Lab.id);
      const [bobId, daveId, botId] = [w.users.bob.id, w.users.dave.id, w.applications.ModBot.bot_user_id].map((f) => internalId(p, f));

      const admin = await client(p, "POST", `/guilds/${lab}/roles`, alice, { name: "Admin", permissions: ["ADMINISTRATOR"] });
      const moderator = await client(p, "POST", `/guilds/${lab}/roles`, alice, {
        name: "Moderator",
        permissions: ["MANAGE_ROLES", "KICK_MEMBERS"],
      });
      expect([admin.status, moderator.status]).toEqual([200, 200]);
      // Each new role lands just above @everyone: Moderator (newer) below Admin.
      const positions = () => Object.fromEntries(p.core.guilds.roles(lab).map((r) => [r.name, r.position]));
      expect(positions()).toEqual({ "@everyone": 0, Moderator: 1, Admin: 2 });
      for (const [who, role] of [
        [daveId, admin],
        [bobId, moderator],
        [botId, moderator],
      ] as const)
        expect((await client(p, "PUT", `/guilds/${lab}/members/${who}/roles/${role.body.id}`, alice)).status).toBe(204);

      // As a person, through the people's API.
      expect(refusal(await client(p, "PUT", `/guilds/${lab}/members/${bobId}/roles/${admin.body.id}`, bob))).toEqual([403, 50001]);
      for (const position of [2, 3])
        expect(refusal(await client(p, "PATCH", `/guilds/${lab}/roles`, bob, [{ id: moderator.body.id, position }]))).toEqual([403, 50001]);
      expect(refusal(await client(p, "PATCH", `/guilds/${lab}/roles/${admin.body.id}`, bob, { name: "Ex-admin" }))).toEqual([403, 50001]);
      expect(refusal(await client(p, "DELETE", `/guilds/${lab}/members/${daveId}`, bob))).toEqual([403, 50001]);

      // As a bot, through the bot API.
      const token = w.applications.ModBot.token;
      const [g, adminFlake, modFlake] = [w.guilds.Lab.id, p.api.flakes.of(admin.body.id), p.api.flakes.of(moderator.body.id)];
      expect(
        refusal(await call(p, "PUT", `/guilds/${g}/members/${w.applications.ModBot.bot_user_id}/roles/${adminFlake}`, { token })),
      ).toEqual([403, 50001]);
      expect(refusal(await call(p, "PATCH", `/guilds/${g}/roles`, { token, body: [{ id: modFlake, position: 2 }] }))).toEqual([403, 50001]);
      expect(refusal(await call(p, "DELETE", `/guilds/${g}/members/${w.users.dave.id}`, { token }))).toEqual([403, 50001]);

      expect(positions()).toEqual({ "@everyone": 0, Moderator: 1, Admin: 2 });
      expect(p.core.guilds.memberRoleIds(lab, bobId)).toEqual([moderator.body.id]);
      expect(p.core.guilds.memberRoleIds(lab, botId)).toEqual([moderator.body.id]);
      expect(p.core.guilds.isMember(lab, daveId)).toBe(true);

      // The owner may put Moderator above Admin; then (and only then) the kick is allowed.
      const moved = await client(p, "PATCH", `/guilds/${lab}/roles`, alice, [{ id: moderator.body.id, position: 2 }]);
      expect(moved.status).toBe(200);
      expect(moved.body.map((r: { name: string; position: number }) => [r.name, r.position])).toEqual([
        ["@everyone", 0],
        ["Admin", 1],
        ["Moderator", 2],
      ]);
      expect((await client(p, "DELETE", `/guilds/${lab}/members/${daveId}`, bob)).status).toBe(204);
    } finally {
      await p.stop();
    }
  });
});

/** Bottom to top: Low, Low2, Mod (bob, erin, ModBot), High (dave, an administrator). */
const HIERARCHY_WORLD = {
  users: [{ name: "alice" }, { name: "bob" }, { name: "carol" }, { name: "dave" }, { name: "erin" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", "carol", "dave", "erin"],
      roles: [
        { name: "Low", permissions: [], members: ["carol"] },
        { name: "Low2", permissions: [] },
        { name: "Mod", permissions: ["MANAGE_ROLES", "KICK_MEMBERS", "BAN_MEMBERS"], members: ["bob", "erin", "ModBot"] },
        { name: "High", permissions: ["ADMINISTRATOR"], members: ["dave"] },
      ],
      channels: [{ name: "general" }],
    },
  ],
  applications: [{ name: "ModBot", owner: "alice", intents: ["GUILDS"], install: ["Lab"] }],
};

const positions = ({ p, fill }: ScenarioContext) =>
  Object.fromEntries(p.core.guilds.roles(fill("{internal:guild:Lab}")).map((r) => [r.name, r.position]));
const START = { "@everyone": 0, Low: 1, Low2: 2, Mod: 3, High: 4 };
const unmoved = ({ p, fill, ...rest }: ScenarioContext) => expect(positions({ p, fill, ...rest })).toEqual(START);
const rolesOf = (ctx: ScenarioContext, user: string) =>
  ctx.p.core.guilds
    .memberRoleIds(ctx.fill("{internal:guild:Lab}"), ctx.fill(`{internal:user:${user}}`))
    .map((id) => ctx.p.core.guilds.role(ctx.fill("{internal:guild:Lab}"), id)!.name);

/** A refusal: 403 50001 and not one event. */
const no = (row: Omit<Scenario, "status" | "code" | "events">): Scenario => ({ ...row, status: 403, code: 50001, events: { "*": 0 } });

const table = { world: HIERARCHY_WORLD, config: { rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } } };

scenarios(
  "role hierarchy through the people's API",
  [
    no({
      name: "no moving one's own highest role up",
      actor: "bob",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles",
      body: [{ id: "{role:Mod}", position: 4 }],
      after: unmoved,
    }),
    no({
      name: "no moving a lower role up to one's own",
      actor: "bob",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles",
      body: [{ id: "{role:Low}", position: 3 }],
      after: unmoved,
    }),
    no({
      name: "no moving a higher role down",
      actor: "bob",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles",
      body: [{ id: "{role:High}", position: 1 }],
      after: unmoved,
    }),
    {
      name: "reordering below one's highest role: one role.updated per moved role",
      actor: "bob",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles",
      body: [{ id: "{role:Low}", position: 2 }],
      status: 200,
      events: { "role.updated": 2, "*": 0 },
      after: (ctx) => expect(positions(ctx)).toEqual({ ...START, Low: 2, Low2: 1 }),
    },
    no({
      name: "no editing a role above one's highest",
      actor: "bob",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles/{role:High}",
      body: { name: "Mine" },
    }),
    no({
      name: "no editing one's own highest role",
      actor: "bob",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles/{role:Mod}",
      body: { permissions: [] },
    }),
    {
      name: "editing a role below one's highest",
      actor: "bob",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles/{role:Low}",
      body: { name: "Lowest", permissions: ["KICK_MEMBERS"] },
      status: 200,
      events: { "role.updated": 1, "*": 0 },
      after: ({ res }) => expect(res.body).toMatchObject({ name: "Lowest", permissions: "2", position: 1 }),
    },
    no({
      name: "no granting a bit one lacks by editing",
      actor: "bob",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles/{role:Low}",
      body: { permissions: ["ADMINISTRATOR"] },
    }),
    no({ name: "no deleting a role above one's highest", actor: "bob", method: "DELETE", path: "/guilds/{guild:Lab}/roles/{role:High}" }),
    {
      name: "deleting a role below one's highest",
      actor: "bob",
      method: "DELETE",
      path: "/guilds/{guild:Lab}/roles/{role:Low}",
      status: 204,
      events: { "role.deleted": 1, "*": 0 },
    },
    no({
      name: "no giving oneself a higher role",
      actor: "bob",
      method: "PUT",
      path: "/guilds/{guild:Lab}/members/{user:bob}/roles/{role:High}",
      after: (c) => expect(rolesOf(c, "bob")).toEqual(["Mod"]),
    }),
    no({
      name: "no giving a peer one's own role",
      actor: "bob",
      method: "PUT",
      path: "/guilds/{guild:Lab}/members/{user:carol}/roles/{role:Mod}",
    }),
    no({
      name: "no taking a role from a member ranked above",
      actor: "bob",
      method: "DELETE",
      path: "/guilds/{guild:Lab}/members/{user:dave}/roles/{role:High}",
    }),
    no({
      name: "no giving even a low role to a member ranked above",
      actor: "bob",
      method: "PUT",
      path: "/guilds/{guild:Lab}/members/{user:dave}/roles/{role:Low}",
      after: (c) => expect(rolesOf(c, "dave")).toEqual(["High"]),
    }),
    no({
      name: "no giving a role to a member ranked the same",
      actor: "bob",
      method: "PUT",
      path: "/guilds/{guild:Lab}/members/{user:erin}/roles/{role:Low}",
    }),
    {
      name: "giving a lower member a lower role",
      actor: "bob",
      method: "PUT",
      path: "/guilds/{guild:Lab}/members/{user:carol}/roles/{role:Low2}",
      status: 204,
      events: { "member.updated": 1, "*": 0 },
    },
    {
      name: "giving oneself a lower role",
      actor: "bob",
      method: "PUT",
      path: "/guilds/{guild:Lab}/members/{user:bob}/roles/{role:Low}",
      status: 204,
      events: { "member.updated": 1, "*": 0 },
    },
    no({ name: "no kicking a member ranked above", actor: "bob", method: "DELETE", path: "/guilds/{guild:Lab}/members/{user:dave}" }),
    no({ name: "no kicking a member ranked the same", actor: "bob", method: "DELETE", path: "/guilds/{guild:Lab}/members/{user:erin}" }),
    no({ name: "no banning a member ranked above", actor: "bob", method: "PUT", path: "/guilds/{guild:Lab}/bans/{user:dave}", body: {} }),
    no({ name: "the owner is out of reach", actor: "dave", method: "DELETE", path: "/guilds/{guild:Lab}/members/{user:alice}" }),
    {
      name: "kicking a member ranked below",
      actor: "bob",
      method: "DELETE",
      path: "/guilds/{guild:Lab}/members/{user:carol}",
      status: 204,
      events: { "member.removed": 1, "*": 0 },
    },
    {
      name: "the owner reorders anything",
      actor: "alice",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles",
      body: [{ id: "{role:Low}", position: 4 }],
      status: 200,
      events: { "role.updated": 4, "*": 0 },
      after: (ctx) => expect(positions(ctx)).toEqual({ "@everyone": 0, Low2: 1, Mod: 2, High: 3, Low: 4 }),
    },
    {
      name: "a new role is made just above @everyone; the others move up one",
      actor: "bob",
      method: "POST",
      path: "/guilds/{guild:Lab}/roles",
      body: { name: "Newest", permissions: ["KICK_MEMBERS"] },
      status: 200,
      events: { "role.created": 1, "role.updated": 4, "*": 0 },
      after: (ctx) => {
        expect(ctx.res.body.position).toBe(1);
        expect(positions(ctx)).toEqual({ "@everyone": 0, Newest: 1, Low: 2, Low2: 3, Mod: 4, High: 5 });
      },
    },
  ],
  table,
);

scenarios(
  "role hierarchy through the bot API",
  [
    no({
      name: "no giving itself a higher role",
      actor: "ModBot",
      method: "PUT",
      path: "/guilds/{guild:Lab}/members/{bot:ModBot}/roles/{role:High}",
    }),
    no({
      name: "no moving its own role up",
      actor: "ModBot",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/roles",
      body: [{ id: "{role:Mod}", position: 4 }],
      after: unmoved,
    }),
    no({
      name: "no nickname for a member ranked above",
      actor: "ModBot",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/members/{user:dave}",
      body: { nick: "demoted" },
    }),
    no({
      name: "no roles for a member ranked above",
      actor: "ModBot",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/members/{user:dave}",
      body: { roles: ["{role:High}", "{role:Low}"] },
    }),
    no({
      name: "no role for a member ranked the same",
      actor: "ModBot",
      method: "PUT",
      path: "/guilds/{guild:Lab}/members/{user:erin}/roles/{role:Low}",
    }),
    no({
      name: "no timeout for a member ranked above",
      actor: "ModBot",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/members/{user:dave}",
      body: { communication_disabled_until: "2099-01-01T00:00:00.000Z" },
    }),
    no({ name: "no kicking a member ranked above", actor: "ModBot", method: "DELETE", path: "/guilds/{guild:Lab}/members/{user:dave}" }),
    no({ name: "no banning the owner", actor: "ModBot", method: "PUT", path: "/guilds/{guild:Lab}/bans/{user:alice}", body: {} }),
    {
      name: "roles for a member ranked below",
      actor: "ModBot",
      method: "PATCH",
      path: "/guilds/{guild:Lab}/members/{user:carol}",
      body: { roles: ["{role:Low2}"] },
      status: 200,
      events: { "member.updated": 1, "*": 0 },
    },
    {
      name: "a new role is made just above @everyone",
      actor: "ModBot",
      method: "POST",
      path: "/guilds/{guild:Lab}/roles",
      body: { name: "Newest" },
      status: 200,
      events: { "role.created": 1, "role.updated": 4, "*": 0 },
      after: ({ res }) => expect(res.body.position).toBe(1),
    },
  ],
  table,
);
