/**
 * Only the canonical decimal spelling of a snowflake is an id (docs/security.md,
 * finding 1). A request that spells a known id another way (a leading zero, a base64
 * token naming "0<id>", a mention, a body field) finds nothing, and leaves nothing
 * behind: every later answer and gateway frame carries the id as it was minted, and the
 * rate limits count every spelling of a major parameter in one window.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { harness, makeParley } from "../helpers";
import { Gw, I, seedGatewayWorld, type World } from "./client";

let p: Parley;
let W: World;
let base: string;
const open: Gw[] = [];

beforeEach(() => {
  p = makeParley();
  W = seedGatewayWorld(p);
  p.listen();
  base = p.api.urls.base;
});

afterEach(async () => {
  for (const g of open.splice(0)) await g.close();
  await p.stop();
});

/** A real HTTP request to the listening server (Bun's router first, as a bot's would be). */
async function http(method: string, path: string, opts: { token?: string; body?: unknown; raw?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.Authorization = `Bot ${opts.token}`;
  if (opts.body !== undefined || opts.raw !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${base}/api/v10${path}`, {
    method,
    headers,
    body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

async function listening(): Promise<Gw> {
  const g = await Gw.open(p);
  open.push(g);
  await g.identify(W.w.applications.AllBot.token, I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
  return g;
}

describe("one anonymous request with a non-canonical id", () => {
  test("GET /webhooks/0<channel id>/x changes no later answer or gateway frame", async () => {
    const channel = W.w.guilds.Lab.channels.general;
    const token = W.w.applications.AllBot.token;
    const g = await listening();

    const probe = await http("GET", `/webhooks/0${channel}/x`);
    expect(probe.status).toBe(404);

    const read = await http("GET", `/channels/${channel}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(channel);
    expect(read.text).not.toContain(`0${channel}`);

    const said = await harness(p, "POST", "/users/bob/messages", { channel_id: channel, content: "still heard?" });
    expect(said.status).toBe(200);
    const created = await g.dispatch("MESSAGE_CREATE");
    expect(created.d.channel_id).toBe(channel);
    expect(created.d.content).toBe("still heard?");
    expect(JSON.stringify(created.d)).not.toContain(`0${channel}`);

    // A fresh session's GUILD_CREATE names the channel as it was minted, too.
    const late = await Gw.open(p);
    open.push(late);
    await late.identify(token, I.GUILDS);
    const guild = await late.dispatch("GUILD_CREATE");
    expect(guild.d.channels.map((c: { id: string }) => c.id)).toContain(channel);
    expect(JSON.stringify(guild.d)).not.toContain(`0${channel}`);
  });

  test("a non-canonical path id is unknown, for bots as for anyone", async () => {
    const token = W.w.applications.AllBot.token;
    const channel = W.w.guilds.Lab.channels.general;
    for (const spelling of [`0${channel}`, `00${channel}`, `+${channel}`]) {
      const r = await http("GET", `/channels/${encodeURIComponent(spelling)}`, { token });
      expect([r.status, r.body.code]).toEqual([404, 10003]);
    }
    // Below 2^63 only: a 20-digit number above it names nothing.
    const huge = await http("GET", `/channels/${(1n << 63n).toString()}`, { token });
    expect(huge.status).toBe(404);
    expect((await http("GET", `/channels/${channel}`, { token })).body.id).toBe(channel);
  });

  test("a bot token whose first part spells the bot's id with a leading zero is refused and leaves the id alone", async () => {
    const token = W.w.applications.AllBot.token;
    const botId = W.w.applications.AllBot.bot_user_id;
    const [, version, secret] = token.split(".");
    const forged = `${Buffer.from(`0${botId}`).toString("base64").replace(/=+$/, "")}.${version}.${secret}`;
    expect((await http("GET", "/users/@me", { token: forged })).status).toBe(401);
    const me = await http("GET", "/users/@me", { token });
    expect(me.body.id).toBe(botId);
  });

  test("a mention and a body id with a leading zero are not ids", async () => {
    const token = W.w.applications.AllBot.token;
    const channel = W.w.guilds.Lab.channels.general;
    const alice = W.w.users.alice.id;
    const posted = await http("POST", `/channels/${channel}/messages`, { token, body: { content: `hi <@0${alice}> in <#0${channel}>` } });
    expect(posted.status).toBe(200);
    expect(posted.body.mentions).toEqual([]);
    expect(posted.body.content).toBe(`hi <@0${alice}> in <#0${channel}>`);

    const reply = await http("POST", `/channels/${channel}/messages`, {
      token,
      body: { content: "r", message_reference: { message_id: `0${posted.body.id}` } },
    });
    expect([reply.status, reply.body.code]).toEqual([400, 50035]);
    // A JSON number with a leading zero is not JSON at all (it must not be quoted into a string id).
    const number = await http("POST", `/channels/${channel}/messages`, {
      token,
      raw: `{"content":"r","message_reference":{"message_id":0${posted.body.id}}}`,
    });
    expect([number.status, number.body.code]).toEqual([400, 50035]);

    const read = await http("GET", `/channels/${channel}/messages/${posted.body.id}`, { token });
    expect(read.body.author.id).toBe(W.w.applications.AllBot.bot_user_id);
    expect(read.body.channel_id).toBe(channel);
    const user = await http("GET", `/users/${alice}`, { token });
    expect(user.body.id).toBe(alice);
  });
});

describe("rate limits", () => {
  test("every spelling of a major parameter counts in the one window of its id", async () => {
    const token = W.w.applications.AllBot.token;
    const channel = W.w.guilds.Lab.channels.general;
    // POST /channels/{channel_id}/messages: 5 per 5 s.
    for (let i = 0; i < 5; i++)
      expect((await http("POST", `/channels/${channel}/messages`, { token, body: { content: `m${i}` } })).status).toBe(200);
    const again = await http("POST", `/channels/0${channel}/messages`, { token, body: { content: "one more" } });
    expect(again.status).toBe(429);
    expect(again.headers.get("x-ratelimit-remaining")).toBe("0");
  });
  test("ids that are not digits at all share one window: junk opens no fresh ones", async () => {
    const token = W.w.applications.AllBot.token;
    // GET /channels/{channel_id}: 10 per 10 s.
    for (let i = 0; i < 10; i++) expect((await http("GET", `/channels/junk${i}`, { token })).status).toBe(404);
    const more = await http("GET", "/channels/other-junk", { token });
    expect(more.status).toBe(429);
    // A real id keeps its own window.
    expect((await http("GET", `/channels/${W.w.guilds.Lab.channels.general}`, { token })).status).toBe(200);
  });
});
