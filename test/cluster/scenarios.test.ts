/**
 * The compatibility scenarios with requests spread across nodes (issue 26): a real
 * discord.js bot whose REST calls go through a round-robin balancer, so one call lands
 * on node A and the next on node B, and whose gateway session sits on whichever node the
 * balancer gave it; the people around it act through both nodes' harness in turn. A bot
 * must not be able to tell it talks to two nodes: every event arrives once, every answer
 * is the one a single node gives, and state a call made on one node (an interaction's
 * deferral, a message to edit, a role) is there for the next call on the other.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Cluster, ClusterNode } from "../support/cluster";
import { startSharedNodes, type SharedNodes } from "../support/shared-nodes";
import { ENGINE_MS } from "../support/engines";

const ROOT = join(import.meta.dir, "../..");
const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob"],
      roles: [
        { name: "Helper", permissions: [] },
        { name: "Spread", permissions: ["MANAGE_ROLES", "MANAGE_MESSAGES", "MANAGE_CHANNELS"], members: ["SpreadBot"] },
      ],
      channels: [{ name: "general" }],
    },
  ],
  applications: [
    {
      name: "SpreadBot",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MEMBERS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "GUILD_MESSAGE_REACTIONS"],
      approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"],
      install: ["Lab"],
    },
  ],
};

/** The bot: every line it prints is one JSON event the test reads. */
const BOT = `
const { Client, GatewayIntentBits: I, Partials } = require("discord.js");
const client = new Client({
  intents: [I.Guilds, I.GuildMembers, I.GuildMessages, I.MessageContent, I.GuildMessageReactions],
  partials: [Partials.Message, Partials.Reaction],
  rest: { api: process.env.API },
});
const emit = (o) => console.log(JSON.stringify(o));
const fail = (what) => (e) => emit({ event: "error", what, text: String(e && e.message || e), code: e && e.code });
client.on("ready", async () => {
  const guild = client.guilds.cache.first();
  await guild.commands.set([{ name: "echo", description: "Say it back", options: [{ type: 3, name: "text", description: "What", required: true }] }]);
  emit({ event: "ready", guild: guild.id });
});
client.on("messageCreate", async (m) => {
  if (m.author.id === client.user.id) return;
  emit({ event: "message", id: m.id, content: m.content });
  try {
    if (m.content === "!ping") await m.reply("pong");
    if (m.content === "!edit") {
      const sent = await m.channel.send("draft");
      const edited = await sent.edit("final");
      const read = await m.channel.messages.fetch({ message: sent.id, force: true });
      emit({ event: "edited", id: sent.id, content: edited.content, read: read.content });
    }
    if (m.content === "!react") {
      await m.react("👍");
      await m.react("🎉");
      const read = await m.channel.messages.fetch({ message: m.id, force: true });
      emit({ event: "reacted", emoji: read.reactions.cache.map((r) => r.emoji.name).sort() });
    }
    if (m.content === "!role") {
      const role = m.guild.roles.cache.find((r) => r.name === "Helper");
      await m.member.roles.add(role);
      const fresh = await m.guild.members.fetch({ user: m.author.id, force: true });
      // One GuildMember object, patched by each fetch: read it before the next.
      const had = fresh.roles.cache.has(role.id);
      await m.member.roles.remove(role);
      const after = await m.guild.members.fetch({ user: m.author.id, force: true });
      emit({ event: "role", had, after: after.roles.cache.has(role.id) });
    }
    if (m.content === "!channel") {
      const ch = await m.guild.channels.create({ name: "made-by-bot" });
      const again = await client.channels.fetch(ch.id, { force: true });
      await ch.send("hello from the new channel");
      const last = await ch.messages.fetch({ limit: 5 });
      await ch.delete();
      emit({ event: "channel", name: again.name, messages: last.map((x) => x.content) });
    }
    if (m.content === "!history") {
      const sent = [];
      for (let i = 0; i < 6; i++) sent.push((await m.channel.send("n" + i)).id);
      const page = await m.channel.messages.fetch({ limit: 6, force: true });
      await m.channel.bulkDelete(sent);
      emit({ event: "history", ids: [...page.keys()].sort(), sent: sent.sort() });
    }
  } catch (e) { fail(m.content)(e); }
});
// How its session went: a reconnect, a RESUME or op 9 shows here when a wait fails.
client.on("shardReconnecting", () => emit({ event: "session", what: "reconnecting" }));
client.on("shardResume", () => emit({ event: "session", what: "resumed" }));
client.on("invalidated", () => emit({ event: "session", what: "invalidated" }));
client.on("shardError", (e) => emit({ event: "session", what: "error", text: String(e && e.message) }));
client.on("messageUpdate", (_, m) => emit({ event: "update", id: m.id, content: m.content }));
client.on("messageDelete", (m) => emit({ event: "delete", id: m.id }));
client.on("messageReactionAdd", (r, u) => { if (u.id !== client.user.id) emit({ event: "reaction", emoji: r.emoji.name, user: u.id }); });
client.on("interactionCreate", async (i) => {
  if (!i.isChatInputCommand()) return;
  try {
    await i.deferReply();
    await i.editReply("echo: " + i.options.getString("text"));
    const f = await i.followUp("and once more");
    await i.webhook.editMessage(f.id, { content: "and once more, edited" });
    emit({ event: "interaction", id: i.id });
  } catch (e) { fail("interaction")(e); }
});
client.login(process.env.TOKEN).catch((e) => { fail("login")(e); process.exit(3); });
`;

