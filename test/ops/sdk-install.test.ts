/**
 * The test SDK in a bot's own repository, installed the way the README says: from the
 * tarball `npm pack` makes (the same files a git URL install gets). The README's
 * example runs there as written. The registry is not asked: the tarball's dependencies
 * are linked from this checkout's node_modules, as npm would have installed them.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-sdk-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("npm pack, then the README's discord.js example passes in another repository", async () => {
  const pack = Bun.spawnSync(["npm", "pack", "--json", "--pack-destination", dir], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  expect(pack.exitCode).toBe(0);
  const [{ filename, files }] = JSON.parse(pack.stdout.toString());
  const paths = (files as { path: string }[]).map((f) => f.path);
  expect(paths).toContain("src/testing/index.ts");
  expect(paths.some((p) => p.startsWith("test/"))).toBe(false);

  const bot = join(dir, "my-bot");
  const modules = join(bot, "node_modules");
  mkdirSync(join(modules, "parley"), { recursive: true });
  expect(Bun.spawnSync(["tar", "-xzf", join(dir, filename), "-C", join(modules, "parley"), "--strip-components=1"]).exitCode).toBe(0);
  for (const name of readdirSync(join(ROOT, "node_modules")))
    if (name !== "parley" && !name.startsWith(".")) symlinkSync(join(ROOT, "node_modules", name), join(modules, name));
  writeFileSync(
    join(bot, "package.json"),
    JSON.stringify({ name: "my-bot", private: true, type: "module", devDependencies: { parley: `file:${filename}` } }),
  );
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const example = /<!-- readme-example: discord.js -->\n```ts\n([\s\S]*?)```/.exec(readme)![1];
  writeFileSync(join(bot, "bot.test.ts"), example);

  const run = Bun.spawnSync([process.execPath, "test", "bot.test.ts"], { cwd: bot, stdout: "pipe", stderr: "pipe", timeout: 60_000 });
  const out = run.stdout.toString() + run.stderr.toString();
  expect(out).toContain("1 pass");
  expect(run.exitCode).toBe(0);
}, 90_000);
