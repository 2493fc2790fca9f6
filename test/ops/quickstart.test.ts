/**
 * The README's promise, as a self-hoster meets it: `npm start`, then in another terminal
 * `npx parley app list` shows DemoBot and `npx parley app rotate DemoBot` prints a token
 * that works against the running server. A temporary data directory and a free port
 * (through the environment) stand in for ./parley-data and 7420.
 */
import { afterAll, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-quick-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("npm start, then npx parley app list and app rotate DemoBot; the new token works, the demo's stops", async () => {
  const env = { ...process.env, PARLEY_DATA: join(dir, "data"), PARLEY_PORT: "0" };
  // Its own process group: npm, its shell and the server stop together.
  const npm = spawn("npm", ["start"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  npm.stdout!.on("data", (d) => (out += String(d)));
  const exited = new Promise<number | null>((r) => npm.once("exit", (c) => r(c)));
  try {
    const deadline = Date.now() + 30_000;
    while (!/parley listening on (\S+)/.test(out) && Date.now() < deadline) await Bun.sleep(20);
    const base = /parley listening on (\S+)/.exec(out)![1];
    const demoToken = /bot token\s+(\S+)/.exec(out)![1];
    expect(out).toContain(
      `const bot = new Client({ intents: [I.Guilds, I.GuildMessages, I.MessageContent], rest: { api: "${base}/api" } });`,
    );
    expect(out).toContain(`bot.login("${demoToken}")`);
    expect(out).toMatch(/open http:\S+\/ in a browser/);

    const npx = (...args: string[]) => spawnSync("npx", ["parley", ...args], { cwd: ROOT, env, encoding: "utf8", timeout: 30_000 });
    const list = npx("app", "list");
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/^\d{17,20}  DemoBot  /m);
    const rotated = npx("app", "rotate", "DemoBot");
    expect(rotated.status).toBe(0);
    const token = /token \(shown once\): (\S+)/.exec(rotated.stdout)![1];

    const me = await fetch(`${base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).username).toBe("DemoBot");
    const old = await fetch(`${base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${demoToken}` } });
    expect(old.status).toBe(401);
  } finally {
    process.kill(-npm.pid!, "SIGTERM");
    await exited;
  }
}, 90_000);
