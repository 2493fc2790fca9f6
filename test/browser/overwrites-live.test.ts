/**
 * A channel's overwrites in Server settings follow a change made elsewhere (another
 * moderator, a bot) to the overwrite on screen, so a save does not put the old values back.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Locator } from "playwright-core";
import { launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["carol"], channels: [{ name: "general" }] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const shows = (l: Locator, value: string) => until(`${l} shows ${value}`, async () => (await l.inputValue()) === value);

test("the overwrite shown follows a change made elsewhere, and a save keeps it", async () => {
  const general = s.id(s.world.guilds.Lab.channels.general);
  const carol = s.id(s.world.users.carol.id);
  const alice = await signIn(browser, s.base, "alice");
  try {
    const a = alice.page;
    await a.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
    await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Roles", exact: true }).click();
    const form = a.getByRole("form", { name: "Channel permissions" });
    await form.getByRole("combobox", { name: "Role or member" }).selectOption({ label: "Carol" });
    const send = form.getByRole("combobox", { name: "Send Messages", exact: true });
    const attach = form.getByRole("combobox", { name: "Attach Files", exact: true });
    expect(await send.inputValue()).toBe("inherit");

    await s.as("alice", "PUT", `/channels/${general}/overwrites/${carol}`, { type: "member", allow: [], deny: ["SEND_MESSAGES"] });
    await shows(send, "deny");

    // Saved from here, it keeps what the server holds now and adds the person's pick.
    await attach.selectOption("deny");
    await form.getByRole("button", { name: "Save overwrites" }).click();
    await form.getByText("Overwrites saved.").waitFor();
    const saved = (await s.as("alice", "GET", `/channels/${general}`)).overwrites.find((o: { target_id: string }) => o.target_id === carol);
    expect(BigInt(saved.deny)).toBe((1n << 11n) | (1n << 15n));
  } finally {
    await alice.context.close();
  }
}, 30_000);
