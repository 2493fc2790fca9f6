"""A discord.py 2.x bot with the application commands a hobby bot has: a command taking a
file (a `discord.Attachment` parameter, read with Attachment.read()), and a Group with a
subgroup, dispatched by the library's CommandTree from the nested options. Used by
test/compat/command-files-discordpy.test.ts.

Usage: py_command_files_bot.py BASE GATEWAY TOKEN GUILD_ID
"""
import asyncio
import hashlib
import json
import sys

import discord
import discord.utils
import yarl
from discord import app_commands

base, gateway, token, guild_id = sys.argv[1:5]
discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
discord.utils.DISCORD_EPOCH = 1735689600000

intents = discord.Intents.none()
intents.guilds = True
client = discord.Client(intents=intents)
tree = app_commands.CommandTree(client)
guild = discord.Object(id=int(guild_id))


def emit(**kw):
    print(json.dumps(kw), flush=True)


@tree.command(name="scan", description="Scan a file", guild=guild)
@app_commands.describe(file="What to scan", note="A note")
async def scan(interaction: discord.Interaction, file: discord.Attachment, note: str = None):
    data = await file.read()
    emit(
        scenario="scan",
        id=str(file.id),
        filename=file.filename,
        size=file.size,
        content_type=file.content_type,
        width=file.width,
        height=file.height,
        ephemeral=file.ephemeral,
        sha256=hashlib.sha256(data).hexdigest(),
        note=note,
    )
    await interaction.response.send_message(f"scanned {file.filename}")


settings = app_commands.Group(name="settings", description="Settings", guild_ids=[int(guild_id)])
group = app_commands.Group(name="group", description="Group settings", parent=settings)


@group.command(name="view", description="View one")
async def view(interaction: discord.Interaction, n: int):
    emit(scenario="group-view", command=interaction.command.qualified_name, n=n)
    await interaction.response.send_message(f"setting {n}")


@settings.command(name="reset", description="Reset all")
async def reset(interaction: discord.Interaction):
    emit(scenario="reset", command=interaction.command.qualified_name)
    await interaction.response.send_message("reset")


tree.add_command(settings)


@client.event
async def on_ready():
    synced = await tree.sync(guild=guild)
    emit(event="ready", synced=sorted(c.name for c in synced))


@tree.error
async def on_error(interaction: discord.Interaction, error: Exception):
    emit(event="command-error", type=type(error).__name__, text=str(error))


async def main():
    try:
        async with client:
            await client.start(token)
    except Exception as e:
        emit(event="error", type=type(e).__name__, text=str(e))


asyncio.run(main())
