/**
 * The Python helper (clients/python/parley_testing.py) with a real discord.py bot under
 * Debian's /usr/bin/python3: the README's "Testing a discord.py bot" example, verbatim,
 * and the rest of the helper (fixtures, a REST fault the bot rides out, the transcript a
 * timed-out wait prints, the faults list). Each run starts its own `parley serve`.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BOTS, PYTHON, requireDiscordPy } from "./support";

const ROOT = resolve(import.meta.dir, "../..");
const HELPER = join(ROOT, "clients/python");

/** Run a Python file with the helper importable, from a directory outside the checkout. */
async function python(file: string, cwd: string): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([PYTHON, file], {
    cwd,
    env: { ...process.env, PYTHONPATH: HELPER, PARLEY_COMMAND: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

describe("clients/python/parley_testing.py", () => {
  test("the README's discord.py example runs as written (and the section stays under 30 lines)", async () => {
    requireDiscordPy();
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const section = /^## Testing a discord\.py bot\n[\s\S]*?(?=\n## )/m.exec(readme)![0];
    expect(section.trimEnd().split("\n").length).toBeLessThan(30);
    const code = /<!-- readme-example: discord.py -->\n```python\n([\s\S]*?)```/.exec(section)![1];
    const dir = mkdtempSync(join(tmpdir(), "parley-readme-py-"));
    try {
      writeFileSync(join(dir, "readme_example.py"), code);
      const r = await python("readme_example.py", dir);
      expect({ code: r.code, err: r.code === 0 ? "" : r.err }).toEqual({ code: 0, err: "" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  test("fixtures, a 500 the bot's retry rides out, the transcript, a timed-out wait, the faults list", async () => {
    requireDiscordPy();
    const r = await python(join(BOTS, "py_helper_check.py"), tmpdir());
    expect({ code: r.code, err: r.code === 0 ? "" : r.err }).toEqual({ code: 0, err: "" });
    const checks = Object.fromEntries(
      r.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .map((l) => [l.check, l]),
    );
    expect(checks.fixtures.default_world).toEqual({});
    expect(checks.armed.faults).toEqual([expect.objectContaining({ id: checks.armed.id, kind: "rest", status: 500, method: "POST", remaining: 1 })]);
    expect(checks.retried).toEqual({
      check: "retried",
      pong: "pong",
      rest: [
        [500, "/channels/{channel_id}/messages"],
        [200, "/channels/{channel_id}/messages"],
      ],
      faults: [],
    });
    expect(checks.timeout.message).toMatch(/^wait_for_message: nothing matched within 0.2 s\n\nTranscript of EchoBot \(last \d+ of \d+ entries\):\n/);
    expect(checks.timeout.message).toContain('bot -> parley IDENTIFY  {"token":"[masked]"');
    expect(checks.timeout.message).toMatch(/rest +POST \/channels\/\d+\/messages -> 500/);
    expect(checks.faults).toMatchObject({ listed: [{ kind: "heartbeat_ack", drop: 3, remaining: 3 }], after: [], refused: [404, 10003] });
    expect(checks.stopped.running).toBe(false);
  }, 30_000);
});
