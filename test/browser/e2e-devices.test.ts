/**
 * Devices and trust in end-to-end encrypted DMs, in real browsers: a second browser
 * profile of bob reads what was sent after it registered and says "Encrypted before this
 * device was added" for what came before; alice is told of bob's new device and both see
 * the same safety number; a ciphertext changed in the database reads "could not be
 * decrypted", never as other text; a key backup lets a later device read what was sent
 * after the backup was made, with the passphrase the server never sees.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { channelEntry, launch, message, signIn, type Person } from "./support";
import { devicesOf, leaks, serveChild, type ChildServer } from "./e2e-support";
import { b64u, fromB64u } from "../../src/e2e";

let browser: Browser;
let s: ChildServer;
let alice: Person;
let bob: Person;
let dm: string;

beforeAll(async () => {
  s = await serveChild({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }] }],
  });
  browser = await launch();
  alice = await signIn(browser, s.base, "alice");
  bob = await signIn(browser, s.base, "bob");
  await devicesOf(s, "alice", 1);
  await devicesOf(s, "bob", 1);
  dm = (await s.as("alice", "POST", "/users/@me/dms", { recipient_id: (await s.as("bob", "GET", "/users/@me")).id })).id;
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.stop();
  s?.remove();
});

async function openDm(p: Person, name: string): Promise<void> {
  await p.page.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Direct messages" }).click();
  await channelEntry(p.page, name).click();
  await p.page.getByRole("textbox", { name: `Message @${name}` }).waitFor();
}

/** Send a DM as a person types it, and wait until it shows in their own log (it is sealed and sent by then). */
async function say(p: Person, to: string, text: string): Promise<void> {
  const box = p.page.getByRole("textbox", { name: `Message @${to}` });
  await box.fill(text);
  await box.press("Enter");
  await message(p.page, new RegExp(`${text}$`)).waitFor();
}

/** The safety number the DM shows (the panel opened if need be). */
async function safetyNumber(p: Person): Promise<string> {
  const button = p.page.getByRole("button", { name: "Safety number" });
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  const out = p.page.getByRole("region", { name: "Safety number" }).locator("output");
  for (let i = 0; i < 100; i++) {
    const t = (await out.textContent()) ?? "";
    if (/^\d{5}( \d{5}){5}$/.test(t)) return t;
    await Bun.sleep(20);
  }
  throw new Error("no safety number shown");
}

describe("a second device", () => {
  test("reads what was sent after it registered, says 'before this device' for older; alice is told and numbers match", async () => {
    await openDm(alice, "Bob");
    await openDm(bob, "Alice");
    await say(alice, "Bob", "sent before the second device");
    await message(bob.page, /^Alice sent before the second device$/).waitFor();
    const before = await safetyNumber(alice);
    expect(await safetyNumber(bob)).toBe(before);

    const bob2 = await signIn(browser, s.base, "bob");
    try {
      await devicesOf(s, "bob", 2);
      // alice is told of the new device, and the safety number changes for both.
      await alice.page
        .getByRole("status")
        .filter({ hasText: /Bob added a new device/ })
        .waitFor();
      await bob.page
        .getByRole("status")
        .filter({ hasText: /A new device was added to your account/ })
        .waitFor();
      let after = await safetyNumber(alice);
      for (let i = 0; i < 50 && after === before; i++) {
        await Bun.sleep(20);
        after = await safetyNumber(alice);
      }
      expect(after).not.toBe(before);
      await alice.page.getByRole("button", { name: "Got it" }).click();
      expect(
        await alice.page
          .getByRole("status")
          .filter({ hasText: /Bob added a new device/ })
          .count(),
      ).toBe(0);

      await say(alice, "Bob", "sent after the second device");
      await openDm(bob2, "Alice");
      await message(bob2.page, /^Alice sent after the second device$/).waitFor();
      await message(bob2.page, /^Alice Encrypted before this device was added\.$/).waitFor();
      expect(await bob2.page.getByText("sent before the second device").count()).toBe(0);
      expect(await safetyNumber(bob2)).toBe(after);
      // The first device still reads both.
      await message(bob.page, /^Alice sent after the second device$/).waitFor();
      expect(await message(bob.page, /^Alice sent before the second device$/).count()).toBe(1);

      // bob removes the second device from the first: it stops (no new keys behind his back),
      // new messages are no longer sealed for it, and it is signed out, told why.
      const [, second] = await devicesOf(s, "bob", 2);
      await bob.page.getByRole("button", { name: `Remove ${second.name}` }).click();
      const told = "This browser's device was removed from your account. Sign in again to set up a new one.";
      const status = bob2.page.getByRole("status").filter({ hasText: told });
      await status.waitFor();
      // Signed out, so not "Reconnecting…" either: the sign-in form, with why.
      expect(await status.textContent()).toBe(told);
      await bob2.page.getByRole("textbox", { name: "Username" }).waitFor();
      expect(await bob2.page.getByRole("textbox", { name: "Message @Alice" }).count()).toBe(0);
      expect((await devicesOf(s, "bob", 1))[0].id).not.toBe(second.id);
    } finally {
      await bob2.context.close();
    }
  }, 40_000);
});

