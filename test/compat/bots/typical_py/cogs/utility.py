"""Everyday commands: converters, a cooldown, the owner's command, embeds, DMs, history,
pins and reactions, and the two wait_for games."""
import asyncio
import datetime
import re

import discord
from discord.ext import commands


class Duration(commands.Converter):
    """'90s', '5m', '2h' as seconds."""

    async def convert(self, ctx: commands.Context, argument: str) -> int:
        match = re.fullmatch(r"(\d+)([smh])", argument)
        if not match:
            raise commands.BadArgument(f"{argument!r} is not a duration like 90s, 5m or 2h")
        return int(match[1]) * {"s": 1, "m": 60, "h": 3600}[match[2]]


class Utility(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @commands.command()
    @commands.cooldown(1, 30, commands.BucketType.user)
    async def ping(self, ctx: commands.Context):
        """Check that I am alive."""
        await ctx.reply("Pong!")

    @commands.command()
    async def add(self, ctx: commands.Context, left: int, right: int):
        """Add two numbers."""
        await ctx.send(f"{left} + {right} = {left + right}")

    @commands.command()
    @commands.guild_only()
    async def hug(self, ctx: commands.Context, members: commands.Greedy[discord.Member], *, why: str = "no reason"):
        """Hug any number of members."""
        names = ", ".join(m.display_name for m in members) or "nobody"
        await ctx.send(f"{ctx.author.display_name} hugs {names} for {why}.")

    @commands.command()
    async def remind(self, ctx: commands.Context, duration: Duration, *, what: str):
        """Remind you of something."""
        await ctx.reply(f"I will remind you of {what!r} in {duration} seconds.")

    @commands.command()
    @commands.is_owner()
    async def secret(self, ctx: commands.Context):
        """Only the owner may know."""
        await ctx.reply("The owner's secret is 42.")

    @commands.command()
    @commands.guild_only()
    async def whois(self, ctx: commands.Context, member: discord.Member = commands.Author):
        """Show a member as an embed."""
        helper = discord.utils.get(ctx.guild.roles, name="Helper")
        embed = discord.Embed(
            title=member.display_name,
            description=f"{member.mention} in {ctx.guild.name}",
            colour=discord.Colour.blurple(),
            url="https://example.com/members",
            timestamp=datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
        )
        embed.set_author(name=ctx.author.name, url="https://example.com/author", icon_url="https://example.com/a.png")
        embed.set_thumbnail(url="https://example.com/thumb.png")
        embed.set_image(url="https://example.com/image.png")
        embed.add_field(name="Roles", value=", ".join(r.name for r in member.roles[1:]) or "none", inline=False)
        embed.add_field(name="Helper", value=str(helper in member.roles), inline=True)
        embed.add_field(name="Bot", value=str(member.bot), inline=True)
        embed.set_footer(text=f"id {member.id}", icon_url="https://example.com/f.png")
        await ctx.send(embed=embed)

    @commands.command()
    async def rules(self, ctx: commands.Context):
        """The rules, from a dict."""
        embed = discord.Embed.from_dict(
            {
                "title": "Rules",
                "description": "Be nice.",
                "color": 0x00FF00,
                "fields": [{"name": "1", "value": "No spam"}, {"name": "2", "value": "No ads", "inline": True}],
                "footer": {"text": "Thanks"},
            }
        )
        await ctx.send(embed=embed)

    @commands.command()
    async def dm(self, ctx: commands.Context, member: discord.Member, *, text: str):
        """Send a member a DM."""
        sent = await member.send(f"{ctx.author.name} says: {text}")
        await ctx.reply(f"Sent to {member.name} in DM {sent.channel.id}.")

    @commands.command()
    async def before(self, ctx: commands.Context, count: int = 3):
        """What was said before this."""
        older = [m.content async for m in ctx.channel.history(limit=count, before=ctx.message)]
        await ctx.reply(" | ".join(older))

    @commands.command()
    async def pinit(self, ctx: commands.Context, message_id: int):
        """Pin a message and mark it."""
        message = await ctx.channel.fetch_message(message_id)
        await message.pin(reason="asked")
        await message.add_reaction("📌")
        pins = await ctx.channel.pins()
        await ctx.reply(f"Pinned {message.content!r}; {len(pins)} pinned.")

    @commands.command()
    async def guess(self, ctx: commands.Context):
        """Guess my number, 1 to 10."""
        await ctx.send("Guess a number between 1 and 10.")

        def check(m: discord.Message):
            return m.author == ctx.author and m.channel == ctx.channel and m.content.isdigit()

        try:
            answer = await self.bot.wait_for("message", check=check, timeout=8)
        except asyncio.TimeoutError:
            return await ctx.send("Too slow!")
        await answer.reply("Right!" if int(answer.content) == 7 else "Wrong, it was 7.")

    @commands.command()
    async def poll(self, ctx: commands.Context, *, question: str):
        """A one-vote poll: the first 👍 from someone else wins."""
        message = await ctx.send(f"Poll: {question}")
        await message.add_reaction("👍")

        def check(reaction: discord.Reaction, user: discord.User):
            return reaction.message.id == message.id and str(reaction.emoji) == "👍" and user != self.bot.user

        try:
            reaction, user = await self.bot.wait_for("reaction_add", check=check, timeout=8)
        except asyncio.TimeoutError:
            return await message.edit(content=f"Poll: {question} (nobody voted)")
        await message.edit(content=f"Poll: {question} (first vote: {user.name}, {reaction.count} 👍)")


async def setup(bot: commands.Bot):
    await bot.add_cog(Utility(bot))
