import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client, GatewayIntentBits, WebhookClient, AuditLogEvent } from "discord.js";
import { makeParley, seedAdmin } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/harness/seed";

let p: Parley;
let w: SeedAnswer;

beforeAll(() => {
  p = makeParley();
  p.listen();
  w = seedAdmin(p);
});
afterAll(() => p.stop());

/**
 * A discord.js moderation bot working through REST only (client.rest and the guild
 * managers), since it needs no gateway for these jobs.
 */
test("discord.js moderation bot: kick, ban, role add, audit log, webhook create and send", async () => {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${p.api.urls.base}/api` } });
  client.token = w.applications.ModBot.token;
  client.rest.setToken(w.applications.ModBot.token);
  const u = (flake: string) => p.api.flakes.uuid(flake)!;
  const gid = u(w.guilds.Lab.id);
  try {
    const guild = await client.guilds.fetch(w.guilds.Lab.id);
    expect(guild.name).toBe("Lab");

    const carol = await guild.members.fetch(w.users.carol.id);
    await carol.roles.add(w.guilds.Lab.roles.Mod, "trusted");
    expect(p.core.guilds.memberRoleIds(gid, u(w.users.carol.id))).toContain(u(w.guilds.Lab.roles.Mod));

    await guild.members.kick(w.users.erin.id, "kicked by bot");
    expect(p.core.guilds.isMember(gid, u(w.users.erin.id))).toBe(false);

    await guild.bans.create(w.users.carol.id, { deleteMessageSeconds: 3600, reason: "banned by bot" });
    expect(p.core.moderation.isBanned(gid, u(w.users.carol.id))).toBe(true);
    expect(p.core.guilds.isMember(gid, u(w.users.carol.id))).toBe(false);

    const role = await guild.roles.create({ name: "Created", colors: { primaryColor: 0x00ff00 }, reason: "new role" });
    expect(role.position).toBe(1);
    expect(role.color).toBe(0x00ff00);

    const logs = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberKick });
    const kick = logs.entries.first()!;
    expect(kick.reason).toBe("kicked by bot");
    expect(kick.targetId).toBe(w.users.erin.id);
    expect(kick.executorId).toBe(w.applications.ModBot.bot_user_id);
    const all = await guild.fetchAuditLogs();
    expect(all.entries.size).toBeGreaterThanOrEqual(4);

    const hook = await guild.channels.createWebhook({ channel: w.guilds.Lab.channels.general, name: "Reporter", reason: "alerts" });
    expect(hook.token).toBeTruthy();
    const wc = new WebhookClient({ id: hook.id, token: hook.token! }, { rest: { api: `${p.api.urls.base}/api` } });
    const sent = await wc.send({ content: "from a webhook", username: "Alarm" });
    expect(sent.content).toBe("from a webhook");
    wc.destroy();
    // The people's view: the message is in the channel as the webhook.
    const stored = p.core.messages.list(u(w.guilds.Lab.channels.general), { limit: 5 }, null);
    expect(stored[0]).toMatchObject({ content: "from a webhook", webhook_name: "Alarm" });
  } finally {
    await client.destroy();
  }
}, 20_000);
