"""A discord.py 2.2 bot for the gateway compat test: it reports what the library saw
as one JSON object per stdout line. Usage: gateway-dpy.py BASE GATEWAY TOKEN MODE
(MODE: content = asks for MESSAGE_CONTENT, plain = does not)."""
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
intents.message_content = mode == "content"
client = discord.Client(intents=intents)


def emit(**kw):
    print(json.dumps(kw), flush=True)


@client.event
async def on_ready():
    emit(
        event="ready",
        user=str(client.user.id),
        bot=client.user.bot,
        guilds=[{"id": str(g.id), "name": g.name, "unavailable": g.unavailable, "channels": sorted(c.name for c in g.channels)} for g in client.guilds],
    )


@client.event
async def on_message(m):
    emit(event="message", id=str(m.id), content=m.content, author=str(m.author.id), guild=str(m.guild.id) if m.guild else None)


@client.event
async def on_resumed():
    emit(event="resumed")


async def main():
    try:
        async with client:
            await client.start(token)
    except discord.PrivilegedIntentsRequired:
        emit(event="privileged_intents_required")
    except Exception as e:  # reported so the test shows the library's own words
        emit(event="error", type=type(e).__name__, message=str(e))


asyncio.run(main())
