/**
 * Pins and history around a message, as real bots call them: discord.js 14's
 * `message.pin()`, `fetchPins()` (the current /messages/pins page), the deprecated
 * `fetchPinned()` and `messages.fetch({ around })`; discord.py 2.2's `message.pin()`,
 * `channel.pins()` and `history(around=)` (the deprecated /pins routes). Each bot sees
 * the type 6 system message a pin posts, and no pins event (spec 6.2).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client, Events, GatewayIntentBits as I, MessageType, type Message, type TextChannel } from "discord.js";
import { spawn } from "bun";
import { join } from "node:path";
import { startMatrix, type MatrixServer } from "./bots/js-world";
import { BOTS, PYTHON, next, requireDiscordPy } from "./support";

let m: MatrixServer;
let bot: Client;

beforeAll(async () => {
  m = await startMatrix();
  bot = new Client({ intents: [I.Guilds, I.GuildMessages, I.MessageContent], rest: { api: m.sdk.apiBase } });
  const ready = next(bot, Events.ClientReady);
  await bot.login(m.sdk.tokenOf("FullBot"));
  await ready;
});

afterAll(async () => {
  await Promise.race([bot?.destroy(), Bun.sleep(2000)]);
  await m?.sdk.stop();
});

const channel = () => bot.channels.cache.get(m.sdk.channelId("general")) as TextChannel;

describe("discord.js 14", () => {
  test("message.pin() posts the type 6 message; fetchPins() and fetchPinned() list it; unpin() empties both", async () => {
    const said = await m.sdk.as("bob").say("general", "pin this, djs");
    const msg = await channel().messages.fetch(said.id);
    const system = next<[Message]>(bot, Events.MessageCreate, (x) => x.type === MessageType.ChannelPinnedMessage);
    await msg.pin("worth keeping");
    const [notice] = await system;
    expect(notice.reference?.messageId).toBe(said.id);
    expect(notice.author.id).toBe(bot.user!.id);

    const page = await channel().messages.fetchPins();
    expect(page.hasMore).toBe(false);
    expect(page.items.map((i) => i.message.id)).toEqual([said.id]);
    expect(page.items[0].message.pinned).toBe(true);
    expect(Number.isFinite(page.items[0].pinnedTimestamp)).toBe(true);
    expect([...(await channel().messages.fetchPinned()).keys()]).toEqual([said.id]);

    await msg.unpin();
    expect((await channel().messages.fetchPins()).items).toEqual([]);
    expect((await channel().messages.fetchPinned()).size).toBe(0);
  });

  test("a person pins through the test SDK: the bot sees the notice by them and the message pinned", async () => {
    const said = await m.sdk.as("bob").say("general", "a person pins this");
    const system = next<[Message]>(
      bot,
      Events.MessageCreate,
      (x) => x.type === MessageType.ChannelPinnedMessage && x.reference?.messageId === said.id,
    );
    await m.sdk.as("alice").pin("general", said.id);
    const [notice] = await system;
    expect(notice.author.id).toBe(m.sdk.world.users.alice.id);
    expect((await channel().messages.fetch({ message: said.id, force: true })).pinned).toBe(true);
    await m.sdk.as("alice").unpin("general", said.id);
    expect((await channel().messages.fetch({ message: said.id, force: true })).pinned).toBe(false);
  });

  test("messages.fetch({ around }) answers the message with its neighbours", async () => {
    const ids: string[] = [];
    for (const t of ["one", "two", "three", "four", "five"]) ids.push((await m.sdk.as("carol").say("general", `around ${t}`)).id);
    const got = await channel().messages.fetch({ around: ids[2], limit: 3, cache: false });
    expect([...got.keys()].sort()).toEqual([ids[1], ids[2], ids[3]].sort());
  });
});

describe("discord.py 2.2", () => {
  test("message.pin(), channel.pins(), history(around=), message.unpin()", async () => {
    requireDiscordPy();
    const before = await m.sdk.as("dave").say("general", "py before");
    const said = await m.sdk.as("bob").say("general", "pin this, py");
    const after = await m.sdk.as("dave").say("general", "py after");
    const proc = spawn([PYTHON, join(BOTS, "py_pins.py"), m.sdk.baseUrl, m.sdk.tokenOf("FullBot"), m.sdk.channelId("general"), said.id], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const timer = setTimeout(() => proc.kill(), 20_000);
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    clearTimeout(timer);
    const line = out.split("\n").find((l) => l.startsWith("{"));
    if (!line) throw new Error(`discord.py printed nothing; stderr: ${err.slice(-3000)}`);
    const seen = JSON.parse(line);
    expect(seen.pinned).toEqual([said.id]);
    expect(seen.flags).toEqual([true]);
    expect([...seen.around].sort()).toEqual([before.id, said.id, after.id].sort());
    expect(seen.after).toEqual([]);
    const history = await m.sdk.messages("general", { as: "alice", limit: 5 });
    expect(history.some((x) => x.type === 6 && x.message_reference?.message_id === said.id)).toBe(true);
  });
});
