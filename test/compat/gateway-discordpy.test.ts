/**
 * A real discord.py 2.2 bot (child process, /usr/bin/python3) against Parley's gateway:
 * on_ready with the guild and channels, on_message with and without content, on_resumed
 * after a server-side 4000 close, and PrivilegedIntentsRequired on a 4014.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Parley } from "../../src/app";
import { SPEC_RATE_LIMITS } from "../../src/config";
import { makeParley } from "../helpers";
import { seedGatewayWorld, type World } from "../gateway/client";
import { PyBot } from "./support";

const BOUND_MS = 8000;
setDefaultTimeout(15_000);

let p: Parley;
let W: World;
const bots: PyBot[] = [];

function start(token: string, mode: "content" | "plain"): PyBot {
  const b = PyBot.start("gateway-dpy.py", [p.api.urls.base, p.api.urls.gateway, token, mode], BOUND_MS);
  bots.push(b);
  return b;
}

function say(content: string) {
  return p.core.messages.create({ channelId: W.channel("Lab", "general"), authorId: W.person("bob"), content });
}

beforeAll(() => {
  p = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  W = seedGatewayWorld(p);
  p.listen();
});

afterAll(async () => {
  for (const b of bots) await b.stop();
  await p.stop();
});

// discord.py waits guild_ready_timeout (2 s) after the last GUILD_CREATE before on_ready.
describe("discord.py 2.2", () => {
  let bot: PyBot;

  test("on_ready with the guild available and its channels", async () => {
    bot = start(W.w.applications.AllBot.token, "content");
    const ready = await bot.next((l) => l.event === "ready" || l.event === "error");
    expect(ready).toEqual({
      event: "ready",
      user: W.w.applications.AllBot.bot_user_id,
      bot: true,
      guilds: [{ id: W.w.guilds.Lab.id, name: "Lab", unavailable: false, channels: ["general", "staff"] }],
    });
  });

  test("on_message with content (MESSAGE_CONTENT)", async () => {
    const row = say("hello python");
    const m = await bot.next((l) => l.event === "message");
    expect(m).toEqual({ event: "message", id: p.api.flakes.of(row.id), content: "hello python", author: W.w.users.bob.id, guild: W.w.guilds.Lab.id });
  });

  test("after a 4000 close: on_resumed and the missed message", async () => {
    const [s] = p.gateway.sessionsOf(W.app("AllBot")).filter((x) => x.connected);
    expect(p.gateway.disconnect(s.session_id, 4000)).toBe(true);
    say("missed while away");
    await bot.next((l) => l.event === "resumed");
    const m = await bot.next((l) => l.event === "message");
    expect(m.content).toBe("missed while away");
    // Replayed before RESUMED, as the spec orders it.
    expect(bot.lines.slice(-2).map((l) => l.event)).toEqual(["message", "resumed"]);
    expect(p.gateway.sessionsOf(W.app("AllBot"))).toEqual([expect.objectContaining({ session_id: s.session_id, connected: true })]);
  });

  test("without MESSAGE_CONTENT the content is empty", async () => {
    const plain = start(W.w.applications.PlainBot.token, "plain");
    await plain.next((l) => l.event === "ready");
    const row = say("secret python");
    const m = await plain.next((l) => l.event === "message" && l.id === p.api.flakes.of(row.id));
    expect(m.content).toBe("");
  });

  test("an unapproved privileged intent raises PrivilegedIntentsRequired", async () => {
    const bad = start(W.w.applications.PlainBot.token, "content");
    expect(await bad.next((l) => l.event !== "ready")).toEqual({ event: "privileged_intents_required" });
  });
});
