/**
 * The example bots and their test suites (examples/), each run from a fresh directory
 * with Parley installed the way a bot's repository installs it (gap 1 of the bot tester's
 * issue): `npm pack`, then `npm install` of the tarball beside discord.js, Bun, vitest and
 * TypeScript; the Python helper pip-installed into a venv (installs.ts keeps both between
 * files and runs, by the hash of what went into them). A discord.js bot under bun test
 * (the server in the test's process), the same bot under vitest on Node (the server a
 * child process, the bot's timers vitest's fake ones), a discord.py bot under pytest (the
 * server found in node_modules, as the helper looks for it); and plain tsc, without Bun's
 * types, over a repository that imports parley/testing.
 *
 * Time: the first run of a checkout installs (about a minute: npm pack builds the SDK,
 * npm fills its cache); after that each suite takes a few seconds, tsc the longest.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireDiscordPy, requirePytest } from "./support";
import { freshDir, npmInstall, pythonVenv, ROOT } from "./installs";

/** What the examples' package.json files name (kept in step with them by the first test). */
const DEPS = ["discord.js@14.28.1", "bun@1.4.4", "vitest@4.1.12", "typescript@5.9.3"];

let installed: string;
const made: string[] = [];
beforeAll(() => {
  installed = npmInstall(DEPS);
}, 600_000);
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A copy of an example in a fresh directory, with the installed node_modules. */
function example(name: string): string {
  const dir = freshDir(`parley-example-${name}-`, join(ROOT, "examples", name));
  symlinkSync(join(installed, "node_modules"), join(dir, "node_modules"));
  made.push(dir);
  return dir;
}

function run(
  cmd: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): { code: number | null; out: string; seconds: number } {
  const t0 = performance.now();
  const r = spawnSync(cmd[0], cmd.slice(1), {
    cwd,
    encoding: "utf8",
    timeout: 240_000,
    env: { ...process.env, PARLEY_COMMAND: "", ...env } as Record<string, string>,
  });
  const seconds = (performance.now() - t0) / 1000;
  console.log(`${cmd.slice(0, 3).join(" ")} in ${cwd.split("/").pop()}: ${seconds.toFixed(1)} s`);
  return { code: r.status, out: (r.stdout ?? "") + (r.stderr ?? ""), seconds };
}

