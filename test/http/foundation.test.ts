import { describe, expect, test, beforeEach } from "bun:test";
import { call, makeParley, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/harness/seed";

let p: Parley;
let w: SeedAnswer;
let token: string;

beforeEach(() => {
  p = makeParley();
  w = seedBasic(p);
  token = w.applications.EchoBot.token;
});

describe("GET /users/@me", () => {
  test("answers the bot user with bot true and verified", async () => {
    const r = await call(p, "GET", "/users/@me", { token });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.body.id).toBe(w.applications.EchoBot.bot_user_id);
    expect(r.body.bot).toBe(true);
    expect(r.body.verified).toBe(true);
    expect(r.body.username).toBe("EchoBot");
  });

  test("missing, malformed and wrong tokens are 401 code 0", async () => {
    for (const t of [null, "nonsense", token.slice(0, -1) + (token.endsWith("A") ? "B" : "A")]) {
      const r = await call(p, "GET", "/users/@me", { token: t });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 0, message: expect.any(String) });
    }
    const bearer = await call(p, "GET", "/users/@me", { headers: { Authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(401);
  });
});
