"""discord.py's reaction_roles example (examples/reaction_roles.py), run against Parley.

The example keeps a map from PartialEmoji to role id (two Unicode emoji and one server
emoji keyed by its id), gives the role in on_raw_reaction_add through payload.member and
takes it back in on_raw_reaction_remove through guild.get_member (the remove payload has
no member, so the bot needs the members intent and its member cache). The structure and
the calls are the example's; the ids come from the command line instead of constants,
and each handler prints what it did as one JSON line so the test can follow.

Usage: py_reaction_roles.py BASE GATEWAY TOKEN MESSAGE_ID RED_ROLE YELLOW_ROLE GREEN_ROLE GREEN_EMOJI_ID
"""
import asyncio
import json
import sys

import discord
import yarl

base, gateway, token, message_id, red, yellow, green, green_emoji = sys.argv[1:9]
discord.http.Route.BASE = base + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def emit(**kw):
    print(json.dumps(kw), flush=True)


class MyClient(discord.Client):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.role_message_id = int(message_id)
        self.emoji_to_role = {
            discord.PartialEmoji(name="🔴"): int(red),
            discord.PartialEmoji(name="🟡"): int(yellow),
            discord.PartialEmoji(name="green", id=int(green_emoji)): int(green),
        }

    async def on_ready(self):
        g = self.guilds[0]
        emit(event="ready", members=len(g.members))

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent):
        if payload.message_id != self.role_message_id:
            return emit(scenario="add", outcome="other message")
        guild = self.get_guild(payload.guild_id)
        if guild is None:
            return emit(scenario="add", outcome="no guild")
        try:
            role_id = self.emoji_to_role[payload.emoji]
        except KeyError:
            return emit(scenario="add", outcome="other emoji", emoji=str(payload.emoji))
        role = guild.get_role(role_id)
        if role is None:
            return emit(scenario="add", outcome="no role")
        try:
            await payload.member.add_roles(role)
            emit(scenario="add", outcome="given", role=str(role.id), user=str(payload.user_id))
        except discord.HTTPException as e:
            emit(scenario="add", outcome="refused", status=e.status, code=e.code)

    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent):
        if payload.message_id != self.role_message_id:
            return emit(scenario="remove", outcome="other message")
        guild = self.get_guild(payload.guild_id)
        if guild is None:
            return emit(scenario="remove", outcome="no guild")
        try:
            role_id = self.emoji_to_role[payload.emoji]
        except KeyError:
            return emit(scenario="remove", outcome="other emoji", emoji=str(payload.emoji))
        role = guild.get_role(role_id)
        if role is None:
            return emit(scenario="remove", outcome="no role")
        member = guild.get_member(payload.user_id)
        if member is None:
            return emit(scenario="remove", outcome="no member")
        try:
            await member.remove_roles(role)
            emit(scenario="remove", outcome="taken", role=str(role.id), user=str(payload.user_id))
        except discord.HTTPException as e:
            emit(scenario="remove", outcome="refused", status=e.status, code=e.code)


async def main():
    intents = discord.Intents.default()
    intents.members = True
    client = MyClient(intents=intents)
    try:
        async with client:
            await client.start(token)
    except Exception as e:
        emit(event="error", type=type(e).__name__, text=str(e))


asyncio.run(main())
