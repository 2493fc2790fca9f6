/**
 * A new instance has nobody who may open /admin. `parley serve` says so, with the setup
 * link (test/http/setup-link.test.ts, test/browser/setup.test.ts) and the commands that
 * make one, until someone is; then the lines go.
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

/** The setup link a banner prints (its path: the port changes between starts). */
const setupLink = (out: string) => /no administrator yet: open http:\/\/[^/\s]+(\/setup\/setup_[\w-]+)/.exec(out)?.[1];

test("serve prints the setup link and names the commands that make an administrator, until one exists", async () => {
  const first = await banner();
  expect(setupLink(first)).toBeDefined();
  expect(first).toContain(`'npx parley user admin <name> --data ${join(dir, "data")}' makes a person who signed up one`);
  expect(first).toContain(`'npx parley user create <name> --password <password> --admin --data ${join(dir, "data")}'`);

  const signedUp = await parley(["user", "create", "ana", "--password", "a long password for ana", "--data", join(dir, "data")]);
  expect(signedUp.code).toBe(0);
  const second = await banner();
  // The same link after a restart: the one printed before still works.
  expect(setupLink(second)).toBe(setupLink(first)!);

  const made = await parley(["user", "admin", "ana", "--data", join(dir, "data")]);
  expect(made.code).toBe(0);
  expect(made.out).toContain("ana is an administrator");
  const after = await banner();
  expect(after).toContain("parley listening on");
  expect(after).not.toContain("no administrator");
}, 90_000);
