"""Views: a confirmation only its author may answer, which disables itself on timeout; a
select; and the persistent role panel registered in setup_hook."""
import discord
from discord.ext import commands

from parley_target import emit


class Confirm(discord.ui.View):
    def __init__(self, author: discord.abc.User, timeout: float):
        super().__init__(timeout=timeout)
        self.author = author
        self.message: discord.Message | None = None

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.author.id:
            await interaction.response.send_message("This is not your button.", ephemeral=True)
            return False
        return True

    async def on_timeout(self):
        for item in self.children:
            item.disabled = True
        await self.message.edit(content="Timed out.", view=self)
        emit(event="timed_out", message=str(self.message.id))

    @discord.ui.button(label="Yes", style=discord.ButtonStyle.success)
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button):
        for item in self.children:
            item.disabled = True
        await interaction.response.edit_message(content=f"Confirmed by {interaction.user.name}.", view=self)
        self.stop()

    @discord.ui.button(label="No", style=discord.ButtonStyle.danger)
    async def no(self, interaction: discord.Interaction, button: discord.ui.Button):
        await interaction.response.send_message("Cancelled.", ephemeral=True)
        self.stop()


class Flavour(discord.ui.Select):
    def __init__(self):
        options = [discord.SelectOption(label=f, value=f.lower(), description=f"{f} ice cream") for f in ("Vanilla", "Chocolate", "Mint")]
        super().__init__(placeholder="Pick flavours", min_values=1, max_values=2, options=options)

    async def callback(self, interaction: discord.Interaction):
        await interaction.response.send_message(f"{interaction.user.name} likes {' and '.join(self.values)}.")


class RolePanel(discord.ui.View):
    def __init__(self):
        super().__init__(timeout=None)

    @discord.ui.button(label="Toggle Member", style=discord.ButtonStyle.primary, custom_id="typical:role:member")
    async def toggle(self, interaction: discord.Interaction, button: discord.ui.Button):
        role = discord.utils.get(interaction.guild.roles, name="Member")
        if role in interaction.user.roles:
            await interaction.user.remove_roles(role)
            await interaction.response.send_message("Removed Member.", ephemeral=True)
        else:
            await interaction.user.add_roles(role)
            await interaction.response.send_message("Added Member.", ephemeral=True)


class Feedback(discord.ui.Modal, title="Feedback"):
    text = discord.ui.TextInput(label="What do you think?", style=discord.TextStyle.paragraph, max_length=300)

    async def on_submit(self, interaction: discord.Interaction):
        await interaction.response.send_message(f"Thanks: {self.text.value}", ephemeral=True)


class Extras(discord.ui.View):
    def __init__(self):
        super().__init__(timeout=60)

    @discord.ui.select(cls=discord.ui.RoleSelect, placeholder="Pick a role", min_values=1, max_values=1)
    async def role(self, interaction: discord.Interaction, select: discord.ui.RoleSelect):
        await interaction.response.send_message(f"You picked {select.values[0].name}.", ephemeral=True)

    @discord.ui.button(label="Feedback", style=discord.ButtonStyle.secondary)
    async def feedback(self, interaction: discord.Interaction, button: discord.ui.Button):
        try:
            await interaction.response.send_modal(Feedback())
        except discord.HTTPException as e:
            emit(event="modal_refused", status=e.status, code=e.code)
            await interaction.followup.send(f"Modals are not available here ({e.status}).", ephemeral=True)


class Panels(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @commands.command()
    async def confirm(self, ctx: commands.Context, timeout: float = 60):
        """Ask for a confirmation."""
        view = Confirm(ctx.author, timeout)
        view.message = await ctx.send("Are you sure?", view=view)
        timed_out = await view.wait()
        emit(event="confirm_done", timed_out=timed_out)

    @commands.command()
    async def flavours(self, ctx: commands.Context):
        """Pick ice cream."""
        view = discord.ui.View(timeout=60)
        view.add_item(Flavour())
        await ctx.send("Which flavours?", view=view)

    @commands.command()
    async def more(self, ctx: commands.Context):
        """A role select and a feedback form."""
        message = await ctx.send("More options:", view=Extras())
        again = await ctx.channel.fetch_message(message.id)
        emit(event="more", components=[[type(c).__name__ for c in row.children] for row in again.components])

    @commands.command()
    @commands.is_owner()
    async def rolepanel(self, ctx: commands.Context):
        """Post the role panel."""
        await ctx.send("Click to toggle the Member role.", view=RolePanel())


async def setup(bot: commands.Bot):
    await bot.add_cog(Panels(bot))
