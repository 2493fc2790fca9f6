/**
 * Command registration with real clients, REST only (no gateway): discord.js's REST
 * and builders, and discord.py's CommandTree.sync over its HTTP client.
 */
import { describe, expect, test, beforeAll, afterAll } from "bun:test";
import { REST, Routes, SlashCommandBuilder, ChannelType } from "discord.js";
import { makeParley, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/harness/seed";
import { SPEC_RATE_LIMITS } from "../../src/config";

let p: Parley;
let w: SeedAnswer;

beforeAll(() => {
  p = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  p.listen();
  w = seedBasic(p);
});

afterAll(async () => {
  await p.stop();
});

describe("discord.js REST", () => {
  test("registers global and guild commands built with SlashCommandBuilder, then reads them back", async () => {
    const rest = new REST({ api: `${p.api.urls.base}/api`, version: "10" }).setToken(w.applications.EchoBot.token);
    const app = w.applications.EchoBot.id;
    const echo = new SlashCommandBuilder()
      .setName("echo")
      .setDescription("Echo back")
      .addStringOption((o) => o.setName("text").setDescription("What").setRequired(true).setMaxLength(100))
      .addIntegerOption((o) => o.setName("times").setDescription("How often").setMinValue(1).setMaxValue(5))
      .addChannelOption((o) => o.setName("where").setDescription("Where").addChannelTypes(ChannelType.GuildText))
      .addStringOption((o) => o.setName("mood").setDescription("Mood").addChoices({ name: "Happy", value: "happy" }));
    const tools = new SlashCommandBuilder()
      .setName("tools")
      .setDescription("Tools")
      .addSubcommand((s) => s.setName("ping").setDescription("Ping"))
      .addSubcommandGroup((g) => g.setName("user").setDescription("User").addSubcommand((s) => s.setName("info").setDescription("Info").addUserOption((o) => o.setName("who").setDescription("Who"))));
    const put = (await rest.put(Routes.applicationCommands(app), { body: [echo.toJSON(), tools.toJSON()] })) as any[];
    expect(put.map((c) => c.name)).toEqual(["echo", "tools"]);
    expect(put[0].options[0]).toMatchObject({ type: 3, name: "text", required: true, max_length: 100 });
    expect(put[1].options[1].options[0].options[0]).toMatchObject({ type: 6, name: "who" });

    const guild = (await rest.post(Routes.applicationGuildCommands(app, w.guilds.Lab.id), { body: { name: "local", description: "Guild only" } })) as any;
    expect(guild.guild_id).toBe(w.guilds.Lab.id);
    const listed = (await rest.get(Routes.applicationCommands(app))) as any[];
    expect(listed.map((c) => c.id).sort()).toEqual(put.map((c) => c.id).sort());
    const patched = (await rest.patch(Routes.applicationCommand(app, put[0].id), { body: { description: "Echo!" } })) as any;
    expect(patched.description).toBe("Echo!");
    await rest.delete(Routes.applicationGuildCommand(app, w.guilds.Lab.id, guild.id));
    expect(await rest.get(Routes.applicationGuildCommands(app, w.guilds.Lab.id))).toEqual([]);

    let err: any;
    try {
      await rest.post(Routes.applicationCommands(app), { body: { name: "Bad Name", description: "x" } });
    } catch (e) {
      err = e;
    }
    expect(err?.status).toBe(400);
    expect(err?.code).toBe(50035);
  });
});

describe("discord.py HTTP", () => {
  test("CommandTree.sync registers global and guild commands", async () => {
    const script = `
import asyncio, json, sys, discord
from discord import app_commands
discord.http.Route.BASE = sys.argv[1] + "/api/v10"
client = discord.Client(intents=discord.Intents.none())
tree = app_commands.CommandTree(client)
guild = discord.Object(id=int(sys.argv[3]))

@tree.command(description="Say hello")
@app_commands.describe(name="Whom to greet", times="How often")
async def hello(interaction: discord.Interaction, name: str, times: app_commands.Range[int, 1, 3] = 1):
    pass

@tree.command(description="Guild only", guild=guild)
async def local(interaction: discord.Interaction, who: discord.Member):
    pass

group = app_commands.Group(name="tag", description="Tags")
@group.command(description="Get a tag")
async def get(interaction: discord.Interaction, key: str):
    pass
tree.add_command(group)

async def main():
    await client.login(sys.argv[2])
    synced = await tree.sync()
    local_synced = await tree.sync(guild=guild)
    fetched = await tree.fetch_commands()
    print(json.dumps({
        "global": sorted(c.name for c in synced),
        "guild": [c.name for c in local_synced],
        "fetched": sorted(c.name for c in fetched),
        "hello_options": [[o.name, o.required, getattr(o, "min_value", None), getattr(o, "max_value", None)] for o in next(c for c in synced if c.name == "hello").options],
        "tag_sub": [o.name for o in next(c for c in synced if c.name == "tag").options],
    }))
    await client.close()

asyncio.run(main())
`;
    const proc = Bun.spawn(["/usr/bin/python3", "-c", script, p.api.urls.base, w.applications.EchoBot.token, w.guilds.Lab.id], { stdout: "pipe", stderr: "pipe" });
    const [out, errText, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(errText);
    const r = JSON.parse(out.trim().split("\n").pop()!);
    expect(r.global).toEqual(["hello", "tag"]);
    expect(r.guild).toEqual(["local"]);
    expect(r.fetched).toEqual(["hello", "tag"]);
    expect(r.hello_options).toEqual([["name", true, null, null], ["times", false, 1, 3]]);
    expect(r.tag_sub).toEqual(["get"]);
  }, 30_000);
});
