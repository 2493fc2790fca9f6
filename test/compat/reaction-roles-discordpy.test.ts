/**
 * discord.py's reaction_roles example with a real discord.py 2.x bot (issue 31): the
 * example's client, its PartialEmoji map (two Unicode emoji and a server emoji keyed by
 * id) and its two handlers, pointed at Parley. Before a server could have an emoji, the
 * custom-emoji half of this example could not run at all (10014 Unknown Emoji).
 *
 * What must hold for the example to work unchanged: the reaction payloads carry
 * `message_id`, `guild_id`, an emoji the library turns into an equal PartialEmoji, and on
 * add a `member`; on remove there is no member, so the bot finds the person in the member
 * cache the members intent filled; and the bot, ranked above the roles, may give and take
 * them (MANAGE_ROLES).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import type { Parley } from "../../src/app";
import { serverOf } from "../helpers";
import { png } from "../support/png";
import { INTENTS, NON_PRIVILEGED_INTENTS } from "../../src/core";
import { PyBot, requireDiscordPy } from "./support";

const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob"],
      roles: [
        { name: "Red", permissions: [] },
        { name: "Yellow", permissions: [] },
        { name: "Green", permissions: [] },
        { name: "RoleBot", permissions: ["MANAGE_ROLES"], members: ["RoleBot"] },
      ],
      channels: [{ name: "roles" }, { name: "general" }],
    },
  ],
  applications: [
    {
      name: "RoleBot",
      owner: "alice",
      // What discord.py's Intents.default() asks for, plus the members intent the example turns on.
      intents: NON_PRIVILEGED_INTENTS | INTENTS.GUILD_MEMBERS,
      approved_privileged: ["GUILD_MEMBERS"],
      install: ["Lab"],
    },
  ],
};

let P: RunningParley;
let p: Parley;
let bot: PyBot;
let roleMessage: string;
let green: string;

const bobRoles = () =>
  p.core.guilds
    .memberRoleIds(p.api.flakes.uuid(P.world.guilds.Lab.id)!, p.api.flakes.uuid(P.world.users.bob.id)!)
    .map((r) => p.api.flakes.of(r));

beforeAll(async () => {
  requireDiscordPy();
  P = await startParley({ world: WORLD });
  p = serverOf(P);
  const id = (flake: string) => p.api.flakes.uuid(flake)!;
  const e = await p.core.emojis.create(id(P.world.users.alice.id), id(P.world.guilds.Lab.id), {
    name: "green",
    image: { bytes: png(4, 4, 2) },
  });
  green = p.api.flakes.of(e.id);
  roleMessage = (await P.as("alice").say("roles", "React for a colour")).id;
  const roles = P.world.guilds.Lab.roles;
  bot = PyBot.start(
    "py_reaction_roles.py",
    [P.baseUrl, P.gatewayUrl, P.tokenOf("RoleBot"), roleMessage, roles.Red, roles.Yellow, roles.Green, green],
    15_000,
  );
  // The member cache the remove handler relies on: alice, bob and the bot itself.
  expect((await bot.event("ready")).members).toBe(3);
}, 30_000);

afterAll(async () => {
  await bot?.stop();
  await P?.stop();
});

describe("discord.py reaction_roles example", () => {
  const roles = () => P.world.guilds.Lab.roles;
  const bob = () => P.world.users.bob.id;

  test("a Unicode emoji in the map gives its role through payload.member", async () => {
    await P.as("bob").react("roles", roleMessage, "🔴");
    expect(await bot.scenario("add")).toEqual({ scenario: "add", outcome: "given", role: roles().Red, user: bob() });
    expect(bobRoles()).toContain(roles().Red);
  }, 30_000);

  test("the server's emoji, keyed by id, gives its role", async () => {
    await P.as("bob").react("roles", roleMessage, `green:${green}`);
    expect(await bot.scenario("add")).toEqual({ scenario: "add", outcome: "given", role: roles().Green, user: bob() });
    expect(bobRoles()).toEqual(expect.arrayContaining([roles().Red, roles().Green]));
  }, 30_000);

  test("removing a reaction takes the role back through the member cache", async () => {
    await P.as("bob").unreact("roles", roleMessage, "🔴");
    expect(await bot.scenario("remove")).toEqual({ scenario: "remove", outcome: "taken", role: roles().Red, user: bob() });
    await P.as("bob").unreact("roles", roleMessage, `green:${green}`);
    expect(await bot.scenario("remove")).toEqual({ scenario: "remove", outcome: "taken", role: roles().Green, user: bob() });
    expect(bobRoles()).not.toContain(roles().Red);
    expect(bobRoles()).not.toContain(roles().Green);
  }, 30_000);

  test("an emoji outside the map, or another message, changes nothing", async () => {
    await P.as("bob").react("roles", roleMessage, "👍");
    expect(await bot.scenario("add")).toEqual({ scenario: "add", outcome: "other emoji", emoji: "👍" });
    const other = await P.as("bob").say("general", "not the role message");
    await P.as("bob").react("general", other.id, "🟡");
    expect(await bot.scenario("add")).toEqual({ scenario: "add", outcome: "other message" });
    expect(bobRoles()).not.toContain(roles().Yellow);
  }, 30_000);
});
