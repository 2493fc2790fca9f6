/**
 * The Python helper as a discord.py bot's developer first meets it: a slash command run
 * right after start_bot waits for the bot to register it (py_devloop.py), and a helper
 * installed by pip without the server says how to get the server.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BOTS, PYTHON, requireDiscordPy } from "./support";

const ROOT = resolve(import.meta.dir, "../..");
const HELPER = join(ROOT, "clients/python");

async function run(args: string[], env: Record<string, string>, cwd: string) {
  const proc = Bun.spawn([PYTHON, ...args], { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

describe("parley_testing, first steps", () => {
  test("a slash command run before the bot's tree.sync() waits for it; a misspelt one says the bot has none; one with no bot says so", async () => {
    requireDiscordPy();
    const r = await run([join(BOTS, "py_devloop.py")], { PYTHONPATH: HELPER, PARLEY_COMMAND: "" }, tmpdir());
    expect({ code: r.code, err: r.code === 0 ? "" : r.err }).toEqual({ code: 0, err: "" });
    const out = JSON.parse(r.out.trim());
    expect(out.raced).toBe("pong");
    expect(out.misspelt).toContain("the bot has no command 'pnig'");
    expect(out.misspelt).toContain("check the name, and that the bot registers it");
    // With no bot running, that is the likelier cause, and the message says so.
    expect(out.misspelt_no_bot).toContain("and the bot is not running (no live gateway session): start_bot() it first");
    expect(out.unknown_app).toBe("no application 'SlowSnyc' in the seeded world (it has SlowSync)");
    expect(out.undelivered).toEqual([
      expect.stringMatching(/^\/ping in general never reached the bot \(interaction \d+\): the application had no live gateway session/),
    ]);
  }, 40_000);

  test("without a server to run, the error says how to install one", async () => {
    // The package as pip leaves it: outside any Parley checkout, no node_modules above the tests.
    const dir = mkdtempSync(join(tmpdir(), "parley-nopkg-"));
    try {
      cpSync(join(HELPER, "parley_testing"), join(dir, "parley_testing"), { recursive: true });
      const code = "from parley_testing import find_parley\ntry:\n    find_parley()\nexcept FileNotFoundError as e:\n    print(e)\n";
      const r = await run(["-c", code], { PYTHONPATH: dir, PARLEY_COMMAND: "", PATH: "/usr/bin:/bin" }, dir);
      expect(r.out).toContain("npm install --save-dev bun path/to/parley/parley-0.1.0.tgz");
      expect(r.out).toContain("PARLEY_COMMAND");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("stop() ends the server when a launcher started it (npx, a script), not only the launcher", async () => {
    // A shell that waits for the server, as npx does: signalled alone, it leaves the server running.
    const launcher = `sh -c '"$0" "$@"; :' ${process.execPath} ${join(ROOT, "src/main.ts")}`;
    const code = [
      "import urllib.request",
      "from parley_testing import Parley",
      "p = Parley().start()",
      "url = p.base_url",
      "p.stop()",
      "try:",
      "    urllib.request.urlopen(url + '/healthz', timeout=2)",
      "    print('still running')",
      "except Exception:",
      "    print('stopped')",
    ].join("\n");
    const r = await run(["-c", code], { PYTHONPATH: HELPER, PARLEY_COMMAND: launcher }, tmpdir());
    expect({ out: r.out.trim(), err: r.code === 0 ? "" : r.err }).toEqual({ out: "stopped", err: "" });
  }, 30_000);
});
