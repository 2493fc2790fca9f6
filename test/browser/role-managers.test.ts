/**
 * Someone whose only moderation right is Manage Roles: the server lets them give and take
 * roles below their own and set the nicknames of members ranked below them (core
 * moderation.ts gates member edits on Manage Roles), so Server settings offers them the
 * Members section with those controls, and no Kick or Ban they do not hold.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["bob", "carol"],
        // Listed lowest first: Helpers 1, Role managers 2.
        roles: [
          { name: "Helpers", permissions: ["SEND_MESSAGES"] },
          { name: "Role managers", permissions: ["MANAGE_ROLES", "SEND_MESSAGES"], members: ["bob"] },
        ],
        channels: [{ name: "general" }],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

test("Manage Roles alone opens Members: a role given and a nickname set, no Kick or Ban offered", async () => {
  const bob = await signIn(browser, s.base, "bob");
  try {
    const b = bob.page;
    await b.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
    await b.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Members", exact: true }).click();
    const list = b.getByRole("list", { name: "Members to moderate" });
    await list.getByRole("group", { name: "Roles for Carol" }).getByRole("checkbox", { name: "Helpers" }).check();
    await b.getByText("Carol's roles saved.").waitFor();
    await list.getByRole("textbox", { name: "Nickname for Carol" }).fill("Caro");
    await list.getByRole("button", { name: "Save nickname for Carol" }).click();
    await b.getByText("Carol's nickname saved.").waitFor();
    const lab = s.id(s.world.guilds.Lab.id);
    const carol = s.id(s.world.users.carol.id);
    await until("Carol holds Helpers, nicknamed Caro", async () => {
      const m = s.p.core.guilds.requireMember(lab, carol);
      const held = s.p.core.guilds.memberRoleIds(lab, carol);
      return m.nick === "Caro" && held.includes(s.id(s.world.guilds.Lab.roles.Helpers));
    });
    expect(await list.getByRole("button", { name: /^Kick / }).count()).toBe(0);
    expect(await list.getByRole("button", { name: /^Ban / }).count()).toBe(0);
  } finally {
    await bob.context.close();
  }
}, 30_000);
