"""Slash commands: hybrid commands and a hybrid group, app commands with describe,
choices, Range and a Transformer, a permission-checked one, a Group subclass, deferred
answers, and a message context menu."""
import discord
from discord import app_commands
from discord.ext import commands

from parley_target import emit


class Doubled(app_commands.Transformer):
    async def transform(self, interaction: discord.Interaction, value: str) -> int:
        return int(value) * 2


class Settings(app_commands.Group, name="settings", description="Server settings"):
    def __init__(self):
        super().__init__()
        self.values = {"greeting": "Hello"}

    @app_commands.command(description="Show a setting")
    @app_commands.describe(key="Which setting")
    async def show(self, interaction: discord.Interaction, key: str):
        await interaction.response.send_message(f"{key} = {self.values.get(key, 'unset')}", ephemeral=True)

    @app_commands.command(name="set", description="Change a setting")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def set_(self, interaction: discord.Interaction, key: str, value: str):
        self.values[key] = value
        await interaction.response.send_message(f"{key} is now {value}")


class Slash(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.tags = {"hello": "Hi there!"}

    @commands.hybrid_command(description="Say something back")
    async def echo(self, ctx: commands.Context, *, text: str):
        await ctx.send(f"{ctx.author.display_name}: {text} ({'slash' if ctx.interaction else 'prefix'})")

    @commands.hybrid_group(fallback="get", description="Tags")
    async def tag(self, ctx: commands.Context, name: str):
        await ctx.send(self.tags.get(name, f"No tag {name}."))

    @tag.command(name="set", description="Set a tag")
    async def tag_set(self, ctx: commands.Context, name: str, *, content: str):
        self.tags[name] = content
        await ctx.send(f"Tag {name} saved.")

    @app_commands.command(description="Roll a die")
    @app_commands.describe(sides="How many sides")
    async def roll(self, interaction: discord.Interaction, sides: app_commands.Range[int, 2, 100]):
        await interaction.response.send_message(f"You rolled a d{sides}: {min(sides, 4)}")

    @app_commands.command(description="Pick a colour")
    @app_commands.choices(colour=[app_commands.Choice(name="Red", value="r"), app_commands.Choice(name="Blue", value="b")])
    async def pick(self, interaction: discord.Interaction, colour: app_commands.Choice[str]):
        await interaction.response.send_message(f"You picked {colour.name} ({colour.value})", ephemeral=True)

    @app_commands.command(description="Double a number")
    async def double(self, interaction: discord.Interaction, number: app_commands.Transform[int, Doubled]):
        await interaction.response.send_message(f"Doubled: {number}")

    @app_commands.command(description="Wipe the server's settings")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def wipe(self, interaction: discord.Interaction):
        await interaction.response.send_message("Wiped.")

    @app_commands.command(description="About a member")
    @app_commands.guild_only()
    async def userinfo(self, interaction: discord.Interaction, member: discord.Member):
        perms = member.guild_permissions
        await interaction.response.send_message(
            f"{member.name}: roles={[r.name for r in member.roles[1:]]} kick={perms.kick_members} "
            f"joined={member.joined_at is not None} you_can_ban={interaction.permissions.ban_members} "
            f"i_can_manage_roles={interaction.app_permissions.manage_roles}"
        )

    @app_commands.command(description="About a role")
    async def roleinfo(self, interaction: discord.Interaction, role: discord.Role):
        members = [m.name for m in role.members]
        await interaction.response.send_message(f"{role.name}: {role.colour} members={members} kick={role.permissions.kick_members}")

    @app_commands.command(description="A vote that closes itself")
    async def vote(self, interaction: discord.Interaction, seconds: app_commands.Range[float, 0.5, 600.0] = 60.0):
        await interaction.response.send_message("Vote now!", view=Vote(interaction, seconds))

    @app_commands.command(description="Answer privately")
    async def whisper(self, interaction: discord.Interaction):
        await interaction.response.defer(ephemeral=True)
        first = await interaction.followup.send("Only you see this.", wait=True)
        later = await interaction.followup.send("And this?", ephemeral=True, wait=True)
        emit(event="whisper", first=first.flags.ephemeral, later=later.flags.ephemeral)
        await interaction.channel.send(f"{interaction.user.name} whispered.")

    @commands.hybrid_command(description="Slow hybrid")
    async def slowpoke(self, ctx: commands.Context, member: discord.Member = commands.Author):
        await ctx.defer()
        await ctx.send(f"{member.display_name} waited ({'slash' if ctx.interaction else 'prefix'})")

    @app_commands.command(description="Once a minute")
    @app_commands.checks.cooldown(1, 60)
    async def daily(self, interaction: discord.Interaction):
        await interaction.response.send_message("Here is your daily.")

    @app_commands.command(description="Buttons with emoji and a select with a default")
    async def fancy(self, interaction: discord.Interaction):
        view = discord.ui.View(timeout=30)
        view.add_item(discord.ui.Button(label="Party", emoji="🎉", custom_id="fancy:party"))
        view.add_item(discord.ui.Select(custom_id="fancy:pick", options=[
            discord.SelectOption(label="A", value="a", default=True, emoji="🅰️"), discord.SelectOption(label="B", value="b")]))
        await interaction.response.send_message("Fancy", view=view)
        message = await interaction.original_response()
        emit(event="fancy", components=[[c.to_dict() for c in row.children] for row in message.components])
        await message.edit(view=None)
        again = await interaction.channel.fetch_message(message.id)
        emit(event="fancy_cleared", components=len(again.components))

    @app_commands.command(description="Follow-ups edited and deleted")
    async def tidyup(self, interaction: discord.Interaction):
        await interaction.response.send_message("first")
        second = await interaction.followup.send("second", wait=True)
        third = await interaction.followup.send("third", wait=True)
        second = await second.edit(content="second, edited")
        await third.delete()
        fetched = await interaction.followup.fetch_message(second.id)
        view = discord.ui.View(timeout=30)
        button = discord.ui.Button(label="Delete me", custom_id="tidyup:delete")

        async def gone(click: discord.Interaction):
            await click.response.defer()
            await click.message.delete()
            await click.followup.send("Deleted it.", ephemeral=True)
            emit(event="tidyup_clicked")

        button.callback = gone
        view.add_item(button)
        await interaction.edit_original_response(content="first, with a button", view=view)
        emit(event="tidyup", second=fetched.content)

    @app_commands.command(description="Think hard")
    async def think(self, interaction: discord.Interaction):
        await interaction.response.defer(thinking=True)
        followup = await interaction.followup.send("Thought of 42.", wait=True)
        await interaction.edit_original_response(content="Thought of 43.")
        original = await interaction.original_response()
        emit(event="think", followup=str(followup.id), original=str(original.id), content=original.content)


class Vote(discord.ui.View):
    def __init__(self, interaction: discord.Interaction, timeout: float):
        super().__init__(timeout=timeout)
        self.interaction = interaction
        self.votes = 0

    @discord.ui.button(label="Vote", style=discord.ButtonStyle.primary)
    async def vote(self, interaction: discord.Interaction, button: discord.ui.Button):
        self.votes += 1
        button.label = f"Vote ({self.votes})"
        await interaction.response.edit_message(view=self)

    async def on_timeout(self):
        self.vote.disabled = True
        await self.interaction.edit_original_response(content=f"Voting closed with {self.votes} votes.", view=self)
        emit(event="vote_closed", votes=self.votes)


@app_commands.context_menu(name="Shout")
async def shout(interaction: discord.Interaction, message: discord.Message):
    await interaction.response.send_message(message.content.upper(), ephemeral=True)


async def setup(bot: commands.Bot):
    await bot.add_cog(Slash(bot))
    bot.tree.add_command(Settings())
    bot.tree.add_command(shout)
