/**
 * Check-then-act rules across nodes: two `parley serve` nodes on one Postgres database,
 * each answering a bot at the same moment. SQLite's one writer serializes a check and
 * the write it guards; under Postgres's READ COMMITTED two nodes could both pass the
 * check, so the store takes a lock on the rule's scope first (Store.serialize). A
 * command name stays unique in its scope, and a scope never holds more than 100
 * commands, however the requests are spread; two emoji may share a name, made through
 * both nodes at once (never a 500); a person never holds more than 10 devices; a server's roles
 * stay numbered 1..n and its new channels take positions of their own; a channel never
 * moves into a category deleted at the same moment; an interaction is answered once
 * (the other answer gets 40060); a channel holds at most 15 webhooks and 250 pins; edits
 * of different fields of one role, server, channel, webhook or message both stay; a
 * nonce makes one message; two bans at once, or two grants of one role, both answer;
 * and a ban and a join at once never leave a banned member. The people's side is
 * races-people.test.ts.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Cluster, ClusterNode } from "../support/cluster";
import { startSharedNodes, type SharedNodes } from "../support/shared-nodes";
import { ENGINE_MS } from "../support/engines";
import { BASIC_WORLD } from "../helpers";
import { png } from "../support/png";
import { Gw, I } from "../gateway/client";

let nodes: SharedNodes;
let cluster: Cluster;
let a: ClusterNode;
let b: ClusterNode;
let world: any;

/** The basic world, with EchoBot allowed to manage roles, channels, messages, the server and bans in Lab (the bot API is not rate-limited here). */
const WORLD = structuredClone(BASIC_WORLD) as any;
WORLD.users.push({ name: "dora" });
WORLD.guilds[0].roles.push({
  name: "Builders",
  permissions: ["MANAGE_ROLES", "MANAGE_CHANNELS", "MANAGE_MESSAGES", "MANAGE_GUILD", "BAN_MEMBERS"],
  members: ["EchoBot"],
});

beforeAll(async () => {
  nodes = await startSharedNodes({ world: WORLD });
  ({ cluster, world } = nodes);
  [a, b] = cluster.nodes;
}, ENGINE_MS);
afterAll(async () => {
  await nodes?.stop();
}, ENGINE_MS);

