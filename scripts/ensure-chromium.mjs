// Run before `npm test`: the browser tests (test/browser) drive Debian's chromium through
// playwright-core, which never downloads a browser. Install the package when it is missing
// and we can (root with apt-get); otherwise say so and carry on (those tests then fail
// saying what is missing).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";

if (!existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log("installing chromium for the browser tests ...");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  }
  if (!existsSync(CHROMIUM)) console.warn("warning: chromium (/usr/bin/chromium) is not available; the browser tests cannot run here.");
}
