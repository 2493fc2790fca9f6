/**
 * The route table of contents: every declared route of every door (wire/route.ts), as
 * the server mounts them, with who may call it, its rate-limit rule and its summary.
 *   bun scripts/routes.ts [--door bot|people|harness|ops]
 * The harness's routes are listed too, as a server in test mode mounts them.
 */
import { createParley } from "../src/app";
import { testConfig } from "../src/config";

const i = process.argv.indexOf("--door");
const only = i > 0 ? process.argv[i + 1] : null;
const p = createParley(testConfig({ harness: true }));
const rule = (r: { limit?: { limit: number; windowMs: number }; limitAs?: string }) =>
  r.limit ? `${r.limit.limit}/${r.limit.windowMs / 1000}s` : r.limitAs ? `as ${r.limitAs}` : "";
const rows: string[][] = [];
for (const { door, prefix, routes } of p.routes) {
  if (only && door !== only) continue;
  for (const r of routes) rows.push([door, r.method, prefix + r.path, r.caller, rule(r), r.summary]);
}
const head = ["door", "method", "path", "caller", "limit", "summary"];
const width = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
const line = (cells: string[]) => cells.map((x, c) => (c === cells.length - 1 ? x : x.padEnd(width[c]))).join("  ");
console.log(line(head));
for (const r of rows) console.log(line(r));
console.log(`\n${rows.length} routes`);
await p.stop();
