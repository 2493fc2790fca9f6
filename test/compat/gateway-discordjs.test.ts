/**
 * A real discord.js 14 client against Parley's gateway: login to clientReady with the
 * guild available and channels cached, message content with and without
 * MESSAGE_CONTENT, RESUME after a server-side 4000 close, and the 4014 refusal.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client, Events, GatewayIntentBits, type Message } from "discord.js";
import type { Parley } from "../../src/app";
import { SPEC_RATE_LIMITS } from "../../src/config";
import { makeParley } from "../helpers";
import { seedGatewayWorld, type World } from "../gateway/client";
import { next } from "./support";

let p: Parley;
let W: World;
const clients: Client[] = [];

function newClient(intents: GatewayIntentBits[]): Client {
  const c = new Client({ intents, rest: { api: p.api.urls.base + "/api" } });
  clients.push(c);
  return c;
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
  for (const c of clients) await c.destroy();
  await p.stop();
});

describe("discord.js 14", () => {
  let client: Client;

  test("logs in and reaches clientReady with the guild available and channels cached", async () => {
    client = newClient([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent]);
    const ready = next(client, "clientReady");
    await client.login(W.w.applications.AllBot.token);
    await ready;
    expect(client.user!.id).toBe(W.w.applications.AllBot.bot_user_id);
    const guild = client.guilds.cache.get(W.w.guilds.Lab.id)!;
    expect(guild.available).toBe(true);
    expect(guild.name).toBe("Lab");
    expect(client.channels.cache.get(W.w.guilds.Lab.channels.general)?.isTextBased()).toBe(true);
    expect(guild.members.me?.id).toBe(W.w.applications.AllBot.bot_user_id);
  });

  test("a person's message arrives as messageCreate with content (MESSAGE_CONTENT)", async () => {
    const got = next<[Message]>(client, Events.MessageCreate, (m) => m.content === "hello bot");
    const row = say("hello bot");
    const [m] = await got;
    expect(m.id).toBe(p.api.flakes.of(row.id));
    expect(m.author.id).toBe(W.w.users.bob.id);
    expect(m.guildId).toBe(W.w.guilds.Lab.id);
    expect(m.channelId).toBe(W.w.guilds.Lab.channels.general);
  });

  test("after the server closes with 4000 the client resumes and receives what it missed", async () => {
    const [session] = p.gateway.sessionsOf(W.app("AllBot")).filter((s) => s.connected);
    const resumed = next<[number, number]>(client, Events.ShardResume);
    const missed = next<[Message]>(client, Events.MessageCreate, (m) => m.content === "missed while away");
    expect(p.gateway.disconnect(session.session_id, 4000)).toBe(true);
    say("missed while away"); // recorded by the closed session, replayed on RESUME
    await resumed;
    const [m] = await missed;
    expect(m.author.id).toBe(W.w.users.bob.id);
    const after = p.gateway.sessionsOf(W.app("AllBot"));
    expect(after).toEqual([expect.objectContaining({ session_id: session.session_id, connected: true })]);
  });

  test("without MESSAGE_CONTENT in the token the content is withheld", async () => {
    const plain = newClient([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    const ready = next(plain, "clientReady");
    await plain.login(W.w.applications.PlainBot.token);
    await ready;
    const got = next<[Message]>(plain, Events.MessageCreate, (m) => m.author.id === W.w.users.bob.id);
    const row = say("secret words");
    const [m] = await got;
    expect(m.id).toBe(p.api.flakes.of(row.id));
    expect(m.content).toBe("");
  });

  test("IDENTIFY with an unapproved privileged intent rejects with 'Used disallowed intents'", async () => {
    const bad = newClient([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent]);
    await expect(bad.login(W.w.applications.PlainBot.token)).rejects.toThrow("Used disallowed intents");
  });
});
