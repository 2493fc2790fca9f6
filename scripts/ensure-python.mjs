// Run before `npm test`: the compatibility tests drive a real discord.py bot, from
// Debian's python3-discord package (imported by /usr/bin/python3), and the Python helper's
// tests run it under pytest (python3-pytest) as well as without it, install it as a bot's
// repository would (pip into a venv: python3-venv, python3-setuptools, no index needed)
// and run a suite on pytest-xdist workers (python3-pytest-xdist). Install what is missing
// when we can (root with apt-get); otherwise say so and carry on.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const py = "/usr/bin/python3";
const WANTED = [
  { module: "discord", pkg: "python3-discord", for: "the discord.py compatibility tests" },
  { module: "pytest", pkg: "python3-pytest", for: "the Python helper's pytest tests" },
  { module: "xdist", pkg: "python3-pytest-xdist", for: "the Python helper's tests on pytest-xdist workers" },
  { module: "setuptools", pkg: "python3-setuptools", for: "installing the Python helper with pip (offline)" },
  { module: "ensurepip", pkg: "python3-venv", for: "installing the Python helper into a venv, as a bot's repository would" },
];
const has = (module) => existsSync(py) && spawnSync(py, ["-c", `import ${module}`], { stdio: "ignore" }).status === 0;

const missing = WANTED.filter((w) => !has(w.module));
if (missing.length) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log(`installing ${missing.map((w) => `${w.pkg} for ${w.for}`).join(", ")} ...`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", "-qq", ...missing.map((w) => w.pkg)], { stdio: "inherit", env });
  }
  for (const w of missing) if (!has(w.module)) console.warn(`warning: ${w.pkg} is not available; ${w.for} cannot run here.`);
}
