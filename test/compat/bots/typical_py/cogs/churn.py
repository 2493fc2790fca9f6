"""The owner's commands that change the server (so the listeners in events.py see it
happen), read the role hierarchy, and handle files."""
import io

import discord
from discord.ext import commands

from parley_target import emit


class Churn(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def cog_check(self, ctx: commands.Context) -> bool:
        return await self.bot.is_owner(ctx.author)

    @commands.command()
    async def hierarchy(self, ctx: commands.Context):
        """Where the bot stands."""
        guild = ctx.guild
        bob = guild.get_member_named("bob")
        emit(
            event="hierarchy",
            roles=[[r.name, r.position] for r in guild.roles],
            above_bob=guild.me.top_role > bob.top_role,
            manage_messages=[guild.me.guild_permissions.manage_messages, ctx.channel.permissions_for(guild.me).manage_messages],
            send_messages=[guild.me.guild_permissions.send_messages, ctx.channel.permissions_for(guild.me).send_messages],
            view_channel=[guild.me.guild_permissions.view_channel, ctx.channel.permissions_for(guild.me).view_channel],
        )
        await ctx.send(f"My top role is {guild.me.top_role.name}; bob's is {bob.top_role.name}.")

    @commands.command()
    async def churn(self, ctx: commands.Context):
        """Make and unmake a role and a channel; rename carol and make her a Helper."""
        guild = ctx.guild
        role = await guild.create_role(name="Temp")
        await role.edit(colour=discord.Colour.red(), name="Temp2")
        await role.delete()
        channel = await guild.create_text_channel("temp")
        await channel.edit(name="temp2", topic="t")
        await channel.delete()
        carol = guild.get_member_named("carol")
        await carol.edit(nick="Cee")
        await carol.add_roles(discord.utils.get(guild.roles, name="Helper"))
        await ctx.send("churned")

    @commands.command()
    async def files(self, ctx: commands.Context):
        """Read avatars and attachments; try to upload a file."""
        data = await ctx.author.display_avatar.read()
        await ctx.send(f"avatar bytes: {len(data)} png={data[:4] == bytes([0x89, 0x50, 0x4E, 0x47])}")
        try:
            await ctx.send("a file", file=discord.File(io.BytesIO(b"hello"), "hi.txt"))
        except discord.HTTPException as e:
            await ctx.send(f"upload: HTTP {e.status} {e.code}")
        for a in ctx.message.attachments:
            await ctx.send(f"yours: {a.filename} {a.size} {await a.read()!r}")


async def setup(bot: commands.Bot):
    await bot.add_cog(Churn(bot))
