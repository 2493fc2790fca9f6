/**
 * A new instance has nobody who may open /admin. `parley serve` says so, and how to make
 * one, until someone is; then the line goes.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parley, serve } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-first-admin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The banner, up to its last line (health), of `parley serve` on this test's data directory. */
async function banner(): Promise<string> {
  const s = await serve(["--port", "0", "--data", join(dir, "data")]);
  try {
    const deadline = Date.now() + 20_000;
    while (!s.out().includes("  health ") && Date.now() < deadline) await Bun.sleep(20);
    await Bun.sleep(50);
    return s.out();
  } finally {
    expect(await s.stop()).toBe(0);
  }
}

test("serve names the commands that make an administrator until one exists", async () => {
  const first = await banner();
  expect(first).toContain("no administrator yet: 'npx parley user admin <name>'");
  expect(first).toContain("'npx parley user create <name> --password <password> --admin'");

  const signedUp = await parley(["user", "create", "ana", "--password", "a long password for ana", "--data", join(dir, "data")]);
  expect(signedUp.code).toBe(0);
  expect(await banner()).toContain("no administrator yet");

  const made = await parley(["user", "admin", "ana", "--data", join(dir, "data")]);
  expect(made.code).toBe(0);
  expect(made.out).toContain("ana is an administrator");
  const after = await banner();
  expect(after).toContain("parley listening on");
  expect(after).not.toContain("no administrator");
}, 90_000);
