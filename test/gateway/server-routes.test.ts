// Bot API routes are matched by Bun's native router on a real server, and by the Elysia
// app in-process (src/wire/mount.ts): every request answers the same either way.
import { afterAll, expect, test } from "bun:test";
import { call, makeParley, seedBasic } from "../helpers";

const p = makeParley({ harness: false });
const w = seedBasic(p);
const server = p.listen();
const base = `http://127.0.0.1:${server.port}`;
afterAll(() => p.stop());

const token = w.applications.EchoBot.token;
const general = w.guilds.Lab.channels.general;

async function both(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const h = { Authorization: `Bot ${token}`, ...headers };
  const live = await fetch(`${base}/api/v10${path}`, { method, headers: h, body });
  const liveText = await live.text();
  const inProcess = await call(p, method, path, { token, rawBody: body, headers });
  return {
    live: { status: live.status, text: liveText, type: live.headers.get("content-type"), bucket: live.headers.get("x-ratelimit-bucket") },
    inProcess,
  };
}

test("reads, writes, refusals and paths the router does not match answer alike", async () => {
  const sent = await call(p, "POST", `/channels/${general}/messages`, { token, body: { content: "hello" } });
  expect(sent.status).toBe(200);
  const cases: [string, string, string?, Record<string, string>?][] = [
    ["GET", "/users/@me"],
    ["GET", "/users/%40me"],
    ["GET", "/users/@me/"],
    ["POST", "/users/@me"],
    ["GET", `/channels/${general}/messages/${sent.body.id}`],
    ["GET", `/channels/${general}/messages/1`],
    ["GET", "/channels/not-a-snowflake"],
    ["GET", "/stickers/1"],
    ["PATCH", `/channels/${general}/messages/${sent.body.id}`, '{"content":"edited"}', { "Content-Type": "application/json" }],
    ["POST", `/channels/${general}/messages`, "{", { "Content-Type": "application/json" }],
  ];
  for (const [method, path, body, headers] of cases) {
    const { live, inProcess } = await both(method, path, body, headers);
    expect(`${method} ${path} ${live.status}`).toBe(`${method} ${path} ${inProcess.status}`);
    expect(live.type).toBe(inProcess.headers.get("content-type"));
    expect(live.bucket).toBe(inProcess.headers.get("x-ratelimit-bucket"));
    // Answers that carry a fresh timestamp differ only there.
    if (method === "GET") expect(live.text).toBe(inProcess.text);
  }
});

test("a body declared larger than the bot API reads is refused before it is read, by either router", async () => {
  const r = await fetch(`${base}/api/v10/channels/${general}/messages`, {
    method: "POST",
    headers: { Authorization: `Bot ${token}`, "Content-Type": "application/json", "Content-Length": String(10 * 1024 * 1024) },
    body: "x".repeat(10),
  }).catch(() => null);
  // Bun may reset the connection once the answer is out; when it answers, it is the refusal.
  if (r) {
    expect(r.status).toBe(400);
    expect(((await r.json()) as { code: number }).code).toBe(50035);
  }
  const inProcess = await call(p, "POST", `/channels/${general}/messages`, {
    token,
    rawBody: "{}",
    headers: { "Content-Type": "application/json", "Content-Length": String(10 * 1024 * 1024) },
  });
  expect(inProcess.status).toBe(400);
  expect(inProcess.body.code).toBe(50035);
});

test("HEAD on a GET route answers the GET's status without a body", async () => {
  const r = await fetch(`${base}/api/v10/users/@me`, { method: "HEAD", headers: { Authorization: `Bot ${token}` } });
  expect(r.status).toBe(200);
  expect(await r.text()).toBe("");
});
