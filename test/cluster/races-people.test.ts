/**
 * Check-then-act rules across nodes, as people meet them: two `parley serve` nodes on one
 * Postgres database, each answering one of two requests made at the same moment (see
 * races.test.ts for the bots' side). An invite's last use admits one person; a name
 * signs up once (the other gets the spec's 400, never a 500); an instance invite's last
 * use admits one sign-up; the last administrator stays one; two people have one DM
 * channel; slowmode lets one of two posts through; a server is never given to a member
 * who left it at that moment; edits of different fields of one row both stay.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ClusterNode } from "../support/cluster";
import { startSharedNodes, type SharedNodes } from "../support/shared-nodes";
import { ENGINE_MS } from "../support/engines";

const MEMBERS = ["dave", "erin", "fay", "gus", "hal", "ivy", "jon", "kim"];
const OUTSIDERS = ["olga", "otto"];
const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, ...[...MEMBERS, ...OUTSIDERS].map((name) => ({ name }))],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", ...MEMBERS],
      channels: [{ name: "general" }, { name: "slow", rate_limit_per_user: 3600 }],
    },
    { name: "Club", owner: "alice", members: ["hal"] },
  ],
  applications: [{ name: "Helper", owner: "erin" }],
};

let nodes: SharedNodes;
let a: ClusterNode;
let b: ClusterNode;
let world: any;

beforeAll(async () => {
  nodes = await startSharedNodes({ world: WORLD });
  world = nodes.world;
  [a, b] = nodes.cluster.nodes as [ClusterNode, ClusterNode];
}, ENGINE_MS);
afterAll(async () => {
  await nodes?.stop();
}, ENGINE_MS);

/** A request to the people's API through `node` as `who` (a seeded name), or signed out (null). */
async function as(node: ClusterNode, who: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/client/v1${path}`, {
    method,
    headers: { ...(who ? { Authorization: `Session ${world.users[who].token}` } : {}), "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/**
 * Both nodes at once: `fn(node, k)` through A (k 0) and B (k 1). A person's writes count
 * in a window per node (30 in 10 s), so the tests spread each person's over both nodes.
 */
const both = <T>(fn: (n: ClusterNode, k: number) => Promise<T>) => Promise.all([a, b].map((n, k) => fn(n, k)));
const statuses = (answers: { status: number }[]) => answers.map((r) => r.status).sort();
/** A person's internal id (the people's API names people by it). */
const idOf = async (who: string): Promise<string> => (await as(a, who, "GET", "/users/@me")).body.id;
const guildNamed = async (who: string, name: string) => ((await as(a, who, "GET", "/guilds")).body as any[]).find((g) => g.name === name);
const channelOf = (guild: any, name: string): string => guild.channels.find((c: any) => c.name === name).id;

test("an invite with one use left: two people join through both nodes at once, one joins, the other is refused", async () => {
  const lab = await guildNamed("alice", "Lab");
  for (let round = 0; round < 6; round++) {
    const invite = await as(round % 2 ? a : b, "alice", "POST", `/channels/${channelOf(lab, "general")}/invites`, { max_uses: 1 });
    expect(invite.status).toBe(200);
    const answers = await both((n, k) => as(n, OUTSIDERS[k]!, "POST", `/invites/${invite.body.code}`));
    expect(statuses(answers)).toEqual([200, 404]);
    const joined = OUTSIDERS[answers.findIndex((r) => r.status === 200)]!;
    expect((await as(b, "alice", "GET", `/guilds/${lab.id}`)).body.member_count).toBe(lab.member_count + 1);
    expect((await as(a, joined, "DELETE", `/users/@me/guilds/${lab.id}`)).status).toBe(204);
  }
}, 60_000);

const signUp = (n: ClusterNode, username: string, invite?: string) =>
  as(n, null, "POST", "/auth/signup", { username, password: `pw-${crypto.randomUUID()}`, ...(invite ? { invite } : {}) });

test("one new name signed up through both nodes at once: one account, the other refused 400 50035, never a 500", async () => {
  for (let round = 0; round < 4; round++) {
    const answers = await both((n) => signUp(n, `twin${round}`));
    expect(statuses(answers)).toEqual([200, 400]);
    expect(answers.find((r) => r.status === 400)!.body).toMatchObject({ code: 50035, message: expect.stringContaining("taken") });
  }
}, 60_000);

test("a sign-up invite with one use left: two sign-ups with it through both nodes at once, one account", async () => {
  expect((await as(a, "alice", "PUT", "/admin/registration", { registration: "invite" })).status).toBe(200);
  try {
    for (let round = 0; round < 4; round++) {
      const invite = await as(round % 2 ? a : b, "alice", "POST", "/admin/instance-invites", { max_uses: 1 });
      expect(invite.status).toBe(200);
      const answers = await both((n, k) => signUp(n, `invited${round}x${k}`, invite.body.code));
      expect(statuses(answers)).toEqual([200, 400]);
      expect(JSON.stringify(answers.find((r) => r.status === 400)!.body)).toContain("INVITE_INVALID");
    }
  } finally {
    expect((await as(a, "alice", "PUT", "/admin/registration", { registration: "open" })).status).toBe(200);
  }
}, 60_000);

test("the last two administrators each stepping down through both nodes at once: one stays an administrator", async () => {
  const ids = { alice: await idOf("alice"), fay: await idOf("fay"), gus: await idOf("gus") };
  for (const who of ["fay", "gus"] as const)
    expect((await as(a, "alice", "PUT", `/admin/users/${ids[who]}/admin`, { admin: true })).status).toBe(200);
  expect((await as(a, "alice", "PUT", `/admin/users/${ids.alice}/admin`, { admin: false })).status).toBe(200);
  let stays: "fay" | "gus" = "fay";
  for (let round = 0; round < 15; round++) {
    const answers = await both((n, k) => {
      const who = k ? "gus" : "fay";
      return as(n, who, "PUT", `/admin/users/${ids[who]}/admin`, { admin: false });
    });
    expect(statuses(answers)).toEqual([200, 400]);
    expect(JSON.stringify(answers.find((r) => r.status === 400)!.body)).toContain("last administrator");
    stays = answers[0]!.status === 400 ? "fay" : "gus";
    const other = stays === "fay" ? "gus" : "fay";
    expect((await as(b, other, "GET", "/users/@me")).body.admin).toBe(false);
    expect((await as(stays === "fay" ? b : a, stays, "PUT", `/admin/users/${ids[other]}/admin`, { admin: true })).status).toBe(200);
  }
  expect((await as(b, stays, "PUT", `/admin/users/${ids.alice}/admin`, { admin: true })).status).toBe(200);
}, 60_000);

test("two people opening their DM through both nodes at once get one channel", async () => {
  for (let round = 0; round < 8; round++) {
    const [from, to] = [MEMBERS[round]!, MEMBERS[(round + 3) % MEMBERS.length]!];
    const recipient = await idOf(to);
    const answers = await both((n) => as(n, from, "POST", "/users/@me/dms", { recipient_id: recipient }));
    expect(statuses(answers)).toEqual([200, 200]);
    expect(answers[0]!.body.id).toBe(answers[1]!.body.id);
    expect(((await as(b, to, "GET", "/users/@me/dms")).body as any[]).map((c) => c.id)).toContain(answers[0]!.body.id);
  }
}, 60_000);

test("slowmode: one person's two posts through both nodes at once, one is taken, the other waits (429)", async () => {
  const slow = channelOf(await guildNamed("alice", "Lab"), "slow");
  for (const who of MEMBERS) {
    const answers = await both((n, k) => as(n, who, "POST", `/channels/${slow}/messages`, { content: `from ${who} ${k}` }));
    expect(statuses(answers)).toEqual([200, 429]);
  }
}, 60_000);

test("a server given to a member through one node while they leave it through the other: its owner is always a member", async () => {
  const club = await guildNamed("alice", "Club");
  const [alice, hal] = [await idOf("alice"), await idOf("hal")];
  const invite = (await as(a, "alice", "POST", `/channels/${club.channels[0].id}/invites`, { max_uses: 0 })).body.code;
  for (let round = 0; round < 8; round++) {
    const [x, y] = round % 2 ? [a, b] : [b, a];
    const [given, left] = await Promise.all([
      as(x, "alice", "PUT", `/guilds/${club.id}/owner`, { owner_id: hal }),
      as(y, "hal", "DELETE", `/users/@me/guilds/${club.id}`),
    ]);
    // Given first (the owner cannot leave), or left first (no member to give it to).
    expect([
      [200, 400],
      [404, 204],
    ]).toContainEqual([given.status, left.status]);
    const owner = (await as(b, "alice", "GET", `/guilds/${club.id}`)).body.owner_id;
    const halIn = ((await as(b, "hal", "GET", "/guilds")).body as any[]).some((g) => g.id === club.id);
    if (owner === hal) {
      expect(halIn).toBe(true);
      expect((await as(x, "hal", "PUT", `/guilds/${club.id}/owner`, { owner_id: alice })).status).toBe(200);
    } else {
      expect(owner).toBe(alice);
      if (!halIn) expect((await as(x, "hal", "POST", `/invites/${invite}`)).status).toBe(200);
    }
  }
}, 60_000);

test("a person's notification level and mute for one server set through both nodes at once: both kept", async () => {
  const lab = await guildNamed("bob", "Lab");
  for (let round = 0; round < 6; round++) {
    const until = new Date(Date.now() + (round + 1) * 3_600_000).toISOString();
    const answers = await Promise.all([
      as(a, "bob", "PUT", `/users/@me/notification-settings/${lab.id}`, { level: 1 + (round % 2) }),
      as(b, "bob", "PUT", `/users/@me/notification-settings/${lab.id}`, { muted_until: until }),
    ]);
    expect(statuses(answers)).toEqual([200, 200]);
    const got = (await as(b, "bob", "GET", `/users/@me/notification-settings/${lab.id}`)).body;
    expect(got.level).toBe(1 + (round % 2));
    expect(Date.parse(got.muted_until)).toBe(Date.parse(until));
  }
}, 60_000);

test("an application's name and description edited through both nodes at once: both kept", async () => {
  const [app] = (await as(a, "erin", "GET", "/applications")).body as any[];
  for (let round = 0; round < 6; round++) {
    const answers = await Promise.all([
      as(a, "erin", "PATCH", `/applications/${app.id}`, { name: `Helper ${round}` }),
      as(b, "erin", "PATCH", `/applications/${app.id}`, { description: `round ${round}` }),
    ]);
    expect(statuses(answers)).toEqual([200, 200]);
    expect((await as(b, "erin", "GET", `/applications/${app.id}`)).body).toMatchObject({
      name: `Helper ${round}`,
      description: `round ${round}`,
    });
  }
}, 60_000);

test("an administrator approving one privileged intent while the owner asks for another, through both nodes at once: both kept", async () => {
  const [app] = (await as(a, "erin", "GET", "/applications")).body as any[];
  const ask = (n: ClusterNode, intent: string) =>
    as(n, "erin", "POST", `/applications/${app.id}/privileged-requests`, { intents: [intent] });
  const decide = (n: ClusterNode, intents: string[], revoke = false) =>
    as(n, "alice", "POST", `/admin/applications/${app.id}/privileged`, { intents, ...(revoke ? { revoke } : {}) });
  for (let round = 0; round < 12; round++) {
    // Alternately through each node, so nobody's writes meet the people's write window.
    const [x, y] = round % 2 ? [a, b] : [b, a];
    expect((await ask(x, "MESSAGE_CONTENT")).status).toBe(200);
    expect(statuses(await Promise.all([decide(x, ["MESSAGE_CONTENT"]), ask(y, "GUILD_PRESENCES")]))).toEqual([200, 200]);
    const got = (await as(b, "erin", "GET", `/applications/${app.id}`)).body;
    expect(got.privileged_approved).toContain("MESSAGE_CONTENT");
    expect(got.privileged_requested).toContain("GUILD_PRESENCES");
    expect((await decide(y, ["MESSAGE_CONTENT", "GUILD_PRESENCES"], true)).status).toBe(200);
  }
}, 60_000);
