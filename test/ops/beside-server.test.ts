/**
 * Operator commands run beside a live `parley serve` on the same data directory: what
 * they change reaches the server's live connections at once (src/store/relay.ts), and
 * the links they print are the running server's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parley, serve, type Server } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-beside-"));
const data = join(dir, "data");
const PASSWORD = "a long and quiet password";
const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob", password: PASSWORD }, { name: "carol" }, { name: "dave" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", "carol", "dave"],
      roles: [{ name: "Hooks", permissions: ["MANAGE_CHANNELS"], members: ["EchoBot"] }],
      channels: [{ name: "general" }],
    },
  ],
  applications: [{ name: "EchoBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
};

let server: Server;
let seeded: any;
beforeAll(async () => {
  const seed = join(dir, "world.json");
  writeFileSync(seed, JSON.stringify(WORLD));
  server = await serve(["--port", "0", "--data", data, "--seed", seed, "--rate-limits", "off"]);
  seeded = JSON.parse(/seeded world: (.*)/.exec(server.out())![1]);
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const command = (...argv: string[]) => parley([...argv, "--data", data]);
const api = (path: string, init: RequestInit & { token?: string; bot?: string } = {}) =>
  fetch(`${server.base}${path}`, {
    ...init,
    headers: {
      "Content-Type": "application/json",
      ...(init.token ? { Authorization: `Session ${init.token}` } : {}),
      ...(init.bot ? { Authorization: `Bot ${init.bot}` } : {}),
    },
  });

/** A WebSocket and what came over it; `closed` resolves with the close code. */
function socket(url: string) {
  const ws = new WebSocket(url);
  const frames: any[] = [];
  ws.onmessage = (m) => frames.push(JSON.parse(String(m.data)));
  const closed = new Promise<number>((r) => (ws.onclose = (e) => r(e.code)));
  const opened = new Promise<void>((r) => (ws.onopen = () => r()));
  const until = async (what: string, ok: () => boolean) => {
    const end = Date.now() + 10_000;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`no ${what}: ${JSON.stringify(frames)}`);
      await Bun.sleep(10);
    }
  };
  return { ws, frames, closed, opened, until };
}

/** A person's live connection, once ready. */
async function live(token: string) {
  const s = socket(`${server.base.replace(/^http/, "ws")}/api/client/v1/live`);
  await s.opened;
  s.ws.send(JSON.stringify({ op: "hello", token }));
  await s.until("ready", () => s.frames.some((f) => f.op === "ready"));
  return s;
}

/** The people's API speaks internal ids: Lab's and #general's, and its members', as a person sees them. */
async function lab(token: string) {
  const guild = ((await (await api("/api/client/v1/guilds", { token })).json()) as any[]).find((g) => g.name === "Lab");
  const channels = (await (await api(`/api/client/v1/guilds/${guild.id}/channels`, { token })).json()) as any[];
  const members = (await (await api(`/api/client/v1/guilds/${guild.id}/members`, { token })).json()) as any[];
  return {
    id: guild.id as string,
    general: channels.find((c) => c.name === "general").id as string,
    members: members.map((m) => m.user as { id: string; username: string }),
  };
}

/** A close code within the time a command beside the server takes to reach it, or "still open". */
const closedSoon = (closed: Promise<number>) => Promise.race([closed, Bun.sleep(5000).then(() => "still open")]);

