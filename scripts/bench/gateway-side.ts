/**
 * Parley's side of the gateway fan-out benches (gateway.ts, attachments.ts): `n` bot
 * sessions in one guild, half of them holding MESSAGE_CONTENT (two views of every
 * message, as in real guilds), on virtual time so no heartbeat deadline fires. What a
 * message is, and who sends it, is the bench's: `sender` builds the send function once
 * the world exists.
 */
import { Clients } from "./clients";
import { heap, type Setup } from "./paired";
import { createParley, type Parley } from "../../src/app";
import { testConfig, SPEC_RATE_LIMITS } from "../../src/config";
import { INTENTS } from "../../src/core/permissions";
import { createApplicationWithToken, rotateToken } from "../../src/wire/tokens";

/** Parley's side, and how many publishes a message takes (cohorts of live sessions). */
export interface ParleySetup extends Setup {
  cohorts: () => number | undefined;
}

/** What a sender is given: the app and the internal ids of the bench guild, its channel, its owner and its other people. */
export interface BenchGuild {
  p: Parley;
  guildId: string;
  channelId: string;
  alice: string;
  /** The other people asked for, members of the guild, by internal id. */
  people: string[];
}

const TEXT = "the quick brown fox jumps over the lazy dog ".repeat(2);

/** A person's plain message, the gateway bench's. */
export function plainSender({ p, channelId, alice }: BenchGuild): () => unknown {
  return () => void p.core.messages.create({ channelId, authorId: alice, content: TEXT });
}

export const BENCH_TEXT = TEXT;

export async function parleySide(
  n: number,
  sender: (g: BenchGuild) => (() => unknown) | Promise<() => unknown> = plainSender,
  people: string[] = [],
): Promise<ParleySetup> {
  const p: Parley = createParley(testConfig({ harness: false, rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }));
  const w = p.seed({
    users: [{ name: "alice", admin: true }, ...people.map((name) => ({ name }))],
    guilds: [{ name: "Bench", owner: "alice", members: people, channels: [{ name: "general" }] }],
  });
  const channelId = p.api.flakes.uuid(w.guilds.Bench.channels.general)!;
  const guildId = p.api.flakes.uuid(w.guilds.Bench.id)!;
  const alice = p.api.flakes.uuid(w.users.alice.id)!;
  // The seed document caps applications at 100, so the fleet is built through the core.
  const identifies = Array.from({ length: n }, (_, i) => {
    const { app } = createApplicationWithToken(p.core.apps, p.api.flakes, {
      ownerId: alice,
      name: `Bot${i}`,
      intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | INTENTS.MESSAGE_CONTENT,
    });
    const content = i % 2 === 0;
    if (content) p.core.apps.approvePrivileged(app.id, null, INTENTS.MESSAGE_CONTENT);
    const token = rotateToken(p.core.apps, p.api.flakes, app.id);
    p.core.apps.install(app.id, guildId, alice);
    const intents = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | (content ? INTENTS.MESSAGE_CONTENT : 0);
    return JSON.stringify({ op: 2, d: { token, intents } });
  });
  const ids = people.map((name) => p.api.flakes.uuid(w.users[name].id)!);
  const send = await sender({ p, guildId, channelId, alice, people: ids });
  p.listen();
  p.clock.advance(0); // virtual time: no heartbeat deadline fires during the run

  const clients = new Clients();
  const before = heap();
  const ready = clients.expect(n * 3); // HELLO + READY + GUILD_CREATE per socket
  await clients.connect(p.api.urls.gateway, identifies);
  await ready;
  const memPerSocket = (heap() - before) / n;
  return {
    side: { clients, sockets: n, send },
    memPerSocket,
    cohorts: () => p.gateway.cohortSizes?.().length,
    async stop() {
      await clients.close();
      await p.stop();
    },
  };
}
