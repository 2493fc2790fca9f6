// Run before `npm test`: the cluster and Postgres engine tests start Debian's Postgres and
// redis-server on temporary directories and ports (test/support/engines.ts); nothing runs
// as a service. Install the packages when they are missing and we can (root with
// apt-get); otherwise say so and carry on (those tests then fail saying what is missing).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const PG_ROOT = "/usr/lib/postgresql";

const hasPostgres = () => {
  try {
    return readdirSync(PG_ROOT).some((v) => existsSync(`${PG_ROOT}/${v}/bin/initdb`) && existsSync(`${PG_ROOT}/${v}/bin/postgres`));
  } catch {
    return false;
  }
};
const hasRedis = () => existsSync("/usr/bin/redis-server");

const missing = () => [...(hasPostgres() ? [] : ["postgresql"]), ...(hasRedis() ? [] : ["redis-server"])];

if (missing().length) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log(`installing ${missing().join(" and ")} for the cluster tests ...`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", "-qq", ...missing()], { stdio: "inherit", env });
  }
  for (const p of missing()) console.warn(`warning: ${p} is not installed; the Postgres and cluster tests cannot run here.`);
}
