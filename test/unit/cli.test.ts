import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { main } from "../../src/cli";
import { createParley } from "../../src/app";
import { loadConfig, parseFlags, SERVE_FLAGS, ConfigError } from "../../src/config";

/** A data directory holding a database, as a server's first start leaves it (commands other than serve and import need one). */
async function dataDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  await createParley(loadConfig({ data: dir, quiet: true }, {})).stop();
  return dir;
}

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    argv,
    env,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("config", () => {
  test("flags win over environment variables; env vars work alone", () => {
    const c = loadConfig(parseFlags(["--port", "8000"], SERVE_FLAGS).flags, {
      PARLEY_PORT: "9000",
      PARLEY_HARNESS: "1",
      PARLEY_DATA: ":memory:",
    });
    expect(c.port).toBe(8000);
    expect(c.harness).toBe(true);
    expect(c.dbPath).toBe(":memory:");
    expect(loadConfig({}, {}).port).toBe(7420);
    expect(loadConfig({}, {}).dbPath).toMatch(/parley-data\/parley\.db$/);
  });

  test("--trusted-proxy: a list of addresses, an IPv4-mapped one as its IPv4; none by default", () => {
    expect(loadConfig({}, {}).trustedProxies).toEqual([]);
    expect(loadConfig({ "trusted-proxy": "127.0.0.1, ::1,::FFFF:10.0.0.9" }, {}).trustedProxies).toEqual(["127.0.0.1", "::1", "10.0.0.9"]);
    expect(loadConfig({}, { PARLEY_TRUSTED_PROXY: "10.1.2.3" }).trustedProxies).toEqual(["10.1.2.3"]);
  });

  test("bad values are one-line ConfigErrors", () => {
    expect(() => loadConfig({ port: "http" }, {})).toThrow(ConfigError);
    expect(() => loadConfig({}, { PARLEY_HARNESS: "maybe" })).toThrow(ConfigError);
    expect(() => loadConfig({ "gateway-url": "http://x" }, {})).toThrow(ConfigError);
    expect(() => loadConfig({ synchronous: "OFF" }, {})).toThrow(ConfigError);
    expect(() => loadConfig({ "trusted-proxy": "127.0.0.1,proxy.local" }, {})).toThrow(ConfigError);
    expect(() => parseFlags(["--nope"], SERVE_FLAGS)).toThrow(ConfigError);
    expect(() => parseFlags(["--port"], SERVE_FLAGS)).toThrow(ConfigError);
  });

  test("a --rate-limits file is checked whole: a wrong kind, a bad number or a misspelt key is one line", () => {
    const file = join(mkdtempSync(join(tmpdir(), "parley-rl-")), "limits.json");
    const refused = (doc: unknown) => {
      writeFileSync(file, JSON.stringify(doc));
      return () => loadConfig({ "rate-limits": file }, {});
    };
    expect(refused({ global: "lots" })).toThrow(`--rate-limits: '${file}': global must be {"limit": N, "windowMs": MS}`);
    expect(refused({ global: { limit: -1, windowMs: 0 } })).toThrow(/global\.limit must be a whole number from 1 to 1000000, not -1/);
    expect(refused({ default: { limit: 5, windowMs: 1.5 } })).toThrow(/default\.windowMs must be a whole number of ms/);
    expect(refused({ enabled: "no" })).toThrow(/enabled must be true or false, not "no"/);
    expect(refused({ glboal: { limit: 1, windowMs: 1000 } })).toThrow(/unknown key 'glboal' \(it takes enabled, global, default, routes\)/);
    expect(refused([])).toThrow(/must hold an object/);
    expect(refused({ routes: 5 })).toThrow(/routes must be an object/);
    expect(refused({ routes: { "/channels/{id}/messages": { limit: 1, windowMs: 1000 } } })).toThrow(/is not "METHOD \/template"/);
    expect(refused({ routes: { "POST /channels/{id}/messages": { limit: "x", windowMs: 1000 } } })).toThrow(
      /routes\["POST \/channels\/\{id\}\/messages"\]\.limit must be/,
    );
    // A good file: what it names is changed, the rest stays the spec's.
    const route = { "POST /channels/{channel_id}/messages": { limit: 2, windowMs: 1000 } };
    writeFileSync(file, JSON.stringify({ global: { limit: 20, windowMs: 1000 }, routes: route }));
    const ok = loadConfig({ "rate-limits": file }, {}).rateLimits;
    expect(ok).toEqual({ enabled: true, global: { limit: 20, windowMs: 1000 }, default: { limit: 10, windowMs: 10_000 }, routes: route });
  });

  test("an empty --data (an unset variable in a script) is refused, not taken for the working directory", () => {
    expect(() => loadConfig({ data: "" }, {})).toThrow("--data must name a directory (or :memory:), not ''");
    expect(() => loadConfig({ data: " " }, {})).toThrow(ConfigError);
    // An empty PARLEY_DATA is no value at all, as for every variable: the default stands.
    expect(loadConfig({}, { PARLEY_DATA: "" }).dbPath).toMatch(/parley-data\/parley\.db$/);
  });

  test("a bad value from the environment is refused by the variable's name, a flag's by the flag's", () => {
    expect(() => loadConfig({}, { PARLEY_PORT: "abc" })).toThrow("PARLEY_PORT must be 0 to 65535, not 'abc'");
    expect(() => loadConfig({}, { PARLEY_RATE_LIMITS: "maybe" })).toThrow("PARLEY_RATE_LIMITS: cannot read JSON from 'maybe'");
    expect(() => loadConfig({}, { PARLEY_MEDIA_MAX_FILE_BYTES: "1e3" })).toThrow(/^PARLEY_MEDIA_MAX_FILE_BYTES must be/);
    expect(() => loadConfig({ port: "abc" }, { PARLEY_PORT: "abc" })).toThrow("--port must be 0 to 65535, not 'abc'");
    // The flag won: the variable's value was never read.
    expect(() => loadConfig({ port: "abc" }, { PARLEY_PORT: "8000" })).toThrow(/^--port must be/);
  });

  test("--database (PARLEY_DATABASE) selects Postgres; the default stays SQLite in --data", () => {
    expect(loadConfig({}, {}).database).toBeNull();
    const url = "postgres://parley:secret@db.example:5432/parley";
    expect(loadConfig({ database: url }, {}).database).toBe(url);
    expect(loadConfig({}, { PARLEY_DATABASE: "postgresql://db/parley" }).database).toBe("postgresql://db/parley");
    // The data directory stays: it holds the secret key and the lock.
    expect(loadConfig({ database: url, data: "/srv/parley" }, {}).dbPath).toBe("/srv/parley/parley.db");
    for (const database of ["mysql://db/x", "db.example:5432", "sqlite:///x.db"])
      expect(() => loadConfig({ database }, {})).toThrow(ConfigError);
    expect(() => loadConfig({ database: url, data: ":memory:" }, {})).toThrow(/secret key/);
  });

  test("--redis (PARLEY_REDIS) shares the rate limits of nodes on one Postgres database; alone, or not a redis:// URL, it is refused", () => {
    const database = "postgres://parley:secret@db.example:5432/parley";
    expect(loadConfig({ database }, {}).redis).toBeNull();
    expect(loadConfig({ database, redis: "redis://cache:6379" }, {}).redis).toBe("redis://cache:6379");
    expect(loadConfig({ database }, { PARLEY_REDIS: "valkey://cache" }).redis).toBe("valkey://cache");
    expect(() => loadConfig({ redis: "redis://cache:6379" }, {})).toThrow(/--database/);
    for (const redis of ["http://cache", "cache:6379"]) expect(() => loadConfig({ database, redis }, {})).toThrow(ConfigError);
  });

  test("people's sessions: 30 days idle and 365 absolute unless --session-idle and --session-max (days) say otherwise", () => {
    const DAY = 86_400_000;
    expect(loadConfig({}, {}).sessions).toEqual({ idleMs: 30 * DAY, absoluteMs: 365 * DAY });
    expect(loadConfig({ "session-idle": "7" }, { PARLEY_SESSION_MAX: "90" }).sessions).toEqual({ idleMs: 7 * DAY, absoluteMs: 90 * DAY });
    const bad: Record<string, string>[] = [
      { "session-idle": "0" },
      { "session-max": "1.5" },
      { "session-idle": "40", "session-max": "30" },
    ];
    for (const flags of bad) expect(() => loadConfig(flags, {})).toThrow(ConfigError);
  });
});

