/**
 * A real discord.js bot resumes on the other node without missing a message (`--redis`,
 * gateway/shared-sessions.ts). Both nodes name one public gateway URL (`--gateway-url`,
 * so READY's `resume_gateway_url`), a relay here standing for the balancer. The bot is
 * on node B; B closes its socket with 4000 (the harness's gateway_close fault); while the
 * relay holds its reconnection, a person posts through node A; then the relay sends the
 * reconnection to A, where the bot's RESUME replays the message it missed, and it answers.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RedisClient, type ServerWebSocket } from "bun";
import type { Cluster, ClusterNode } from "../support/cluster";
import { startSharedNodes, within, type SharedNodes } from "../support/shared-nodes";
import { ENGINE_MS, type Redis } from "../support/engines";
import { BASIC_WORLD } from "../helpers";

interface Pipe {
  up: WebSocket | null;
  early: (string | Buffer)[];
}

/** The balancer's part: WebSockets to `target`, or held (not yet connected on) while `hold` is set. */
function relay() {
  const r = { target: "", hold: false, waiting: [] as ServerWebSocket<Pipe>[], port: 0, stop: () => {}, release: () => {} };
  const connect = (ws: ServerWebSocket<Pipe>) => {
    const up = new WebSocket(`${r.target}/gateway?v=10&encoding=json`);
    ws.data.up = up;
    up.onopen = () => {
      for (const m of ws.data.early) up.send(m);
      ws.data.early = [];
    };
    up.onmessage = (e) => ws.send(e.data as string);
    up.onclose = (e) => ws.close(e.code >= 4000 || e.code === 1000 ? e.code : 1011, e.reason);
  };
  const server = Bun.serve<Pipe>({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, srv) {
      return srv.upgrade(req, { data: { up: null, early: [] } }) ? undefined : new Response("WebSocket only", { status: 400 });
    },
    websocket: {
      open(ws) {
        if (r.hold) r.waiting.push(ws);
        else connect(ws);
      },
      message(ws, m) {
        if (ws.data.up?.readyState === WebSocket.OPEN) ws.data.up.send(m);
        else ws.data.early.push(m);
      },
      close(ws) {
        ws.data.up?.close(1000);
      },
    },
  });
  r.port = server.port!;
  r.stop = () => void server.stop(true);
  r.release = () => {
    r.hold = false;
    for (const ws of r.waiting.splice(0)) connect(ws);
  };
  return r;
}

let nodes: SharedNodes;
let redis: Redis;
let cluster: Cluster;
let a: ClusterNode;
let b: ClusterNode;
let world: any;
const gw = relay();

beforeAll(async () => {
  nodes = await startSharedNodes({ world: BASIC_WORLD, redis: true, args: () => ["--gateway-url", `ws://127.0.0.1:${gw.port}/gateway`] });
  ({ cluster, world } = nodes);
  redis = nodes.redis!;
  [a, b] = cluster.nodes;
}, ENGINE_MS);
afterAll(async () => {
  gw.stop();
  await nodes?.stop();
}, ENGINE_MS);

const ROOT = join(import.meta.dir, "../..");

const BOT_SCRIPT = `
const { Client, GatewayIntentBits: I } = require("discord.js");
const client = new Client({ intents: [I.Guilds, I.GuildMessages, I.MessageContent], rest: { api: process.env.API } });
client.on("ready", () => console.log("ready " + client.user.id));
client.on("shardResume", () => console.log("resumed"));
client.on("messageCreate", (m) => {
  if (m.author.id === client.user.id) return;
  console.log("saw " + m.content);
  if (m.content.startsWith("!ping")) m.reply("pong " + m.content.slice(6)).catch((e) => console.error(e));
});
client.login(process.env.TOKEN).catch((e) => { console.error(e); process.exit(3); });
`;

