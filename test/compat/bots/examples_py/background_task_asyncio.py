"""discord.py's examples/background_task_asyncio.py at 1add8a0b40577186431cdb5f63f97affadab285b, run against Parley.

Changed from upstream, and nothing else:
- one import (parley_target) that points discord.py at Parley and reads the command line;
- the channel id from the command line instead of 1234567
- the token from the command line instead of 'token'

Usage: background_task_asyncio.py BASE GATEWAY TOKEN CHANNEL_ID
"""
from parley_target import ARGS, TOKEN  # Parley's addresses, the token, the constants: see parley_target.py
import discord
import asyncio


class MyClient(discord.Client):
    # Suppress error on the User attribute being None since it fills up later
    user: discord.ClientUser

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    async def setup_hook(self) -> None:
        # create the background task and run it in the background
        self.bg_task = self.loop.create_task(self.my_background_task())

    async def on_ready(self):
        print(f'Logged in as {self.user} (ID: {self.user.id})')
        print('------')

    async def my_background_task(self):
        await self.wait_until_ready()
        counter = 0
        channel = self.get_channel(int(ARGS[0]))  # channel ID goes here

        # Tell the type checker that this is a messageable channel
        assert isinstance(channel, discord.abc.Messageable)

        while not self.is_closed():
            counter += 1
            await channel.send(str(counter))
            await asyncio.sleep(60)  # task runs every 60 seconds


client = MyClient(intents=discord.Intents.default())
client.run(TOKEN)
