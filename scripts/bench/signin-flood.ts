/**
 * Sign-in flood benchmark (loopback only, bounded; issue "Hardening", finding 1): while 48
 * anonymous clients keep trying to sign in for 8 s, one bot does REST calls and
 * heartbeats; its REST p95 and heartbeat-ACK latency are printed beside the same figures
 * without the flood, against a ceiling of 250 ms.
 *
 * Three phases on one `parley serve` child (file database, bot rate limits off):
 *   quiet      no flood;
 *   flood      48 concurrent sign-ins from one address (the throttle answers most with 429);
 *   worst      48 concurrent sign-ins, each from a fresh 127.x.y.z address with a fresh
 *              name, so no throttle applies and every attempt costs a full password hash.
 * The flood runs in its own child process, so its client work does not delay the bot's.
 *
 *   bun scripts/bench/signin-flood.ts [--seconds 8] [--concurrency 48]
 */
import { request } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const SECONDS = Number(arg("seconds", "8"));
const CONCURRENCY = Number(arg("concurrency", "48"));
const CEILING_MS = 250;
const ROOT = join(import.meta.dir, "../..");

// ---- the flood (child process: --flood <base> <rotate 0|1>) ----

function signIn(base: URL, localAddress: string | undefined, username: string): Promise<number> {
  const body = JSON.stringify({ username, password: "not the password at all" });
  return new Promise((resolve) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path: "/api/client/v1/auth/signin",
        method: "POST",
        localAddress,
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

async function flood(base: URL, rotate: boolean): Promise<void> {
  const statuses: Record<number, number> = {};
  let n = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const i = n++;
        // 127.0.0.0/8 is all loopback: a fresh source address per attempt defeats the per-address throttle.
        const address = rotate ? `127.${1 + ((i >> 16) & 0xff)}.${(i >> 8) & 0xff}.${1 + (i & 0xfe)}` : undefined;
        const status = await signIn(base, address, `nobody${i}`);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  console.log(JSON.stringify({ attempts: n, statuses }));
}

// ---- the measured bot ----

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

async function measure(base: string, gatewayUrl: string, token: string, channel: string) {
  const rest: number[] = [];
  const acks: number[] = [];
  const ws = new WebSocket(gatewayUrl);
  let ackWaiter: (() => void) | null = null;
  await new Promise<void>((resolve) => {
    ws.onmessage = (ev) => {
      const f = JSON.parse(ev.data as string);
      if (f.op === 10) ws.send(JSON.stringify({ op: 2, d: { token, intents: 1 } }));
      if (f.t === "READY") resolve();
      if (f.op === 11) ackWaiter?.();
    };
  });
  const end = performance.now() + SECONDS * 1000;
  const headers = { Authorization: `Bot ${token}`, "Content-Type": "application/json" };
  const heartbeats = (async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        ackWaiter = resolve;
        ws.send(JSON.stringify({ op: 1, d: null }));
      });
      acks.push(performance.now() - t0);
      await Bun.sleep(100);
    }
  })();
  for (let i = 0; performance.now() < end; i++) {
    const t0 = performance.now();
    const r =
      i % 2 === 0
        ? await fetch(`${base}/api/v10/users/@me`, { headers })
        : await fetch(`${base}/api/v10/channels/${channel}/messages`, {
            method: "POST",
            headers,
            body: JSON.stringify({ content: `bench ${i}` }),
          });
    await r.arrayBuffer();
    rest.push(performance.now() - t0);
    await Bun.sleep(10);
  }
  await heartbeats;
  ws.close();
  return {
    restP50: pct(rest, 50),
    restP95: pct(rest, 95),
    ackP50: pct(acks, 50),
    ackP95: pct(acks, 95),
    ackMax: Math.max(...acks),
    calls: rest.length,
  };
}

async function lines(proc: ReturnType<typeof Bun.spawn>, until: RegExp): Promise<string> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!until.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "parley-flood-"));
  writeFileSync(
    join(dir, "world.json"),
    JSON.stringify({
      users: [{ name: "alice", admin: true }],
      guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
      applications: [{ name: "Measured", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
    }),
  );
  const server = Bun.spawn(
    [
      process.execPath,
      join(ROOT, "src/main.ts"),
      "serve",
      "--port",
      "0",
      "--data",
      join(dir, "data"),
      "--seed",
      join(dir, "world.json"),
      "--rate-limits",
      "off",
    ],
    {
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  try {
    const out = await lines(server, /listening on (\S+)/);
    const base = /listening on (\S+)/.exec(out)![1];
    const seeded = JSON.parse(/seeded world: (.*)/.exec(out)![1]);
    const token = seeded.applications.Measured.token;
    const channel = seeded.guilds.Lab.channels.general;
    const gatewayUrl = `${base.replace(/^http/, "ws")}/gateway`;
    const results: [string, Awaited<ReturnType<typeof measure>>, string][] = [];
    for (const phase of ["quiet", "flood", "worst"] as const) {
      const flooder =
        phase === "quiet"
          ? null
          : Bun.spawn(
              [
                process.execPath,
                import.meta.path,
                "--flood",
                base,
                phase === "worst" ? "1" : "0",
                "--seconds",
                String(SECONDS),
                "--concurrency",
                String(CONCURRENCY),
              ],
              { stdout: "pipe", stderr: "inherit" },
            );
      const m = await measure(base, gatewayUrl, token, channel);
      const floodOut = flooder ? (await lines(flooder, /\}\s*$/)).trim() : "";
      await flooder?.exited;
      results.push([phase, m, floodOut]);
    }
    console.log(
      `Sign-in flood: ${CONCURRENCY} concurrent anonymous sign-ins for ${SECONDS} s; one bot's REST (GET /users/@me, POST message, every 10 ms) and heartbeats (every 100 ms); loopback, file database`,
    );
    console.log("phase  | REST p50 ms | REST p95 ms | heartbeat ACK p50 / p95 / max ms | REST calls | sign-in attempts (statuses)");
    for (const [phase, m, f] of results) {
      console.log(
        `${phase.padEnd(6)} | ${m.restP50.toFixed(1).padStart(11)} | ${m.restP95.toFixed(1).padStart(11)} | ${`${m.ackP50.toFixed(1)} / ${m.ackP95.toFixed(1)} / ${m.ackMax.toFixed(1)}`.padStart(32)} | ${String(m.calls).padStart(10)} | ${f || "-"}`,
      );
    }
    const worst = Math.max(...results.map(([, m]) => Math.max(m.restP95, m.ackP95)));
    console.log(
      `ceiling: REST p95 and heartbeat ACK p95 under ${CEILING_MS} ms in every phase: ${worst < CEILING_MS ? "MET" : "NOT MET"} (worst ${worst.toFixed(1)} ms)`,
    );
  } finally {
    server.kill();
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

const floodAt = process.argv.indexOf("--flood");
if (floodAt > 0) await flood(new URL(process.argv[floodAt + 1]), process.argv[floodAt + 2] === "1");
else await main();