async function bot(node: ClusterNode, method: string, path: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/v10${path}`, {
    method,
    headers: { Authorization: `Bot ${world.applications.EchoBot.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

const commands = () => `/applications/${world.applications.EchoBot.id}/commands`;
const command = (name: string) => ({ name, description: "a command", type: 1 });

test("the same new command posted through both nodes at once: one command of that name, both answers name it", async () => {
  for (let i = 0; i < 15; i++) {
    const name = `race${i}`;
    const answers = await Promise.all([a, b, a, b].map((n) => bot(n, "POST", commands(), command(name))));
    for (const r of answers) expect([200, 201]).toContain(r.status);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
  }
  const list = (await bot(b, "GET", commands())).body as any[];
  const names = list.map((c) => c.name);
  expect(names.length).toBe(new Set(names).size);
}, 60_000);

test("a scope one short of 100 commands: new ones posted through both nodes at once, exactly one is taken", async () => {
  const have = ((await bot(a, "GET", commands())).body as any[]).length;
  const fill = Array.from({ length: 99 - have }, (_, i) => command(`fill${i}`));
  for (const c of fill) expect((await bot(a, "POST", commands(), c)).status).toBe(201);
  const answers = await Promise.all(["x1", "x2", "x3", "x4"].map((name, i) => bot(i % 2 ? b : a, "POST", commands(), command(name))));
  expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
  expect(answers.filter((r) => r.status === 400).map((r) => JSON.stringify(r.body))).toEqual(
    Array(3).fill(expect.stringContaining("APPLICATION_COMMANDS_MAX")),
  );
  expect(((await bot(b, "GET", commands())).body as any[]).length).toBe(100);
}, 60_000);

/** A person's request to the people's API through `node`. */
async function alice(node: ClusterNode, method: string, path: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/client/v1${path}`, {
    method,
    headers: { Authorization: `Session ${world.users.alice.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** An emoji image's upload slot, filled through `node`. */
async function emojiSlot(node: ClusterNode, guild: string, seed: number): Promise<string> {
  const bytes = png(8, 8, seed);
  const slot = await alice(node, "POST", "/uploads", { purpose: "emoji", filename: "e.png", size: bytes.byteLength, guild_id: guild });
  expect(slot.status).toBe(200);
  const put = await fetch(`${node.base}/api/client/v1/uploads/${slot.body.id}`, {
    method: "PUT",
    headers: { Authorization: `Session ${world.users.alice.token}`, "Content-Type": "application/octet-stream" },
    body: bytes as BodyInit,
  });
  expect(put.status).toBe(200);
  return slot.body.id;
}

test("the same emoji name given through both nodes at once: two emoji, as on the reference, never a 500", async () => {
  const [lab] = (await alice(a, "GET", "/guilds")).body;
  for (let i = 0; i < 4; i++) {
    const slots = [await emojiSlot(a, lab.id, 2 * i + 1), await emojiSlot(b, lab.id, 2 * i + 2)];
    const name = `party${i}`;
    const answers = await Promise.all([a, b].map((n, k) => alice(n, "POST", `/guilds/${lab.id}/emojis`, { name, upload_id: slots[k] })));
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(answers[0].body.id).not.toBe(answers[1].body.id);
  }
  const names = ((await alice(b, "GET", `/guilds/${lab.id}/emojis`)).body as any[]).map((e) => e.name);
  expect(names.filter((n) => n === "party0")).toHaveLength(2);
}, 60_000);

/** A request to the people's API through `node` as the person holding `token`. */
async function person(node: ClusterNode, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/client/v1${path}`, {
    method,
    headers: { Authorization: `Session ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** A device's public key: any 32 bytes are an X25519 key's shape. */
const deviceKeys = () => ({ x25519: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url") });

test("a person one short of 10 devices registers two at once through both nodes: one is taken, the other refused", async () => {
  const carol = world.users.carol.token;
  for (let i = 0; i < 9; i++) expect((await person(a, carol, "POST", "/users/@me/devices", { keys: deviceKeys() })).status).toBe(200);
  for (let round = 0; round < 8; round++) {
    const answers = await Promise.all([a, b].map((n) => person(n, carol, "POST", "/users/@me/devices", { keys: deviceKeys() })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(JSON.stringify(answers.find((r) => r.status === 400)!.body)).toContain("MAX_DEVICES");
    const held = (await person(b, carol, "GET", "/users/@me/devices")).body as any[];
    expect(held).toHaveLength(10);
    expect((await person(a, carol, "DELETE", `/users/@me/devices/${held[0].id}`)).status).toBe(204);
  }
}, 60_000);

test("roles made through both nodes at once are numbered 1..n above @everyone, no two at one position", async () => {
  const lab = world.guilds.Lab.id;
  for (let round = 0; round < 8; round++) {
    const answers = await Promise.all([a, b].map((n, k) => bot(n, "POST", `/guilds/${lab}/roles`, { name: `race-${round}-${k}` })));
    for (const r of answers) expect(r.status).toBe(200);
  }
  const roles = (await bot(b, "GET", `/guilds/${lab}/roles`)).body as any[];
  const positions = roles.filter((r) => r.id !== lab).map((r) => r.position);
  expect(positions.sort((x, y) => x - y)).toEqual(positions.map((_, i) => i + 1));
}, 60_000);

test("channels made through both nodes at once each take a position of their own", async () => {
  const lab = world.guilds.Lab.id;
  for (let round = 0; round < 8; round++) {
    const answers = await Promise.all([a, b].map((n, k) => bot(n, "POST", `/guilds/${lab}/channels`, { name: `race-${round}-${k}` })));
    for (const r of answers) expect(r.status).toBe(200);
  }
  const positions = ((await bot(b, "GET", `/guilds/${lab}/channels`)).body as any[]).map((c) => c.position);
  expect(new Set(positions).size).toBe(positions.length);
}, 60_000);

test("a channel moved into a category another node deletes at that moment never stays in a category that is gone", async () => {
  const lab = world.guilds.Lab.id;
  const room = (await bot(a, "POST", `/guilds/${lab}/channels`, { name: "mover" })).body.id;
  for (let round = 0; round < 8; round++) {
    const category = await bot(a, "POST", `/guilds/${lab}/channels`, { name: `shelf-${round}`, type: 4 });
    expect(category.status).toBe(200);
    const [moved, deleted] = await Promise.all([
      bot(a, "PATCH", `/guilds/${lab}/channels`, [{ id: room, parent_id: category.body.id }]),
      bot(b, "DELETE", `/channels/${category.body.id}`),
    ]);
    expect(deleted.status).toBe(200);
    // Moved first (then let go of by the deletion), or refused: the category was gone.
    expect([204, 400]).toContain(moved.status);
    const channels = (await bot(b, "GET", `/guilds/${lab}/channels`)).body as any[];
    expect(channels.find((c) => c.id === room).parent_id).toBeNull();
  }
}, 60_000);

test("one interaction answered through both nodes at once: one answer, the other 40060, one response message", async () => {
  const app = world.applications.EchoBot;
  const lab = world.guilds.Lab;
  const made = await bot(a, "POST", `/applications/${app.id}/guilds/${lab.id}/commands`, command("answer"));
  expect(made.status).toBe(201);
  const gw = await Gw.open(null as never, `${a.base.replace(/^http/, "ws")}/gateway?v=10&encoding=json`);
  try {
    await gw.identify(app.token, I.GUILDS);
    for (let round = 0; round < 8; round++) {
      const ran = await fetch(`${a.base}/api/harness/v1/users/alice/interactions`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ channel_id: lab.channels.general, application_id: app.id, name: "answer" }),
      });
      expect(ran.status).toBe(200);
      const { d } = await gw.dispatch("INTERACTION_CREATE");
      const answers = await Promise.all(
        [a, b].map(async (n, k) => {
          const res = await fetch(`${n.base}/api/v10/interactions/${d.id}/${d.token}/callback`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ type: 4, data: { content: `answer ${k}` } }),
          });
          return { status: res.status, body: (await res.json().catch(() => null)) as any };
        }),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([204, 400]);
      expect(answers.find((r) => r.status === 400)!.body.code).toBe(40060);
      const after = (await (await fetch(`${b.base}/api/harness/v1/interactions/${d.id}`)).json()) as any;
      expect(after.state).toBe("responded");
      expect(after.followups).toEqual([]);
    }
  } finally {
    await gw.close();
  }
}, 60_000);

/** Both nodes at once: `fn(node, k)` through A (k 0) and B (k 1). */
const both = <T>(fn: (n: ClusterNode, k: number) => Promise<T>) => Promise.all([a, b].map((n, k) => fn(n, k)));
const statuses = (answers: { status: number }[]) => answers.map((r) => r.status).sort();

test("a channel one short of 15 webhooks: two made through both nodes at once, one is taken, the other refused", async () => {
  const room = (await bot(a, "POST", `/guilds/${world.guilds.Lab.id}/channels`, { name: "hooks" })).body.id;
  for (let i = 0; i < 14; i++) expect((await bot(a, "POST", `/channels/${room}/webhooks`, { name: `hook${i}` })).status).toBe(200);
  for (let round = 0; round < 8; round++) {
    const answers = await both((n, k) => bot(n, "POST", `/channels/${room}/webhooks`, { name: `race${round}-${k}` }));
    expect(statuses(answers)).toEqual([200, 400]);
    expect((answers.find((r) => r.status === 400)!.body as { code: number }).code).toBe(30007);
    const held = (await bot(b, "GET", `/channels/${room}/webhooks`)).body as any[];
    expect(held).toHaveLength(15);
    expect((await bot(a, "DELETE", `/webhooks/${held.at(-1).id}`)).status).toBe(204);
  }
}, 60_000);

test("one webhook renamed through one node and moved through the other at once: both changes kept", async () => {
  const lab = world.guilds.Lab;
  const hook = (await bot(a, "POST", `/channels/${lab.channels.general}/webhooks`, { name: "mover" })).body.id;
  for (let round = 0; round < 8; round++) {
    const to = round % 2 ? lab.channels.general : lab.channels.staff;
    const answers = await Promise.all([
      bot(a, "PATCH", `/webhooks/${hook}`, { name: `mover${round}` }),
      bot(b, "PATCH", `/webhooks/${hook}`, { channel_id: to }),
    ]);
    expect(statuses(answers)).toEqual([200, 200]);
    expect((await bot(b, "GET", `/webhooks/${hook}`)).body).toMatchObject({ name: `mover${round}`, channel_id: to });
  }
}, 60_000);

const pin = (n: ClusterNode, channel: string, message: string) => bot(n, "PUT", `/channels/${channel}/messages/pins/${message}`);
const post = async (channel: string, content: string) => (await bot(a, "POST", `/channels/${channel}/messages`, { content })).body.id;

test("the same message pinned through both nodes at once: both answered 204, pinned once, never a 500", async () => {
  const room = (await bot(a, "POST", `/guilds/${world.guilds.Lab.id}/channels`, { name: "pin-once" })).body.id;
  for (let round = 0; round < 8; round++) {
    const m = await post(room, `pin me ${round}`);
    expect(statuses(await both((n) => pin(n, room, m)))).toEqual([204, 204]);
  }
  const pinned = ((await bot(b, "GET", `/channels/${room}/messages/pins`)).body.items as any[]).map((i) => i.message.id);
  expect(pinned).toHaveLength(8);
  expect(new Set(pinned).size).toBe(8);
}, 60_000);

test("a channel one short of 250 pins: two pinned through both nodes at once, one is taken, the other 30003", async () => {
  const room = (await bot(a, "POST", `/guilds/${world.guilds.Lab.id}/channels`, { name: "pins" })).body.id;
  for (let i = 0; i < 249; i += 25)
    await Promise.all(
      Array.from({ length: Math.min(25, 249 - i) }, async (_, j) =>
        expect((await pin(a, room, await post(room, `m${i + j}`))).status).toBe(204),
      ),
    );
  for (let round = 0; round < 8; round++) {
    const ms = [await post(room, `x${round}`), await post(room, `y${round}`)];
    const answers = await both((n, k) => pin(n, room, ms[k]!));
    expect(statuses(answers)).toEqual([204, 400]);
    expect(answers.find((r) => r.status === 400)!.body.code).toBe(30003);
    const taken = ms[answers.findIndex((r) => r.status === 204)]!;
    expect((await bot(a, "DELETE", `/channels/${room}/messages/pins/${taken}`)).status).toBe(204);
  }
}, 120_000);

test("one role's name and colour edited through both nodes at once: both kept", async () => {
  const lab = world.guilds.Lab.id;
  const role = (await bot(a, "POST", `/guilds/${lab}/roles`, { name: "painted" })).body.id;
  for (let round = 0; round < 15; round++) {
    const answers = await Promise.all([
      bot(a, "PATCH", `/guilds/${lab}/roles/${role}`, { name: `painted${round}` }),
      bot(b, "PATCH", `/guilds/${lab}/roles/${role}`, { color: round + 1 }),
    ]);
    expect(statuses(answers)).toEqual([200, 200]);
    const roles = (await bot(b, "GET", `/guilds/${lab}/roles`)).body as any[];
    expect(roles.find((r) => r.id === role)).toMatchObject({ name: `painted${round}`, color: round + 1 });
  }
}, 60_000);

test("a server's name and description edited through both nodes at once: both kept", async () => {
  const lab = world.guilds.Lab.id;
  for (let round = 0; round < 8; round++) {
    const answers = await Promise.all([
      bot(a, "PATCH", `/guilds/${lab}`, { name: `Lab ${round}` }),
      bot(b, "PATCH", `/guilds/${lab}`, { description: `round ${round}` }),
    ]);
    expect(statuses(answers)).toEqual([200, 200]);
    expect((await bot(b, "GET", `/guilds/${lab}`)).body).toMatchObject({ name: `Lab ${round}`, description: `round ${round}` });
  }
}, 60_000);

test("one channel's name and topic edited through both nodes at once: both kept", async () => {
  const room = (await bot(a, "POST", `/guilds/${world.guilds.Lab.id}/channels`, { name: "edited" })).body.id;
  for (let round = 0; round < 8; round++) {
    const answers = await Promise.all([
      bot(a, "PATCH", `/channels/${room}`, { name: `edited-${round}` }),
      bot(b, "PATCH", `/channels/${room}`, { topic: `topic ${round}` }),
    ]);
    expect(statuses(answers)).toEqual([200, 200]);
    expect((await bot(b, "GET", `/channels/${room}`)).body).toMatchObject({ name: `edited-${round}`, topic: `topic ${round}` });
  }
}, 60_000);

test("one message's text and flags edited through both nodes at once: both kept", async () => {
  const general = world.guilds.Lab.channels.general;
  for (let round = 0; round < 8; round++) {
    const m = await post(general, `before ${round}`);
    const answers = await Promise.all([
      bot(a, "PATCH", `/channels/${general}/messages/${m}`, { content: `after ${round}` }),
      bot(b, "PATCH", `/channels/${general}/messages/${m}`, { flags: 4 }),
    ]);
    expect(statuses(answers)).toEqual([200, 200]);
    const got = (await bot(b, "GET", `/channels/${general}/messages/${m}`)).body;
    expect(got.content).toBe(`after ${round}`);
    expect(got.flags & 4).toBe(4);
  }
}, 60_000);

test("one post with enforce_nonce sent through both nodes at once: one message, both answers name it", async () => {
  const general = world.guilds.Lab.channels.general;
  for (let round = 0; round < 15; round++) {
    const body = { content: `once ${round}`, nonce: `race-${round}`, enforce_nonce: true };
    const answers = await both((n) => bot(n, "POST", `/channels/${general}/messages`, body));
    expect(statuses(answers)).toEqual([200, 200]);
    expect(answers[0]!.body.id).toBe(answers[1]!.body.id);
  }
}, 60_000);

test("one user banned through both nodes at once: both 204, never a 500; unbanned at once: one 204, one 404", async () => {
  const lab = world.guilds.Lab.id;
  const carol = world.users.carol.id;
  for (let round = 0; round < 8; round++) {
    expect(statuses(await both((n) => bot(n, "PUT", `/guilds/${lab}/bans/${carol}`, {})))).toEqual([204, 204]);
    expect((await bot(b, "GET", `/guilds/${lab}/bans/${carol}`)).status).toBe(200);
    expect(statuses(await both((n) => bot(n, "DELETE", `/guilds/${lab}/bans/${carol}`)))).toEqual([204, 404]);
  }
}, 60_000);

test("a person joining through one node while the other bans them: never a banned member", async () => {
  const lab = world.guilds.Lab.id;
  const [labInternal] = (await alice(a, "GET", "/guilds")).body as any[];
  const channels = (await alice(a, "GET", `/guilds/${labInternal.id}/channels`)).body as any[];
  const invite = await alice(a, "POST", `/channels/${channels[0].id}/invites`, { max_uses: 0 });
  expect(invite.status).toBe(200);
  const dora = world.users.dora;
  for (let round = 0; round < 8; round++) {
    const [joined, banned] = await Promise.all([
      person(a, dora.token, "POST", `/invites/${invite.body.code}`),
      bot(b, "PUT", `/guilds/${lab}/bans/${dora.id}`, {}),
    ]);
    expect(banned.status).toBe(204);
    // Joined first (then removed by the ban), or refused: banned already.
    expect([200, 403]).toContain(joined.status);
    expect((await bot(b, "GET", `/guilds/${lab}/members/${dora.id}`)).status).toBe(404);
    expect((await bot(a, "DELETE", `/guilds/${lab}/bans/${dora.id}`)).status).toBe(204);
  }
}, 60_000);

test("the same role given to a member through both nodes at once: both answered, never a 500", async () => {
  const lab = world.guilds.Lab;
  const bob = world.users.bob.id;
  const badge = (await bot(a, "POST", `/guilds/${lab.id}/roles`, { name: "badge" })).body.id;
  for (let round = 0; round < 8; round++) {
    const answers = await both((n) => bot(n, "PATCH", `/guilds/${lab.id}/members/${bob}`, { roles: [lab.roles.Mod, badge] }));
    expect(statuses(answers)).toEqual([200, 200]);
    expect((await bot(b, "GET", `/guilds/${lab.id}/members/${bob}`)).body.roles.sort()).toEqual([lab.roles.Mod, badge].sort());
    expect((await bot(a, "PATCH", `/guilds/${lab.id}/members/${bob}`, { roles: [lab.roles.Mod] })).status).toBe(200);
  }
}, 60_000);