describe("examples/, installed as a bot's repository installs Parley", () => {
  test("the examples' package.json files name the versions installed here", async () => {
    for (const name of ["discordjs-bun", "discordjs-vitest", "discordpy-pytest"]) {
      const pkg = (await Bun.file(join(ROOT, "examples", name, "package.json")).json()) as {
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      const all = { ...pkg.dependencies, ...pkg.devDependencies };
      expect(all.parley).toBe("file:../..");
      for (const [dep, version] of Object.entries(all)) if (dep !== "parley") expect(DEPS).toContain(`${dep}@${version}`);
    }
    expect(existsSync(join(installed, "node_modules/@types/bun"))).toBe(false);
  });

  test("discordjs-bun: its bun test suite passes, in this process, with the coverage report after it", () => {
    const dir = example("discordjs-bun");
    const r = run([join(dir, "node_modules/.bin/bun"), "test"], dir);
    expect({ code: r.code, tail: r.code === 0 ? "" : r.out.slice(-4000) }).toEqual({ code: 0, tail: "" });
    expect(r.out).toMatch(/\b6 pass\b/);
    expect(r.out).toContain("Parley coverage: what the tests exercised, per bot\n  HelperBot\n    commands    3 of 3 used");
  }, 240_000);

  test("discordjs-vitest: its vitest suite passes under Node (the server a child process, the reminder on fake timers)", () => {
    const dir = example("discordjs-vitest");
    const r = run(["node", join(dir, "node_modules/vitest/vitest.mjs"), "run"], dir, { NO_COLOR: "1" });
    expect({ code: r.code, tail: r.code === 0 ? "" : r.out.slice(-4000) }).toEqual({ code: 0, tail: "" });
    expect(r.out).toMatch(/Tests +\S*4 passed/);
  }, 240_000);

  test("vitest: a test that fails its assertion gets the bot's transcript in its error (the hooks read vitest's context)", () => {
    const dir = example("discordjs-vitest");
    writeFileSync(
      join(dir, "failing.test.ts"),
      `import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { parleyHooks, startParley, type RunningParley } from "parley/testing";
import { createBot } from "./bot.js";

const WORLD = { users: [{ name: "alice" }], guilds: [{ name: "Lab", owner: "alice" }],
  applications: [{ name: "HelperBot", owner: "alice", install: ["Lab"], intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "DIRECT_MESSAGES"], approved_privileged: ["MESSAGE_CONTENT"] }] };
let parley: RunningParley;
beforeAll(async () => { parley = await startParley(); });
afterAll(() => parley.stop());
parleyHooks({ beforeEach, afterEach }, () => parley, { world: WORLD });

test("a wrong expectation", async () => {
  await parley.login(createBot(), "HelperBot");
  await parley.as("alice").say("general", "!ping");
  const m = await parley.waitForMessage("general", (m) => m.content === "pong");
  expect(m.content).toBe("ping");
});
`,
    );
    const r = run(["node", join(dir, "node_modules/vitest/vitest.mjs"), "run", "failing.test.ts"], dir, { NO_COLOR: "1" });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /expected 'pong' to be 'ping'[\s\S]*Transcript of HelperBot \(since the test began, \d+ entries\):\n[^\n]*rest +GET \/gateway\/bot -> 200/,
    );
  }, 240_000);

  test("plain tsc typechecks a repository that uses parley/testing, without Bun's types (and the SDK's declarations need no types at all)", () => {
    const dir = example("discordjs-vitest");
    const tsc = join(dir, "node_modules/typescript/bin/tsc");
    const project = run(["node", tsc, "--noEmit", "-p", "."], dir);
    expect({ code: project.code, out: project.out }).toEqual({ code: 0, out: "" });
    // Only the SDK, with no @types at all and no DOM: its declarations stand on their own, in each resolution mode.
    writeFileSync(
      join(dir, "sdk-only.ts"),
      `import { startParley, attachParley, parleyHooks, type RunningParley } from "parley/testing";\nexport const use: unknown[] = [startParley, attachParley, parleyHooks];\nexport type P = RunningParley;\n`,
    );
    for (const [module, moduleResolution] of [
      ["nodenext", "nodenext"],
      ["esnext", "bundler"],
      ["commonjs", "node10"],
    ]) {
      const compilerOptions = {
        module,
        moduleResolution,
        target: "es2022",
        lib: ["es2022"],
        types: [],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      };
      writeFileSync(join(dir, `tsconfig.${moduleResolution}.json`), JSON.stringify({ compilerOptions, files: ["sdk-only.ts"] }));
      const r = run(["node", tsc, "-p", `tsconfig.${moduleResolution}.json`], dir);
      expect({ moduleResolution, code: r.code, out: r.out }).toEqual({ moduleResolution, code: 0, out: "" });
    }
  }, 240_000);

  test("discordpy-pytest: its pytest suite passes with the pip-installed helper, the server found in node_modules", () => {
    requireDiscordPy();
    requirePytest();
    const venv = join(pythonVenv(), "venv");
    const dir = example("discordpy-pytest");
    const r = run([join(venv, "bin/python"), "-m", "pytest", "-q", "-p", "no:cacheprovider"], dir, {
      PARLEY_COMMAND: undefined,
      PYTHONPATH: "",
    });
    expect({ code: r.code, tail: r.code === 0 ? "" : r.out.slice(-4000) }).toEqual({ code: 0, tail: "" });
    expect(r.out).toMatch(/\b8 passed\b/);
    expect(r.out).toContain("Parley coverage: what the tests exercised, per bot\n  HelperBot\n    commands    3 of 3 used");
  }, 240_000);
});
