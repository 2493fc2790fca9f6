/**
 * The world the request-path benches run in, as a seed document (design/harness.md): a
 * guild shaped like a real one (a few roles, the posting bot holding one, an overwrite
 * on every channel, so the permission path does its real work) and SESSIONS listening
 * bots (GUILD_MESSAGES) for the gateway fan-out.
 */
export function benchWorld(channels: number, sessions: number) {
  return {
    users: [{ name: "alice" }, { name: "bob" }],
    guilds: [
      {
        name: "Bench",
        owner: "alice",
        members: ["bob"],
        roles: [
          { name: "mods", permissions: ["MANAGE_MESSAGES"], members: ["bob"] },
          { name: "posters", permissions: ["SEND_MESSAGES"], members: ["Poster"] },
          { name: "muted", permissions: [] },
        ],
        channels: Array.from({ length: channels }, (_, i) => ({ name: `c${i}`, overwrites: [{ role: "muted", deny: ["SEND_MESSAGES"] }] })),
      },
    ],
    applications: [
      { name: "Poster", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Bench"] },
      ...Array.from({ length: sessions }, (_, i) => ({
        name: `Listener${i}`,
        owner: "alice",
        intents: ["GUILDS", "GUILD_MESSAGES"],
        install: ["Bench"],
      })),
    ],
  };
}

export const CONTENT = "the quick brown fox jumps over the lazy dog, message 1";

/** What a bench needs of the seeded world: the posting bot's token, the listeners', the channels, a message per channel. */
export interface BenchInfo {
  port: number;
  token: string;
  tokens: string[];
  channels: string[];
  messages: string[];
}

/** Post one message per channel the way bots post, for the point reads; answers the world as benches see it. */
export async function finishWorld(port: number, seeded: any, sessions: number): Promise<BenchInfo> {
  const channels = Object.values(seeded.guilds.Bench.channels) as string[];
  const token = seeded.applications.Poster.token as string;
  const messages: string[] = [];
  for (const c of channels) {
    const r = await fetch(`http://127.0.0.1:${port}/api/v10/channels/${c}/messages`, {
      method: "POST",
      headers: { Authorization: `Bot ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content: CONTENT }),
    });
    messages.push(((await r.json()) as { id: string }).id);
  }
  const tokens = Array.from({ length: sessions }, (_, i) => seeded.applications[`Listener${i}`].token as string);
  return { port, token, tokens, channels, messages };
}
