"""A discord.py 2.x bot beside people running their server (issue 29), run against a real
Parley with the library's REST base and gateway pointed at it:

- what people do reaches it as the reference's events, each reported as the library
  parsed it: on_member_update (nickname, roles), on_guild_channel_update (name, topic,
  slow mode, NSFW), on_member_remove (a kick or a ban), on_guild_update;
- "!edit" from a person: the bot edits the server with guild.edit (name, description,
  system channel, default notifications) and reports what the library answered;
- "!badedit": guild.edit with a one-letter name, reported as the HTTPException it raises.

Usage: py_community_bot.py BASE GATEWAY TOKEN
"""
import asyncio
import json
import sys

import discord
import yarl

base, gateway, token = sys.argv[1:4]
discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

intents = discord.Intents.none()
intents.guilds = True
intents.guild_messages = True
intents.members = True
intents.message_content = True
client = discord.Client(intents=intents)


def emit(**kw):
    print(json.dumps(kw), flush=True)


@client.event
async def on_ready():
    emit(event="ready", guild=str(client.guilds[0].id))


@client.event
async def on_member_update(before: discord.Member, after: discord.Member):
    emit(event="member_update", user=str(after.id), nick=after.nick, roles=sorted(r.name for r in after.roles))


@client.event
async def on_guild_channel_update(before, after):
    emit(
        event="channel_update",
        id=str(after.id),
        before=before.name,
        name=after.name,
        topic=after.topic,
        slowmode=after.slowmode_delay,
        nsfw=after.is_nsfw(),
    )


@client.event
async def on_member_remove(member: discord.Member):
    emit(event="member_remove", user=str(member.id))


@client.event
async def on_guild_update(before: discord.Guild, after: discord.Guild):
    sys_channel = after.system_channel
    emit(
        event="guild_update",
        name=after.name,
        description=after.description,
        system_channel=str(sys_channel.id) if sys_channel else None,
        notifications=after.default_notifications.value,
    )


@client.event
async def on_message(m: discord.Message):
    if m.author.bot:
        return
    if m.content == "!edit":
        g = await m.guild.edit(
            name="Lab Renamed",
            description="Edited by discord.py",
            system_channel=m.channel,
            default_notifications=discord.NotificationLevel.only_mentions,
            reason="tidy",
        )
        emit(
            scenario="edit",
            name=g.name,
            description=g.description,
            notifications=g.default_notifications.value,
        )
    elif m.content == "!badedit":
        try:
            await m.guild.edit(name="x")
            emit(scenario="badedit", ok=True)
        except discord.HTTPException as e:
            emit(scenario="badedit", ok=False, status=e.status, code=e.code)


async def main():
    try:
        async with client:
            await client.start(token)
    except Exception as e:
        emit(event="error", type=type(e).__name__, text=str(e))


asyncio.run(main())
