"""A plain discord.py 2.2 bot for the matrix's fault rows: it answers "!echo <text>" with
<text> and reports what happened, one JSON object per stdout line ({"event": "ready"},
{"event": "error", ...} when a send fails). heartbeat_timeout (a documented Client
option; 60 s by default) is short so that a zombied connection is noticed soon, but
longer than the 5 s discord.py sleeps before re-identifying (before_identify_hook): it
reads nothing from the socket meanwhile, so a shorter one would end that connection too.

Usage: py_fault_bot.py BASE GATEWAY TOKEN
"""
import asyncio
import json
import sys

import discord
import yarl

base, gateway, token = sys.argv[1:4]
discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

intents = discord.Intents(guilds=True, members=True, guild_messages=True, message_content=True)
client = discord.Client(intents=intents, chunk_guilds_at_startup=False, heartbeat_timeout=7.0, guild_ready_timeout=0.2)


def emit(**kw):
    print(json.dumps(kw, default=str), flush=True)


@client.event
async def on_ready():
    emit(event="ready", session=client.ws.session_id)


@client.event
async def on_message(m: discord.Message):
    if m.author.id == client.user.id or not m.content.startswith("!echo "):
        return
    try:
        await m.channel.send(m.content[6:])
    except discord.HTTPException as e:
        emit(event="error", status=e.status, code=e.code)


async def main():
    async with client:
        await client.start(token)


asyncio.run(main())
