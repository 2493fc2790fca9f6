/**
 * What real discord.js bots broke on (issue "Fidelity"): a bot that looks its webhook up
 * (fetchWebhooks) to post through it found no token; the reference shows incoming
 * webhooks' tokens to those who may manage them, and so does Parley now. And one
 * anonymous request spelling a channel's id with a leading zero made every later frame
 * carry that spelling, so discord.js, whose cache is keyed by the id it was given in
 * GUILD_CREATE, stopped hearing the channel (docs/security.md, finding 1).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client, GatewayIntentBits as I, type Message, type TextChannel } from "discord.js";
import { startParley, type RunningParley } from "../../src/testing";

const WORLD = {
  users: [{ name: "alice" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      roles: [{ name: "Hooks", permissions: ["MANAGE_CHANNELS", "SEND_MESSAGES"], members: ["HookBot"] }],
      channels: [{ name: "general" }],
    },
  ],
  applications: [
    { name: "HookBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] },
    {
      name: "Listener",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
      approved_privileged: ["MESSAGE_CONTENT"],
      install: ["Lab"],
    },
  ],
};

let parley: RunningParley;
const clients: Client[] = [];

async function login(app = "HookBot", intents: number[] = [I.Guilds, I.GuildMessages]): Promise<Client> {
  const c = new Client({ intents, rest: { api: parley.apiBase } });
  clients.push(c);
  await c.login(parley.tokenOf(app));
  await new Promise<void>((r) => (c.isReady() ? r() : c.once("clientReady" as never, () => r())));
  return c;
}

beforeAll(async () => {
  parley = await startParley({ world: WORLD });
});

afterAll(async () => {
  for (const c of clients) await c.destroy();
  await parley?.stop();
});

describe("discord.js", () => {
  test("a webhook looked up with fetchWebhooks() carries its token, and send() posts through it", async () => {
    // One run of the bot made the webhook; a later run (a new process) finds it again.
    const first = await login();
    const made = await ((await first.channels.fetch(parley.channelId("general"))) as TextChannel).createWebhook({ name: "Announcer" });
    expect(made.token).toBeString();
    await first.destroy();

    const later = await login();
    const channel = (await later.channels.fetch(parley.channelId("general"))) as TextChannel;
    const hook = (await channel.fetchWebhooks()).find((h) => h.name === "Announcer")!;
    expect(hook.token).toBe(made.token);
    const sent = await hook.send({ content: "through the webhook", username: "Herald" });
    expect(sent.webhookId).toBe(made.id);
    const seen = await parley.waitForMessage("general", (m) => m.content === "through the webhook");
    expect(seen.author).toMatchObject({ id: made.id, username: "Herald" });
  });

  test("still hears a channel after an anonymous request spelled its id with a leading zero", async () => {
    const bot = await login("Listener", [I.Guilds, I.GuildMessages, I.MessageContent]);
    const general = parley.channelId("general");
    const probe = await fetch(`${parley.restBase}/webhooks/0${general}/x`);
    expect(probe.status).toBe(404);
    const heard = new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the bot never heard the message")), 4000);
      bot.on("messageCreate", (m) => m.content === "still there?" && (clearTimeout(timer), resolve(m)));
    });
    await parley.as("alice").say("general", "still there?");
    const m = await heard;
    expect(m.channelId).toBe(general);
    expect(m.channel.id).toBe(general);
    expect(bot.channels.cache.has(general)).toBe(true);
    expect((await bot.channels.fetch(general))?.id).toBe(general);
  });
});
