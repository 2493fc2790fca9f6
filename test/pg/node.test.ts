/**
 * One Parley node whose store is Postgres, as an operator runs it: `parley serve
 * --database postgres://...` in a child process (test/support/cluster.ts, one node), on
 * a Postgres of its own (test/support/engines.ts). Through the real HTTP surface and
 * gateway: a real discord.js bot answers a person, bots post, edit, react and delete and
 * a gateway session sees each; a restart keeps the data and the ids; bad input is
 * refused, never a 500; and a Postgres outage is a 503 (and /readyz says so) until
 * Postgres is back, without a restart of Parley.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCluster, type Cluster, type ClusterNode } from "../support/cluster";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";
import { BASIC_WORLD } from "../helpers";
import { Gw, I } from "../gateway/client";
import { oneLine, parley } from "../ops/support";
import { buildExecutable } from "../../scripts/build";

const ROOT = join(import.meta.dir, "../..");

let pg: Postgres;
let cluster: Cluster;
let node: ClusterNode;
let world: any;
let database = "";
/** The node's data directory: its secret.key is what operator commands need a copy of. */
const nodeDir = mkdtempSync(join(tmpdir(), "parley-pg-node-"));

beforeAll(async () => {
  pg = await startPostgres();
  database = await pg.createDatabase();
  cluster = await startCluster({
    nodes: 1,
    args: () => ["--database", pg.url(database), "--data", nodeDir, "--harness", "--rate-limits", "off", "--log-level", "warn"],
  });
  node = cluster.nodes[0];
}, ENGINE_MS);
afterAll(async () => {
  await cluster?.stop();
  await pg?.close();
  rmSync(nodeDir, { recursive: true, force: true });
}, ENGINE_MS);

