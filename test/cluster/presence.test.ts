/**
 * Presence across nodes: two `parley serve` nodes on one Postgres database. A user is
 * online while any live node holds a gateway session (a bot) or a live connection (a
 * person) for them, and goes offline when the last one anywhere closes, or when the
 * node holding it dies and the survivors have not heard it beat for the liveness window
 * (core/presence.ts). Presence is read the way a person sees it, in a server's member
 * list through the people's API, on either node.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Cluster, ClusterNode } from "../support/cluster";
import { gatewayOf, within, startSharedNodes, type SharedNodes } from "../support/shared-nodes";
import { ENGINE_MS } from "../support/engines";
import { BASIC_WORLD } from "../helpers";
import { Gw, I } from "../gateway/client";
import { LiveConn } from "../http/live-client";

let nodes: SharedNodes;
let cluster: Cluster;
let a: ClusterNode;
let b: ClusterNode;
let world: any;
let lab: string;

beforeAll(async () => {
  nodes = await startSharedNodes({ world: BASIC_WORLD });
  ({ cluster, world } = nodes);
  [a, b] = cluster.nodes;
  lab = (await people(a, "GET", "/guilds", world.users.alice.token)).body[0].id;
}, ENGINE_MS);
afterAll(async () => {
  await nodes?.stop();
}, ENGINE_MS);

async function people(node: ClusterNode, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/client/v1${path}`, {
    method,
    headers: { Authorization: `Session ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function harness(node: ClusterNode, method: string, path: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/harness/v1${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A member's presence in Lab's member list as alice reads it through `node`. */
async function presenceOf(node: ClusterNode, who: (u: any) => boolean): Promise<string> {
  const list = (await people(node, "GET", `/guilds/${lab}/members`, world.users.alice.token)).body as any[];
  return list.find((m) => who(m.user)).user.presence;
}
const echoBot = (u: any) => u.bot && u.username === "EchoBot";
const bob = (u: any) => !u.bot && u.username === "bob";

/** LiveConn opens its socket on `p.api.urls.base`: a node's base stands in for an in-process Parley. */
const liveOn = (node: ClusterNode) => ({ api: { urls: { base: node.base } } }) as never;

/** Wait until `node` counts none of the bot's gateway sessions as connected: its close has been handled there. */
async function noLiveSessionOn(node: ClusterNode): Promise<void> {
  await within(5000, "the node to handle the session's close", async () => {
    const sessions = (await harness(node, "GET", `/applications/${world.applications.EchoBot.id}/sessions`)).body as any[];
    return sessions.every((s) => !s.connected) ? true : undefined;
  });
}

/** A fresh sign-in for `person`, and its session's id. */
async function signIn(person: string): Promise<{ token: string; id: string }> {
  const { token } = (await harness(a, "POST", `/users/${person}/session`)).body;
  const list = (await people(a, "GET", "/users/@me/sessions", token)).body as any[];
  return { token, id: list.find((s) => s.current).id };
}

test("a bot with sessions on both nodes stays online when one closes, and goes offline when the other does", async () => {
  const token = world.applications.EchoBot.token;
  const onA = await Gw.open(null as never, gatewayOf(a));
  const onB = await Gw.open(null as never, gatewayOf(b));
  try {
    await onA.identify(token, I.GUILDS);
    await onB.identify(token, I.GUILDS);
    await within(5000, "the bot online", async () => ((await presenceOf(b, echoBot)) === "online" ? true : undefined));
    await onB.close();
    await noLiveSessionOn(b);
    expect(await presenceOf(a, echoBot)).toBe("online");
    expect(await presenceOf(b, echoBot)).toBe("online");
    await onA.close();
    await noLiveSessionOn(a);
    expect(await presenceOf(b, echoBot)).toBe("offline");
    expect(await presenceOf(a, echoBot)).toBe("offline");
  } finally {
    await Promise.all([onA.close(), onB.close()]);
  }
}, 30_000);

test("a person with live connections on both nodes stays online (or dnd, as chosen) while either is open", async () => {
  const first = await signIn("bob");
  const second = await signIn("bob");
  const { c: tabA } = await LiveConn.hello(liveOn(a), first.token);
  const { c: tabB } = await LiveConn.hello(liveOn(b), second.token);
  try {
    expect(await presenceOf(b, bob)).toBe("online");
    // Ending a session closes its connections in the same request: when it answers, node B has let go.
    expect((await people(b, "DELETE", `/users/@me/sessions/${second.id}`, second.token)).status).toBe(204);
    expect((await tabB.closed).code).toBe(4001);
    expect(await presenceOf(a, bob)).toBe("online");
    expect(await presenceOf(b, bob)).toBe("online");

    // A chosen dnd stays through a connection opened on the other node.
    expect((await people(a, "PUT", "/users/@me/presence", first.token, { status: "dnd" })).status).toBe(200);
    const third = await signIn("bob");
    const { c: tabB2, ready } = await LiveConn.hello(liveOn(b), third.token);
    expect(ready.user.presence).toBe("dnd");
    expect((await people(b, "DELETE", `/users/@me/sessions/${third.id}`, third.token)).status).toBe(204);
    await tabB2.closed;
    expect(await presenceOf(a, bob)).toBe("dnd");

    expect((await people(a, "DELETE", `/users/@me/sessions/${first.id}`, first.token)).status).toBe(204);
    await tabA.closed;
    expect(await presenceOf(b, bob)).toBe("offline");
  } finally {
    await Promise.all([tabA.close(), tabB.close()]);
  }
}, 30_000);

// Last: node A does not come back.
test("kill -9 of the node holding a user's only session: the survivor takes them offline after the liveness window", async () => {
  const gw = await Gw.open(null as never, gatewayOf(a));
  const me = await signIn("bob");
  await gw.identify(world.applications.EchoBot.token, I.GUILDS);
  await LiveConn.hello(liveOn(a), me.token);
  await within(5000, "both online", async () =>
    (await presenceOf(b, echoBot)) === "online" && (await presenceOf(b, bob)) === "online" ? true : undefined,
  );
  await a.kill9();
  // Node A's holds stand until node B has not heard it beat for the window, counted on B's clock.
  expect(await presenceOf(b, echoBot)).toBe("online");
  await within(20_000, "the survivor to take them offline", async () => {
    expect((await harness(b, "POST", "/clock", { advance_ms: 5000 })).status).toBe(200);
    return (await presenceOf(b, echoBot)) === "offline" && (await presenceOf(b, bob)) === "offline" ? true : undefined;
  });
  await gw.close();
}, 60_000);
