/**
 * The harness hands a test a people's session for a seeded person (POST /users/{user}/session),
 * so it drives any people's API route as that person; and world documents take a member's
 * nickname, a role's colour, hoist and mentionable, and invites with their limits.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { client, harness, makeParley, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

const WORLD = {
  users: [{ name: "alice" }, { name: "bob" }, { name: "carol" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: [{ name: "bob", nick: "Bobby" }, "carol"],
      roles: [{ name: "Mods", color: 0x3366ff, hoist: true, mentionable: true, members: ["bob"] }],
      channels: [{ name: "general" }, { name: "random" }],
      invites: [
        { max_age: 3600, max_uses: 5 },
        { channel: "random", creator: "bob", max_age: 0 },
      ],
    },
  ],
};

let p: Parley;
let w: SeedAnswer;
const id = (flake: string) => p.api.flakes.uuid(flake)!;

beforeEach(async () => {
  p = makeParley();
  const r = await harness(p, "POST", "/seed", WORLD);
  expect(r.status).toBe(200);
  w = r.body;
});

describe("POST /users/{user}/session", () => {
  test("a token for the people's API as that person; the person's rights hold there", async () => {
    const s = await harness(p, "POST", "/users/carol/session");
    expect(s.status).toBe(200);
    expect(s.body.user_id).toBe(id(w.users.carol.id));
    const me = await client(p, "GET", "/users/@me", s.body.token);
    expect(me.body).toMatchObject({ id: id(w.users.carol.id), username: "carol" });
    // Carol holds no Manage Server: the people's API refuses her as it would in a browser.
    const refused = await client(p, "PATCH", `/guilds/${id(w.guilds.Lab.id)}`, s.body.token, { name: "Carol's" });
    expect(refused.status).toBe(403);
    // By snowflake too; each call is its own session.
    const again = await harness(p, "POST", `/users/${w.users.carol.id}/session`);
    expect(again.body.token).not.toBe(s.body.token);
  });

  test("an unknown person is 404; a bot is 400; a disabled account gets none", async () => {
    expect((await harness(p, "POST", "/users/nobody/session")).status).toBe(404);
    expect((await harness(p, "POST", "/users/123456789012345678/session")).status).toBe(404);
    p.core.accounts.setDisabled(null, id(w.users.bob.id), true);
    expect(refusal(await harness(p, "POST", "/users/bob/session"))[0]).toBe(403);
  });
});

describe("world documents", () => {
  test("a member's nickname, a role's colour, hoist and mentionable, and invites with their limits", async () => {
    const lab = id(w.guilds.Lab.id);
    expect(p.core.guilds.member(lab, id(w.users.bob.id))!.nick).toBe("Bobby");
    expect(p.core.guilds.member(lab, id(w.users.carol.id))!.nick).toBeNull();
    const mods = p.core.guilds.role(lab, id(w.guilds.Lab.roles.Mods))!;
    expect([mods.color, !!mods.hoist, !!mods.mentionable]).toEqual([0x3366ff, true, true]);
    expect(w.guilds.Lab.invites).toHaveLength(2);
    const [first, second] = w.guilds.Lab.invites.map((code) => p.core.invites.get(code)!);
    expect(first).toMatchObject({
      max_age: 3600,
      max_uses: 5,
      channel_id: id(w.guilds.Lab.channels.general),
      inviter_id: id(w.users.alice.id),
    });
    expect(second).toMatchObject({ max_age: 0, max_uses: 0, channel_id: id(w.guilds.Lab.channels.random), inviter_id: id(w.users.bob.id) });
    // The invites were made by their creators (entry 40 each); a seeded nickname is no one's act.
    expect(p.core.audit.list(lab, { limit: 10 }).map((e) => e.action_type)).toEqual([40, 40]);
  });

  test("a bad nickname, an unknown invite channel or creator, or limits out of range: 400 naming the field, nothing seeded", async () => {
    const bad = [
      { members: [{ name: "bob", nick: "n".repeat(33) }] },
      { members: [{ name: "bob", nick: "" }] },
      { invites: [{ channel: "nowhere" }] },
      { invites: [{ creator: "nobody" }] },
      { invites: [{ max_uses: 101 }] },
      { invites: [{ max_age: -1 }] },
    ];
    for (const extra of bad) {
      const fresh = makeParley();
      const doc = { users: WORLD.users, guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }], ...extra }] };
      const r = await harness(fresh, "POST", "/seed", doc);
      expect([r.status, r.body?.code]).toEqual([400, 50035]);
      expect(fresh.core.guilds.all()).toEqual([]);
    }
  });
});
