/**
 * Bodies an attacker or a broken client can send (docs/security.md): nesting deep enough
 * to overflow a recursive reader, bodies larger than a surface reads (declared or
 * streamed), cross-site requests to the people's API and the harness, numbers past 2^53
 * and NUL characters. Each answers the spec's error body, never a 500.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { call, client, harness, makeParley, ORIGIN, peopleWorld, refusal, rowCounts, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { BODY_LIMITS } from "../../src/wire/body";
import { MAX_JSON_DEPTH } from "../../src/wire/json";

const deep = (n: number, leaf = "1") => "[".repeat(n) + leaf + "]".repeat(n);

let p: Parley;
let w: SeedAnswer;
let bot: string;
let general: string;
let alice: string;
let lab: string;

beforeEach(() => {
  ({ p, w, alice, lab } = peopleWorld());
  bot = w.applications.EchoBot.token;
  general = w.guilds.Lab.channels.general;
});

describe("nesting depth", () => {
  test("a message whose flags nest 6,000 deep is 400 50035 (it answered 500: String() on the array)", async () => {
    const r = await call(p, "POST", `/channels/${general}/messages`, {
      token: bot,
      rawBody: `{"content":"x","flags":${deep(6000)}}`,
      headers: { "Content-Type": "application/json" },
    });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.errors._errors[0].code).toBe("JSON_TOO_DEEP");
  });

  test("a message whose components nest 30,000 deep is 400 50035 (the issue's reproduction for the recursive null stripping)", async () => {
    const r = await call(p, "POST", `/channels/${general}/messages`, {
      token: bot,
      rawBody: `{"content":"x","components":${deep(30_000, "null")}}`,
      headers: { "Content-Type": "application/json" },
    });
    expect(refusal(r)).toEqual([400, 50035]);
  });

  test("the people's role create with a 6,000-deep color is 400 50035", async () => {
    const r = await call(p, "POST", `/api/client/v1/guilds/${lab}/roles`, {
      headers: { Authorization: `Session ${alice}`, "Content-Type": "application/json" },
      rawBody: `{"name":"r","color":${deep(6000)}}`,
    });
    expect(refusal(r)).toEqual([400, 50035]);
  });

  test("a harness world document nested too deep is 400 50035 and seeds nothing", async () => {
    const before = rowCounts(p, ["users"]);
    const r = await call(p, "POST", "/api/harness/v1/seed", {
      rawBody: `{"users":${deep(5000, "{}")}}`,
      headers: { "Content-Type": "application/json" },
    });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(rowCounts(p, ["users"])).toEqual(before);
  });

  test("nesting up to the bound is read (and validated as usual); one level more is refused", async () => {
    const at = await call(p, "POST", `/channels/${general}/messages`, {
      token: bot,
      rawBody: `{"content":"x","flags":${deep(MAX_JSON_DEPTH - 1)}}`,
      headers: { "Content-Type": "application/json" },
    });
    expect(refusal(at)).toEqual([400, 50035]);
    expect(at.body.errors.flags).toBeDefined();
    const over = await call(p, "POST", `/channels/${general}/messages`, {
      token: bot,
      rawBody: `{"content":"x","flags":${deep(MAX_JSON_DEPTH)}}`,
      headers: { "Content-Type": "application/json" },
    });
    expect(over.body.errors._errors[0].code).toBe("JSON_TOO_DEEP");
    // Brackets inside strings are text, not nesting.
    const text = await call(p, "POST", `/channels/${general}/messages`, { token: bot, body: { content: "[".repeat(500) } });
    expect(text.status).toBe(200);
  });
});

/** A body streamed without a Content-Length, `bytes` long. */
function streamed(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(16 * 1024).fill(0x20);
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= bytes) return c.close();
      c.enqueue(chunk.subarray(0, Math.min(chunk.length, bytes - sent)));
      sent += chunk.length;
    },
  });
}

describe("body size", () => {
  const limit = (prefix: string) => BODY_LIMITS.find((l) => l.prefix === prefix)!.bytes;
  const surfaces = [
    {
      name: "bot API",
      path: () => `/api/v10/channels/${general}/messages`,
      headers: () => ({ Authorization: `Bot ${bot}` }),
      limit: limit("/api/v10/"),
    },
    {
      name: "people's API",
      path: () => `/api/client/v1/guilds/${lab}/roles`,
      headers: () => ({ Authorization: `Session ${alice}` }),
      limit: limit("/api/client/"),
    },
    { name: "harness", path: () => "/api/harness/v1/seed", headers: () => ({}), limit: limit("/api/harness/") },
  ];

  for (const s of surfaces) {
    test(`${s.name}: a body streamed past the limit is cut off with 400 50035`, async () => {
      const req = new Request(`${ORIGIN}${s.path()}`, {
        method: "POST",
        headers: { ...s.headers(), "Content-Type": "application/json" },
        body: streamed(s.limit + 64 * 1024),
        // @ts-expect-error Bun's request option for streamed bodies
        duplex: "half",
      });
      const r = await p.handle(req);
      expect(r.status).toBe(400);
      const body = (await r.json()) as any;
      expect(body.code).toBe(50035);
      expect(body.errors._errors[0].code).toBe("REQUEST_TOO_LARGE");
    });
  }

  test("over a socket, a declared 120 MB body is refused from its headers, in JSON, before a byte is sent", async () => {
    const server = p.listen();
    const answer = await new Promise<string>((resolve) => {
      const s = connect(server.port!, "127.0.0.1", () =>
        s.write(
          `POST /api/harness/v1/seed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${120 * 1024 * 1024}\r\n\r\n`,
        ),
      );
      let got = "";
      s.on("data", (d) => {
        got += d;
        if (got.includes("}")) s.destroy(), resolve(got);
      });
      s.on("close", () => resolve(got));
    });
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).code).toBe(50035);
  });

  afterAll(() => p?.stop());
});

