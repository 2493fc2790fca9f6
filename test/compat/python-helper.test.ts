/**
 * The Python helper (clients/python/parley_testing) with a real discord.py bot under
 * Debian's /usr/bin/python3: the README's "Testing a discord.py bot" example, verbatim,
 * and the rest of the helper (its session, a REST fault the bot rides out, the transcript
 * a timed-out wait prints, the faults list), the same with pytest loaded and without it
 * installed; and its pytest fixtures in a real pytest run. Each run starts its own
 * `parley serve`.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BOTS, PYTHON, requireDiscordPy, requirePytest } from "./support";

const ROOT = resolve(import.meta.dir, "../..");
const HELPER = join(ROOT, "clients/python");
const PUBLIC_API = ["Faults", "HarnessError", "InteractionResult", "Parley", "Person", "find_parley", "parley_session"];
/** Every public name of the package: its API, and nothing that depends on pytest (the plugin is a module of its own). */
const PUBLIC = [...PUBLIC_API].sort();

/** Run a Python file with the helper importable, from a directory outside the checkout. */
async function python(file: string, cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([PYTHON, file, ...args], {
    cwd,
    env: { ...process.env, PYTHONPATH: HELPER, PARLEY_COMMAND: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

describe("clients/python/parley_testing", () => {
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

  test("its people do what the TypeScript SDK's do: every Person method has a twin; invite, join, leave, device, use_on, files; a world reset by another run says so", async () => {
    const r = await python(join(BOTS, "py_people_check.py"), tmpdir(), join(ROOT, "src/testing/person-types.ts"));
    expect({ code: r.code, err: r.code === 0 ? "" : r.err }).toEqual({ code: 0, err: "" });
    const [people, runs] = r.out.trim().split("\n");
    expect(JSON.parse(runs).world_lost).toMatch(
      /^POST \/users\/alice\/messages: 404 \{"code": 10003, "message": "Unknown channel"\}\nThe world this test seeded is gone: something else reset this server or seeded into it \(another test run on it\?\)\./,
    );
    expect(JSON.parse(people)).toEqual({
      missing: [],
      joined: true,
      used_up: 404,
      left: 404,
      device: ["created_at", "id"],
      dm_file: ["note.txt", "a note", 5],
      spoiler: 8,
      use_on: [400, 50035],
    });
  }, 30_000);

  for (const pytest of ["with-pytest", "without-pytest"] as const) {
    test(`${pytest}: the same module, its session, a 500 the bot's retry rides out, the transcript, a timed-out wait, the faults list`, async () => {
      requireDiscordPy();
      if (pytest === "with-pytest") requirePytest();
      const r = await python(join(BOTS, "py_helper_check.py"), tmpdir(), pytest);
      expect({ code: r.code, err: r.code === 0 ? "" : r.err }).toEqual({ code: 0, err: "" });
      const checks = Object.fromEntries(
        r.out
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l))
          .map((l) => [l.check, l]),
      );
      // Nothing the module offers depends on whether pytest is there (the fixtures have names of their own).
      expect(checks.module).toEqual({ check: "module", public: PUBLIC, all: [...PUBLIC_API].sort(), session_is_generator: true });
      expect(checks.armed.faults).toEqual([
        expect.objectContaining({ id: checks.armed.id, kind: "rest", status: 500, method: "POST", remaining: 1 }),
      ]);
      expect(checks.retried).toEqual({
        check: "retried",
        pong: "pong",
        rest: [
          [500, "/channels/{channel_id}/messages"],
          [200, "/channels/{channel_id}/messages"],
        ],
        faults: [],
      });
      expect(checks.people).toEqual({ check: "people", username: "alice", same_id: true, missing: 404 });
      expect(checks.timeout.message).toMatch(
        /^wait_for_message: nothing matched within 0.2 s; the newest in 'general' \(of \d+\):\n  EchoBot: "pong"\n(  .*\n)*\nTranscript of EchoBot \(last \d+ of \d+ entries\):\n/,
      );
      expect(checks.timeout.message).toContain('bot -> parley IDENTIFY  {"token":"[masked]"');
      expect(checks.timeout.message).toMatch(/rest +POST \/channels\/\d+\/messages -> 500/);
      expect(checks.faults).toMatchObject({ listed: [{ kind: "heartbeat_ack", drop: 3, remaining: 3 }], after: [], refused: [404, 10003] });
      expect(checks.event_timeout.message).toMatch(
        /^wait_for_event: nothing matched within 0.2 s; the bots were sent meanwhile: READY, GUILD_CREATE, MESSAGE_CREATE x\d+\n/,
      );
      expect(checks.stopped.running).toBe(false);
      expect(checks.gone.message).toMatch(
        /^POST \/users\/alice\/messages: the Parley server at http:\/\/\S+ (was killed by SIG\w+|exited with code -?\d+)$/,
      );
    }, 30_000);
  }

  test("as a pytest plugin: the parley fixture, seeded with the default and with an overridden parley_world", async () => {
    requirePytest();
    const dir = mkdtempSync(join(tmpdir(), "parley-pytest-"));
    try {
      writeFileSync(join(dir, "conftest.py"), 'pytest_plugins = ["parley_testing.plugin"]\n');
      writeFileSync(
        join(dir, "test_default_world.py"),
        `import inspect

import parley_testing

def test_empty_world(parley):
    assert parley.world == {"users": {}, "guilds": {}, "applications": {}}

def test_functions_stay_callable():
    assert inspect.isgeneratorfunction(parley_testing.parley_session)
`,
      );
      writeFileSync(
        join(dir, "test_own_world.py"),
        `import pytest

@pytest.fixture
def parley_world():
    return {"users": [{"name": "alice"}], "guilds": [{"name": "Lab", "owner": "alice"}]}

def test_alice_speaks(parley):
    parley.person("alice").say("general", "hello from pytest")
    assert [m["content"] for m in parley.messages("general")] == ["hello from pytest"]
`,
      );
      const proc = Bun.spawn([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", dir], {
        cwd: dir,
        env: { ...process.env, PYTHONPATH: HELPER, PARLEY_COMMAND: "" },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect({ code, passed: /(\d+) passed/.exec(out)?.[1], out: code === 0 ? "" : out + err }).toEqual({ code: 0, passed: "3", out: "" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