async function req(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: string } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.Authorization = `Bot ${opts.token}`;
  if (opts.body !== undefined || opts.raw !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${node.base}${path}`, {
    method,
    headers,
    body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, body, headers: res.headers };
}
const bot = (method: string, path: string, body?: unknown) =>
  req(method, `/api/v10${path}`, { token: world.applications.EchoBot.token, body });
const harness = (method: string, path: string, body?: unknown) => req(method, `/api/harness/v1${path}`, { body });

async function within<T>(ms: number, what: string, fn: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const gatewayUrl = () => `${node.base.replace(/^http/, "ws")}/gateway?v=10&encoding=json`;
const ECHO = I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT | I.GUILD_MESSAGE_REACTIONS;
const THUMBS = encodeURIComponent("👍");

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

describe("a node on Postgres", () => {
  test("the node says it runs on Postgres, and a world is seeded into it", async () => {
    const ready = await req("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.database).toMatchObject({ engine: "postgres", writable: true });
    const seeded = await harness("POST", "/seed", BASIC_WORLD);
    expect(seeded.status).toBe(200);
    world = seeded.body;
    // The rows are Postgres's.
    const sql = new Bun.SQL({ ...pg.socketOptions(database), max: 1 });
    try {
      const [{ n }] = await sql`SELECT count(*)::int AS n FROM guilds`;
      expect(n).toBe(1);
    } finally {
      await sql.close();
    }
  });

  test("a real discord.js bot receives MESSAGE_CREATE and answers a person", async () => {
    // Inside the clone, so that the script finds discord.js in node_modules; gone however the test ends.
    const dir = join(ROOT, `test/pg/.bot-${process.pid}`);
    let child: ReturnType<typeof spawn> | null = null;
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "bot.cjs"), BOT_SCRIPT);
      child = spawn("/usr/bin/node", [join(dir, "bot.cjs")], {
        cwd: ROOT,
        env: { ...process.env, API: `${node.base}/api`, TOKEN: world.applications.EchoBot.token },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout!.on("data", (d) => (out += d));
      child.stderr!.on("data", (d) => (out += d));
      await within(30_000, `the bot to be ready (output: ${out})`, async () => (/ready \d+/.test(out) ? true : undefined));
      const general = world.guilds.Lab.channels.general;
      const said = await harness("POST", "/users/alice/messages", { channel_id: general, content: "!ping" });
      expect(said.status).toBe(200);
      const answer = await within(15_000, `the bot's answer (output: ${out})`, async () => {
        const list = (await harness("GET", `/channels/${general}/messages?as=alice`)).body as any[];
        return list.find((m) => m.author.id === world.applications.EchoBot.bot_user_id);
      });
      expect(out).toContain("saw !ping");
      expect(answer.content).toBe("pong from EchoBot");
      expect(answer.message_reference.message_id).toBe(said.body.id);
    } finally {
      child?.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("post, edit, react and delete over REST; a gateway session sees each", async () => {
    const general = world.guilds.Lab.channels.general;
    const gw = await Gw.open(null as never, gatewayUrl());
    try {
      const ready = await gw.identify(world.applications.EchoBot.token, ECHO);
      expect(ready.d.guilds.map((g: any) => g.id)).toEqual([world.guilds.Lab.id]);
      await gw.dispatch("GUILD_CREATE");

      const posted = await bot("POST", `/channels/${general}/messages`, { content: "first draft" });
      expect(posted.status).toBe(200);
      const id = posted.body.id;
      expect((await gw.dispatch("MESSAGE_CREATE")).d).toMatchObject({ id, content: "first draft" });

      const edited = await bot("PATCH", `/channels/${general}/messages/${id}`, { content: "second draft" });
      expect(edited.status).toBe(200);
      expect(edited.body.edited_timestamp).not.toBeNull();
      expect((await gw.dispatch("MESSAGE_UPDATE")).d).toMatchObject({ id, content: "second draft" });

      expect((await bot("PUT", `/channels/${general}/messages/${id}/reactions/${THUMBS}/@me`)).status).toBe(204);
      expect((await gw.dispatch("MESSAGE_REACTION_ADD")).d).toMatchObject({ message_id: id, emoji: { name: "👍" } });
      const got = await bot("GET", `/channels/${general}/messages/${id}`);
      expect(got.body.content).toBe("second draft");
      expect(got.body.reactions).toEqual([expect.objectContaining({ count: 1, me: true, emoji: expect.objectContaining({ name: "👍" }) })]);
      const reactors = await bot("GET", `/channels/${general}/messages/${id}/reactions/${THUMBS}`);
      expect(reactors.body.map((u: any) => u.id)).toEqual([world.applications.EchoBot.bot_user_id]);

      expect((await bot("DELETE", `/channels/${general}/messages/${id}`)).status).toBe(204);
      expect((await gw.dispatch("MESSAGE_DELETE")).d).toMatchObject({ id });
      expect((await bot("GET", `/channels/${general}/messages/${id}`)).status).toBe(404);
      // The reaction went with its message (a cascade in Postgres), and the memos know it.
      expect((await bot("GET", `/channels/${general}/messages/${id}/reactions/${THUMBS}`)).status).toBe(404);
    } finally {
      await gw.close();
    }
  }, 30_000);

  test("a rotated token is refused at once, and the new one works", async () => {
    const old = world.applications.EchoBot.token;
    expect((await bot("GET", "/users/@me")).status).toBe(200);
    const rotated = await harness("POST", `/applications/${world.applications.EchoBot.id}/rotate`);
    expect(rotated.status).toBe(200);
    world.applications.EchoBot.token = rotated.body.token;
    expect((await req("GET", "/api/v10/users/@me", { token: old })).status).toBe(401);
    expect((await bot("GET", "/users/@me")).status).toBe(200);
  });
});

