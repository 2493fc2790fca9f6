// `npm run build:sdk`, and `prepare` (so a tarball or a git URL install has it): compiles
// the test SDK (src/testing) to JavaScript with declarations in dist/testing, for bot
// repositories that run Node (vitest, jest) or typecheck with plain tsc. Under Bun the
// package's "bun" export condition takes the TypeScript sources as they are.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist/testing");
let tsc;
try {
  tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
} catch {
  // An install without devDependencies (npm install --omit=dev of a clone): keep what is there.
  console.warn(
    `build-sdk: typescript is not installed; ${existsSync(out) ? "keeping the SDK already built" : "the SDK's JavaScript is not built (Bun can still use its sources)"}`,
  );
  process.exit(0);
}
rmSync(out, { recursive: true, force: true });
const r = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.sdk.json")], { cwd: root, stdio: "inherit" });
process.exit(r.status ?? 1);
