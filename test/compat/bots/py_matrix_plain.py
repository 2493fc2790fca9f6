"""A small discord.py 2.2 bot without the MESSAGE_CONTENT intent, for the compatibility
matrix. MODE plain: asks only for what it was granted and reports every person's
message it sees (the test stops it). MODE greedy: also asks for MESSAGE_CONTENT, which nobody
approved, and reports how discord.py refuses to run.

Usage: py_matrix_plain.py BASE GATEWAY TOKEN MODE
"""
import asyncio
import json
import sys

import discord
import yarl

base, gateway, token, mode = sys.argv[1:5]
discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

intents = discord.Intents.none()
intents.guilds = True
intents.guild_messages = True
intents.message_content = mode == "greedy"
client = discord.Client(intents=intents)


def emit(**kw):
    print(json.dumps(kw), flush=True)


@client.event
async def on_ready():
    emit(event="ready", user=str(client.user.id), guilds=[str(g.id) for g in client.guilds])


@client.event
async def on_message(m: discord.Message):
    if m.author.id == client.user.id:
        return
    emit(
        scenario="message-no-content",
        id=str(m.id),
        content=m.content,
        embeds=len(m.embeds),
        components=len(m.components),
        author=str(m.author.id),
        channel=str(m.channel.id),
        created=m.created_at.isoformat(),
    )


async def main():
    try:
        async with client:
            await client.start(token)
    except discord.PrivilegedIntentsRequired as e:
        emit(scenario="disallowed-intents", error=type(e).__name__, text=str(e))
    except Exception as e:
        emit(event="error", type=type(e).__name__, text=str(e))


asyncio.run(main())
