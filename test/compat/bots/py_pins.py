"""A REST-only discord.py 2.2 client for the pins cell: it fetches one message, pins it
with a reason, lists the channel's pins, fetches history around the message, unpins it
and lists again, printing one JSON line with what it saw (discord.py pins through the
deprecated /channels/{id}/pins routes).

Usage: py_pins.py BASE TOKEN CHANNEL_ID MESSAGE_ID
"""
import asyncio
import json
import sys

import discord

base, token, channel_id, message_id = sys.argv[1:5]
discord.http.Route.BASE = base + "/api/v10"


async def main():
    client = discord.Client(intents=discord.Intents.none())
    async with client:
        await client.login(token)
        channel = client.get_partial_messageable(int(channel_id))
        message = await channel.fetch_message(int(message_id))
        await message.pin(reason="worth keeping")
        pinned = [str(m.id) for m in await channel.pins()]
        flags = [m.pinned for m in await channel.pins()]
        around = [str(m.id) async for m in channel.history(limit=3, around=discord.Object(int(message_id)))]
        await message.unpin()
        after = [str(m.id) for m in await channel.pins()]
        print(json.dumps({"pinned": pinned, "flags": flags, "around": around, "after": after}), flush=True)


asyncio.run(main())
