"""A discord.py 2.x bot laid out the way most hobby bots are: a commands.Bot subclass whose
setup_hook loads the cogs in cogs/, registers the persistent view, and syncs the
application commands to the one server it serves. Pointed at Parley by parley_target
(test/compat/bots/examples_py), as the upstream examples are.

Usage: bot.py BASE GATEWAY TOKEN GUILD_ID [--all-intents]
"""
import discord
from discord import app_commands
from discord.ext import commands

from parley_target import ARGS, TOKEN, emit

GUILD = discord.Object(int(ARGS[0]))
EXTENSIONS = ("cogs.moderation", "cogs.utility", "cogs.slash", "cogs.panels", "cogs.events", "cogs.extras", "cogs.churn")


class TypicalTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError):
        if isinstance(error, app_commands.MissingPermissions):
            text = f"You need {', '.join(error.missing_permissions)} to use this."
        elif isinstance(error, app_commands.CommandOnCooldown):
            text = f"Cooldown: {error.retry_after:.0f}s left."
        elif isinstance(error, app_commands.CheckFailure):
            text = "You can't use this command."
        else:
            emit(event="tree_error", error=repr(error))
            text = "Something went wrong."
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


class TypicalBot(commands.Bot):
    def __init__(self):
        if "--all-intents" in ARGS:
            # What many tutorials do: ask for everything, presences included.
            intents = discord.Intents.all()
        else:
            intents = discord.Intents.default()
            intents.members = True
            intents.message_content = True
        super().__init__(command_prefix="!", intents=intents, description="A typical bot.", tree_cls=TypicalTree)

    async def setup_hook(self):
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        from cogs.panels import RolePanel

        self.add_view(RolePanel())
        self.tree.copy_global_to(guild=GUILD)
        synced = await self.tree.sync(guild=GUILD)
        emit(event="synced", commands=sorted(f"{c.type.name}:{c.name}" for c in synced))

    async def on_ready(self):
        emit(event="on_ready", user=str(self.user), guilds=[g.name for g in self.guilds])

    async def on_resumed(self):
        emit(event="resumed")

    async def on_command_error(self, ctx: commands.Context, error: commands.CommandError):
        if isinstance(error, commands.CommandNotFound):
            return
        if isinstance(error, commands.MissingPermissions):
            await ctx.reply(f"You need {', '.join(error.missing_permissions)} for that.")
        elif isinstance(error, commands.CommandOnCooldown):
            await ctx.send(f"Slow down! Try again in {error.retry_after:.0f}s.", delete_after=1.5)
        elif isinstance(error, commands.MissingRequiredArgument):
            await ctx.reply(f"Missing argument: {error.param.name}. Usage: !{ctx.command.qualified_name} {ctx.command.signature}")
        elif isinstance(error, commands.BadArgument):
            await ctx.reply(f"Bad argument: {error}")
        elif isinstance(error, commands.NotOwner):
            await ctx.reply("Only my owner can do that.")
        elif isinstance(error, commands.NoPrivateMessage):
            await ctx.send("That only works in a server.")
        else:
            emit(event="command_error", command=ctx.command and ctx.command.name, error=repr(error))
            await ctx.send(f"Error: {error}")


bot = TypicalBot()

if __name__ == "__main__":
    bot.run(TOKEN)