let nodes: SharedNodes;
let cluster: Cluster;
let botDir = "";
let bot: ChildProcess;
let world: any;
const lines: any[] = [];
let out = "";
let turn = 0;

/** The nodes in turn, so consecutive harness calls land on different nodes too. */
const nextNode = (): ClusterNode => cluster.nodes[turn++ % cluster.nodes.length]!;

async function harness(method: string, path: string, body?: unknown) {
  const res = await fetch(`${nextNode().base}/api/harness/v1${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  // Never a 500: when one comes, say what the nodes printed.
  if (res.status >= 500)
    throw new Error(`${method} ${path}: ${res.status} ${text}\n${cluster.nodes.map((n) => n.out().slice(-3000)).join("\n---\n")}`);
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The first bot line after `from` that satisfies `pred` (bounded). */
async function line(pred: (l: any) => boolean, what: string, from = 0, ms = 15_000): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const hit = lines.slice(from).find(pred);
    if (hit) return hit;
    const error = lines.slice(from).find((l) => l.event === "error");
    if (error) throw new Error(`the bot failed: ${JSON.stringify(error)}`);
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; bot output:\n${out}\nnodes:\n${cluster.nodes.map((n) => n.out().slice(-3000)).join("\n---\n")}`,
      );
    await Bun.sleep(20);
  }
}

async function say(content: string) {
  const r = await harness("POST", "/users/bob/messages", { channel_id: world.guilds.Lab.channels.general, content });
  expect(r.status).toBe(200);
  return r.body;
}

