/**
 * Under --log-format json every line the server writes is one JSON object: a bug (an
 * error that is no refusal) answers 500 with the spec's body and leaves exactly one
 * error line in the log, naming where it happened, and nothing on stderr; so does a
 * throw from a socket handler, which Bun would otherwise print as text.
 */
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { webSite } from "../../src/web";
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import type { SeedAnswer } from "../../src/world";
import { BASIC_WORLD, call, client, ORIGIN } from "../helpers";
import { LiveConn } from "../http/live-client";

let p: Parley;
let w: SeedAnswer;
let lines: string[];
let consoleError: ReturnType<typeof spyOn>;

beforeEach(() => {
  lines = [];
  p = createParley(testConfig({ logLevel: "info", logFormat: "json" }), { logSink: (l) => lines.push(l) });
  w = p.seed(structuredClone(BASIC_WORLD));
  consoleError = spyOn(console, "error");
});

afterEach(async () => {
  consoleError.mockRestore();
  await p.stop();
});

/** Every line parsed (a line that is not JSON fails here), and the error ones. */
function errorLines(): Record<string, any>[] {
  p.obs.log.warm();
  const parsed = lines.map((l) => JSON.parse(l) as Record<string, any>);
  return parsed.filter((l) => l.level === "error");
}

describe("a bug is one JSON error line, and a 500 with the spec's body", () => {
  test("in a bot API handler", async () => {
    p.core.users.require = () => {
      throw new TypeError("the users table moved");
    };
    const r = await call(p, "GET", "/users/@me", { token: w.applications.EchoBot.token });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ code: 0, message: "500: Internal Server Error" });
    expect(r.text).not.toContain("users table");
    const errors = errorLines();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: "internal error", route: "GET /api/v10/users/@me" });
    expect(JSON.stringify(errors[0].err)).toContain("the users table moved");
    expect(consoleError).not.toHaveBeenCalled();
  });

  test("in a people's API handler", async () => {
    p.core.guilds.guildIdsOf = () => {
      throw new RangeError("no guilds here");
    };
    const r = await client(p, "GET", "/guilds", w.users.bob.token);
    expect(r.status).toBe(500);
    const errors = errorLines();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: "internal error", route: "GET /api/client/v1/guilds" });
    expect(consoleError).not.toHaveBeenCalled();
  });

  test("a refusal is no bug: no error line", async () => {
    const r = await p.handle(new Request(`${ORIGIN}/api/v10/users/@me`));
    expect(r.status).toBe(401);
    expect(errorLines()).toEqual([]);
  });

  test("in a gateway socket's handler", async () => {
    p.listen();
    p.gateway.websocket.message = () => {
      throw new Error("the frame broke the handler");
    };
    const ws = new WebSocket(p.api.urls.gateway);
    await new Promise((resolve) => (ws.onopen = resolve));
    ws.send(JSON.stringify({ op: 1, d: null }));
    for (let i = 0; i < 100 && !lines.some((l) => l.includes("the frame broke")); i++) await Bun.sleep(10);
    ws.close();
    const errors = errorLines();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: "internal error", where: "socket message" });
    expect(consoleError).not.toHaveBeenCalled();
  });

  test("in a person's presence update on the live connection", async () => {
    p.listen();
    p.core.users.settlePresence = () => {
      throw new Error("presence column gone");
    };
    // The first live connection takes its person online (core/presence.ts): the update fails, the connection goes on.
    const { c } = await LiveConn.hello(p, w.users.bob.token);
    for (let i = 0; i < 100 && !lines.some((l) => l.includes("presence column gone")); i++) await Bun.sleep(10);
    c.ws.close();
    const errors = errorLines();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: "unexpected failure", loop: "presence" });
    expect(JSON.stringify(errors[0].err)).toContain("presence column gone");
    expect(consoleError).not.toHaveBeenCalled();
  });

  test("a web client that does not build (bun run): the page's failure is one line saying what failed, where", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-web-"));
    try {
      writeFileSync(join(dir, "index.html"), '<!doctype html><html><body><script type="module" src="./main.ts"></script></body></html>');
      writeFileSync(join(dir, "main.ts"), 'console.log("unfinished"\n');
      const page = webSite([""], join(dir, "index.html")).routes["/"] as (req: Request) => Promise<Response>;
      const failed = await page(new Request(`${ORIGIN}/`)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(failed).toBeInstanceOf(Error);
      // What the server's error handler does with a page's failure (src/lifecycle.ts, src/app.ts).
      p.obs.failure("internal error", failed, { where: "http" });
      const errors = errorLines();
      expect(errors).toHaveLength(1);
      expect(errors[0].err.message).toContain("the web client did not build");
      expect(errors[0].err.message).toContain(`${join(dir, "main.ts")}:1:`);
      expect(errors[0].err.message).toContain('Expected ")"');
      expect(lines.join("")).not.toContain("unable to serialize");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
