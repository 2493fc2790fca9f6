"""What a discord.py bot's developer meets first with parley_testing (python-devloop.test.ts):
a slash command run right after start_bot, before the bot's tree.sync() registered it,
waits for the command; a name never registered fails saying so; strict mode says why an
interaction run with no bot connected went unanswered. Prints one JSON object.

Usage: PYTHONPATH=clients/python py_devloop.py
"""
import asyncio
import json

import discord
from discord import app_commands

from parley_testing import HarnessError, Parley

WORLD = {"users": [{"name": "alice"}], "guilds": [{"name": "Lab", "owner": "alice"}],
         "applications": [{"name": "SlowSync", "owner": "alice", "install": ["Lab"], "intents": ["GUILDS"]}]}


class SlowSync(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="ping")
        async def ping(interaction: discord.Interaction):
            await interaction.response.send_message("pong")

    async def on_ready(self):
        await asyncio.sleep(0.3)  # loads its settings first, as bots do
        await self.tree.sync()


out = {}
with Parley(world=WORLD) as parley:
    parley.start_bot(SlowSync(), "SlowSync")
    try:
        r = parley.person("alice").slash("general", "ping")
        out["raced"] = r.response["content"] if r.response else r.state
    except HarnessError as e:
        out["raced"] = str(e)
    try:
        parley.person("alice").slash("general", "pnig", timeout=0.2)
        out["misspelt"] = "ran"
    except HarnessError as e:
        out["misspelt"] = str(e)
    parley.stop_bots()
    parley.mark()
    parley.person("alice").slash("general", "ping")
    out["undelivered"] = parley.strict_violations()
    try:
        parley.person("alice").slash("general", "pnig", timeout=0.2)
    except HarnessError as e:
        out["misspelt_no_bot"] = str(e)
    try:
        parley.start_bot(SlowSync(), "SlowSnyc")
    except KeyError as e:
        out["unknown_app"] = e.args[0]
print(json.dumps(out), flush=True)
