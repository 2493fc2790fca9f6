/**
 * A real discord.js bot against Parley, driven through the harness: a seeded person
 * says "!ping", the bot answers, and the harness shows the answer. First over the raw
 * harness HTTP API (the bot in a node child process), then through the test SDK by
 * running the README's example verbatim. Needs the gateway.
 */
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeParley, BASIC_WORLD } from "../helpers";

const ROOT = join(import.meta.dir, "../..");
const BUN = process.execPath;

const BOT_SCRIPT = `
const { Client, GatewayIntentBits: I } = require("discord.js");
const client = new Client({ intents: [I.Guilds, I.GuildMessages, I.MessageContent], rest: { api: process.env.API } });
client.on("ready", () => console.log("ready " + client.user.id));
client.on("messageCreate", (m) => {
  if (m.author.id === client.user.id) return;
  if (m.content === "!ping") m.reply("pong from " + client.user.username).catch((e) => console.error(e));
});
client.login(process.env.TOKEN).catch((e) => { console.error(e); process.exit(3); });
`;

async function within<T>(ms: number, what: string, fn: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("a discord.js bot seen through the harness", () => {
  test("raw harness: seed, bot connects, a person says !ping, the bot's pong is in the channel", async () => {
    const p = makeParley();
    p.listen();
    const base = p.api.urls.base;
    const h = (method: string, path: string, body?: unknown) =>
      fetch(`${base}/api/harness/v1${path}`, {
        method,
        headers: { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const world = (await (await h("POST", "/seed", BASIC_WORLD)).json()) as any;
    const dir = join(ROOT, "test/compat/.bot-" + process.pid);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "bot.cjs"), BOT_SCRIPT);
    const child = spawn("/usr/bin/node", [join(dir, "bot.cjs")], {
      cwd: ROOT,
      env: { ...process.env, API: `${base}/api`, TOKEN: world.applications.EchoBot.token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    try {
      await within(20_000, `the bot to be ready (output: ${out})`, async () => (/ready \d+/.test(out) ? true : undefined));
      const said = (await (
        await h("POST", "/users/alice/messages", { channel_id: world.guilds.Lab.channels.general, content: "!ping" })
      ).json()) as any;
      const answer = await within(10_000, "the bot's answer", async () => {
        const list = (await (await h("GET", `/channels/${world.guilds.Lab.channels.general}/messages?as=alice`)).json()) as any[];
        return list.find((m) => m.author.id === world.applications.EchoBot.bot_user_id);
      });
      expect(answer.content).toBe("pong from EchoBot");
      expect(answer.message_reference.message_id).toBe(said.id);
    } finally {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      await p.stop();
    }
  }, 40_000);

  test("the README example (SDK + discord.js) runs and passes as written", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const m = /<!-- readme-example: discord.js -->\n```ts\n([\s\S]*?)```/.exec(readme);
    expect(m).not.toBeNull();
    const code = m![1];
    expect(code.trim().split("\n").length).toBeLessThan(30);
    const dir = join(ROOT, "test/compat/.readme-" + process.pid);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "readme-example.test.ts");
    writeFileSync(file, code);
    try {
      const child = spawn(BUN, ["test", "--timeout", "30000", file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      const code = await new Promise<number | null>((r) => child.on("exit", r));
      expect({ code, pass: /\b1 pass\b/.test(out), out: code === 0 ? "" : out }).toEqual({ code: 0, pass: true, out: "" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
