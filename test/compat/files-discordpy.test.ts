/**
 * Files, avatars and a server's emoji with a real discord.py 2.x bot (issue 31): the
 * library reads a person's attachments, downloads identical bytes with Attachment.read()
 * (and nothing without MESSAGE_CONTENT), downloads an avatar through display_avatar once
 * its CDN base is Parley's, reacts with the server's emoji and gives a role for a
 * reaction with it, the flow of discord.py's reaction_roles example (which got 10014
 * before a server could have an emoji).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import type { Parley } from "../../src/app";
import { serverOf } from "../helpers";
import { png } from "../support/png";
import { PyBot, requireDiscordPy } from "./support";

const WAIT_MS = 15_000;
const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob"],
      roles: [
        { name: "Reacted", permissions: [] },
        { name: "BotRole", permissions: ["MANAGE_ROLES", "SEND_MESSAGES"], members: ["FilesBot"] },
      ],
      channels: [{ name: "general" }],
    },
  ],
  applications: [
    {
      name: "FilesBot",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MEMBERS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "GUILD_MESSAGE_REACTIONS"],
      approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"],
      install: ["Lab"],
    },
    {
      name: "PlainBot",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MESSAGES", "GUILD_MEMBERS", "GUILD_MESSAGE_REACTIONS"],
      approved_privileged: ["GUILD_MEMBERS"],
      install: ["Lab"],
    },
  ],
};

const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

let P: RunningParley;
let p: Parley;
let bot: PyBot;
let plain: PyBot;
let emojiFlake: string;
const avatar = png(12, 12, 5);

beforeAll(async () => {
  requireDiscordPy();
  P = await startParley({ world: WORLD });
  p = serverOf(P);
  const id = (flake: string) => p.api.flakes.uuid(flake)!;
  const w = P.world;
  const e = await p.core.emojis.create(id(w.users.alice.id), id(w.guilds.Lab.id), { name: "party", image: { bytes: png(4, 4, 1) } });
  emojiFlake = p.api.flakes.of(e.id);
  await p.core.media.setAvatar(id(w.users.bob.id), { bytes: avatar });
  const role = w.guilds.Lab.roles.Reacted;
  bot = PyBot.start("py_files_bot.py", [P.baseUrl, P.gatewayUrl, P.tokenOf("FilesBot"), role, "yes"], WAIT_MS);
  plain = PyBot.start("py_files_bot.py", [P.baseUrl, P.gatewayUrl, P.tokenOf("PlainBot"), role, "no"], WAIT_MS);
}, 90_000);

afterAll(async () => {
  await bot?.stop();
  await plain?.stop();
  await P?.stop();
});

describe("discord.py", () => {
  test("on_ready: the server's emoji from GUILD_CREATE", async () => {
    const ready = await bot.event("ready");
    expect(ready.emojis).toEqual([[emojiFlake, "party"]]);
    expect(ready.avatar).toStartWith(`${P.baseUrl}/embed/avatars/`);
    await plain.event("ready");
  }, 30_000);

  test("a person's attachments: identical bytes through Attachment.read(); none without MESSAGE_CONTENT", async () => {
    const image = png(9, 7, 2);
    const text = new TextEncoder().encode("plain words\n");
    await P.as("bob").say("general", "two files", {
      files: [
        { name: "shot.png", data: image, description: "a screenshot" },
        { name: "notes.txt", data: text },
      ],
    });
    const seen = await bot.scenario("message", (l) => l.content === "two files");
    expect(seen.files).toEqual([
      {
        filename: "shot.png",
        size: image.byteLength,
        content_type: "image/png",
        width: 9,
        height: 7,
        description: "a screenshot",
        sha256: sha(image),
      },
      {
        filename: "notes.txt",
        size: text.byteLength,
        content_type: "text/plain; charset=utf-8",
        width: null,
        height: null,
        description: null,
        sha256: sha(text),
      },
    ]);
    expect(seen.avatar_url).toContain(`/avatars/${P.world.users.bob.id}/`);
    expect(seen.avatar_sha256).toBe(sha(avatar));
    const hidden = await plain.scenario("message", (l) => l.files.length === 0 && l.content === "");
    expect(hidden.avatar_sha256).toBe(sha(avatar));
  }, 30_000);

  test("reaction roles: the bot reacts with the server's emoji, and a person's reaction with it gives the role", async () => {
    const m = await P.as("bob").say("general", "!roles");
    expect(await bot.scenario("react")).toEqual({ scenario: "react", ok: true });
    await P.as("bob").react("general", m.id, `party:${emojiFlake}`);
    const given = await bot.scenario("role");
    expect(given).toEqual({ scenario: "role", ok: true, emoji: `<:party:${emojiFlake}>`, user: P.world.users.bob.id });
    const roles = p.core.guilds.memberRoleIds(p.api.flakes.uuid(P.world.guilds.Lab.id)!, p.api.flakes.uuid(P.world.users.bob.id)!);
    expect(roles).toContain(p.api.flakes.uuid(P.world.guilds.Lab.roles.Reacted)!);
  }, 30_000);

  test("an emoji added, renamed and deleted while connected: GUILD_UPDATE keeps the library's cache right", async () => {
    const id = (flake: string) => p.api.flakes.uuid(flake)!;
    const alice = id(P.world.users.alice.id);
    const lab = id(P.world.guilds.Lab.id);
    const wave = await p.core.emojis.create(alice, lab, { name: "wave", image: { bytes: png(3, 3, 3) } });
    await P.as("bob").say("general", "!emojis");
    expect((await bot.scenario("emojis")).names).toEqual(["party", "wave"]);
    p.core.emojis.edit(alice, lab, wave.id, { name: "hello" });
    await P.as("bob").say("general", "!emojis");
    expect((await bot.scenario("emojis")).names).toEqual(["hello", "party"]);
    p.core.emojis.delete(alice, lab, wave.id);
    await P.as("bob").say("general", "!emojis");
    expect((await bot.scenario("emojis")).names).toEqual(["party"]);
  }, 30_000);
});
