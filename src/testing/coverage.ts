/** The harness's coverage (docs/harness.md "Coverage") as a report a person reads after a run. */

interface AppCoverage {
  events: Record<string, number>;
  routes: Record<string, { calls: number; statuses: Record<string, number> }>;
  commands: { registered: { name: string; type: number }[]; used: Record<string, number>; unused: string[] };
  components: { sent: string[]; used: Record<string, number>; unused: string[] };
}

const COMMAND_KIND: Record<number, string> = { 1: "/", 2: "user menu ", 3: "message menu " };

export function coverageText(report: { applications: Record<string, AppCoverage> }): string {
  const out = ["Parley coverage: what the tests exercised, per bot"];
  const apps = Object.entries(report.applications);
  if (!apps.length) out.push("  (no bot did anything)");
  for (const [name, c] of apps) {
    const cmds = c.commands.registered;
    const usedCmds = cmds.filter((x) => c.commands.used[x.name]).length;
    const label = (n: string) => `${COMMAND_KIND[cmds.find((x) => x.name === n)?.type ?? 1] ?? ""}${n}`;
    out.push(`  ${name}`);
    out.push(
      `    commands    ${usedCmds} of ${cmds.length} used${c.commands.unused.length ? `; never: ${c.commands.unused.map(label).join(", ")}` : ""}`,
    );
    out.push(
      `    components  ${c.components.sent.length - c.components.unused.length} of ${c.components.sent.length} used${c.components.unused.length ? `; never: ${c.components.unused.join(", ")}` : ""}`,
    );
    out.push(
      `    events      ${
        Object.entries(c.events)
          .map(([t, n]) => `${t} ${n}`)
          .join(", ") || "none"
      }`,
    );
    const routes = Object.entries(c.routes).map(
      ([r, v]) =>
        `${r} ${v.calls} (${Object.entries(v.statuses)
          .map(([s, n]) => `${s}: ${n}`)
          .join(", ")})`,
    );
    out.push(`    routes      ${routes.length ? routes.join("\n                ") : "none"}`);
  }
  return out.join("\n") + "\n";
}
