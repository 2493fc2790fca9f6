"""Moderation commands behind permission checks: roles, nicknames, kick/ban/unban,
purge, locking a channel, making one."""
from typing import Optional

import discord
from discord.ext import commands


class Moderation(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @commands.command(name="giverole")
    @commands.guild_only()
    @commands.has_permissions(manage_roles=True)
    async def give_role(self, ctx: commands.Context, member: discord.Member, *, role: discord.Role):
        """Give a member a role."""
        await member.add_roles(role, reason=f"asked by {ctx.author}")
        await ctx.reply(f"Gave {role.name} to {member.display_name}.")

    @commands.command()
    @commands.guild_only()
    @commands.has_permissions(manage_nicknames=True)
    async def nick(self, ctx: commands.Context, member: discord.Member, *, nickname: str):
        """Change a member's nickname."""
        await member.edit(nick=nickname)
        fresh = ctx.guild.get_member(member.id)
        await ctx.reply(f"{member.name} is now {fresh.display_name}.")

    @commands.command()
    @commands.guild_only()
    @commands.has_permissions(kick_members=True)
    async def kick(self, ctx: commands.Context, member: discord.Member, *, reason: Optional[str] = None):
        """Kick a member."""
        await ctx.guild.kick(member, reason=reason)
        await ctx.send(f"Kicked {member.name} ({reason or 'no reason'}).")

    @commands.command()
    @commands.guild_only()
    @commands.has_permissions(ban_members=True)
    async def ban(self, ctx: commands.Context, user: discord.User, *, reason: Optional[str] = None):
        """Ban a user."""
        await ctx.guild.ban(user, reason=reason, delete_message_seconds=0)
        bans = [entry.user.id async for entry in ctx.guild.bans(limit=10)]
        await ctx.send(f"Banned {user.name}; {len(bans)} banned.")

    @commands.command()
    @commands.guild_only()
    @commands.has_permissions(ban_members=True)
    async def unban(self, ctx: commands.Context, user_id: int):
        """Unban a user by id."""
        await ctx.guild.unban(discord.Object(id=user_id))
        await ctx.send(f"Unbanned {user_id}.")

    @commands.command()
    @commands.guild_only()
    @commands.has_permissions(manage_messages=True)
    async def purge(self, ctx: commands.Context, amount: int):
        """Delete the last messages of this channel."""
        deleted = await ctx.channel.purge(limit=amount + 1)
        await ctx.send(f"Deleted {len(deleted) - 1} messages.", delete_after=2)

    @commands.command()
    @commands.guild_only()
    @commands.has_permissions(manage_channels=True)
    async def lock(self, ctx: commands.Context, channel: discord.TextChannel):
        """Stop @everyone from talking in a channel."""
        await channel.set_permissions(ctx.guild.default_role, send_messages=False, reason="locked")
        overwrite = channel.overwrites_for(ctx.guild.default_role)
        await ctx.send(f"Locked {channel.mention} (send_messages={overwrite.send_messages}).")

    @commands.command()
    @commands.guild_only()
    @commands.has_permissions(manage_channels=True)
    async def makechannel(self, ctx: commands.Context, name: str, *, topic: str = "made by the bot"):
        """Create a text channel."""
        channel = await ctx.guild.create_text_channel(name, topic=topic)
        await ctx.reply(f"Made {channel.mention} with topic {channel.topic!r}.")


async def setup(bot: commands.Bot):
    await bot.add_cog(Moderation(bot))
