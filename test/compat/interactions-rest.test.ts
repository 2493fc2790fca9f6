/**
 * Command registration with real clients, REST only (no gateway): discord.js's REST
 * and builders, and discord.py's CommandTree.sync over its HTTP client.
 */
import { describe, expect, test, beforeAll, afterAll } from "bun:test";
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
