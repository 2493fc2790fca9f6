/**
 * `npm start` (scripts/start.ts): the server with its demo world and the example
 * discord.js bot beside it, on every start. The second start finds the world already
 * there, so it rotates DemoBot's token for the bot it launches.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "parley-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(): Promise<{ base: string; out: string; stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts/start.ts"), "--port", "0", "--data", join(dir, "data")], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  let out = "";
  const deadline = Date.now() + 25_000;
  while (!/DemoBot is online/.test(out) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const base = /open (http:\/\/\S+)\//.exec(out)?.[1];
  if (!base || !/DemoBot is online/.test(out)) {
    proc.kill();
    throw new Error(`npm start did not come up: ${out}\n${await new Response(proc.stderr).text()}`);
  }
  return {
    base,
    out,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

async function commandsSeenByDemo(base: string): Promise<string[]> {
  const signin = await fetch(`${base}/api/client/v1/auth/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: "demo", password: "parley-demo" }),
  });
  const { token } = (await signin.json()) as { token: string };
  const auth = { Authorization: `Session ${token}` };
  const [guild] = (await (await fetch(`${base}/api/client/v1/guilds`, { headers: auth })).json()) as any[];
  const general = guild.channels.find((c: any) => c.name === "general").id;
  // The bot registers its commands once it is ready; wait for them (bounded: 20 s, as a
  // loaded 2-core machine can take several seconds to start discord.js).
  for (let i = 0; i < 400; i++) {
    const list = (await (await fetch(`${base}/api/client/v1/channels/${general}/commands`, { headers: auth })).json()) as any[];
    if (list.length) return list.map((c) => c.name);
    await Bun.sleep(50);
  }
  return [];
}

test("npm start: the demo world and DemoBot beside it, on the first start and again on the next (a rotated token)", async () => {
  const first = await start();
  try {
    expect(first.out).toContain("Sign in as  demo  with the password  parley-demo");
    expect(first.out).toContain("the one the demo world was created with");
    expect(first.out).toContain(`Make a bot of your own in the developer portal: ${first.base}/developers`);
    expect(first.out).toMatch(
      new RegExp(`DemoBot's install link, to add it to another server: ${first.base}/developers/install/\\d{17,20}`),
    );
    expect(await commandsSeenByDemo(first.base)).toEqual(["roll", "think"]);
  } finally {
    await first.stop();
  }
  expect((await fetch(`${first.base}/`).catch(() => null))?.status ?? "closed").toBe("closed");
  const second = await start();
  try {
    expect(second.out).toContain("rotated just now, as on every npm start");
    expect(await commandsSeenByDemo(second.base)).toEqual(["roll", "think"]);
  } finally {
    await second.stop();
  }
}, 60_000);