describe("bad input on Postgres", () => {
  test("what Postgres cannot hold or parse is refused with the spec's body, never a 500", async () => {
    const general = world.guilds.Lab.channels.general;
    const cases: [string, string, unknown][] = [
      // Postgres's text cannot hold a NUL character; SQLite's can.
      ["POST", `/channels/${general}/messages`, { content: "a\u0000b" }],
      ["PATCH", `/channels/${general}`, { name: "x\u0000y" }],
      ["PATCH", `/channels/${general}`, { topic: "\u0000" }],
      ["POST", `/channels/${general}/messages`, { content: "ok", nonce: "n\u0000" }],
      // Numbers past a 64-bit integer, and ids that are not numbers.
      // biome-ignore lint/correctness/noPrecisionLoss: the body is meant to carry a number no 64-bit integer holds
      ["PATCH", `/channels/${general}`, { position: 99999999999999999999999 }],
      ["PATCH", `/channels/${general}`, { rate_limit_per_user: 1e300 }],
      ["GET", `/channels/${general}/messages?limit=99999999999999999999`, undefined],
      ["GET", `/channels/${general}/messages?before=99999999999999999999999`, undefined],
      ["GET", `/channels/${general}/messages?after=-1`, undefined],
      ["GET", `/channels/99999999999999999999999/messages`, undefined],
      ["GET", `/channels/${general}/messages/abc`, undefined],
      ["PUT", `/channels/${general}/messages/1/reactions/${encodeURIComponent("\u0000")}/@me`, undefined],
      ["GET", `/guilds/${world.guilds.Lab.id}/members?limit=1000&after=18446744073709551616`, undefined],
    ];
    // Each is refused with a 4xx, by the wire layer's validation or the core's checks.
    const answers: string[] = [];
    for (const [method, path, body] of cases) {
      const r = await bot(method, path, body);
      answers.push(`${r.status} ${method} ${path}`);
      expect(r.status).toBeLessThan(500);
      if (r.status >= 400) expect(typeof r.body?.code).toBe("number");
    }
    expect(answers.filter((a) => a.startsWith("4")).length).toBe(cases.length);
    const bad = await req("POST", `/api/v10/channels/${general}/messages`, { token: world.applications.EchoBot.token, raw: "{not json" });
    expect(bad.status).toBe(400);
    // The node still writes after every refusal: none of them left a transaction behind.
    const after = await bot("POST", `/channels/${general}/messages`, { content: "still here" });
    expect(after.status).toBe(200);
  }, 30_000);
});

