/**
 * Interactions end to end with real clients: a bot logged in over the gateway answers
 * people the harness plays. Needs the gateway (live sessions and INTERACTION_CREATE).
 */
import { describe, expect, test, beforeAll, afterAll } from "bun:test";
import { call, invoke, makeParley, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/harness/seed";
import { SPEC_RATE_LIMITS } from "../../src/config";

let p: Parley;
let w: SeedAnswer;

async function waitFor<T>(what: string, fn: () => T | null | undefined | false | Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

const harnessState = async (id: string) => (await call(p, "GET", `/api/harness/v1/interactions/${id}`)).body;
const answered = (id: string, want = "responded") => waitFor(`interaction ${id} ${want}`, async () => {
  const s = await harnessState(id);
  return s.state === want ? s : null;
});

beforeAll(() => {
  p = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  p.listen();
  w = seedBasic(p);
});

afterAll(async () => {
  await p.stop();
});

describe("discord.py bot", () => {
  test("tree.sync, send_message(ephemeral), followup.send, edit_original_response, defer, and a View button with edit_message", async () => {
    const botUser = p.api.flakes.uuid(w.applications.EchoBot.bot_user_id)!;
    const script = `
import asyncio, sys, yarl, discord
from discord import app_commands
discord.http.Route.BASE = sys.argv[1] + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
client = discord.Client(intents=discord.Intents(guilds=True))
tree = app_commands.CommandTree(client)

class Panel(discord.ui.View):
    @discord.ui.button(label="Press", custom_id="press")
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button):
        await interaction.response.edit_message(content="pressed", view=None)

@tree.command(description="Ephemeral")
async def secret(interaction: discord.Interaction):
    await interaction.response.send_message("psst", ephemeral=True)

@tree.command(description="Many")
async def many(interaction: discord.Interaction):
    await interaction.response.send_message("one")
    await interaction.followup.send("two")
    await interaction.edit_original_response(content="one, edited")

@tree.command(description="Slow")
async def slow(interaction: discord.Interaction):
    await interaction.response.defer()
    await interaction.followup.send("finally")

@tree.command(description="Panel")
async def panel(interaction: discord.Interaction):
    await interaction.response.send_message("Press it", view=Panel(timeout=60))

@client.event
async def setup_hook():
    await tree.sync()

@client.event
async def on_ready():
    print("ready", flush=True)

client.run(sys.argv[3], log_handler=None)
`;
    const proc = Bun.spawn(["/usr/bin/python3", "-c", script, p.api.urls.base, p.api.urls.gateway, w.applications.EchoBot.token], { stdout: "pipe", stderr: "pipe" });
    try {
      await waitFor("a live discord.py session", () => p.gateway.hasLiveSession(botUser), 20_000);
      await waitFor("synced commands", () => p.core.commands.list(p.api.flakes.uuid(w.applications.EchoBot.id)!, null).length === 4);
      const run = async (name: string) => {
        const r = await invoke(p, "alice", { channel_id: w.guilds.Lab.channels.general, application_id: w.applications.EchoBot.id, name });
        expect(r.body.delivered).toBe(true);
        return r.body.id as string;
      };
      expect((await answered(await run("secret"))).response).toMatchObject({ content: "psst", flags: 64 });
      const manyId = await run("many");
      const many = await waitFor("many", async () => {
        const s = await harnessState(manyId);
        return s.followups.length === 1 && s.response?.content === "one, edited" ? s : null;
      });
      expect(many.followups[0].content).toBe("two");
      const slow = await answered(await run("slow"));
      expect(slow.response).toMatchObject({ content: "finally" });
      expect(slow.response.flags & 128).toBe(0);
      const panel = (await answered(await run("panel"))).response;
      const click = await invoke(p, "bob", { channel_id: w.guilds.Lab.channels.general, message_id: panel.id, custom_id: "press" });
      expect(click.body.delivered).toBe(true);
      expect((await answered(click.body.id)).response).toMatchObject({ id: panel.id, content: "pressed", components: [] });
    } finally {
      proc.kill();
      await proc.exited;
    }
  }, 60_000);
});
