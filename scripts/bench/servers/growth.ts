// Child process of scripts/bench/growth.ts: Parley on a file-backed store holding big
// worlds, built with bulk SQL through the bench's own helper (bulk.ts, over the store
// the app exposes to tools) so they take seconds:
// - server "Big": a channel with 1,000,000 messages and one with 100; 10,000 members;
// - server "Mid": 1,000 members;
// - bot "Wide" in 100 small servers, bot "Narrow" in 10;
// - bots "Reader10k" (in Big) and "Reader1k" (in Mid), with GUILD_MEMBERS and MESSAGE_CONTENT;
// - application "Commander" for the bulk command overwrite.
// Prints one JSON line with the ids and tokens, then serves until killed.
import { tempParley } from "./temp";
import { BulkSeed } from "./bulk";

const MESSAGES = Number(process.argv[2] ?? 1_000_000);
const p = tempParley("parley-growth-");

const t0 = performance.now();
const reader = {
  intents: ["GUILDS", "GUILD_MESSAGES", "GUILD_MEMBERS", "MESSAGE_CONTENT"],
  approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"],
};
const w = p.seed({
  users: [{ name: "owner" }],
  guilds: [
    {
      name: "Big",
      owner: "owner",
      channels: [{ name: "huge" }, { name: "small" }],
      roles: [{ name: "mods", permissions: ["MANAGE_MESSAGES"] }],
    },
    { name: "Mid", owner: "owner", channels: [{ name: "general" }] },
  ],
  applications: [
    { name: "Reader10k", owner: "owner", ...reader, install: ["Big"] },
    { name: "Reader1k", owner: "owner", ...reader, install: ["Mid"] },
    { name: "Wide", owner: "owner", intents: ["GUILDS"] },
    { name: "Narrow", owner: "owner", intents: ["GUILDS"] },
    { name: "Commander", owner: "owner", intents: ["GUILDS"] },
  ],
});
const id = (flake: string) => p.api.flakes.uuid(flake)!;
const owner = id(w.users.owner.id);
const bulk = new BulkSeed(p.store, p.clock);
const huge = bulk.messages(id(w.guilds.Big.channels.huge), owner, MESSAGES);
bulk.messages(id(w.guilds.Big.channels.small), owner, 100);
bulk.members(id(w.guilds.Big.id), "bigm", 10_000);
bulk.members(id(w.guilds.Mid.id), "midm", 1_000);
// Servers shaped like small real ones: a few channels and roles each.
const spread = (app: string, n: number) => {
  const appId = id(w.applications[app].id);
  for (let i = 0; i < n; i++) {
    const g = p.core.guilds.create({ name: `${app} server ${i}`, ownerId: owner, channels: ["general", "random", "help"] });
    p.core.guilds.createRole(g.id, { name: "mods" });
    p.core.apps.install(appId, g.id, owner);
  }
};
spread("Wide", 100);
spread("Narrow", 10);
const server = p.listen();
const seededMs = performance.now() - t0;
// SIGUSR2: rename a bot through the core, which changes the users table: every cached
// GUILD_CREATE body is stale, so the next IDENTIFY builds its own (the bench's cold cache).
let renames = 0;
process.on("SIGUSR2", () => p.core.apps.update(id(w.applications.Commander.id), { name: `Commander${++renames}` }));
console.log(
  JSON.stringify({
    port: server.port,
    seededMs,
    oldest: p.api.flakes.of(huge.oldest),
    guilds: { big: w.guilds.Big.id, mid: w.guilds.Mid.id },
    channels: { huge: w.guilds.Big.channels.huge, small: w.guilds.Big.channels.small },
    tokens: Object.fromEntries(Object.entries(w.applications).map(([k, v]: [string, any]) => [k, v.token])),
    apps: Object.fromEntries(Object.entries(w.applications).map(([k, v]: [string, any]) => [k, v.id])),
  }),
);
