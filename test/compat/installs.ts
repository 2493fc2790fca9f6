/**
 * Parley's packages installed the way a bot's repository installs them, for the tests
 * that run from a fresh directory (python-package.test.ts, examples.test.ts): the npm
 * tarball (`npm pack`, then `npm install` of it beside the bot's own dependencies) and
 * the Python helper (`pip install` into a venv, offline: the build uses the system's
 * setuptools, and discord.py and pytest come from the system's site packages).
 *
 * Installing takes tens of seconds, so each install is kept in the system's temp
 * directory under the hash of what went into it and reused by the next file or run; a
 * change to the packages' sources makes a new one (and the oldest are removed).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { PYTHON } from "./support";

export const ROOT = join(import.meta.dir, "../..");
const CACHE = join(tmpdir(), "parley-installs");
const KEEP = 6;

/** A hash of the files under `paths` (relative to the checkout), names and contents. */
function hashOf(paths: string[], extra = ""): string {
  const h = createHash("sha256").update(extra);
  const walk = (p: string) => {
    const full = join(ROOT, p);
    if (!existsSync(full) || /(^|\/)(node_modules|__pycache__|\.test-tmp)(\/|$)/.test(p)) return;
    if (statSync(full).isDirectory()) for (const e of readdirSync(full).sort()) walk(join(p, e));
    else h.update(p).update(readFileSync(full));
  };
  for (const p of paths) walk(p);
  return h.digest("hex").slice(0, 16);
}

function run(cmd: string[], cwd: string, env: Record<string, string> = {}): string {
  const r = spawnSync(cmd[0], cmd.slice(1), { cwd, encoding: "utf8", env: { ...process.env, ...env }, timeout: 300_000 });
  if (r.status !== 0) throw new Error(`${cmd.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * Made once per key, in place (a venv's scripts name their own path), under a lock that
 * another test process waits on; a half-made one is removed.
 */
function cached(key: string, build: (dir: string) => void): string {
  const dir = join(CACHE, key);
  const done = join(dir, ".done");
  if (existsSync(done)) return dir;
  mkdirSync(CACHE, { recursive: true });
  const lock = `${dir}.lock`;
  for (const deadline = Date.now() + 600_000; ; ) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(done)) return dir;
      if (Date.now() > deadline || Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      Bun.sleepSync(250);
    }
  }
  try {
    if (existsSync(done)) return dir;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    build(dir);
    writeFileSync(done, new Date().toISOString());
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  prune();
  return dir;
}

function prune(): void {
  const all = readdirSync(CACHE)
    .filter((n) => !n.startsWith(".") && !n.endsWith(".lock"))
    .map((n) => ({ n, t: statSync(join(CACHE, n)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { n } of all.slice(KEEP)) rmSync(join(CACHE, n), { recursive: true, force: true });
}

const PACKED = ["package.json", "src", "scripts/build-sdk.mjs", "tsconfig.sdk.json", "clients/python", "README.md"];

/** `npm pack` of this checkout (its prepare builds dist/testing): the tarball's path. */
export function npmTarball(): string {
  const dir = cached(`pack-${hashOf(PACKED)}`, (d) => {
    const out = JSON.parse(run(["npm", "pack", "--json", "--pack-destination", d], ROOT));
    renameSync(join(d, out[0].filename), join(d, "parley.tgz"));
  });
  return join(dir, "parley.tgz");
}

/**
 * A bot repository's node_modules: the tarball and `deps` (name@version) installed by
 * npm, the registry asked only for what its cache lacks. Answers the directory holding
 * node_modules and package.json.
 */
export function npmInstall(deps: string[]): string {
  const tarball = npmTarball();
  return cached(`npm-${hashOf(PACKED, deps.join(" "))}`, (d) => {
    writeFileSync(join(d, "package.json"), JSON.stringify({ name: "a-bot", private: true, type: "module" }));
    run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", "--save-dev", tarball, ...deps], d);
  });
}

/** A venv (system site packages: discord.py, pytest, xdist) with the Python helper pip-installed from a copy of it. */
export function pythonVenv(): string {
  return cached(`venv-${hashOf(["clients/python"], PYTHON)}`, (d) => {
    const src = join(d, "src");
    cpSync(join(ROOT, "clients/python"), src, {
      recursive: true,
      filter: (p) => !/__pycache__|\.egg-info|\/build(\/|$)/.test(relative(ROOT, p)),
    });
    run([PYTHON, "-m", "venv", "--system-site-packages", join(d, "venv")], d);
    run([join(d, "venv/bin/pip"), "install", "--quiet", "--no-index", "--no-build-isolation", src], d);
    rmSync(src, { recursive: true, force: true });
  });
}

/** A fresh directory with `files` copied in (an example bot's repository, say). */
export function freshDir(prefix: string, files: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(files, dir, { recursive: true });
  return dir;
}
