// Child process of scripts/bench/growth.ts for idle sessions: Parley on a file-backed
// store with one server and APPS installed bots (a bot may hold 32 sessions), or "raw":
// a bare Bun WebSocket server that greets each socket with a HELLO-sized frame. Prints
// one JSON line: {port, tokens}.
//   bun servers/idle.ts parley <apps> | raw
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../../src/app";
import { SPEC_RATE_LIMITS, testConfig } from "../../../src/config";
import { createApplicationWithToken } from "../../../src/wire/tokens";

const mode = process.argv[2];
// SIGUSR2: collect garbage, so that resident memory read next is what is held, not what is waiting to be freed.
process.on("SIGUSR2", () => Bun.gc(true));
if (mode === "raw") {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, srv) => (srv.upgrade(req, { data: undefined }) ? undefined : new Response("no", { status: 400 })),
    websocket: {
      idleTimeout: 0,
      open(ws) {
        ws.send('{"op":10,"d":{"heartbeat_interval":41250},"s":null,"t":null}');
      },
      message() {},
    },
  });
  console.log(JSON.stringify({ port: server.port, tokens: [] }));
} else {
  const apps = Number(process.argv[3] ?? 320);
  const dir = mkdtempSync(join(tmpdir(), "parley-idle-"));
  const p = createParley(
    testConfig({ dbPath: join(dir, "parley.db"), harness: false, host: "127.0.0.1", rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }),
  );
  process.on("SIGTERM", async () => {
    await p.stop();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  const w = p.seed({ users: [{ name: "owner" }], guilds: [{ name: "Idle", owner: "owner", channels: [{ name: "general" }] }] });
  const owner = p.api.flakes.uuid(w.users.owner.id)!;
  const guild = p.api.flakes.uuid(w.guilds.Idle.id)!;
  const tokens = Array.from({ length: apps }, (_, i) => {
    const { app, token } = createApplicationWithToken(p.core.apps, p.api.flakes, { ownerId: owner, name: `Idle${i}`, intents: 1 });
    p.core.apps.install(app.id, guild, owner);
    return token;
  });
  const server = p.listen();
  console.log(JSON.stringify({ port: server.port, tokens }));
}
