// Run before `npm test`: the compatibility tests drive a real discord.py bot, from
// Debian's python3-discord package (imported by /usr/bin/python3). Install it when it
// is missing and we can (root with apt-get); otherwise say so and carry on.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const py = "/usr/bin/python3";
const has = () => existsSync(py) && spawnSync(py, ["-c", "import discord"], { stdio: "ignore" }).status === 0;

if (!has()) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log("installing python3-discord for the discord.py compatibility tests ...");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", "-qq", "python3-discord"], { stdio: "inherit", env });
  }
  if (!has()) console.warn("warning: discord.py (python3-discord) is not available; its compatibility tests cannot run here.");
}
