import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "parley-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the compiled single executable serves the bot API with nothing beside it but its database", async () => {
  const out = join(dir, "parley");
  const build = Bun.spawnSync([process.execPath, "build", join(import.meta.dir, "../../src/main.ts"), "--compile", "--outfile", out], {
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(build.exitCode).toBe(0);
  const proc = Bun.spawn([out, "serve", "--port", "0", "--data", join(dir, "data"), "--demo"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  try {
    const reader = proc.stdout.getReader();
    let text = "";
    while (!/listening on (\S+)/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const base = /listening on (\S+)/.exec(text)![1];
    const token = /bot token\s+(\S+)/.exec(text)![1];
    const me = await fetch(`${base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).username).toBe("DemoBot");
  } finally {
    proc.kill();
    await proc.exited;
  }
}, 60_000);
