/**
 * Every start-up failure an operator meets is one line on stderr, saying what is wrong
 * and what to do, with a non-zero exit code: never a stack trace.
 */
import { afterAll, describe, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { oneLine, parley } from "./support";
import { createParley } from "../../src/app";
import { loadConfig } from "../../src/config";

const dir = mkdtempSync(join(tmpdir(), "parley-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = (...argv: string[]) => parley(["serve", "--port", "0", ...argv]);

/**
 * How to run the server so that a directory's mode bits bind it. root writes anywhere: it
 * stays root (and so reads the checkout wherever it lives, even under a 0700 directory,
 * which another user could not), but runs without any capability, so the owner's bits of
 * root's own 0555 directory hold it back as they hold anyone.
 */
function asUnprivileged(): { wrap?: string[] } {
  if (process.getuid?.() !== 0) return {};
  const wrap = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--ambient-caps=-all", "--"];
  const probe = Bun.spawnSync([...wrap, "true"], { stdout: "ignore", stderr: "pipe" });
  if (probe.exitCode !== 0)
    throw new Error(`running as root, and cannot drop root's capabilities with setpriv (util-linux): ${probe.stderr}`);
  return { wrap };
}

describe("start-up failures", () => {
  test("a data directory that cannot be created (a parent is a file)", async () => {
    writeFileSync(join(dir, "a-file"), "x");
    oneLine(await serve("--data", join(dir, "a-file", "data")), /data directory .* cannot be created/);
  });

  test("a data directory nobody may create files in (not even root: /sys)", async () => {
    oneLine(await serve("--data", "/sys/kernel"), /data directory '\/sys\/kernel' is not writable/);
  });

  test("a read-only data directory: a new database cannot be made there, an existing one cannot be written", async () => {
    const ro = join(dir, "ro");
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    oneLine(await parley(["serve", "--port", "0", "--data", ro], asUnprivileged()), /data directory .* is not writable/);

    const ro2 = join(dir, "ro2");
    mkdirSync(ro2);
    new Database(join(ro2, "parley.db")).close();
    chmodSync(join(ro2, "parley.db"), 0o444);
    chmodSync(ro2, 0o555);
    oneLine(await parley(["serve", "--port", "0", "--data", ro2], asUnprivileged()), /data directory .* is not writable/);
  });

  test("a database owned by another user, read-only to the server, in a directory it may write", async () => {
    const other = join(dir, "other");
    await createParley(loadConfig({ data: other, quiet: true }, {})).stop();
    // Another user's file, as the server's user sees it: root drops its capabilities (asUnprivileged) and meets the file's owner bits.
    if (process.getuid?.() === 0) chownSync(join(other, "parley.db"), 65534, 65534);
    else chmodSync(join(other, "parley.db"), 0o444);
    oneLine(
      await parley(["serve", "--port", "0", "--data", other], asUnprivileged()),
      /data directory .* is not writable \(SQLITE_READONLY\w*\): run Parley as the user that owns it and its database/,
    );
    // The same one line when the directory is the other user's too (SQLite says SQLITE_READONLY_DIRECTORY, or a file cannot be made there).
    if (process.getuid?.() === 0) chownSync(other, 65534, 65534);
    else chmodSync(other, 0o555);
    oneLine(
      await parley(["serve", "--port", "0", "--data", other], asUnprivileged()),
      /data directory .* is not writable \((SQLITE_READONLY|SQLITE_CANTOPEN|EACCES)\w*\)/,
    );
  }, 30_000);

  test("a damaged database", async () => {
    const bad = join(dir, "bad");
    mkdirSync(bad);
    writeFileSync(join(bad, "parley.db"), "not a database, only words ".repeat(200));
    oneLine(await serve("--data", bad), /is not a Parley database or is damaged .*restore it from a backup/);
  });

  test("a database from a newer Parley", async () => {
    const newer = join(dir, "newer");
    mkdirSync(newer);
    const db = new Database(join(newer, "parley.db"));
    db.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL); INSERT INTO schema_migrations VALUES (999, 0)",
    );
    db.close();
    oneLine(await serve("--data", newer), /written by a newer Parley/);
  });

  test("a port in use", async () => {
    const other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("taken") });
    try {
      oneLine(
        await parley(["serve", "--port", String(other.port), "--data", ":memory:"]),
        new RegExp(`port ${other.port} on 127.0.0.1 is already in use`),
      );
    } finally {
      other.stop(true);
    }
  });

  test("a bad --host: malformed, or not an address of this machine", async () => {
    oneLine(await serve("--data", ":memory:", "--host", "exa mple"), /--host must be an IP address or a host name/);
    oneLine(await serve("--data", ":memory:", "--host", "192.0.2.1"), /cannot listen on host '192.0.2.1'/);
  });

  test("bad flags and values", async () => {
    oneLine(await serve("--log-level", "loud"), /--log-level must be one of/);
    oneLine(await serve("--log-format", "xml"), /--log-format must be pretty or json/);
    const seed = join(dir, "seed.json");
    writeFileSync(seed, JSON.stringify({ users: [{ name: "x" }] }));
    oneLine(await serve("--data", ":memory:", "--seed", seed), /--seed: .*users\[0\]\.name/);
  });
});
