/**
 * Running a community in the browser (issue 29), walked as an owner, a moderator, a
 * member, an operator and a signed-out visitor: the "Server settings" navigation and its
 * Invites, Bans, Audit log and Channels sections; a moderator stopped by rank; "Leave
 * server"; the display name and device names in User settings; signing out with the
 * browser's device; /admin's Users and Registration; an invite link showing its server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { VERSION } from "../../src/config";
import { channelEntry, count, launch, openAs, PASSWORD, serve, signIn, until, WAIT_MS, type Served } from "./support";
import { png } from "../support/png";

let s: Served;
let browser: Browser;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "olive", global_name: "Olive", admin: true },
      { name: "mo", global_name: "Mo" },
      { name: "mem", global_name: "Mem" },
      { name: "hi", global_name: "Hi" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [
      {
        name: "Club",
        owner: "olive",
        members: ["mo", "mem", "hi", "carol"],
        roles: [
          {
            name: "Mod",
            permissions: ["KICK_MEMBERS", "BAN_MEMBERS", "VIEW_AUDIT_LOG", "MANAGE_CHANNELS", "MANAGE_ROLES"],
            members: ["mo"],
          },
          { name: "Senior", permissions: [], members: ["hi"] },
        ],
        channels: [{ name: "general" }, { name: "staff" }],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** Olive gives `guild` an icon: an upload slot, its bytes, then the server's icon. */
async function setIcon(guild: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  const slot = await s.as("olive", "POST", "/uploads", { purpose: "icon", filename: "icon.png", size: bytes.byteLength, guild_id: guild });
  const put = await fetch(`${s.base}${slot.upload_url}`, {
    method: "PUT",
    headers: { Authorization: `Session ${s.world.users.olive.token}` },
    body: bytes,
  });
  expect(put.status).toBe(200);
  await s.as("olive", "PUT", `/guilds/${guild}/icon`, { upload_id: slot.id });
}

/** Focus reaches what `l` finds (polled, bounded by WAIT_MS). */
function focused(l: Locator): Promise<void> {
  return until(`focus on ${l}`, () => l.evaluate((el) => el === document.activeElement).catch(() => false));
}

async function openSettings(page: Page, section?: string): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  if (section) await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: section, exact: true }).click();
}

