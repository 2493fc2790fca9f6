/**
 * Files, avatars and a server's emoji with a real discord.js 14 bot (issue 31): with
 * `rest: { api, cdn }` pointed at Parley, the bot downloads a person's attachments from
 * their `url` (identical bytes), their avatar from displayAvatarURL(), and reacts with
 * the server's emoji. A bot without MESSAGE_CONTENT sees none of a person's attachments.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { startParley, type RunningParley } from "../../src/testing";
import type { Parley } from "../../src/app";
import { serverOf } from "../helpers";
import { png } from "../support/png";

const ROOT = join(import.meta.dir, "../..");
const WAIT_MS = 20_000;
const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }],
  guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }] }],
  applications: [
    {
      name: "FilesBot",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "GUILD_MESSAGE_REACTIONS"],
      approved_privileged: ["MESSAGE_CONTENT"],
      install: ["Lab"],
    },
    { name: "PlainBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES", "GUILD_MESSAGE_REACTIONS"], install: ["Lab"] },
  ],
};

const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

let P: RunningParley;
let p: Parley;
let bot: JsBot;
let plain: JsBot;
let emojiFlake: string;
const avatar = png(10, 10, 4);

/** A bot child printing JSON lines, collected as they come. */
interface JsBot {
  child: ChildProcess;
  lines: any[];
}

function startBot(token: string, content: "yes" | "no"): JsBot {
  const child = spawn("/usr/bin/node", [join(import.meta.dir, "bots/js_files_bot.cjs"), P.baseUrl, token, content], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: any[] = [];
  let buf = "";
  child.stdout!.on("data", (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const l = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (l.startsWith("{")) lines.push(JSON.parse(l));
    }
  });
  child.stderr!.on("data", (d) => lines.push({ event: "stderr", text: String(d) }));
  return { child, lines };
}

async function line(b: JsBot, pred: (l: any) => boolean, what: string): Promise<any> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = b.lines.find(pred);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`the bot never printed ${what}: ${JSON.stringify(b.lines).slice(-2000)}`);
    await Bun.sleep(25);
  }
}

beforeAll(async () => {
  P = await startParley({ world: WORLD });
  p = serverOf(P);
  const id = (flake: string) => p.api.flakes.uuid(flake)!;
  const e = await p.core.emojis.create(id(P.world.users.alice.id), id(P.world.guilds.Lab.id), {
    name: "party",
    image: { bytes: png(4, 4, 1) },
  });
  emojiFlake = p.api.flakes.of(e.id);
  await p.core.media.setAvatar(id(P.world.users.bob.id), { bytes: avatar });
  bot = startBot(P.tokenOf("FilesBot"), "yes");
  plain = startBot(P.tokenOf("PlainBot"), "no");
}, 30_000);

afterAll(async () => {
  bot?.child.kill();
  plain?.child.kill();
  await P?.stop();
});

describe("discord.js", () => {
  test("a person's attachments and avatar download identical bytes; the bot reacts with the server's emoji", async () => {
    const ready = await line(bot, (l) => l.event === "ready", "ready");
    expect(ready.emojis).toEqual([[emojiFlake, "party"]]);
    const image = png(9, 7, 2);
    await P.as("bob").say("general", "a file", { files: [{ name: "shot.png", data: image, description: "alt" }] });
    const seen = await line(bot, (l) => l.scenario === "message", "the message");
    expect(seen.files).toEqual([
      { name: "shot.png", size: image.byteLength, contentType: "image/png", width: 9, height: 7, description: "alt", sha256: sha(image) },
    ]);
    expect(seen.avatarURL).toStartWith(`${P.baseUrl}/avatars/${P.world.users.bob.id}/`);
    expect(seen.avatar).toBe(sha(avatar));
    await P.as("bob").say("general", "!roles");
    expect(await line(bot, (l) => l.scenario === "react" || l.event === "error", "the reaction")).toEqual({ scenario: "react", ok: true });
  }, 60_000);

  test("a bot without MESSAGE_CONTENT sees none of a person's attachments", async () => {
    await line(plain, (l) => l.event === "ready", "ready");
    await P.as("bob").say("general", "a file for some", { files: [{ name: "hidden.png", data: png(5, 5, 7) }] });
    // The message as a bot holding the intent sees it, then the same message (by id) as this bot sees it.
    const full = await line(bot, (l) => l.content === "a file for some", "the message with the intent");
    expect(full.files.map((f: { name: string }) => f.name)).toEqual(["hidden.png"]);
    const seen = await line(plain, (l) => l.id === full.id || l.event === "error", "the message");
    expect(seen).toMatchObject({ scenario: "message", content: "", files: [] });
  }, 60_000);
});
