import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli";
import { loadConfig, parseFlags, SERVE_FLAGS, ConfigError } from "../../src/config";

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env, (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("config", () => {
  test("flags win over environment variables; env vars work alone", () => {
    const c = loadConfig(parseFlags(["--port", "8000"], SERVE_FLAGS).flags, { PARLEY_PORT: "9000", PARLEY_HARNESS: "1", PARLEY_DATA: ":memory:" });
    expect(c.port).toBe(8000);
    expect(c.harness).toBe(true);
    expect(c.dbPath).toBe(":memory:");
    expect(loadConfig({}, {}).port).toBe(7420);
    expect(loadConfig({}, {}).dbPath).toMatch(/parley-data\/parley\.db$/);
  });

  test("bad values are one-line ConfigErrors", () => {
    expect(() => loadConfig({ port: "http" }, {})).toThrow(ConfigError);
    expect(() => loadConfig({}, { PARLEY_HARNESS: "maybe" })).toThrow(ConfigError);
    expect(() => loadConfig({ "gateway-url": "http://x" }, {})).toThrow(ConfigError);
    expect(() => loadConfig({ synchronous: "OFF" }, {})).toThrow(ConfigError);
    expect(() => parseFlags(["--nope"], SERVE_FLAGS)).toThrow(ConfigError);
    expect(() => parseFlags(["--port"], SERVE_FLAGS)).toThrow(ConfigError);
  });
});

describe("the parley command", () => {
  test("bad flags and unknown commands exit 2 with one line", async () => {
    for (const argv of [["serve", "--bogus"], ["serve", "--port", "x"], ["frobnicate"], ["app", "rotate", "--nope"]]) {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.err.split("\n")).toHaveLength(1);
      expect(r.err).toStartWith("parley: ");
    }
  });

  test("--help on each command", async () => {
    expect((await run(["--help"])).out).toContain("parley serve");
    expect((await run(["serve", "--help"])).out).toContain("PARLEY_PORT");
    for (const c of [["user", "create"], ["guild", "create"], ["app", "create"], ["app", "rotate"], ["app", "intents"], ["app", "approve"], ["app", "install"], ["app", "delete"]]) {
      const r = await run([...c, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain("Usage: parley " + c.join(" "));
    }
  });

  test("a self-hoster's flow: person, server, application (token printed once), intents, approval, install, rotate, delete", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-cli-"));
    const d = ["--data", dir];
    try {
      expect((await run(["user", "create", "alice", "--password", "correct horse", "--admin", ...d])).out).toContain("administrator");
      // A guessable password is refused with the reason, and creates nobody.
      const weak = await run(["user", "create", "weakling", "--password", "12345678", ...d]);
      expect(weak.code).toBe(1);
      expect(weak.err).toContain("password");
      expect((await run(["guild", "create", "Home", "--owner", "alice", "--channels", "general,random", ...d])).out).toContain("#random");
      const created = await run(["app", "create", "Helper", "--owner", "alice", ...d]);
      const token1 = /token \(shown once\): (\S+)/.exec(created.out)![1];
      expect(token1.split(".")).toHaveLength(3);
      const intents = await run(["app", "intents", "Helper", "GUILDS,GUILD_MESSAGES,MESSAGE_CONTENT", ...d]);
      expect(intents.out).toContain("awaiting approval: MESSAGE_CONTENT");
      expect((await run(["app", "approve", "Helper", "GUILDS", ...d])).code).toBe(2);
      expect((await run(["app", "approve", "Helper", "MESSAGE_CONTENT", ...d])).out).toContain("MESSAGE_CONTENT");
      expect((await run(["app", "install", "Helper", "--guild", "Home", ...d])).out).toContain("installed Helper into Home");
      const rotated = await run(["app", "rotate", "Helper", ...d]);
      const token2 = /token \(shown once\): (\S+)/.exec(rotated.out)![1];
      expect(token2).not.toBe(token1);
      const list = await run(["app", "list", ...d]);
      expect(list.out).toContain("MESSAGE_CONTENT");
      expect(list.out).toContain("token v2");
      expect((await run(["app", "delete", "Helper", ...d])).out).toContain("deleted Helper");
      expect((await run(["app", "rotate", "Helper", ...d])).code).toBe(2);
      expect((await run(["user", "create", "alice", ...d])).code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