describe("server settings", () => {
  test("the owner: every section; an invite with expiry and uses, listed and revoked; a ban lifted; the audit log says who did what", async () => {
    const olive = await signIn(browser, s.base, "olive");
    try {
      const a = olive.page;
      await openSettings(a);
      expect(await a.getByRole("navigation", { name: "Server settings" }).getByRole("button").allTextContents()).toEqual([
        "Overview",
        "Roles",
        "Channels",
        "Members",
        "Invites",
        "Bans",
        "Emoji",
        "Audit log",
      ]);

      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Roles", exact: true }).click();
      await a.getByRole("button", { name: "Edit Senior" }).click();
      const editor = a.getByRole("form", { name: "Edit Senior" });
      await editor.getByRole("checkbox", { name: "Display separately" }).check();
      await editor.getByRole("checkbox", { name: "Allow anyone to @mention" }).check();
      await editor.getByRole("button", { name: "Save role" }).click();
      await editor.getByRole("status").filter({ hasText: "Senior saved." }).waitFor();
      await editor.getByRole("button", { name: "Done" }).click();
      const senior = () => s.p.core.guilds.roles(s.id(s.world.guilds.Club.id)).find((r) => r.name === "Senior")!;
      expect([senior().hoist, senior().mentionable]).toEqual([1, 1]);
      await a.getByRole("button", { name: "Move Mod up" }).click();
      await a.getByRole("status").filter({ hasText: "Mod moved up." }).waitFor();
      await a.getByRole("button", { name: "Move Mod down" }).click();
      await a.getByRole("status").filter({ hasText: "Mod moved down." }).waitFor();

      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Invites" }).click();
      await a.getByRole("combobox", { name: "Expire after" }).selectOption({ label: "1 hour" });
      await a.getByRole("combobox", { name: "Max uses" }).selectOption({ label: "5 uses" });
      await a.getByRole("button", { name: "Create invite" }).click();
      const link = await a.getByRole("textbox", { name: "Invite link" }).inputValue();
      const code = link.split("/").pop()!;
      const row = a.getByRole("table", { name: "Invite links" }).getByRole("row").filter({ hasText: code });
      await row.filter({ hasText: "Olive" }).filter({ hasText: "0 of 5" }).waitFor();
      await row.getByRole("button", { name: `Revoke ${code}` }).click();
      await count(a.getByRole("table", { name: "Invite links" }).getByRole("row").filter({ hasText: code }), 0);

      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Members" }).click();
      await a.getByRole("group", { name: "Roles for Mem" }).getByRole("checkbox", { name: "Senior" }).check();
      await a.getByRole("status").filter({ hasText: "Mem's roles saved." }).waitFor();
      expect(s.p.core.guilds.memberRoleIds(s.id(s.world.guilds.Club.id), s.id(s.world.users.mem.id))).toContain(
        s.id(s.world.guilds.Club.roles.Senior),
      );
      await a.getByRole("textbox", { name: "Nickname for Mem" }).fill("Memo");
      await a.getByRole("button", { name: "Save nickname for Mem" }).click();
      await a.getByRole("status").filter({ hasText: "Mem's nickname saved." }).waitFor();
      await a.getByRole("button", { name: "Ban Carol" }).click();
      await a.getByRole("dialog", { name: "Ban Carol?" }).getByRole("textbox", { name: "Reason" }).fill("spam links");
      await a.getByRole("dialog", { name: "Ban Carol?" }).getByRole("button", { name: "Ban" }).click();
      await a.getByRole("status").filter({ hasText: "Carol was banned." }).waitFor();

      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Bans" }).click();
      const banned = a.getByRole("list", { name: "Banned people" }).getByRole("listitem").filter({ hasText: "Carol" });
      await banned.filter({ hasText: "spam links" }).waitFor();
      await banned.getByRole("button", { name: "Unban Carol" }).click();
      await a.getByRole("status").filter({ hasText: "Carol is no longer banned." }).waitFor();

      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Audit log" }).click();
      const log = a.getByRole("table", { name: "Audit log" });
      await log
        .getByRole("row")
        .filter({ hasText: "Member banned" })
        .filter({ hasText: "spam links" })
        .filter({ hasText: "Carol" })
        .waitFor();
      await a.getByRole("combobox", { name: "Action" }).selectOption({ label: "Member unbanned" });
      await count(log.getByRole("row").filter({ hasText: "Member banned" }), 0);
      await log.getByRole("row").filter({ hasText: "Member unbanned" }).waitFor();

      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Channels" }).click();
      await a.getByRole("button", { name: "Move staff up" }).click();
      await a.getByRole("status").filter({ hasText: "#staff moved up." }).waitFor();
      const order = s.p.core.guilds
        .channels(s.id(s.world.guilds.Club.id))
        .sort((x, y) => x.position - y.position)
        .map((c) => c.name);
      expect(order.indexOf("staff")).toBeLessThan(order.indexOf("general"));
    } finally {
      await olive.context.close();
    }
  }, 40_000);

  test("a moderator is stopped by rank: a member above is not offered, with the reason beside them", async () => {
    const mo = await signIn(browser, s.base, "mo");
    try {
      const m = mo.page;
      await openSettings(m, "Members");
      const hi = m
        .getByRole("list", { name: "Members to moderate" })
        .getByRole("listitem")
        .filter({ has: m.getByRole("button", { name: "Kick Hi" }) });
      expect(await hi.getByRole("button", { name: "Kick Hi" }).isDisabled()).toBe(true);
      expect(await hi.getByRole("button", { name: "Ban Hi" }).isDisabled()).toBe(true);
      await hi.getByText("Their highest role is not below yours.").waitFor();

      // Roles: nothing moves at or above one's own highest role.
      await m.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Roles", exact: true }).click();
      expect(await m.getByRole("button", { name: "Move Mod up" }).isDisabled()).toBe(true);
      expect(await m.getByRole("button", { name: "Move Senior down" }).isDisabled()).toBe(true);
    } finally {
      await mo.context.close();
    }
  }, 20_000);

  test("a name in chat and in the member list takes the colour of the member's highest coloured role", async () => {
    const club = s.world.guilds.Club;
    await s.as("olive", "PATCH", `/guilds/${s.id(club.id)}/roles/${s.id(club.roles.Mod)}`, { color: 0xcc2200 });
    await s.as("mo", "POST", `/channels/${s.id(club.channels.general)}/messages`, { content: "colours please" });
    const mem = await signIn(browser, s.base, "mem");
    try {
      const p = mem.page;
      const said = p.getByRole("article", { name: /^Mo colours please/ });
      const color = (el: Element) => getComputedStyle(el).color;
      const listed = p.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Mo", exact: true });
      await listed.waitFor();
      // #cc2200 on the dark page reads at under 4.5:1: it shows lightened just enough (colors.ts).
      const red = "rgb(231, 151, 135)";
      expect(await listed.evaluate(color)).toBe(red);
      await channelEntry(p, "general").click();
      await said.waitFor();
      expect(await said.getByText("Mo", { exact: true }).evaluate(color)).toBe(red);
      // A member without a coloured role keeps the page's colour.
      expect(
        await p.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Olive", exact: true }).evaluate(color),
      ).not.toBe(red);
      // Each row reads as a sentence: the name, then what is known of them, commas where one pauses.
      const members = p.getByRole("complementary", { name: "Members" });
      const olive = members.getByRole("listitem", { name: "Olive, owner, offline", exact: true });
      await olive.waitFor();
      // What a screen reader walks through in the row has no stray space before a comma.
      const read = await olive.ariaSnapshot();
      expect(read).toContain("text: owner, offline");
      expect(read).not.toContain(" ,");
    } finally {
      await mem.context.close();
    }
  }, 20_000);

  test("a member has no settings, and leaves the server", async () => {
    const mem = await signIn(browser, s.base, "mem");
    try {
      const p = mem.page;
      // @everyone may create invites: Invites is all Mem gets.
      await openSettings(p);
      expect(await p.getByRole("navigation", { name: "Server settings" }).getByRole("button").allTextContents()).toEqual(["Invites"]);
      // Senior is displayed separately (the owner's edit): Hi is listed under it.
      await p
        .getByRole("complementary", { name: "Members" })
        .getByRole("heading", { name: /^Senior — / })
        .waitFor();
      // A name in the member list opens a profile card: names, roles here, Message.
      await p.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Mo", exact: true }).click();
      const card = p.getByRole("dialog", { name: "Mo" });
      await card.getByRole("list", { name: "Roles here" }).getByRole("listitem").filter({ hasText: "Mod" }).waitFor();
      await card.getByRole("button", { name: "Message" }).waitFor();
      await card.getByRole("button", { name: "Close" }).click();

      await p.getByRole("button", { name: "Leave server" }).click();
      await p.getByRole("dialog", { name: "Leave Club?" }).getByRole("button", { name: "Leave server" }).click();
      await count(p.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Club" }), 0);
      expect(s.p.core.guilds.isMember(s.id(s.world.guilds.Club.id), s.id(s.world.users.mem.id))).toBe(false);
    } finally {
      await mem.context.close();
    }
  }, 20_000);
});

describe("one's own account", () => {
  test("a display name in any script; a device renamed; signing out removes this browser's device", async () => {
    const hi = await signIn(browser, s.base, "hi");
    try {
      const p = hi.page;
      await p.getByRole("button", { name: "User settings" }).click();
      const dialog = p.getByRole("dialog", { name: "User settings" });
      await dialog.getByRole("navigation", { name: "User settings" }).getByRole("button", { name: "Profile" }).click();
      await dialog.getByRole("textbox", { name: "Display name" }).fill("x".repeat(40));
      await dialog.getByRole("button", { name: "Save display name" }).click();
      await dialog.getByRole("textbox", { name: "Display name" }).and(p.locator("[aria-invalid=true]")).waitFor();
      await dialog.getByRole("textbox", { name: "Display name" }).fill("Hiroshi 浩");
      await dialog.getByRole("button", { name: "Save display name" }).click();
      await dialog.getByRole("status").filter({ hasText: "Your display name is Hiroshi 浩." }).waitFor();
      expect(s.p.core.users.get(s.id(s.world.users.hi.id))?.global_name).toBe("Hiroshi 浩");

      await dialog.getByRole("navigation", { name: "User settings" }).getByRole("button", { name: "Devices" }).click();
      const devices = dialog.getByRole("list", { name: "Your devices" });
      const first = devices.getByRole("listitem").first();
      const field = first.getByRole("textbox", { name: /^Name for / });
      await field.fill("Work laptop");
      await first.getByRole("button", { name: "Rename" }).click();
      await devices.getByRole("button", { name: "Remove Work laptop" }).waitFor();
      await dialog.getByRole("button", { name: "Close" }).click();

      const userId = s.id(s.world.users.hi.id);
      expect(s.p.core.devices.current(userId).filter((d) => d.backup === null)).toHaveLength(1);
      await p.getByRole("button", { name: "Sign out" }).click();
      await p
        .getByRole("dialog", { name: "Sign out?" })
        .getByRole("checkbox", { name: "Also remove this browser's encryption keys" })
        .isChecked();
      await p.getByRole("dialog", { name: "Sign out?" }).getByRole("button", { name: "Sign out" }).click();
      await p.getByRole("button", { name: "Sign in" }).waitFor();
      expect(s.p.core.devices.current(userId).filter((d) => d.backup === null)).toHaveLength(0);
    } finally {
      await hi.context.close();
    }
  }, 30_000);
});

describe("arriving and the instance", () => {
  test("signed out, an invite link shows its server's icon and name above the sign-in, then Accept invite", async () => {
    const inv = await s.as("olive", "POST", `/channels/${s.id(s.world.guilds.Club.channels.general)}/invites`, {});
    await setIcon(s.id(s.world.guilds.Club.id), png(16, 16, 3));
    await s.as("olive", "PUT", `/guilds/${s.id(s.world.guilds.Club.id)}/bans/${s.id(s.world.users.carol.id)}`, {}).catch(() => undefined);
    await s
      .as("olive", "DELETE", `/guilds/${s.id(s.world.guilds.Club.id)}/bans/${s.id(s.world.users.carol.id)}`, {})
      .catch(() => undefined);
    const context = await browser.newContext();
    context.setDefaultTimeout(WAIT_MS);
    try {
      const page = await context.newPage();
      await page.goto(`${s.base}/invite/${inv.code}`);
      await page.getByRole("heading", { name: "You are invited to Club" }).waitFor();
      await page.getByText(/\d+ members/).waitFor();
      const icon = page.getByRole("img", { name: "Club" });
      await page.waitForFunction(
        (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth === 16,
        await icon.elementHandle(),
      );
      await page.getByRole("textbox", { name: "Username" }).fill("carol");
      await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      // Signed in, the invite page starts on its heading; once accepted, the new page in the channel's message box.
      await focused(page.getByRole("heading", { name: "You are invited to Club" }));
      await page.getByRole("button", { name: "Accept invite" }).click();
      await page.getByRole("navigation", { name: "Channels" }).getByRole("heading", { name: "Club" }).waitFor();
      await focused(page.getByRole("textbox", { name: /^Message #/ }));
    } finally {
      await context.close();
    }
  }, 20_000);

  test("a member opening their own server's invite is told so and offered to open it", async () => {
    const inv = await s.as("olive", "POST", `/channels/${s.id(s.world.guilds.Club.channels.general)}/invites`, {});
    // Mo: Mem has left the server by now.
    const mo = await openAs(browser, s.base, `/invite/${inv.code}`, "mo");
    try {
      const page = mo.page;
      await page.getByRole("heading", { name: "You are already a member of Club" }).waitFor();
      expect(await page.getByRole("button", { name: "Accept invite" }).count()).toBe(0);
      await page.getByRole("button", { name: "Open Club" }).click();
      await page.getByRole("navigation", { name: "Channels" }).getByRole("heading", { name: "Club" }).waitFor();
      // Opening it used nothing up: the invite is as it was.
      const invites = await s.as("olive", "GET", `/guilds/${s.id(s.world.guilds.Club.id)}/invites`);
      expect(invites.find((i: { code: string }) => i.code === inv.code).uses).toBe(0);
    } finally {
      await mo.context.close();
    }
  }, 20_000);

  test("a new account is welcomed with Join a server and Create a server; a bad code is refused beside the field", async () => {
    const inv = await s.as("olive", "POST", `/channels/${s.id(s.world.guilds.Club.channels.general)}/invites`, {});
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${s.base}/`);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("textbox", { name: "Username" }).fill("newbie");
      await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await focused(page.getByRole("heading", { name: "Welcome to Parley" }));
      await page.getByRole("region", { name: "Welcome to Parley" }).getByRole("button", { name: "Join a server" }).click();
      const join = page.getByRole("dialog", { name: "Join a server" });
      await join.getByRole("textbox", { name: "Invite link or code" }).fill("nope");
      await join.getByRole("button", { name: "Join", exact: true }).click();
      await join.getByRole("textbox", { name: "Invite link or code" }).and(page.locator("[aria-invalid=true]")).waitFor();
      await join.getByRole("textbox", { name: "Invite link or code" }).fill(`${s.base}/invite/${inv.code}`);
      await join.getByRole("button", { name: "Join", exact: true }).click();
      await page.getByRole("navigation", { name: "Channels" }).getByRole("heading", { name: "Club" }).waitFor();
      await page.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Create a server" }).waitFor();
    } finally {
      await context.close();
    }
  }, 20_000);

  test("the operator: search and disable a person; close registration, and sign-up is refused with the reason", async () => {
    const olive = await openAs(browser, s.base, "/admin", "olive");
    try {
      const a = olive.page;
      await a.getByRole("img", { name: /^Messages per day: \d+ over 30 days/ }).waitFor();
      expect(await a.getByRole("table", { name: "The last 30 days" }).getByRole("row").count()).toBe(31);
      // The version and uptime beside the counts; the files' size beside the database's.
      for (const term of ["Version", "Uptime", "Database", "Files"]) await a.getByRole("term").filter({ hasText: term }).waitFor();
      await a.getByRole("definition").filter({ hasText: VERSION }).first().waitFor();
      await a.getByRole("navigation", { name: "Administration" }).getByRole("button", { name: "Users" }).click();
      await a.getByRole("searchbox", { name: "Search users" }).fill("car");
      const people = a.getByRole("list", { name: "People" });
      await count(people.getByRole("listitem"), 1);
      await people.getByRole("button", { name: "Disable Carol" }).click();
      await a
        .getByRole("dialog", { name: "Disable Carol?" })
        .getByRole("checkbox", { name: "Also disable their applications (0)" })
        .waitFor();
      await a.getByRole("dialog", { name: "Disable Carol?" }).getByRole("button", { name: "Disable" }).click();
      await a.getByRole("status").filter({ hasText: "Carol is disabled." }).waitFor();
      expect(s.p.core.users.get(s.id(s.world.users.carol.id))?.disabled_at).not.toBeNull();
      await people.getByRole("button", { name: "Enable Carol" }).click();
      await a.getByRole("status").filter({ hasText: "Carol may sign in again." }).waitFor();

      // A one-time reset link: Carol chooses a new password with it and is signed in.
      await people.getByRole("button", { name: "Reset password for Carol" }).click();
      const url = await a.getByRole("textbox", { name: "Reset link for Carol" }).inputValue();
      const resetting = await browser.newContext();
      try {
        const page = await resetting.newPage();
        // Having forgotten it, the sign-in page says whom to ask (nothing is emailed).
        await page.goto(`${s.base}/`);
        const forgot = page.getByRole("button", { name: "Forgot your password?" });
        await forgot.click();
        expect(await forgot.getAttribute("aria-expanded")).toBe("true");
        await page.getByText("ask its administrator for a password reset link").waitFor();
        await page.goto(url);
        await page.getByRole("textbox", { name: "New password" }).fill("short");
        await page.getByRole("button", { name: "Set password" }).click();
        await page.getByRole("textbox", { name: "New password" }).and(page.locator("[aria-invalid=true]")).waitFor();
        await page.getByRole("textbox", { name: "New password" }).fill("a brand new passphrase");
        await page.getByRole("button", { name: "Set password" }).click();
        await page.getByRole("navigation", { name: "Servers" }).waitFor();
        expect(new URL(page.url()).pathname).not.toContain("reset-password");
      } finally {
        await resetting.close();
      }

      await a.getByRole("navigation", { name: "Administration" }).getByRole("button", { name: "Registration" }).click();
      await a.getByRole("radiogroup", { name: "Registration" }).getByRole("radio", { name: "Closed" }).check();
      await a.getByRole("status").filter({ hasText: "Registration is closed." }).waitFor();

      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${s.base}/`);
        await page.getByRole("button", { name: "Create account" }).click();
        await page.getByRole("textbox", { name: "Username" }).fill("latecomer");
        await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
        await page.getByRole("button", { name: "Create account" }).click();
        await page.getByRole("alert").filter({ hasText: "Sign-ups are closed on this server" }).waitFor();
      } finally {
        await context.close();
      }
      await a.getByRole("radiogroup", { name: "Registration" }).getByRole("radio", { name: "Invite only" }).check();
      await a.getByRole("status").filter({ hasText: "Registration is invite only." }).waitFor();
      await a.getByRole("button", { name: "Create sign-up invite" }).click();
      const code = await a.getByRole("textbox", { name: "Sign-up invite code" }).inputValue();
      const invited = await browser.newContext();
      try {
        const page = await invited.newPage();
        await page.goto(`${s.base}/`);
        await page.getByRole("button", { name: "Create account" }).click();
        await page.getByRole("textbox", { name: "Username" }).fill("invitee");
        await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
        await page.getByRole("button", { name: "Create account" }).click();
        await page.getByRole("textbox", { name: "Invite code" }).and(page.locator("[aria-invalid=true]")).waitFor();
        await page.getByRole("textbox", { name: "Invite code" }).fill(code);
        await page.getByRole("button", { name: "Create account" }).click();
        await page.getByRole("navigation", { name: "Servers" }).waitFor();
      } finally {
        await invited.close();
      }
      await a.getByRole("radiogroup", { name: "Registration" }).getByRole("radio", { name: "Open" }).check();
      await a.getByRole("status").filter({ hasText: "Registration is open." }).waitFor();
    } finally {
      await olive.context.close();
    }
  }, 30_000);
});
