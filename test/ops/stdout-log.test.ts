/**
 * The log of a real server process on stdout: lines are written in batches (src/ops/log.ts),
 * so what matters is that every line arrives, soon, whole and in order, and that the
 * last lines before the process ends are not lost.
 */
import { expect, test } from "bun:test";
import { serve } from "./support";

test("every request line reaches stdout, whole and in order, soon after the request; the last lines survive the exit", async () => {
  const s = await serve(["--port", "0", "--data", ":memory:", "--rate-limits", "off"]);
  try {
    // A burst larger than one batch, with paths of different lengths.
    const paths = Array.from({ length: 600 }, (_, i) =>
      i % 3 === 0 ? "/api/v10/gateway" : i % 3 === 1 ? "/healthz" : "/api/v10/users/@me",
    );
    for (const p of paths) await fetch(`${s.base}${p}`);
    const lines = () =>
      s
        .out()
        .split("\n")
        .filter((l) => / (GET) \S+ \d{3} [\d.]+ms/.test(l));
    for (let i = 0; i < 100 && lines().length < paths.length; i++) await Bun.sleep(20);
    const seen = lines().map((l) => / GET (\S+) (\d{3})/.exec(l)!.slice(1).join(" "));
    expect(seen).toEqual(paths.map((p) => (p === "/api/v10/users/@me" ? `${p} 401` : `${p} 200`)));
  } finally {
    expect(await s.stop()).toBe(0);
  }
  // Logged during the shutdown itself, right before the exit.
  expect(s.out()).toMatch(/stopped gateway_sockets_closed=0/);
}, 30_000);
