/**
 * Files, avatars and a server's emoji with a real discord.js 14 bot (issue 31): with
 * `rest: { api, cdn }` pointed at Parley, the bot downloads a person's attachments from
 * their `url` (identical bytes), their avatar from displayAvatarURL(), and reacts with
 * the server's emoji.
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
  ],
};

const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

let P: RunningParley;
let p: Parley;
let child: ChildProcess;
const lines: any[] = [];
let emojiFlake: string;
const avatar = png(10, 10, 4);

async function line(pred: (l: any) => boolean, what: string): Promise<any> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = lines.find(pred);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`the bot never printed ${what}: ${JSON.stringify(lines).slice(-2000)}`);
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
  child = spawn("/usr/bin/node", [join(import.meta.dir, "bots/js_files_bot.cjs"), P.baseUrl, P.tokenOf("FilesBot")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
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
}, 30_000);

afterAll(async () => {
  child?.kill();
  await P?.stop();
});

describe("discord.js", () => {
  test("a person's attachments and avatar download identical bytes; the bot reacts with the server's emoji", async () => {
    const ready = await line((l) => l.event === "ready", "ready");
    expect(ready.emojis).toEqual([[emojiFlake, "party"]]);
    const image = png(9, 7, 2);
    await P.as("bob").say("general", "a file", { files: [{ name: "shot.png", data: image, description: "alt" }] });
    const seen = await line((l) => l.scenario === "message", "the message");
    expect(seen.files).toEqual([
      { name: "shot.png", size: image.byteLength, contentType: "image/png", width: 9, height: 7, description: "alt", sha256: sha(image) },
    ]);
    expect(seen.avatarURL).toStartWith(`${P.baseUrl}/avatars/${P.world.users.bob.id}/`);
    expect(seen.avatar).toBe(sha(avatar));
    await P.as("bob").say("general", "!roles");
    expect(await line((l) => l.scenario === "react" || l.event === "error", "the reaction")).toEqual({ scenario: "react", ok: true });
  }, 60_000);
});