describe("the parley command", () => {
  test("operator commands follow PARLEY_DATABASE: a Postgres nobody answers at is one line, its password hidden", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-cli-pg-"));
    // A node's key, as a command on Postgres needs (without one it is refused before connecting).
    writeFileSync(join(dir, "secret.key"), new Uint8Array(32));
    try {
      const r = await run(["app", "list", "--data", dir], { PARLEY_DATABASE: "postgres://parley:hunter2@127.0.0.1:1/parley" });
      expect(r.code).toBe(1);
      expect(r.err).toStartWith("parley: Postgres (postgres://parley:***@127.0.0.1:1/parley): cannot connect");
      expect(r.err).not.toContain("hunter2");
      expect(r.err.split("\n")).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

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
    for (const c of [
      ["user", "create"],
      ["guild", "create"],
      ["app", "create"],
      ["app", "rotate"],
      ["app", "intents"],
      ["app", "approve"],
      ["app", "install"],
      ["app", "delete"],
    ]) {
      const r = await run([...c, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain("Usage: parley " + c.join(" "));
    }
  });

  test("a self-hoster's flow: person, server, application (token printed once), intents, approval, install, rotate, delete", async () => {
    const dir = await dataDir("parley-cli-");
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
      // The install link names the application as its bot knows it (its snowflake), under the portal.
      expect(created.out).toMatch(/install link: http:\/\/127\.0\.0\.1:7420\/developers\/install\/\d{17,20}\n/);
      // No server runs there: the line after says which address the link assumes.
      expect(created.out).toContain(
        "no server is running on this data directory: the link assumes it will listen at http://127.0.0.1:7420",
      );
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

describe("the operator's slips", () => {
  test("--version on every command", async () => {
    for (const argv of [
      ["--version"],
      ["serve", "--version"],
      ["app", "rotate", "X", "--version"],
      ["backup", "--version"],
      ["user", "create", "-v"],
    ]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^parley \d+\.\d+\.\d+$/);
    }
  });

  test("without --data, commands use PARLEY_DATA (then ./parley-data), and refuse a directory with no database", async () => {
    const dir = await dataDir("parley-cli-env-");
    try {
      expect((await run(["user", "create", "alice"], { PARLEY_DATA: dir })).code).toBe(0);
      expect((await run(["app", "create", "Helper", "--owner", "alice"], { PARLEY_DATA: dir })).code).toBe(0);
      const list = await run(["app", "list"], { PARLEY_DATA: dir });
      expect(list.out).toContain("Helper");
      const none = await run(["app", "list"], { PARLEY_DATA: join(dir, "elsewhere") });
      expect(none.code).toBe(2);
      expect(none.err).toMatch(/^parley: no database at .*elsewhere\/parley\.db/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a name two applications (or servers) carry is refused with the ids to use; an id works", async () => {
    const dir = await dataDir("parley-cli-dup-");
    const d = ["--data", dir];
    try {
      await run(["user", "create", "alice", ...d]);
      const first = await run(["app", "create", "EchoBot", "--owner", "alice", ...d]);
      const second = await run(["app", "create", "EchoBot", "--owner", "alice", ...d]);
      expect(second.out).toContain("another application is named EchoBot");
      const ids = [first, second].map((r) => /application EchoBot id (\d+)/.exec(r.out)![1]);
      const refused = await run(["app", "rotate", "EchoBot", ...d]);
      expect(refused.code).toBe(2);
      expect(refused.err).toBe(`parley: 2 applications are named 'EchoBot': name one by its id: ${ids.join(", ")}`);
      expect((await run(["app", "rotate", ids[1], ...d])).out).toContain("token (shown once)");
      await run(["guild", "create", "Home", "--owner", "alice", ...d]);
      await run(["guild", "create", "Home", "--owner", "alice", ...d]);
      const g = await run(["app", "install", ids[0], "--guild", "Home", ...d]);
      expect(g.code).toBe(2);
      expect(g.err).toMatch(/^parley: 2 servers are named 'Home': name one by its id: \d+, \d+$/);
      const internal = (await run(["guild", "list", ...d])).out.split("\n")[0].split(/\s+/)[0];
      expect(internal).toMatch(/^[0-9a-f-]{36}$/);
      expect((await run(["app", "install", ids[0], "--guild", internal, ...d])).out).toContain("installed EchoBot into Home");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("'app intents X' without a list is refused; 'none' clears", async () => {
    const dir = await dataDir("parley-cli-int-");
    const d = ["--data", dir];
    try {
      await run(["user", "create", "alice", ...d]);
      await run(["app", "create", "Helper", "--owner", "alice", ...d]);
      const r = await run(["app", "intents", "Helper", ...d]);
      expect(r.code).toBe(2);
      expect(r.err).toContain("list the intents");
      expect((await run(["app", "intents", "Helper", "none", ...d])).out).toContain("intents: none");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("only serve and import make a data directory: every other command, where none is, refuses in one line and makes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-cli-none-"));
    try {
      const nowhere = join(dir, "nowhere");
      for (const argv of [
        ["user", "create", "alice"],
        ["user", "list"],
        ["app", "list"],
        ["guild", "list"],
        ["backup", join(dir, "b.db")],
        ["export", join(dir, "w.json")],
      ]) {
        const r = await run([...argv, "--data", nowhere]);
        expect({ argv, code: r.code }).toEqual({ argv, code: 2 });
        expect(r.err).toBe(
          `parley: no database at ${nowhere}/parley.db: start the server there first (parley serve --data ${nowhere}), or point --data (or PARLEY_DATA) at the data directory it uses`,
        );
        expect(existsSync(nowhere)).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("'parley app' (or user, guild) alone lists its commands; an unknown one is one line", async () => {
    const app = await run(["app"]);
    expect(app.code).toBe(2);
    expect(app.err).toBe("");
    expect(app.out).toStartWith("Usage: parley app <command>\n");
    for (const c of ["create", "list", "rotate", "intents", "approve", "install", "delete"]) expect(app.out).toContain(`parley app ${c}`);
    expect(app.out).not.toContain("parley user");
    const user = await run(["user", "--help"]);
    expect(user.code).toBe(0);
    for (const c of ["create", "list", "password", "disable", "delete"]) expect(user.out).toContain(`parley user ${c}`);
    expect((await run(["guild"])).out).toContain("parley guild list");
    const bad = await run(["app", "frobnicate"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe("parley: unknown command 'app frobnicate' (see parley app)");
  });

  test("serve --help: every flag, its variable and its help in columns that never run together", async () => {
    const help = (await run(["serve", "--help"])).out.split("\n").filter((l) => l.startsWith("  --"));
    expect(help).toHaveLength(SERVE_FLAGS.length);
    const envAt = help[0].indexOf("PARLEY_");
    for (const [i, line] of help.entries()) {
      const f = SERVE_FLAGS[i];
      // The flag, at least two spaces, its variable where every variable starts, at least two spaces, its help.
      expect(line).toMatch(new RegExp(`^  --${f.name}( VALUE)? {2,}${f.env} {2,}\\S`));
      expect(line.indexOf(f.env)).toBe(envAt);
    }
  });

  test("user list shows people with the ids to use, and who is an administrator or disabled", async () => {
    const dir = await dataDir("parley-cli-users-");
    const d = ["--data", dir];
    try {
      expect((await run(["user", "list", ...d])).out).toBe("no people yet ('parley user create')");
      await run(["user", "create", "alice", "--admin", ...d]);
      await run(["user", "create", "bob", ...d]);
      expect((await run(["user", "disable", "bob", ...d])).out).toContain(
        "bob is disabled: they cannot sign in, and their sessions have ended",
      );
      const lines = (await run(["user", "list", ...d])).out.split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^[0-9a-f-]{36}  \d{17,20}  alice  \(administrator\)$/);
      expect(lines[1]).toMatch(/^[0-9a-f-]{36}  \d{17,20}  bob  \(disabled\)$/);
      expect((await run(["user", "disable", "bob", "--enable", ...d])).out).toBe("bob may sign in again");
      expect((await run(["user", "list", ...d])).out.split("\n")[1]).toMatch(/  bob$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("user delete is refused while the person owns a server or an application, saying which", async () => {
    const dir = await dataDir("parley-cli-owner-");
    const d = ["--data", dir];
    try {
      await run(["user", "create", "alice", ...d]);
      await run(["guild", "create", "Home", "--owner", "alice", ...d]);
      await run(["app", "create", "Helper", "--owner", "alice", ...d]);
      const r = await run(["user", "delete", "alice", ...d]);
      expect(r.code).toBe(1);
      expect(r.err).toBe(
        "parley: alice owns servers Home and applications Helper: delete them, or give the servers to someone else, first",
      );
      expect((await run(["user", "list", ...d])).out).toContain("alice");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
