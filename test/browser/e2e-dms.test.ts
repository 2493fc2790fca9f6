/**
 * End-to-end encrypted DMs between real clients: alice and bob in two browser profiles
 * write to each other both ways (and edit), the harness playing a person reads and
 * writes the same DMs, a third person and a bot read nothing, and when it is over
 * neither the SQLite files nor the server's output hold any of the texts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { act, channelEntry, launch, message, signIn, type Person } from "./support";
import { devicesOf, leaks, serveChild, type ChildServer } from "./e2e-support";
import { generateDeviceKeys, openMessage, parseEnvelope, publicKeysOf } from "../../src/e2e";

let browser: Browser;
let s: ChildServer;
let alice: Person;
let bob: Person;
/** Every text that must never reach the server in the clear. */
const secrets: string[] = [];
const secret = (label: string) => {
  const t = `${label}-${crypto.randomUUID().slice(0, 8)}`;
  secrets.push(t);
  return t;
};
let ids: { alice: string; bob: string; bot: string; dm: string; botDm: string };

beforeAll(async () => {
  s = await serveChild({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob", "carol"], channels: [{ name: "general" }] }],
    applications: [
      {
        name: "EchoBot",
        owner: "carol",
        intents: ["GUILDS", "DIRECT_MESSAGES", "MESSAGE_CONTENT"],
        approved_privileged: ["MESSAGE_CONTENT"],
        install: ["Lab"],
      },
    ],
  });
  browser = await launch();
  const a = await s.as("alice", "GET", "/users/@me");
  const b = await s.as("bob", "GET", "/users/@me");
  const botUser = (await s.as("alice", "GET", `/guilds/${(await s.as("alice", "GET", "/guilds"))[0].id}/members`)).find(
    (m: any) => m.user.bot,
  ).user.id;
  ids = { alice: a.id, bob: b.id, bot: botUser, dm: "", botDm: "" };
  alice = await signIn(browser, s.base, "alice");
  bob = await signIn(browser, s.base, "bob");
  await devicesOf(s, "alice", 1);
  await devicesOf(s, "bob", 1);
  ids.dm = (await s.as("alice", "POST", "/users/@me/dms", { recipient_id: ids.bob })).id;
  ids.botDm = (await s.as("alice", "POST", "/users/@me/dms", { recipient_id: ids.bot })).id;
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

describe("two people in two browsers", () => {
  test("write to each other both ways and edit; each reads the other's text", async () => {
    await openDm(alice, "Bob");
    await openDm(bob, "Alice");
    const first = secret("hello-bob");
    await say(alice, "Bob", first);
    await message(bob.page, new RegExp(`^Alice ${first}$`)).waitFor();
    expect(await message(bob.page, new RegExp(first)).getByRole("img", { name: "End-to-end encrypted" }).count()).toBe(1);
    const reply = secret("hi-alice");
    await say(bob, "Alice", reply);
    await message(alice.page, new RegExp(`^Bob ${reply}$`)).waitFor();

    // An edit is encrypted again; the other side reads the new text.
    const edited = secret("hello-bob-edited");
    await act(message(alice.page, new RegExp(first)), "Edit");
    const box = alice.page.getByRole("textbox", { name: "Edit message" });
    await box.fill(edited);
    await box.press("Enter");
    await message(bob.page, new RegExp(`^Alice ${edited}$`)).waitFor();
    expect(await message(bob.page, new RegExp(edited)).textContent()).toContain("(edited)");

    // What the server holds is ciphertext, wrapped for exactly alice's and bob's devices.
    const stored = await s.as("bob", "GET", `/channels/${ids.dm}/messages`);
    const devices = [...(await devicesOf(s, "alice", 1)), ...(await devicesOf(s, "bob", 1))].map((d) => d.id).sort();
    for (const m of stored) {
      expect(m.content).toBe("");
      const env = parseEnvelope(m.ciphertext);
      expect(env.ok && env.envelope.wraps.map((w) => w.device).sort()).toEqual(devices);
    }
  }, 30_000);

  test("a DM starts from the member list: Message Carol opens it, and she reads what was sent", async () => {
    // Carol's browser holds a device before the message is sealed, so it is sealed for her.
    const carol = await signIn(browser, s.base, "carol");
    try {
      await devicesOf(s, "carol", 1);
      await alice.page.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Lab" }).click();
      const members = alice.page.getByRole("complementary", { name: "Members" });
      await members.getByRole("button", { name: "Message Bob" }).waitFor();
      expect(await members.getByRole("button", { name: "Message Alice" }).count()).toBe(0);
      await members.getByRole("button", { name: "Message Carol" }).click();
      await alice.page.getByRole("textbox", { name: "Message @Carol" }).waitFor();
      const hello = secret("hello-carol");
      await say(alice, "Carol", hello);
      await openDm(carol, "Alice");
      await message(carol.page, new RegExp(`^Alice ${hello}$`)).waitFor();
    } finally {
      await carol.context.close();
    }
  }, 30_000);

  test("a third person cannot read it, even holding the ciphertext and a device of her own", async () => {
    const refused = async (path: string) => {
      const r = await s.raw("carol", "GET", path);
      return [r.status, r.body?.code];
    };
    expect(await refused(`/channels/${ids.dm}/messages`)).toEqual([404, 10003]);
    expect(await refused(`/channels/${ids.dm}/devices`)).toEqual([404, 10003]);
    const keys = await generateDeviceKeys();
    const carolDevice = await s.as("carol", "POST", "/users/@me/devices", { name: "curious", keys: await publicKeysOf(keys) });
    const own = { id: carolDevice.id, keys, created_at: 0 };
    const all = [...(await s.as("alice", "GET", `/channels/${ids.dm}/devices`)), carolDevice].map((d: any) => ({
      id: d.id,
      user_id: d.user_id,
      keys: d.keys,
      created_at: Date.parse(d.created_at),
      removed_at: null,
    }));
    const stored = await s.as("alice", "GET", `/channels/${ids.dm}/messages`);
    expect(stored.length).toBe(2);
    for (const m of stored) {
      const r = await openMessage(
        m.ciphertext,
        { channelId: ids.dm, authorId: m.author.id, messageId: m.id, createdAt: Date.parse(m.created_at), edited: m.edited_at !== null },
        own,
        all,
      );
      expect(r.state).toBe("failed");
    }
  });

  test("a bot sees only the envelope of a person's DM, the page says so (and that it answers commands), and its own DM is marked plaintext", async () => {
    await openDm(alice, "EchoBot");
    // The person is told, where they type, what the bot can and cannot do here.
    await alice.page.getByText("EchoBot cannot read what you type here, but it can answer slash commands (type /).").waitFor();
    const toBot = secret("psst-bot");
    await say(alice, "EchoBot", toBot);
    await message(alice.page, new RegExp(`^Alice ${toBot}$`)).waitFor();
    const botDm = await s.bot("EchoBot", "POST", "/users/@me/channels", { recipient_id: s.world.users.alice.id });
    expect(botDm.status).toBe(200);
    const seen = await s.bot("EchoBot", "GET", `/channels/${botDm.body.id}/messages`);
    expect(seen.status).toBe(200);
    expect(seen.body[0]).toMatchObject({ content: "", embeds: [], service_e2e_encrypted: true });
    // The bot is not in alice and bob's DM at all.
    const dmFlake = (await s.harness("POST", "/users/alice/dms", { recipient_id: "bob", content: secret("for-the-flake") })).channel_id;
    const outside = await s.bot("EchoBot", "GET", `/channels/${dmFlake}/messages`);
    expect([outside.status, outside.body.code]).toEqual([404, 10003]);
    // A bot writes plaintext (spec 1.6), and the client says so.
    const said = await s.bot("EchoBot", "POST", `/channels/${botDm.body.id}/messages`, { content: "beep from the bot" });
    expect(said.status).toBe(200);
    const plain = message(alice.page, /^EchoBot beep from the bot$/);
    await plain.waitFor();
    expect(await plain.getByText("Not end-to-end encrypted").count()).toBe(1);
    expect(await message(alice.page, new RegExp(toBot)).getByText("Not end-to-end encrypted").count()).toBe(0);
  });
});

describe("the harness plays a person's device", () => {
  test("a harness-sent DM is read in the recipient's browser, and a browser-sent DM through the harness", async () => {
    await openDm(alice, "Bob");
    const fromHarness = secret("from-the-harness");
    const sent = await s.harness("POST", "/users/bob/dms", { recipient_id: "alice", content: fromHarness });
    await message(alice.page, new RegExp(`^Bob ${fromHarness}$`)).waitFor();
    // bob's browser reads it too: it was sealed for every device of both.
    await message(bob.page, new RegExp(`^Bob ${fromHarness}$`)).waitFor();

    const fromBrowser = secret("from-the-browser");
    await say(alice, "Bob", fromBrowser);
    await message(alice.page, new RegExp(`^Alice ${fromBrowser}$`)).waitFor();
    const read = await s.harness("GET", `/channels/${sent.channel_id}/messages?as=bob&limit=1`);
    expect(read[0]).toMatchObject({ content: fromBrowser, service_e2e_encrypted: true, service_e2e_state: "decrypted" });
  });
});

describe("what the server keeps", () => {
  test("the SQLite files and the server's output hold none of the texts", async () => {
    // A server message is plaintext by design: finding it proves the scan reads the files.
    const general = (await s.as("alice", "GET", "/guilds"))[0].channels[0].id;
    await s.as("alice", "POST", `/channels/${general}/messages`, { content: "server-canary-5512" });
    expect(secrets.length).toBeGreaterThan(5);
    expect(leaks(s, ["server-canary-5512"])).toEqual(["server-canary-5512"]);
    expect(leaks(s, secrets)).toEqual([]);
    await alice.context.close();
    await bob.context.close();
    await s.stop();
    expect(s.dbFiles().length).toBeGreaterThan(0);
    expect(leaks(s, secrets)).toEqual([]);
  }, 20_000);
});
