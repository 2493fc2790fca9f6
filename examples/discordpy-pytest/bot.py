"""HelperBot, a small discord.py 2 bot as a bot author writes one, and the bot the tests in
tests/ test: !ping, /echo (only you see it), /poll (buttons that count), /think (a
deferred answer), !help in a DM, and a reminder in #general every hour."""
import datetime

import discord
from discord import app_commands
from discord.ext import tasks


class Poll(discord.ui.View):
    def __init__(self, question: str):
        super().__init__(timeout=None)
        self.question = question
        self.votes = {"yes": 0, "no": 0}

    def text(self) -> str:
        return f"{self.question} (yes {self.votes['yes']}, no {self.votes['no']})"

    async def vote(self, interaction: discord.Interaction, choice: str) -> None:
        self.votes[choice] += 1
        await interaction.response.edit_message(content=self.text(), view=self)

    @discord.ui.button(label="Yes", style=discord.ButtonStyle.success, custom_id="yes")
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await self.vote(interaction, "yes")

    @discord.ui.button(label="No", style=discord.ButtonStyle.danger, custom_id="no")
    async def no(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await self.vote(interaction, "no")


class HelperBot(discord.Client):
    def __init__(self, **options):
        intents = discord.Intents(guilds=True, guild_messages=True, message_content=True, dm_messages=True)
        super().__init__(intents=intents, **options)
        self.tree = app_commands.CommandTree(self)
        self.synced = False

        @self.tree.command(description="Say it back, to you only")
        async def echo(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(text, ephemeral=True)

        @self.tree.command(description="Ask the channel")
        async def poll(interaction: discord.Interaction, question: str) -> None:
            view = Poll(question)
            await interaction.response.send_message(view.text(), view=view)

        @self.tree.command(description="Take a moment, then answer")
        async def think(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await interaction.edit_original_response(content="42")

    async def setup_hook(self) -> None:
        self.remind.start()

    async def on_ready(self) -> None:
        await self.tree.sync()
        self.synced = True

    @tasks.loop(hours=1)
    async def remind(self) -> None:
        for guild in self.guilds:
            general = discord.utils.get(guild.text_channels, name="general")
            if general:
                await general.send("Hourly reminder: drink some water")

    @remind.before_loop
    async def before_remind(self) -> None:
        await self.wait_until_ready()
        # On the hour, as people expect a reminder.
        await discord.utils.sleep_until(discord.utils.utcnow().replace(minute=0, second=0, microsecond=0) + datetime.timedelta(hours=1))

    async def on_message(self, message: discord.Message) -> None:
        if message.author == self.user:
            return
        if message.content == "!ping":
            await message.reply("pong")
        if message.content == "!help" and message.guild is None:
            await message.channel.send("Commands: !ping, /echo, /poll, /think")