describe("a node's life on Postgres", () => {
  test("a restart keeps the data and the ids", async () => {
    const general = world.guilds.Lab.channels.general;
    const before = await bot("POST", `/channels/${general}/messages`, { content: "before the restart" });
    expect(before.status).toBe(200);
    const history = (await bot("GET", `/channels/${general}/messages?limit=100`)).body.map((m: any) => m.id);
    expect(await node.stop()).toBe(0);
    await node.start();
    expect((await bot("GET", `/channels/${general}/messages?limit=100`)).body.map((m: any) => m.id)).toEqual(history);
    const got = await bot("GET", `/channels/${general}/messages/${before.body.id}`);
    expect(got.body).toMatchObject({ id: before.body.id, content: "before the restart", channel_id: general });
    const gw = await Gw.open(null as never, gatewayUrl());
    try {
      const ready = await gw.identify(world.applications.EchoBot.token, ECHO);
      expect(ready.d.user.id).toBe(world.applications.EchoBot.bot_user_id);
      expect(ready.d.guilds.map((g: any) => g.id)).toEqual([world.guilds.Lab.id]);
      const created = (await gw.dispatch("GUILD_CREATE")).d;
      expect(created.channels.map((c: any) => c.id)).toContain(general);
    } finally {
      await gw.close();
    }
    // New ids after the restart follow the old ones.
    const later = await bot("POST", `/channels/${general}/messages`, { content: "after the restart" });
    expect(BigInt(later.body.id)).toBeGreaterThan(BigInt(before.body.id));
  }, 60_000);

  test("Postgres away: writes answer 503 and /readyz says why; back: the same node writes again", async () => {
    const general = world.guilds.Lab.channels.general;
    await pg.stop("fast");
    try {
      const ready = await req("GET", "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body.database).toMatchObject({ engine: "postgres", writable: false });
      expect(ready.body.reasons.join(" ")).toContain("postgres");
      const post = await bot("POST", `/channels/${general}/messages`, { content: "while Postgres is away" });
      expect(post.status).toBe(503);
      expect(post.body).toEqual({ code: 0, message: "503: Service Unavailable" });
      expect(post.headers.get("retry-after")).toBe("1");
      const read = await bot("GET", `/channels/${general}/messages?limit=5`);
      expect([200, 503]).toContain(read.status);
      // A gateway IDENTIFY that needs Postgres is closed with 4000, which libraries answer by
      // connecting again, rather than left waiting for a READY.
      const gw = await Gw.open(null as never, gatewayUrl());
      await gw.sync();
      gw.send({
        op: 2,
        d: { token: world.applications.EchoBot.token, intents: ECHO, properties: { os: "linux", browser: "test", device: "test" } },
      });
      const closed = await Promise.race([gw.closed, Bun.sleep(15_000).then(() => null)]);
      expect(closed?.code).toBe(4000);
      // A person's live connection whose session must be read (not used since the restart): 1011, and the client connects again.
      const live = new WebSocket(`${node.base.replace(/^http/, "ws")}/api/client/v1/live`);
      const liveClosed = new Promise<number>((r) => live.addEventListener("close", (e) => r(e.code)));
      await new Promise((r) => live.addEventListener("open", r, { once: true }));
      live.send(JSON.stringify({ op: "hello", token: world.users.alice.token }));
      expect(await Promise.race([liveClosed, Bun.sleep(15_000).then(() => null)])).toBe(1011);
    } finally {
      await pg.start();
    }
    await within(20_000, "the node to be ready again", async () => ((await req("GET", "/readyz")).status === 200 ? true : undefined));
    const back = await bot("POST", `/channels/${general}/messages`, { content: "Postgres is back" });
    expect(back.status).toBe(200);
    expect((await bot("GET", `/channels/${general}/messages/${back.body.id}`)).body.content).toBe("Postgres is back");
    expect(node.alive).toBe(true);
  }, 60_000);
});

describe("operator commands on Postgres", () => {
  test("run beside a running node, which refuses a token the command rotated within the second; a stopped node sees the rest when it starts", async () => {
    // A --data holding the nodes' secret.key, as docs/operations.md asks of operator commands.
    const data = mkdtempSync(join(tmpdir(), "parley-pg-cmd-"));
    copyFileSync(join(nodeDir, "secret.key"), join(data, "secret.key"));
    const env = { PARLEY_DATABASE: pg.url(database) };
    try {
      const old = world.applications.EchoBot.token;
      const rotated = await parley(["app", "rotate", "EchoBot", "--data", data], { env });
      expect(rotated.code).toBe(0);
      const token = /token \(shown once\): (\S+)/.exec(rotated.out)![1];
      await within(1000, "the node to refuse the rotated token", async () =>
        (await req("GET", "/api/v10/users/@me", { token: old })).status === 401 ? true : undefined,
      );
      world.applications.EchoBot.token = token;
      expect((await bot("GET", "/users/@me")).status).toBe(200);

      expect(await node.stop()).toBe(0);
      const again = await parley(["app", "rotate", "EchoBot", "--data", data], { env });
      expect(again.code).toBe(0);
      const newest = /token \(shown once\): (\S+)/.exec(again.out)![1];
      // Refused for what it is (the engine), not as if the file were the trouble; nothing written.
      const backup = await parley(["backup", join(data, "copy.db"), "--data", data], { env });
      oneLine(backup, /^parley: parley backup copies SQLite's database: a Postgres database is backed up with pg_dump/);
      expect(readdirSync(data).filter((f) => f.startsWith("copy.db"))).toEqual([]);

      await node.start();
      expect((await req("GET", "/api/v10/users/@me", { token })).status).toBe(401);
      world.applications.EchoBot.token = newest;
      expect((await bot("GET", "/users/@me")).status).toBe(200);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("start-up on Postgres", () => {
  test("a Postgres nobody answers at, a database that is not Parley's, a newer schema: one line each, the password hidden", async () => {
    const data = mkdtempSync(join(tmpdir(), "parley-pg-start-"));
    try {
      const unreachable = await parley([
        "serve",
        "--port",
        "0",
        "--data",
        data,
        "--database",
        "postgres://parley:hunter2@127.0.0.1:1/parley",
      ]);
      oneLine(unreachable, /^parley: Postgres \(postgres:\/\/parley:\*\*\*@127\.0\.0\.1:1\/parley\): /);
      expect(unreachable.err).not.toContain("hunter2");

      const foreign = await pg.createDatabase();
      const sql = new Bun.SQL({ ...pg.socketOptions(foreign), max: 1 });
      try {
        await sql`CREATE TABLE invoices (id int)`;
      } finally {
        await sql.close();
      }
      oneLine(
        await parley(["serve", "--port", "0", "--data", data, "--database", pg.url(foreign)]),
        /holds tables but no Parley migrations/,
      );

      const newer = await pg.createDatabase();
      const own = new Bun.SQL({ ...pg.socketOptions(newer), max: 1 });
      try {
        await own`CREATE TABLE schema_migrations (version bigint PRIMARY KEY, applied_at bigint NOT NULL)`;
        await own`INSERT INTO schema_migrations VALUES (999, 0)`;
      } finally {
        await own.close();
      }
      oneLine(await parley(["serve", "--port", "0", "--data", data, "--database", pg.url(newer)]), /migrated by a newer Parley/);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the compiled executable on Postgres", () => {
  test("`parley serve --database` from the built binary: its embedded worker reaches Postgres, and a bot posts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-pg-bin-"));
    const binary = join(dir, "parley");
    expect(buildExecutable(binary)).toBeGreaterThan(0);
    const db = await pg.createDatabase();
    // cwd elsewhere: the worker must come from inside the binary, not from the sources.
    const proc = Bun.spawn([binary, "serve", "--port", "0", "--data", join(dir, "data"), "--database", pg.url(db), "--demo"], {
      cwd: dir,
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const reader = proc.stdout.getReader();
      let text = "";
      while (!/listening on (\S+)/.test(text) || !/bot token\s+(\S+)/.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the binary exited: ${text}${await new Response(proc.stderr).text()}`);
        text += new TextDecoder().decode(value);
      }
      reader.releaseLock();
      expect(text).toContain("data: Postgres postgres://");
      expect(text).toContain("rotate DemoBot's token (a new one; this one stops) in the portal");
      const base = /listening on (\S+)/.exec(text)![1];
      const token = /bot token\s+(\S+)/.exec(text)![1];
      expect(((await (await fetch(`${base}/readyz`)).json()) as any).database.engine).toBe("postgres");
      const auth = { Authorization: `Bot ${token}`, "Content-Type": "application/json" };
      const guilds = (await (await fetch(`${base}/api/v10/users/@me/guilds`, { headers: auth })).json()) as any[];
      const channels = (await (await fetch(`${base}/api/v10/guilds/${guilds[0].id}/channels`, { headers: auth })).json()) as any[];
      const text0 = channels.find((c) => c.type === 0);
      const posted = await fetch(`${base}/api/v10/channels/${text0.id}/messages`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ content: "from the binary" }),
      });
      expect(posted.status).toBe(200);
      const sql = new Bun.SQL({ ...pg.socketOptions(db), max: 1 });
      try {
        expect((await sql`SELECT content FROM messages WHERE content = 'from the binary'`).length).toBe(1);
      } finally {
        await sql.close();
      }
    } finally {
      proc.kill("SIGKILL");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
