/**
 * The formatter and the linter (Biome, biome.jsonc) hold for src, test and scripts: the
 * suite fails on a file `npm run format` would change or a lint rule it breaks, and
 * prints what Biome said.
 */
import { expect, test } from "bun:test";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

// About a second on an idle machine; the deadline is for a busy one.
test("biome check: src, test and scripts are formatted and keep the lint rules", async () => {
  const biome = resolve(ROOT, "node_modules/.bin/biome");
  const run = Bun.spawn([biome, "check", "--colors=off", "src", "test", "scripts"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  const said = out + err;
  if (code !== 0) console.log(said);
  expect(said).toContain("Checked ");
  expect(code).toBe(0);
}, 60_000);
