/**
 * Finding 5 with real clients (docs/security.md): a discord.js bot is connected when the
 * operator runs `parley app rotate` as a process of its own beside the server; the bot
 * sees its session end (op 9) within a second of that command, with no request from
 * anyone to wake the server, and its old token is refused.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, Events, GatewayIntentBits as I } from "discord.js";
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import { next } from "./support";

const MAIN = join(import.meta.dir, "../../src/main.ts");
const dir = mkdtempSync(join(tmpdir(), "parley-rotate-"));
let p: Parley;
let world: ReturnType<Parley["seed"]>;

beforeAll(() => {
  p = createParley(testConfig({ data: dir, dbPath: join(dir, "parley.db") }));
  world = p.seed({
    users: [{ name: "alice" }],
    guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
    applications: [{ name: "RotBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
  });
  p.listen();
});

afterAll(async () => {
  await p.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `promise`, or a failure naming `what` once `ms` have passed (the timer goes either way). */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

test("a discord.js bot sees its session end within a second of `parley app rotate` run in another process", async () => {
  const bot = new Client({ intents: [I.Guilds, I.GuildMessages], rest: { api: `${p.api.urls.base}/api` } });
  try {
    const ready = next(bot, Events.ClientReady, () => true, 15_000);
    await bot.login(world.applications.RotBot.token);
    await ready;
    const appId = p.api.flakes.uuid(world.applications.RotBot.id)!;
    expect(p.gateway.sessionsOf(appId)).toHaveLength(1);

    // discord.js reports op 9 on its debug channel; listened for before the command runs.
    const invalidated = next<[string]>(bot, Events.Debug, (line) => /Invalid session/.test(line), 30_000);
    invalidated.catch(() => undefined);
    const proc = Bun.spawn([process.execPath, MAIN, "app", "rotate", "RotBot", "--data", dir], { stdout: "pipe", stderr: "pipe" });
    expect(await proc.exited).toBe(0);
    const printed = await new Response(proc.stdout).text();
    expect(printed).toMatch(/token \(shown once\): \S+/);

    // Nothing but the server's own look (four times a second) can end it: no request is
    // made. The bound leaves room for a busy machine; the test is that it ends unprompted.
    const [line] = await within(5000, invalidated, "the session was still live 5 s after the command ended");
    expect(line).toContain("Invalid session; will attempt to resume: false");
    expect(p.gateway.sessionsOf(appId).filter((s) => s.connected)).toEqual([]);
    const err: any = await bot.guilds.fetch({ guild: world.guilds.Lab.id, force: true }).catch((e) => e);
    expect(err.status).toBe(401);
  } finally {
    await Promise.race([bot.destroy(), Bun.sleep(2000)]);
  }
}, 60_000);
