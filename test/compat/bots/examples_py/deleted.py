"""discord.py's examples/deleted.py at 1add8a0b40577186431cdb5f63f97affadab285b, run against Parley.

Changed from upstream, and nothing else:
- one import (parley_target) that points discord.py at Parley and reads the command line;
- the token from the command line instead of 'token'

Usage: deleted.py BASE GATEWAY TOKEN
"""
# This example requires the 'message_content' privileged intent to function.

from parley_target import ARGS, TOKEN  # Parley's addresses, the token, the constants: see parley_target.py
import discord


class MyClient(discord.Client):
    # Suppress error on the User attribute being None since it fills up later
    user: discord.ClientUser

    async def on_ready(self):
        print(f'Logged in as {self.user} (ID: {self.user.id})')
        print('------')

    async def on_message(self, message):
        if message.content.startswith('!deleteme'):
            msg = await message.channel.send('I will delete myself now...')
            await msg.delete()

            # this also works
            await message.channel.send('Goodbye in 3 seconds...', delete_after=3.0)

    async def on_message_delete(self, message):
        msg = f'{message.author} has deleted the message: {message.content}'
        await message.channel.send(msg)


intents = discord.Intents.default()
intents.message_content = True

client = MyClient(intents=intents)
client.run(TOKEN)