describe("beside a running server", () => {
  test("app create prints the install link under the running server's address", async () => {
    const r = await command("app", "create", "Fresh", "--owner", "alice");
    expect(r.code).toBe(0);
    const id = /application Fresh id (\d+)/.exec(r.out)![1];
    expect(r.out).toContain(`install link: ${server.base}/developers/install/${id}\n`);
    expect(r.out).not.toContain("no server is running");
    expect((await fetch(`${server.base}/developers/install/${id}`)).status).toBe(200);
  }, 30_000);

  test("app install: the bot's open gateway session gets the server's GUILD_CREATE at once, with no reconnect", async () => {
    const created = await command("app", "create", "Joiner", "--owner", "alice");
    expect(created.code).toBe(0);
    const token = /token \(shown once\): (\S+)/.exec(created.out)![1];
    const gw = socket(`${server.base.replace(/^http/, "ws")}/gateway`);
    await gw.until("HELLO", () => gw.frames.some((f) => f.op === 10));
    gw.ws.send(JSON.stringify({ op: 2, d: { token, intents: 1, properties: {} } }));
    await gw.until("READY", () => gw.frames.some((f) => f.t === "READY"));
    expect(gw.frames.find((f) => f.t === "READY").d.guilds).toEqual([]);
    expect((await command("app", "install", "Joiner", "--guild", "Lab")).code).toBe(0);
    await gw.until("GUILD_CREATE", () => gw.frames.some((f) => f.t === "GUILD_CREATE" && f.d.name === "Lab"));
    expect(gw.frames.find((f) => f.t === "GUILD_CREATE").d.id).toBe(seeded.guilds.Lab.id);
    gw.ws.close();
  }, 30_000);

  test("user disable: the person's open client is signed out at once, sign-in is refused; --enable lets them back", async () => {
    const bob = await live(seeded.users.bob.token);
    const r = await command("user", "disable", "bob");
    expect(r.code).toBe(0);
    expect(await closedSoon(bob.closed)).toBe(4001);
    expect((await api("/api/client/v1/users/@me", { token: seeded.users.bob.token })).status).toBe(401);
    const refused = await api("/api/client/v1/auth/signin", {
      method: "POST",
      body: JSON.stringify({ username: "bob", password: PASSWORD }),
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as any).message).toBe("This account is disabled: ask the server's administrator");
    // A wrong password says only that, disabled or not.
    const wrong = await api("/api/client/v1/auth/signin", {
      method: "POST",
      body: JSON.stringify({ username: "bob", password: "not the password at all" }),
    });
    expect(((await wrong.json()) as any).message).toBe("Invalid username or password");

    expect((await command("user", "disable", "bob", "--enable")).code).toBe(0);
    const back = await api("/api/client/v1/auth/signin", { method: "POST", body: JSON.stringify({ username: "bob", password: PASSWORD }) });
    expect(back.status).toBe(200);
  }, 30_000);

  test("app delete (spec 2.2): the bot's session ends at once and it leaves every server; its token, webhooks and commands stop", async () => {
    const token = seeded.applications.EchoBot.token;
    const appId = seeded.applications.EchoBot.id;
    const carol = seeded.users.carol.token;
    const before = await lab(carol);
    const bot = before.members.find((u) => u.username === "EchoBot")!;
    const general = seeded.guilds.Lab.channels.general;
    const hook = (await (
      await api(`/api/v10/channels/${general}/webhooks`, { method: "POST", bot: token, body: JSON.stringify({ name: "hook" }) })
    ).json()) as any;
    expect(hook.token).toBeString();
    const put = await api(`/api/v10/applications/${appId}/commands`, {
      method: "PUT",
      bot: token,
      body: JSON.stringify([{ name: "ping", description: "pong" }]),
    });
    expect(put.status).toBe(200);
    expect(
      ((await (await api(`/api/client/v1/channels/${before.general}/commands`, { token: carol })).json()) as any[]).map((c) => c.name),
    ).toEqual(["ping"]);
    const said = (await (
      await api(`/api/v10/channels/${general}/messages`, { method: "POST", bot: token, body: JSON.stringify({ content: "last words" }) })
    ).json()) as any;
    expect(said.content).toBe("last words");

    const gw = socket(`${server.base.replace(/^http/, "ws")}/gateway`);
    await gw.until("HELLO", () => gw.frames.some((f) => f.op === 10));
    gw.ws.send(JSON.stringify({ op: 2, d: { token, intents: 513, properties: {} } }));
    await gw.until("READY", () => gw.frames.some((f) => f.t === "READY"));
    const watcher = await live(carol);

    const r = await command("app", "delete", "EchoBot");
    expect(r.code).toBe(0);
    expect(await closedSoon(gw.closed)).not.toBe("still open");
    expect(gw.frames.some((f) => f.op === 9)).toBe(true);
    await watcher.until("the bot leaving", () => watcher.frames.some((f) => f.type === "member.removed" && f.data.user_id === bot.id));
    expect((await lab(carol)).members.map((u) => u.id)).not.toContain(bot.id);
    expect((await api("/api/v10/users/@me", { bot: token })).status).toBe(401);
    const executed = await api(`/api/v10/webhooks/${hook.id}/${hook.token}`, {
      method: "POST",
      body: JSON.stringify({ content: "still here?" }),
    });
    expect(executed.status).toBe(404);
    expect((await (await api(`/api/client/v1/channels/${before.general}/commands`, { token: carol })).json()) as any[]).toEqual([]);
    // What the bot said stays readable.
    const history = (await (await api(`/api/client/v1/channels/${before.general}/messages`, { token: carol })).json()) as any[];
    expect(history.map((m) => m.content)).toContain("last words");
    watcher.ws.close();
  }, 30_000);

  test("user delete: their messages stay, shown as from Deleted User; they leave every server; their client is signed out", async () => {
    const dave = seeded.users.dave.token;
    const carol = seeded.users.carol.token;
    const before = await lab(carol);
    const said = (await (
      await api(`/api/client/v1/channels/${before.general}/messages`, {
        method: "POST",
        token: dave,
        body: JSON.stringify({ content: "remember me" }),
      })
    ).json()) as any;
    const conn = await live(dave);
    const r = await command("user", "delete", "dave");
    // Code, output and errors together, so a failure shows what the command said.
    expect(r).toEqual({
      code: 0,
      out: "deleted dave: their 1 message stays, shown as from Deleted User; they left 1 server, and their sessions and devices have ended\n",
      err: "",
    });
    expect(await closedSoon(conn.closed)).toBe(4001);
    const messages = (await (await api(`/api/client/v1/channels/${before.general}/messages`, { token: carol })).json()) as any[];
    const kept = messages.find((m) => m.id === said.id);
    expect(kept.content).toBe("remember me");
    expect(kept.author.global_name).toBe("Deleted User");
    expect(kept.author.username).not.toBe("dave");
    const after = await lab(carol);
    expect(after.members.map((u) => u.id)).not.toContain(kept.author.id);
    expect(after.members).toHaveLength(before.members.length - 1);
    // The name is free again.
    expect((await command("user", "create", "dave")).code).toBe(0);
  }, 30_000);
});
