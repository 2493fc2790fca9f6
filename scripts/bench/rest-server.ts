// Child process for scripts/bench/rest.ts: serves either Parley (rate limits off) or a raw
// Bun.serve answering the same bytes as Parley's GET /users/@me, and prints its port/token.
import { createParley } from "../../src/app";
import { testConfig, SPEC_RATE_LIMITS } from "../../src/config";

const mode = process.argv[2];
const p = createParley(testConfig({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }));
const w = p.seed({ users: [{ name: "alice" }], applications: [{ name: "BenchBot", owner: "alice" }] });
const token = w.applications.BenchBot.token;

if (mode === "parley") {
  const server = p.listen();
  console.log(JSON.stringify({ port: server.port, token }));
} else {
  const sample = await p.handle(new Request("http://localhost/api/v10/users/@me", { headers: { Authorization: `Bot ${token}` } }));
  const body = await sample.arrayBuffer();
  const headers: Record<string, string> = {};
  sample.headers.forEach((v, k) => (headers[k] = v));
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(body, { headers }) });
  console.log(JSON.stringify({ port: server.port, token }));
}