beforeAll(async () => {
  nodes = await startSharedNodes({ world: WORLD });
  ({ cluster, world } = nodes);
  // discord.js resolves from the checkout's node_modules, so the script sits inside it.
  botDir = join(ROOT, `test/cluster/.spread-${process.pid}`);
  mkdirSync(botDir, { recursive: true });
  writeFileSync(join(botDir, "bot.cjs"), BOT);
  bot = spawn("/usr/bin/node", [join(botDir, "bot.cjs")], {
    cwd: ROOT,
    env: { ...process.env, API: `${cluster.balancer.base}/api`, TOKEN: world.applications.SpreadBot.token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let buf = "";
  bot.stdout!.on("data", (d) => {
    out += d;
    buf += d;
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      const l = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (l.startsWith("{")) lines.push(JSON.parse(l));
    }
  });
  bot.stderr!.on("data", (d) => (out += d));
  await line((l) => l.event === "ready", "the bot to be ready", 0, 30_000);
}, ENGINE_MS);

afterAll(async () => {
  bot?.kill("SIGKILL");
  if (botDir) rmSync(botDir, { recursive: true, force: true });
  await nodes?.stop();
}, ENGINE_MS);

describe("a discord.js bot whose requests alternate between two nodes", () => {
  test("both nodes served it", () => {
    // Login, the gateway lookup and the command registration already went through the balancer.
    expect(cluster.balancer.hits.every((h) => h > 0)).toBe(true);
  });

  test("a reply: the person's message heard once, the answer read back through either node", async () => {
    const from = lines.length;
    const m = await say("!ping");
    await line((l) => l.event === "message" && l.id === m.id, "the bot to hear !ping", from);
    const answer = await waitFor(async () => {
      const list = (await harness("GET", `/channels/${world.guilds.Lab.channels.general}/messages?as=bob`)).body as any[];
      return list.find((x) => x.message_reference?.message_id === m.id);
    });
    expect(answer.content).toBe("pong");
    expect(lines.slice(from).filter((l) => l.event === "message" && l.id === m.id)).toHaveLength(1);
  }, 30_000);

  test("send, edit and read back: each call on another node sees the one before", async () => {
    const from = lines.length;
    await say("!edit");
    const edited = await line((l) => l.event === "edited", "the edit", from);
    expect(edited).toMatchObject({ content: "final", read: "final" });
  }, 30_000);

  test("reactions by the bot and by a person", async () => {
    const from = lines.length;
    const m = await say("!react");
    expect((await line((l) => l.event === "reacted", "the reactions", from)).emoji).toEqual(["🎉", "👍"]);
    const r = await harness("PUT", "/users/bob/reactions", {
      channel_id: world.guilds.Lab.channels.general,
      message_id: m.id,
      emoji: "🔥",
    });
    expect(r.status).toBeLessThan(300);
    expect(await line((l) => l.event === "reaction" && l.emoji === "🔥", "the person's reaction", from)).toMatchObject({
      user: world.users.bob.id,
    });
  }, 30_000);

  test("a role given and taken, each read back on the other node", async () => {
    const from = lines.length;
    await say("!role");
    expect(await line((l) => l.event === "role", "the role round trip", from)).toMatchObject({ had: true, after: false });
  }, 30_000);

  test("a channel made, written in, read and deleted", async () => {
    const from = lines.length;
    await say("!channel");
    expect(await line((l) => l.event === "channel", "the channel round trip", from)).toEqual({
      event: "channel",
      name: "made-by-bot",
      messages: ["hello from the new channel"],
    });
  }, 30_000);

  test("six sends, one page of history, one bulk delete: every id on both nodes", async () => {
    const from = lines.length;
    await say("!history");
    const h = await line((l) => l.event === "history", "the history round trip", from);
    expect(h.ids).toEqual(h.sent);
    const deletes = await waitFor(async () => {
      const seen = lines.slice(from).filter((l) => l.event === "delete" && h.sent.includes(l.id));
      return seen.length === 6 ? seen : undefined;
    });
    expect(deletes).toHaveLength(6);
  }, 30_000);

  test("a slash command: deferred on one node, answered and followed up on the other", async () => {
    const from = lines.length;
    const run = await harness("POST", "/users/bob/interactions", {
      application_id: world.applications.SpreadBot.id,
      channel_id: world.guilds.Lab.channels.general,
      name: "echo",
      options: [{ name: "text", value: "across nodes" }],
    });
    expect(run.status).toBe(200);
    await line((l) => l.event === "interaction" && l.id === run.body.id, "the interaction's answers", from);
    const became = await harness("GET", `/interactions/${run.body.id}`);
    expect(became.body.response.content).toBe("echo: across nodes");
    expect(became.body.followups.map((f: any) => f.content)).toEqual(["and once more, edited"]);
  }, 30_000);

  test("a person's edit and delete reach the bot, whichever node they went through", async () => {
    const from = lines.length;
    const m = await say("first words");
    const edit = await harness("PATCH", `/users/bob/messages/${m.id}`, { content: "second words" });
    expect(edit.status).toBeLessThan(300);
    expect(await line((l) => l.event === "update" && l.id === m.id, "the update", from)).toMatchObject({ content: "second words" });
    const del = await harness("DELETE", `/users/bob/messages/${m.id}`);
    expect(del.status).toBeLessThan(300);
    await line((l) => l.event === "delete" && l.id === m.id, "the delete", from);
  }, 30_000);
});

async function waitFor<T>(fn: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out; bot output:\n${out}`);
    await Bun.sleep(50);
  }
}
