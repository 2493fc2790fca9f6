"""A discord.py bot with something for each of the helper's features to drive: a text
command, slash commands answered at once, after a deferral, late (when the test lets it)
or never, a button and a menu, a user context menu, a DM command, a command that fails,
and a task that ticks every minute."""
import asyncio

import discord
from discord import app_commands
from discord.ext import tasks

WORLD = {
    "users": [{"name": "alice"}, {"name": "bob"}],
    "guilds": [{"name": "Lab", "owner": "alice", "members": ["bob"], "channels": [{"name": "general"}, {"name": "random"}]}],
    "applications": [{"name": "TesterBot", "owner": "alice", "install": ["Lab"], "approved_privileged": ["MESSAGE_CONTENT"],
                      "intents": ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "DIRECT_MESSAGES"]}],
}


class Menu(discord.ui.View):
    @discord.ui.button(label="More", custom_id="more")
    async def more(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="more, as asked", view=None)

    @discord.ui.select(custom_id="colour", options=[discord.SelectOption(label="Red", value="red"), discord.SelectOption(label="Blue", value="blue")])
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"you chose {', '.join(select.values)}", ephemeral=True)


def create_bot() -> discord.Client:
    intents = discord.Intents(guilds=True, guild_messages=True, message_content=True, dm_messages=True)
    # Parley sends every GUILD_CREATE right after READY: no need to wait 2 s for more.
    client = discord.Client(intents=intents, guild_ready_timeout=0.05)
    tree = app_commands.CommandTree(client)
    client.ticks = []  # type: ignore[attr-defined]
    client.late = asyncio.Event()  # type: ignore[attr-defined]
    client.synced = asyncio.Event()  # type: ignore[attr-defined]

    @tasks.loop(seconds=60)
    async def tick() -> None:
        client.ticks.append(discord.utils.utcnow())  # type: ignore[attr-defined]

    @tree.command(description="Pong")
    async def ping(interaction: discord.Interaction, secret: bool = False) -> None:
        await interaction.response.send_message("pong", ephemeral=secret)

    @tree.command(description="Thinks first")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="thought about it")

    @tree.command(description="Answers when the test lets it")
    async def late(interaction: discord.Interaction) -> None:
        await client.late.wait()  # type: ignore[attr-defined]
        await interaction.response.send_message("sorry I am late")

    @tree.command(description="Does not answer")
    async def never(interaction: discord.Interaction) -> None:
        pass

    @tree.command(description="A button and a menu")
    async def menu(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick", view=Menu())

    @tree.context_menu(name="Profile")
    async def profile(interaction: discord.Interaction, user: discord.Member) -> None:
        await interaction.response.send_message(f"profile of {user.name}")

    @client.event
    async def on_ready() -> None:
        await tree.sync()
        client.synced.set()  # type: ignore[attr-defined]
        if not tick.is_running():
            tick.start()

    @client.event
    async def on_message(m: discord.Message) -> None:
        if m.author == client.user:
            return
        if m.content == "!ping":
            await m.channel.send("pong")
        if m.content == "!help" and m.guild is None:
            await m.channel.send(f"help for {m.author.name}")
        if m.content == "!boom":
            raise RuntimeError("boom")
        if m.content == "!guess":
            # A prompt, then another request, and only then the wait for the answer (as many bots do).
            prompt = await m.channel.send("Guess a number")
            await prompt.add_reaction("🎲")
            try:
                answer = await client.wait_for("message", check=lambda a: a.author == m.author and a.channel == m.channel, timeout=5)
            except asyncio.TimeoutError:
                await m.channel.send("too slow")
                return
            await m.channel.send(f"you said {answer.content}")

    return client
