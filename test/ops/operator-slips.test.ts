/**
 * What a self-hoster meets following docs/operations.md: a slip (a word too many, a file
 * that cannot be written) is one line and a non-zero exit, never a stack trace nor a
 * silent half-done command; a server logging JSON writes only JSON, refusals included;
 * and what the server prints names the command that works on its data directory.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operatorCommand } from "../../src/cli/serve";
import { oneLine, parley, serve } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-slips-"));
const data = join(dir, "data");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  // `parley import` makes a data directory, as `parley serve` does.
  writeFileSync(join(dir, "seed.json"), JSON.stringify({ users: [{ name: "alice" }] }));
  expect((await parley(["import", join(dir, "seed.json"), "--data", data])).code).toBe(0);
}, 30_000);

describe("operator commands", () => {
  test("a word too many (an unquoted name) is refused, and nothing is made", async () => {
    const r = await parley(["guild", "create", "My", "Server", "--owner", "alice", "--data", data]);
    oneLine(r, /unexpected argument 'Server'.*quote a name that holds spaces/);
    expect(r.code).toBe(2);
    expect((await parley(["guild", "list", "--data", data])).out).not.toContain("My");
    oneLine(await parley(["app", "list", "extra", "--data", data]), /unexpected argument 'extra'/);
  });

  test("on Postgres, a data directory without a node's key is refused before anything is made there", async () => {
    const stray = join(dir, "no-key-here");
    // Nothing listens on port 1: the refusal comes before any connection is tried.
    const env = { PARLEY_DATABASE: "postgres://parley:pw@127.0.0.1:1/parley" };
    const r = await parley(["app", "list", "--data", stray], { env });
    oneLine(r, /no secret\.key in '.*no-key-here': on Postgres a command needs a node's key/);
    expect(r.code).toBe(2);
    expect(existsSync(stray)).toBe(false);
  });

  test("--data :memory: (or PARLEY_DATA=:memory:) is refused: no command reaches a server's memory", async () => {
    for (const argv of [
      ["user", "create", "zed", "--data", ":memory:"],
      ["app", "list", "--data", ":memory:"],
      ["export", join(dir, "memory.json"), "--data", ":memory:"],
    ]) {
      const r = await parley(argv);
      oneLine(r, /--data :memory: names no database another process can reach/);
      expect(r.code).toBe(2);
    }
    oneLine(await parley(["backup", join(dir, "memory.db")], { env: { PARLEY_DATA: ":memory:" } }), /:memory: names no database/);
    expect(existsSync(join(dir, "memory.json"))).toBe(false);
    expect(existsSync(join(dir, "memory.db"))).toBe(false);
  });

  test("backup and export never write over the data directory's own files, --force or not", async () => {
    for (const [cmd, file] of [
      ["backup", "parley.db"],
      ["export", "parley.db"],
      ["export", "secret.key"],
      ["backup", "media"],
    ]) {
      const r = await parley([cmd, join(data, file), "--force", "--data", data]);
      oneLine(r, /is the server's own data: write the copy outside/);
      expect(r.code).toBe(2);
    }
    // The database is the one it was: alice is still there.
    expect((await parley(["user", "list", "--data", data])).out).toContain("alice");
  });

  test("a server given to someone outside it names them both", async () => {
    expect((await parley(["guild", "create", "Club", "--owner", "alice", "--data", data])).code).toBe(0);
    expect((await parley(["user", "create", "outsider", "--data", data])).code).toBe(0);
    oneLine(
      await parley(["guild", "transfer", "Club", "--to", "outsider", "--data", data]),
      /outsider is not a member of Club: a server goes only to one of its members/,
    );
  });

  test("an unknown invite, or too many uses, says what the command takes", async () => {
    oneLine(
      await parley(["invite", "revoke", "123", "--data", data]),
      /no sign-up invite '123' that still works \(list them with 'parley invite list'\)/,
    );
    oneLine(
      await parley(["invite", "create", "--max-uses", "-1", "--data", data]),
      /--max-uses takes a whole number from 0 \(no limit\) to 1000, not '-1'/,
    );
  });

  test("registration servers without its word says which words it takes", async () => {
    oneLine(await parley(["registration", "servers", "--data", data]), /say who may create servers: 'everyone' or 'admins'/);
  });

  test("a person made without a password is told to need one", async () => {
    const r = await parley(["user", "create", "nopass", "--data", data]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("no password: they cannot sign in until 'parley user password nopass --password ...'");
    const withOne = await parley(["user", "create", "withpass", "--password", "a long password 2", "--data", data]);
    expect(withOne.out).not.toContain("no password");
  });

  test("an import of a file that is missing or not JSON makes no data directory", async () => {
    const fresh = join(dir, "never-made");
    const missing = await parley(["import", join(dir, "no-such.json"), "--data", fresh]);
    oneLine(missing, /cannot read JSON from '.*no-such\.json'/);
    expect(missing.code).toBe(2);
    writeFileSync(join(dir, "broken.json"), "{ not json");
    oneLine(await parley(["import", join(dir, "broken.json"), "--data", fresh]), /cannot read JSON/);
    expect(existsSync(fresh)).toBe(false);
  });

  test("an import of JSON that is no world, or a malformed one, makes no data directory either", async () => {
    const fresh = join(dir, "never-made-2");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "not-a-world", version: "1.0.0" }));
    const notWorld = await parley(["import", join(dir, "package.json"), "--data", fresh]);
    oneLine(notWorld, /package\.json: name: Not a section of a world document/);
    expect(notWorld.code).toBe(2);
    writeFileSync(join(dir, "bad-world.json"), JSON.stringify({ users: [{ name: 7 }] }));
    oneLine(await parley(["import", join(dir, "bad-world.json"), "--data", fresh]), /bad-world\.json: users\[0\]\.name/);
    expect(existsSync(fresh)).toBe(false);
  });

  test("an export to a directory that does not exist is one line", async () => {
    const r = await parley(["export", join(dir, "no", "such", "world.json"), "--data", data]);
    oneLine(r, /cannot write the export to .*world\.json: ENOENT/);
    expect(r.code).toBe(1);
  });

  test("a backup without files still writes FILE.media, which the restore moves into place", async () => {
    const file = join(dir, "b.db");
    const r = await parley(["backup", file, "--data", data]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("its 0 files");
    expect(statSync(`${file}.media`).isDirectory()).toBe(true);
    expect(readdirSync(`${file}.media`)).toEqual([]);
  });

  test("the file commands take --media-dir, where a server given it keeps its files", async () => {
    const media = join(dir, "shared-media");
    const r = await parley(["media", "usage", "--data", data, "--media-dir", media]);
    expect(r.err).toBe("");
    expect(r.out).toBe("0 files, 0 bytes\n");
    const help = await parley(["backup", "--help"]);
    expect(help.out).toContain("--media-dir");
  });
});

test("a --media-dir that cannot be made is refused at start, in one line", async () => {
  writeFileSync(join(dir, "a-file"), "x");
  const r = await parley(["serve", "--port", "0", "--data", join(dir, "md-data"), "--media-dir", join(dir, "a-file", "media")]);
  oneLine(r, /the media directory '.*a-file\/media' cannot be used \(ENOTDIR\)/);
  expect(r.code).toBe(1);
});

describe("--log-format json", () => {
  test("a refusal to start is one JSON line on stderr", async () => {
    for (const argv of [
      ["serve", "--log-format", "json", "--port", "abc"],
      ["serve", "--log-format=json", "--bogus"],
    ]) {
      const r = await parley(argv);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      const lines = r.err.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ level: "error" });
    }
    const env = await parley(["serve", "--port", "abc"], { env: { PARLEY_LOG_FORMAT: "json" } });
    expect(JSON.parse(env.err)).toMatchObject({ level: "error", msg: "--port must be 0 to 65535, not 'abc'" });
  });

  test("the banner and the setup link are JSON lines too", async () => {
    const s = await serve(["--port", "0", "--data", join(dir, "json-data"), "--log-format", "json", "--timings"]);
    try {
      const deadline = Date.now() + 10_000;
      while (!s.out().includes("since the process started") && Date.now() < deadline) await Bun.sleep(20);
    } finally {
      expect(await s.stop()).toBe(0);
    }
    // The shutdown's lines may reach the pipe just after the exit is seen.
    for (let i = 0; i < 100 && !s.out().includes('"stopped"'); i++) await Bun.sleep(20);
    const lines = s
      .out()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ level: "info", base: s.base, bot_api: `${s.base}/api/v10` });
    expect(lines[0].msg).toStartWith(`parley listening on ${s.base} `);
    const setup = lines.find((l) => l.setup_url);
    expect(setup.setup_url).toStartWith(`${s.base}/setup/setup_`);
    expect(setup.msg).toContain(`user admin <name> --data ${join(dir, "json-data")}`);
    expect(lines.map((l) => l.msg)).toContain("stopped");
  });
});

test("a server stopped before its first request still logs its shutdown", async () => {
  const s = await serve(["--port", "0", "--data", join(dir, "quick-stop")]);
  expect(await s.stop()).toBe(0);
  for (let i = 0; i < 100 && !s.out().includes(" stopped "); i++) await Bun.sleep(20);
  expect(s.out()).toMatch(/INFO {2}shutting down signal=SIGTERM/);
  expect(s.out()).toMatch(/INFO {2}stopped gateway_sockets_closed=0/);
});

test("listening on every address with no --base-url, the banner says bots are told an address only this machine reaches", async () => {
  const s = await serve(["--port", "0", "--host", "0.0.0.0", "--data", ":memory:", "--harness"]);
  try {
    for (let i = 0; i < 250 && !s.out().includes("note "); i++) await Bun.sleep(20);
  } finally {
    expect(await s.stop()).toBe(0);
  }
  expect(s.out()).toMatch(/note {6}--host 0\.0\.0\.0 without --base-url: bots are told ws:\/\/0\.0\.0\.0:\d+\/gateway/);
});

describe("the setup link's commands", () => {
  test("name the data directory, and the compiled executable as parley", () => {
    expect(operatorCommand({ data: "/var/lib/parley", database: null }, "/$bunfs/root/parley")).toEqual([
      "parley",
      " --data /var/lib/parley",
    ]);
    expect(operatorCommand({ data: "./parley-data", database: null }, "/src/main.ts")).toEqual(["npx parley", ""]);
    expect(operatorCommand({ data: "/srv/my data", database: null }, "/src/main.ts")[1]).toBe(' --data "/srv/my data"');
  });

  test("on Postgres they name the database and still the data directory: the commands read its secret.key", () => {
    const pg = "postgres://parley:secret@db/parley";
    const [, data] = operatorCommand({ data: "/var/lib/parley", database: pg }, "/$bunfs/root/parley");
    expect(data).toBe(" --data /var/lib/parley --database <the server's --database>");
    expect(operatorCommand({ data: "./parley-data", database: pg }, "/$bunfs/root/parley")[1]).toBe(
      " --database <the server's --database>",
    );
  });

  test("the demo world's next steps say them with --data too", async () => {
    const demo = join(dir, "demo-data");
    const s = await serve(["--port", "0", "--data", demo, "--demo"]);
    try {
      const deadline = Date.now() + 10_000;
      while (!s.out().includes("rotate DemoBot") && Date.now() < deadline) await Bun.sleep(20);
    } finally {
      expect(await s.stop()).toBe(0);
    }
    expect(s.out()).toContain(`npx parley app list --data ${demo}, npx parley app rotate DemoBot --data ${demo}`);
  });

  test("an in-memory demo world sends the operator to the portal, which reaches it", async () => {
    const s = await serve(["--port", "0", "--data", ":memory:", "--demo"]);
    try {
      const deadline = Date.now() + 10_000;
      while (!s.out().includes("DemoBot's token") && Date.now() < deadline) await Bun.sleep(20);
    } finally {
      expect(await s.stop()).toBe(0);
    }
    expect(s.out()).toMatch(
      /3\. rotate DemoBot's token \(a new one; this one stops\) in the portal, http:\/\/127\.0\.0\.1:\d+\/developers/,
    );
    expect(s.out()).not.toContain("npx parley app list");
  });

  test("the pretty banner says them with --data", async () => {
    const s = await serve(["--port", "0", "--data", join(dir, "pretty-data")]);
    try {
      const deadline = Date.now() + 10_000;
      while (!s.out().includes("--admin") && Date.now() < deadline) await Bun.sleep(20);
    } finally {
      expect(await s.stop()).toBe(0);
    }
    expect(s.out()).toContain(`'npx parley user admin <name> --data ${join(dir, "pretty-data")}'`);
    expect(existsSync(join(dir, "pretty-data", "parley.db"))).toBe(true);
  });
});

test("a restart with --seed serves the world it seeded before, and says it did not seed again", async () => {
  const world = join(dir, "restart-world.json");
  writeFileSync(world, JSON.stringify({ users: [{ name: "alice" }], guilds: [{ name: "Lab", owner: "alice" }] }));
  const data = join(dir, "restart-data");
  const args = ["--port", "0", "--data", data, "--seed", world];
  const first = await serve(args);
  expect(first.out()).toContain("seeded world:");
  expect(await first.stop()).toBe(0);

  const again = await serve(args);
  try {
    expect(again.out()).toContain(`'${world}' was not seeded again`);
    expect(again.out()).not.toContain("seeded world:");
    const health = (await (await fetch(`${again.base}/readyz`)).json()) as { status?: string };
    expect(health.status).toBe("ready");
  } finally {
    expect(await again.stop()).toBe(0);
  }
});