describe("cross-site requests and content types (people's API, harness)", () => {
  test("a text/plain world document from a foreign Origin is 403 and seeds nothing (it seeded a world)", async () => {
    const fresh = makeParley();
    const r = await call(fresh, "POST", "/api/harness/v1/seed", {
      rawBody: JSON.stringify({ users: [{ name: "mallory" }] }),
      headers: { "Content-Type": "text/plain", Origin: "http://evil.example" },
    });
    expect(refusal(r)).toEqual([403, 0]);
    expect(fresh.core.users.count()).toBe(0);
    const reset = await call(fresh, "POST", "/api/harness/v1/reset", { headers: { Origin: "null" } });
    expect(refusal(reset)).toEqual([403, 0]);
  });

  test("a person's write from a foreign Origin is 403; from the server's own origin or none it works", async () => {
    const path = `/api/client/v1/guilds/${lab}/roles`;
    const foreign = await call(p, "POST", path, {
      body: { name: "x" },
      headers: { Authorization: `Session ${alice}`, Origin: "https://evil.example" },
    });
    expect(refusal(foreign)).toEqual([403, 0]);
    const own = await call(p, "POST", path, { body: { name: "own" }, headers: { Authorization: `Session ${alice}`, Origin: ORIGIN } });
    expect(own.status).toBe(200);
    const none = await client(p, "POST", `/guilds/${lab}/roles`, alice, { name: "cli" });
    expect(none.status).toBe(200);
  });

  test("a non-JSON content type is 400 50035 even without an Origin", async () => {
    const form = await call(p, "POST", "/api/client/v1/auth/signin", {
      rawBody: "username=alice&password=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(refusal(form)).toEqual([400, 50035]);
    const plain = await call(p, "POST", "/api/harness/v1/clock", {
      rawBody: '{"advance_ms":1}',
      headers: { "Content-Type": "text/plain" },
    });
    expect(refusal(plain)).toEqual([400, 50035]);
    const json = await call(p, "POST", "/api/harness/v1/clock", {
      rawBody: '{"advance_ms":1}',
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(json.status).toBe(200);
  });
});

describe("numbers and characters no body may carry", () => {
  test("a channel position of 1e308 is 400 50035 on the bot API (it was stored as a REAL)", async () => {
    const r = await call(p, "PATCH", `/channels/${general}`, {
      token: bot,
      rawBody: '{"position":1e308}',
      headers: { "Content-Type": "application/json" },
    });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.errors.position._errors[0].code).toBe("NUMBER_TYPE_MAX");
  });

  test("NUL in a name is 400 50035 on the people's API, the bot API and the harness", async () => {
    const people = await client(p, "POST", "/guilds", alice, { name: "bad\u0000name" });
    expect(refusal(people)).toEqual([400, 50035]);
    expect(people.body.errors.name._errors[0].code).toBe("BASE_TYPE_BAD_CHARACTERS");
    const botApi = await call(p, "PATCH", `/channels/${general}`, { token: bot, body: { name: "nul\u0000" } });
    expect(refusal(botApi)).toEqual([400, 50035]);
    const seeded = await harness(makeParley(), "POST", "/seed", { users: [{ name: "a\u0000b" }] });
    expect(refusal(seeded)).toEqual([400, 50035]);
  });

  test("a rejected deep-ish value is described by kind, not stringified", async () => {
    const r = await call(p, "POST", `/channels/${general}/messages`, { token: bot, body: { content: "x", flags: [[1, 2], [3]] } });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.errors.flags._errors[0].message).toContain("(an array)");
  });
});

test("a fresh world seeded without an Origin still works (the SDK and CLI send none)", async () => {
  const fresh = makeParley();
  expect(seedBasic(fresh).users.alice.id).toMatch(/^\d+$/);
  const r = await harness(fresh, "POST", "/clock", { advance_ms: 0 });
  expect(r.status).toBe(200);
});
