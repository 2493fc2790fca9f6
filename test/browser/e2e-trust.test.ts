/**
 * A malicious server against end-to-end encrypted DMs, in real browsers. The test plays
 * the server: it answers alice's browser with a device of someone outside the DM, swaps
 * a device's keys in the database, and slips in a message sealed by a device its owner
 * removed. The browsers must never seal for a device they did not pin to one of the
 * DM's two people, never use a changed key, keep the safety number of what they pinned,
 * and flag what the removed device "sent"; the server refuses that device's sends.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { channelEntry, launch, message, signIn, type Person } from "./support";
import { devicesOf, serveChild, type ChildServer } from "./e2e-support";
import { generateDeviceKeys, openMessage, parseEnvelope, publicKeysOf, sealMessage, type DeviceInfo, type OwnDevice } from "../../src/e2e";

let browser: Browser;
let s: ChildServer;
let alice: Person;
let bob: Person;
let ids: { alice: string; bob: string; carol: string; dm: string };

beforeAll(async () => {
  s = await serveChild({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob", "carol"], channels: [{ name: "general" }] }],
  });
  browser = await launch();
  ids = {
    alice: (await s.as("alice", "GET", "/users/@me")).id,
    bob: (await s.as("bob", "GET", "/users/@me")).id,
    carol: (await s.as("carol", "GET", "/users/@me")).id,
    dm: "",
  };
  alice = await signIn(browser, s.base, "alice");
  bob = await signIn(browser, s.base, "bob");
  await devicesOf(s, "alice", 1);
  await devicesOf(s, "bob", 1);
  ids.dm = (await s.as("alice", "POST", "/users/@me/dms", { recipient_id: ids.bob })).id;
  await openDm(alice, "Bob");
  await openDm(bob, "Alice");
  // Both browsers see each other's devices once, as the server honestly lists them: that is what they pin.
  await say(alice, "Bob", "first sight");
  await message(bob.page, /^Alice first sight$/).waitFor();
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

async function say(p: Person, to: string, text: string): Promise<void> {
  const box = p.page.getByRole("textbox", { name: `Message @${to}` });
  await box.fill(text);
  await box.press("Enter");
  await message(p.page, new RegExp(`${text}$`)).waitFor();
}

/** A device whose private keys the test holds, as the server would list it. */
async function forged(userId: string): Promise<{ own: OwnDevice; json: any }> {
  const keys = await generateDeviceKeys();
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  return {
    own: { id, keys, created_at: 0 },
    json: {
      id,
      user_id: userId,
      name: "Chromium on Linux",
      keys: await publicKeysOf(keys),
      created_at: now,
      removed_at: null,
      backup: false,
    },
  };
}

const info = (d: any): DeviceInfo => ({
  id: d.id,
  user_id: d.user_id,
  keys: d.keys,
  created_at: Date.parse(d.created_at),
  removed_at: d.removed_at && Date.parse(d.removed_at),
});

/** The newest message of the DM as the server stores it, and whether `device` opens it. */
async function newest(device: OwnDevice, devices: DeviceInfo[]) {
  const [m] = await s.as("bob", "GET", `/channels/${ids.dm}/messages?limit=1`);
  const meta = {
    channelId: ids.dm,
    authorId: m.author.id,
    messageId: m.id,
    createdAt: Date.parse(m.created_at),
    edited: m.edited_at !== null,
  };
  const env = parseEnvelope(m.ciphertext);
  return {
    m,
    wraps: env.ok ? env.envelope.wraps.map((w) => w.device) : [],
    opened: await openMessage(m.ciphertext, meta, device, devices),
  };
}

/** The safety number the DM shows (the panel opened if need be). */
async function safetyNumber(page: Page): Promise<string> {
  const button = page.getByRole("button", { name: "Safety number" });
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  const out = page.getByRole("region", { name: "Safety number" }).locator("output");
  for (let i = 0; i < 100; i++) {
    const t = (await out.textContent()) ?? "";
    if (/^\d{5}( \d{5}){5}$/.test(t)) return t;
    await Bun.sleep(20);
  }
  throw new Error("no safety number shown");
}

describe("a device of someone outside the DM", () => {
  test("listed by the server, it is never sealed for, and the DM says so", async () => {
    const outsider = await forged(ids.carol);
    const devicesPath = `**/api/client/v1/channels/${ids.dm}/devices`;
    await alice.page.route(devicesPath, async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: [...(await res.json()), outsider.json] });
    });
    try {
      await say(alice, "Bob", "not for carol");
      const listed = [...(await s.as("alice", "GET", `/channels/${ids.dm}/devices`)), outsider.json].map(info);
      const { wraps, opened } = await newest(outsider.own, listed);
      expect(wraps).not.toContain(outsider.json.id);
      expect(opened.state).toBe("failed");
      await alice.page
        .getByRole("alert")
        .filter({ hasText: /someone who is not in this conversation/ })
        .waitFor();
      // bob still reads it.
      await message(bob.page, /^Alice not for carol$/).waitFor();
    } finally {
      await alice.page.unroute(devicesPath);
    }
  }, 30_000);
});

