"""A discord.py 2.x bot for files, avatars and a server's emoji (issue 31), run against a
real Parley with the library's REST base, gateway and CDN base pointed at it:

- on_ready: the server's emoji as GUILD_CREATE gave them, and the bot's own avatar URL;
- "!emojis" from a person: the names of the server's emoji in the library's cache;
- "!roles" from a person: the bot reacts to that message with the server's first emoji
  (as discord.py's reaction_roles example does with a server emoji) and reports how it went;
- a reaction with that emoji from a person: the member gets ROLE (reaction roles);
- every person's message: its attachments as the library reads them, each downloaded
  with Attachment.read(), and the author's display_avatar downloaded too.

Usage: py_files_bot.py BASE GATEWAY TOKEN ROLE_ID CONTENT(yes|no)
"""
import asyncio
import hashlib
import json
import sys

import discord
import yarl

base, gateway, token, role_id, content = sys.argv[1:6]
discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
# The CDN base: where avatars, icons and emoji are (docs/compatibility.md).
discord.asset.Asset.BASE = base

intents = discord.Intents.none()
intents.guilds = True
intents.guild_messages = True
intents.guild_reactions = True
intents.members = True
intents.message_content = content == "yes"
client = discord.Client(intents=intents)


def emit(**kw):
    print(json.dumps(kw), flush=True)


def sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


@client.event
async def on_ready():
    g = client.guilds[0]
    emit(event="ready", emojis=[[str(e.id), e.name] for e in g.emojis], avatar=client.user.display_avatar.url)


@client.event
async def on_message(m: discord.Message):
    if m.author.bot:
        return
    if m.content == "!emojis":
        # What the library's cache holds now: kept right by GUILD_UPDATE (no GUILD_EMOJIS_UPDATE, spec 6.2).
        emit(scenario="emojis", names=sorted(e.name for e in m.guild.emojis))
        return
    if m.content == "!roles":
        try:
            await m.add_reaction(m.guild.emojis[0])
            emit(scenario="react", ok=True)
        except discord.HTTPException as e:
            emit(scenario="react", ok=False, status=e.status, code=e.code)
        return
    files = []
    for a in m.attachments:
        data = await a.read()
        files.append(
            {
                "filename": a.filename,
                "size": a.size,
                "content_type": a.content_type,
                "width": a.width,
                "height": a.height,
                "description": a.description,
                "sha256": sha(data),
            }
        )
    avatar = await m.author.display_avatar.read()
    emit(scenario="message", content=m.content, files=files, avatar_url=m.author.display_avatar.url, avatar_sha256=sha(avatar))


@client.event
async def on_raw_reaction_add(payload: discord.RawReactionActionEvent):
    if payload.user_id == client.user.id or payload.emoji.id is None:
        return
    guild = client.get_guild(payload.guild_id)
    role = guild.get_role(int(role_id))
    try:
        await payload.member.add_roles(role)
        emit(scenario="role", ok=True, emoji=str(payload.emoji), user=str(payload.user_id))
    except discord.HTTPException as e:
        emit(scenario="role", ok=False, status=e.status, code=e.code)


async def main():
    try:
        async with client:
            await client.start(token)
    except Exception as e:
        emit(event="error", type=type(e).__name__, text=str(e))


asyncio.run(main())
