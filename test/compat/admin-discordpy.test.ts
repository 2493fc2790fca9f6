import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** A discord.py moderation bot over HTTP only (no gateway), plus a discord.Webhook with an aiohttp session. */
const BOT = `
import asyncio, json, sys
import aiohttp, discord
import discord.webhook.async_ as wh_async

base, token, guild_id, carol, erin, role_id, channel_id = sys.argv[1:8]
discord.http.Route.BASE = base + "/api/v10"
wh_async.Route.BASE = base + "/api/v10"

async def main():
    out = {}
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    try:
        guild = await client.fetch_guild(int(guild_id))
        out["guild"] = guild.name
        member = await guild.fetch_member(int(carol))
        await member.add_roles(discord.Object(int(role_id)), reason="py role")
        await guild.kick(discord.Object(int(erin)), reason="py kick")
        await guild.ban(discord.Object(int(carol)), reason="py ban", delete_message_seconds=60)
        ban = await guild.fetch_ban(discord.Object(int(carol)))
        out["ban_reason"] = ban.reason
        out["audit"] = [(e.action.name, e.reason, e.target.id if e.target else None) async for e in guild.audit_logs(limit=10)]
        data = await client.http.create_webhook(int(channel_id), name="PyHook", reason="py hook")
        async with aiohttp.ClientSession() as session:
            hook = discord.Webhook.partial(int(data["id"]), data["token"], session=session)
            msg = await hook.send("from discord.py", username="PyAlarm", wait=True)
            out["webhook_message"] = msg.content
            out["webhook_id"] = str(msg.webhook_id)
            await hook.send("no wait")
    finally:
        await client.close()
    print(json.dumps(out))

asyncio.run(main())
`;

test("discord.py moderation bot: role add, kick, ban, fetch ban, audit log, webhook send", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-py-"));
  const script = join(dir, "bot.py");
  writeFileSync(script, BOT);
  const L = w.guilds.Lab;
  const proc = Bun.spawn(
    ["/usr/bin/python3", script, p.api.urls.base, w.applications.ModBot.token, L.id, w.users.carol.id, w.users.erin.id, L.roles.Mod, L.channels.general],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) console.error(stderr);
  expect(code).toBe(0);
  const out = JSON.parse(stdout.trim().split("\n").pop()!);
  expect(out.guild).toBe("Lab");
  expect(out.ban_reason).toBe("py ban");
  expect(out.audit.map((a: any[]) => a[0])).toEqual(["ban", "kick", "member_role_update"]);
  expect(out.audit[1]).toEqual(["kick", "py kick", Number(w.users.erin.id)]);
  expect(out.webhook_message).toBe("from discord.py");
  // The people's view.
  const u = (f: string) => p.api.flakes.uuid(f)!;
  expect(p.core.guilds.isMember(u(L.id), u(w.users.erin.id))).toBe(false);
  expect(p.core.moderation.isBanned(u(L.id), u(w.users.carol.id))).toBe(true);
  const stored = p.core.messages.list(u(L.channels.general), { limit: 5 }, null);
  expect(stored.map((m) => m.content)).toEqual(["no wait", "from discord.py"]);
  expect(p.api.flakes.of(stored[0].webhook_id!)).toBe(out.webhook_id);
}, 30_000);