async function harness(node: ClusterNode, method: string, path: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/harness/v1${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * The bot, in a directory of its own in the clone (so that it finds discord.js), on node
 * B through the relay; what it printed, and a wait for its reply to a person's message.
 */
function startBot(label: string) {
  const botDir = join(ROOT, `test/cluster/.bot-${label}-${process.pid}`);
  mkdirSync(botDir, { recursive: true });
  writeFileSync(join(botDir, "bot.cjs"), BOT_SCRIPT);
  gw.target = b.base.replace(/^http/, "ws");
  const child = spawn("/usr/bin/node", [join(botDir, "bot.cjs")], {
    cwd: ROOT,
    env: { ...process.env, API: `${a.base}/api`, TOKEN: world.applications.EchoBot.token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const app = world.applications.EchoBot;
  const general = world.guilds.Lab.channels.general;
  return {
    app,
    general,
    out: () => out,
    ready: () => within(30_000, `the bot to be ready (output: ${out})`, async () => (/ready \d+/.test(out) ? true : undefined)),
    answerTo: (id: string) =>
      within(20_000, `the bot's answer (output: ${out})`, async () => {
        const list = (await harness(a, "GET", `/channels/${general}/messages?as=alice`)).body as any[];
        return list.find((m) => m.author.id === app.bot_user_id && m.message_reference?.message_id === id);
      }),
    stop: () => {
      child.kill("SIGKILL");
      rmSync(botDir, { recursive: true, force: true });
    },
  };
}

test("a discord.js bot cut off on node B resumes on node A and answers the message posted while it was away", async () => {
  const bot = startBot("resume");
  const { app, general, answerTo } = bot;
  try {
    await bot.ready();
    const first = await harness(a, "POST", "/users/alice/messages", { channel_id: general, content: "!ping one" });
    expect((await answerTo(first.body.id)).content).toBe("pong one");

    // B cuts the bot off (4000: resumable); its reconnection waits at the balancer.
    gw.hold = true;
    expect((await harness(b, "POST", "/faults", { kind: "gateway_close", application_id: app.id, code: 4000 })).status).toBe(200);
    await within(10_000, "the bot to reconnect", async () => (gw.waiting.length > 0 ? true : undefined));
    const sessionOnB = async () =>
      (await harness(b, "GET", `/applications/${app.id}/sessions`)).body[0] as { session_id: string; seq: number };
    const before = await sessionOnB();
    const missed = await harness(a, "POST", "/users/alice/messages", { channel_id: general, content: "!ping two" });
    expect(missed.status).toBe(200);
    // B still holds the closed session: it records the frame and writes it to Redis; then the balancer picks A.
    const recorded = await within(10_000, "node B to record the missed frame", async () => {
      const now = await sessionOnB();
      return now.seq > before.seq ? now.seq : undefined;
    });
    const r = new RedisClient(redis.url);
    try {
      await within(10_000, "node B to write it to Redis", async () =>
        Number(await r.send("HGET", [`gs:${before.session_id}`, "seq"])) >= recorded ? true : undefined,
      );
    } finally {
      r.close();
    }
    gw.target = a.base.replace(/^http/, "ws");
    gw.release();

    await within(20_000, `the bot to resume (output: ${bot.out()})`, async () => (bot.out().includes("resumed") ? true : undefined));
    expect((await answerTo(missed.body.id)).content).toBe("pong two");
    expect(bot.out().match(/ready \d+/g)).toHaveLength(1); // resumed, never identified again
    expect((await harness(a, "GET", `/applications/${app.id}/sessions`)).body).toEqual([expect.objectContaining({ connected: true })]);
  } finally {
    bot.stop();
  }
}, 90_000);

test("a node stopped cleanly (a rolling restart): its discord.js bot resumes on the other node and misses nothing", async () => {
  const bot = startBot("stop");
  const { general, answerTo } = bot;
  try {
    await bot.ready();
    const first = await harness(a, "POST", "/users/alice/messages", { channel_id: general, content: "!ping before" });
    expect((await answerTo(first.body.id)).content).toBe("pong before");

    // B stops (SIGTERM): it closes the bot's socket with 4000, and the reconnection waits at the balancer.
    gw.hold = true;
    expect(await b.stop()).toBe(0);
    await within(10_000, "the bot to reconnect", async () => (gw.waiting.length > 0 ? true : undefined));
    const missed = await harness(a, "POST", "/users/alice/messages", { channel_id: general, content: "!ping during" });
    expect(missed.status).toBe(200);
    gw.target = a.base.replace(/^http/, "ws");
    gw.release();

    await within(20_000, `the bot to resume (output: ${bot.out()})`, async () => (bot.out().includes("resumed") ? true : undefined));
    expect((await answerTo(missed.body.id)).content).toBe("pong during");
    expect(bot.out().match(/ready \d+/g)).toHaveLength(1); // resumed, never identified again
  } finally {
    bot.stop();
    await b.start();
  }
}, 90_000);
