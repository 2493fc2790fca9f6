"""A REST-only discord.py 2.2 client for the compatibility matrix's rate-limit and 501
cells: it logs in (no gateway, so no wait for READY), then does one step per line read
from stdin and reports it, with the warnings discord.py's HTTP layer logged meanwhile.

Usage: py_matrix_rest.py BASE TOKEN CHANNEL_ID OTHER_CHANNEL_ID
Steps: bucket | global | not-implemented | sticker
"""
import asyncio
import json
import logging
import sys

import discord

base, token, channel_id, other_channel_id = sys.argv[1:5]
discord.http.Route.BASE = base + "/api/v10"


def emit(**kw):
    print(json.dumps(kw), flush=True)


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


warnings = Collect()
logging.getLogger("discord.http").addHandler(warnings)
logging.getLogger("discord.http").setLevel(logging.WARNING)


async def step(client: discord.Client, name: str):
    warnings.lines.clear()
    if name == "bucket":
        # The test has just spent this bucket with the same token (another process).
        m = await client.get_partial_messageable(int(channel_id)).send("sent after a bucket 429")
        emit(scenario="bucket-429", sent=str(m.id), warnings=warnings.lines)
    elif name == "global":
        # The test has just spent the shared global window with another bot's token.
        m = await client.get_partial_messageable(int(other_channel_id)).send("sent after a global 429")
        emit(scenario="global-429", sent=str(m.id), warnings=warnings.lines)
    elif name == "not-implemented":
        try:
            await client.create_guild(name="a bot's own server")
            emit(scenario="not-implemented", error=None)
        except discord.HTTPException as e:
            emit(
                scenario="not-implemented",
                error=type(e).__name__,
                is_server_error=isinstance(e, discord.DiscordServerError),
                status=e.status,
                code=e.code,
                text=e.text,
            )
    elif name == "sticker":
        try:
            await client.fetch_sticker(123456789012345678)
            emit(scenario="not-implemented", step="sticker", error=None)
        except discord.HTTPException as e:
            emit(scenario="not-implemented", step="sticker", error=type(e).__name__, is_http_exception=True, status=e.status, code=e.code)


async def main():
    client = discord.Client(intents=discord.Intents.none())
    async with client:
        await client.login(token)
        emit(event="ready", user=str(client.user.id))
        loop = asyncio.get_running_loop()
        while True:
            line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
            if not line or line == "quit":
                break
            try:
                await step(client, line)
            except Exception as e:
                emit(scenario=line, error=type(e).__name__, text=str(e))


asyncio.run(main())
