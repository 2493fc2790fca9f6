/**
 * Two Parley nodes on one Postgres database, each a `parley serve` child process with
 * its own data directory holding the same secret key (test/support/cluster.ts), as an
 * operator runs them behind a balancer. What one node commits reaches the other at once
 * (store/pg/relay.ts): a bot connected to node B hears a message posted through node A
 * and reads its edit there; a real discord.js bot on B answers a person who wrote
 * through A; a token rotated through A is refused on B and B's gateway session for it
 * ends. Without --redis a RESUME that reaches the other node meets op 9 (session state
 * stays on its node); with it the other node resumes it (test/cluster/resume.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Cluster, ClusterNode } from "../support/cluster";
import { gatewayOf, within, startSharedNodes, type SharedNodes } from "../support/shared-nodes";
import { ENGINE_MS } from "../support/engines";
import { BASIC_WORLD } from "../helpers";
import { Gw, I } from "../gateway/client";

let nodes: SharedNodes;
let cluster: Cluster;
let a: ClusterNode;
let b: ClusterNode;
let world: any;

beforeAll(async () => {
  nodes = await startSharedNodes({ world: BASIC_WORLD });
  ({ cluster, world } = nodes);
  [a, b] = cluster.nodes;
}, ENGINE_MS);
afterAll(async () => {
  await nodes?.stop();
}, ENGINE_MS);

async function on(node: ClusterNode, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/v10${path}`, {
    method,
    headers: { Authorization: `Bot ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const ROOT = join(import.meta.dir, "../..");

const BOT_SCRIPT = `
const { Client, GatewayIntentBits: I } = require("discord.js");
const client = new Client({ intents: [I.Guilds, I.GuildMessages, I.MessageContent], rest: { api: process.env.API } });
client.on("ready", () => console.log("ready " + client.user.id));
client.on("messageCreate", (m) => {
  if (m.author.id === client.user.id) return;
  console.log("saw " + m.content);
  if (m.content === "!ping") m.reply("pong from " + client.user.username).catch((e) => console.error(e));
});
client.login(process.env.TOKEN).catch((e) => { console.error(e); process.exit(3); });
`;

const ECHO = I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT;

describe("two nodes on one Postgres database", () => {
  test("a bot on node B hears a message posted through node A, and reads its edit on B at once", async () => {
    const general = world.guilds.Lab.channels.general;
    const token = world.applications.EchoBot.token;
    const gw = await Gw.open(null as never, gatewayOf(b));
    try {
      await gw.identify(token, ECHO);
      await gw.dispatch("GUILD_CREATE");
      const posted = await on(a, "POST", `/channels/${general}/messages`, token, { content: "from node A" });
      expect(posted.status).toBe(200);
      expect((await gw.dispatch("MESSAGE_CREATE")).d).toMatchObject({ id: posted.body.id, content: "from node A" });
      // B reads it (and keeps it in memory); A edits it; B's next read is the edit.
      expect((await on(b, "GET", `/channels/${general}/messages/${posted.body.id}`, token)).body.content).toBe("from node A");
      expect((await on(a, "PATCH", `/channels/${general}/messages/${posted.body.id}`, token, { content: "edited on A" })).status).toBe(200);
      expect((await gw.dispatch("MESSAGE_UPDATE")).d).toMatchObject({ id: posted.body.id, content: "edited on A" });
      expect((await on(b, "GET", `/channels/${general}/messages/${posted.body.id}`, token)).body.content).toBe("edited on A");
    } finally {
      await gw.close();
    }
  }, 30_000);

  test("a token rotated through node A is refused on node B within the second, and B's gateway session for it ends", async () => {
    const app = world.applications.EchoBot;
    const gw = await Gw.open(null as never, gatewayOf(b));
    try {
      await gw.identify(app.token, ECHO);
      // B has just accepted the token (and remembers so).
      expect((await on(b, "GET", "/users/@me", app.token)).status).toBe(200);
      const rotated = await fetch(`${a.base}/api/harness/v1/applications/${app.id}/rotate`, { method: "POST" });
      expect(rotated.status).toBe(200);
      const fresh = ((await rotated.json()) as { token: string }).token;
      const refusedAt = Date.now();
      await within(1000, "node B to refuse the old token", async () =>
        (await on(b, "GET", "/users/@me", app.token)).status === 401 ? true : undefined,
      );
      expect(Date.now() - refusedAt).toBeLessThan(1000);
      // The session on B ends as a rotated token's does: op 9, not resumable, then the socket closes.
      const invalid = await gw.next((f) => f.op === 9);
      expect(invalid.d).toBe(false);
      app.token = fresh;
      expect((await on(b, "GET", "/users/@me", fresh)).status).toBe(200);
    } finally {
      await gw.close();
    }
  }, 30_000);

  test("without Redis, a RESUME that reaches the other node meets op 9 (not resumable), and IDENTIFY there works", async () => {
    const token = world.applications.EchoBot.token;
    const onB = await Gw.open(null as never, gatewayOf(b));
    const ready = await onB.identify(token, ECHO);
    await onB.close();
    const onA = await Gw.open(null as never, gatewayOf(a));
    try {
      onA.send({ op: 6, d: { token, session_id: ready.d.session_id, seq: 1 } });
      const invalid = await onA.next((f) => f.op === 9);
      expect(invalid.d).toBe(false);
    } finally {
      await onA.close();
    }
    const again = await Gw.open(null as never, gatewayOf(a));
    try {
      expect((await again.identify(token, ECHO)).d.session_id).not.toBe(ready.d.session_id);
    } finally {
      await again.close();
    }
  }, 30_000);

  test("a real discord.js bot on node B answers a person who wrote through node A", async () => {
    const botDir = join(ROOT, `test/cluster/.bot-${process.pid}`);
    mkdirSync(botDir, { recursive: true });
    writeFileSync(join(botDir, "bot.cjs"), BOT_SCRIPT);
    const child = spawn("/usr/bin/node", [join(botDir, "bot.cjs")], {
      cwd: ROOT,
      env: { ...process.env, API: `${b.base}/api`, TOKEN: world.applications.EchoBot.token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const harnessOn = async (node: ClusterNode, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${node.base}/api/harness/v1${path}`, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    try {
      await within(30_000, `the bot to be ready (output: ${out})`, async () => (/ready \d+/.test(out) ? true : undefined));
      const general = world.guilds.Lab.channels.general;
      const said = await harnessOn(a, "POST", "/users/alice/messages", { channel_id: general, content: "!ping" });
      expect(said.status).toBe(200);
      const answer = await within(15_000, `the bot's answer (output: ${out})`, async () => {
        const list = (await harnessOn(a, "GET", `/channels/${general}/messages?as=alice`)).body as any[];
        return list.find((m) => m.author.id === world.applications.EchoBot.bot_user_id && m.message_reference?.message_id === said.body.id);
      });
      expect(out).toContain("saw !ping");
      expect(answer.content).toBe("pong from EchoBot");
    } finally {
      child.kill("SIGKILL");
      rmSync(botDir, { recursive: true, force: true });
    }
  }, 60_000);
});