describe("tampering", () => {
  test("a ciphertext changed in the database reads 'could not be decrypted', never as other text", async () => {
    await say(alice, "Bob", "body to be tampered with");
    await say(alice, "Bob", "key to be tampered with");
    await message(bob.page, /^Alice key to be tampered with$/).waitFor();
    const [keyMsg, bodyMsg] = await s.as("bob", "GET", `/channels/${dm}/messages?limit=2`);
    const flip = (text: string, at: number) => {
      const bytes = fromB64u(text)!;
      bytes[at] ^= 0x20;
      return b64u(bytes);
    };
    const db = new Database(join(s.dir, "parley.db"));
    try {
      const parts = (c: string) => c.split(".");
      const body = parts(bodyMsg.ciphertext);
      body[3] = flip(body[3], 10);
      const key = parts(keyMsg.ciphertext);
      key[4] = `${key[4].split(":")[0]}:${flip(key[4].split(":")[1], 5)}`;
      key[5] &&= `${key[5].split(":")[0]}:${flip(key[5].split(":")[1], 5)}`;
      db.query("UPDATE messages SET ciphertext = ? WHERE id = ?").run(body.join("."), bodyMsg.id);
      db.query("UPDATE messages SET ciphertext = ? WHERE id = ?").run(key.join("."), keyMsg.id);
    } finally {
      db.close();
    }
    await bob.page.reload();
    await bob.page.getByRole("textbox", { name: "Message @Alice" }).waitFor();
    // Each message is decrypted on its own, so wait for both before counting.
    await message(bob.page, /^Alice This message could not be decrypted\.$/)
      .nth(1)
      .waitFor();
    // The untouched messages still read.
    await message(bob.page, /^Alice sent after the second device$/).waitFor();
    expect(await message(bob.page, /^Alice This message could not be decrypted\.$/).count()).toBe(2);
    expect(await bob.page.getByText(/to be tampered with/).count()).toBe(0);
  }, 20_000);
});

describe("key backup", () => {
  test("made on one device under a passphrase, restored on a later one, it opens what was sent after it", async () => {
    const passphrase = "horse staple battery correct 42";
    const panel = bob.page.getByRole("region", { name: "Safety number" });
    if (!(await panel.count())) await bob.page.getByRole("button", { name: "Safety number" }).click();
    await panel.getByRole("button", { name: "Set up a key backup" }).click();
    // Twelve of one letter are long enough, and guessed at once: refused beside the field, before anything is sealed.
    const devicesBefore = (await s.as("bob", "GET", "/users/@me/devices")).length;
    const field = panel.getByLabel("Backup passphrase");
    await field.fill("a".repeat(12));
    await panel.getByLabel("Repeat the passphrase").fill("a".repeat(12));
    await panel.getByRole("button", { name: "Create backup" }).click();
    const weak = panel.getByRole("alert").filter({ hasText: /^Too easy to guess\./ });
    await weak.waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await weak.getAttribute("id")).toBe(await field.getAttribute("aria-describedby"));
    expect((await s.as("bob", "GET", "/users/@me/devices")).length).toBe(devicesBefore);
    await field.fill(passphrase);
    await panel.getByLabel("Repeat the passphrase").fill("not the same passphrase");
    await panel.getByRole("button", { name: "Create backup" }).click();
    await panel.getByRole("alert").filter({ hasText: "The two passphrases differ." }).waitFor();
    await panel.getByLabel("Repeat the passphrase").fill(passphrase);
    await panel.getByRole("button", { name: "Create backup" }).click();
    await panel.getByRole("status").filter({ hasText: "Key backup made" }).waitFor();
    // The backup is a device like any other: alice is told of it.
    await alice.page
      .getByRole("status")
      .filter({ hasText: /Bob added a new device \(Key backup/ })
      .waitFor();

    await say(alice, "Bob", "sent after the backup");
    const bob3 = await signIn(browser, s.base, "bob");
    try {
      await openDm(bob3, "Alice");
      await message(bob3.page, /^Alice Encrypted before this device was added\.$/)
        .first()
        .waitFor();
      expect(await bob3.page.getByText("sent after the backup").count()).toBe(0);
      await bob3.page.getByRole("button", { name: "Safety number" }).click();
      const p3 = bob3.page.getByRole("region", { name: "Safety number" });
      await p3.getByRole("button", { name: "Read older messages from your key backup" }).click();
      await p3.getByLabel("Backup passphrase").fill("a wrong passphrase, surely");
      await p3.getByRole("button", { name: "Restore" }).click();
      await p3.getByRole("alert").filter({ hasText: "That passphrase opens no key backup of yours." }).waitFor();
      await p3.getByLabel("Backup passphrase").fill(passphrase);
      await p3.getByRole("button", { name: "Restore" }).click();
      await message(bob3.page, /^Alice sent after the backup$/).waitFor();
      // What came before the backup stays out of reach.
      expect(await message(bob3.page, /^Alice sent before the second device$/).count()).toBe(0);
      expect(leaks(s, [passphrase, "sent after the backup"])).toEqual([]);
    } finally {
      await bob3.context.close();
    }
  }, 40_000);
});