describe("a device's keys changed by the server", () => {
  test("the changed key is never used, both people are told, and the safety numbers stay those pinned", async () => {
    const before = await safetyNumber(alice.page);
    expect(await safetyNumber(bob.page)).toBe(before);
    const [bobDevice] = await devicesOf(s, "bob", 1);
    const swap = await forged(ids.bob);
    const db = new Database(join(s.dir, "parley.db"));
    const setKeys = (k: { x25519: string | null; p256: string | null }) =>
      db.query("UPDATE devices SET x25519 = ?, p256 = ? WHERE id = ?").run(k.x25519, k.p256, bobDevice.id);
    try {
      setKeys(swap.json.keys);
      await say(alice, "Bob", "sealed after the swap");
      const listed = (await s.as("alice", "GET", `/channels/${ids.dm}/devices`)).map(info);
      const { wraps, opened } = await newest({ ...swap.own, id: bobDevice.id }, listed);
      // The wrap for bob's device is made with the key alice pinned: the server's key opens nothing.
      expect(wraps).toContain(bobDevice.id);
      expect(opened.state).toBe("failed");
      await message(bob.page, /^Alice sealed after the swap$/).waitFor();
      await alice.page
        .getByRole("alert")
        .filter({ hasText: /keys of Bob's device .* changed/ })
        .waitFor();
      // bob's browser reads the devices again before it sends, and learns of it then; alice still reads him.
      await say(bob, "Alice", "replied after the swap");
      await bob.page
        .getByRole("alert")
        .filter({ hasText: /keys of your device .* changed/ })
        .waitFor();
      await message(alice.page, /^Bob replied after the swap$/).waitFor();
      expect(await safetyNumber(alice.page)).toBe(before);
      expect(await safetyNumber(bob.page)).toBe(before);
    } finally {
      setKeys(bobDevice.keys);
      db.close();
    }
  }, 30_000);
});

describe("a removed device", () => {
  test("the server refuses what it sends; a message it sealed slipped in later is flagged, never shown as bob's", async () => {
    // A device of bob's whose keys the test holds, honestly registered and then removed.
    const keys = await generateDeviceKeys();
    const tablet = await s.as("bob", "POST", "/users/@me/devices", { name: "Tablet", keys: await publicKeysOf(keys) });
    const own: OwnDevice = { id: tablet.id, keys, created_at: Date.parse(tablet.created_at) };
    const seal = async (text: string) =>
      sealMessage(
        text,
        { channelId: ids.dm, authorId: ids.bob, editOf: null },
        own,
        (await s.as("bob", "GET", `/channels/${ids.dm}/devices`)).map(info),
        [ids.alice, ids.bob],
      );
    await s.as("bob", "POST", `/channels/${ids.dm}/messages`, { ciphertext: await seal("from the tablet while it was bob's") });
    await message(alice.page, /^Bob from the tablet while it was bob's$/).waitFor();

    await s.as("bob", "DELETE", `/users/@me/devices/${tablet.id}`);
    const late = await seal("from the removed tablet");
    const refused = await s.raw("bob", "POST", `/channels/${ids.dm}/messages`, { ciphertext: late });
    expect([refused.status, refused.body.code]).toEqual([400, 50035]);

    // The server slips it in anyway, as a message of bob's sent after the removal.
    const messagesPath = `**/api/client/v1/channels/${ids.dm}/messages?*`;
    await alice.page.route(messagesPath, async (route) => {
      const res = await route.fetch();
      const list = await res.json();
      const fake = {
        ...list[0],
        id: crypto.randomUUID(),
        author: list.find((m: any) => m.author.id === ids.bob).author,
        ciphertext: late,
        created_at: new Date().toISOString(),
        edited_at: null,
        reply_to: null,
        reactions: [],
      };
      await route.fulfill({ response: res, json: [fake, ...list] });
    });
    try {
      await alice.page.reload();
      await alice.page.getByRole("textbox", { name: "Message @Bob" }).waitFor();
      await message(alice.page, /^Bob Sent from a device Bob removed/).waitFor();
      expect(await alice.page.getByText("from the removed tablet").count()).toBe(0);
      // What it sent while it was bob's still reads.
      expect(await message(alice.page, /^Bob from the tablet while it was bob's$/).count()).toBe(1);
    } finally {
      await alice.page.unroute(messagesPath);
    }
  }, 30_000);
});
